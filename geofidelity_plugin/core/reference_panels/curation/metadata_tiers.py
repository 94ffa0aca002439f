"""Curation tiers 1–3 (method §2): buffer, camera and daytime, decided from an image's metadata
alone. The fetch runs them on the search results before any thumbnail is downloaded, and
curation runs them first, so an image that a fact of place, camera or time rules out is never
downloaded nor scored by a pixel tier.

Distances are metres in a local azimuthal-equidistant frame around the segment (method §1:
metres, never degrees): tier 1 is the distance from the segment line to the image's computed
(SfM) position, or to its GPS position when Mapillary has no computed one; ``along_m`` is
where the image projects onto the segment, measured from the segment's first vertex.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Optional

from shapely.geometry import Point
from shapely.ops import transform

from geofidelity_plugin.core.selection.geodesy import LocalFrame
from geofidelity_plugin.core.reference_panels.curation.solar import solar_elevation


class SegmentGeometry:
    """One segment line in its local metric frame: distance to it and position along it."""

    def __init__(self, line_lonlat):
        centre = line_lonlat.centroid
        self.frame = LocalFrame(centre.x, centre.y)
        self.metric = transform(lambda x, y, z=None: self.frame.to_metric(x, y), line_lonlat)
        self.length_m = float(self.metric.length)

    def locate(self, lon: float, lat: float) -> tuple[float, float]:
        """``(distance_m, along_m)`` of a lon/lat point: metres from the line, and metres
        along it to the point's projection (0 … ``length_m``)."""
        point = Point(*self.frame.to_metric(lon, lat))
        return float(self.metric.distance(point)), float(self.metric.project(point))


def valid_position(lon, lat) -> bool:
    return (isinstance(lon, numbers.Real) and isinstance(lat, numbers.Real)
            and math.isfinite(lon) and -180 <= lon <= 180 and math.isfinite(lat) and -90 <= lat <= 90)


@dataclass
class MetadataVerdict:
    """Tiers 1–3 of one image: ``verdicts`` is ``[(tier, reason or None), …]`` for every tier
    reached, in order; ``tier``/``reason`` name the first failure (``None`` when all passed)."""

    verdicts: list = field(default_factory=list)
    measures: dict = field(default_factory=dict)
    along_m: Optional[float] = None

    @property
    def tier(self) -> Optional[int]:
        return next((t for t, reason in self.verdicts if reason is not None), None)

    @property
    def reason(self) -> Optional[str]:
        return next((reason for _, reason in self.verdicts if reason is not None), None)


def metadata_verdict(geometry: Optional[SegmentGeometry], lon, lat, is_pano, camera_type,
                     captured_at_ms, options) -> MetadataVerdict:
    """Tiers 1–3 (method §2 filters 1–3) with ``options.buffer_m``,
    ``options.perspective_camera_types`` and ``options.solar_min_deg``; stops at the first
    failure."""
    out = MetadataVerdict()
    if geometry is None or not valid_position(lon, lat):
        out.verdicts.append((1, "no segment line for this segment id" if geometry is None
                             else f"image has no valid position ({lon}, {lat})"))
        return out
    distance, out.along_m = geometry.locate(lon, lat)
    out.measures["buffer_distance_m"] = distance
    out.verdicts.append((1, None if distance <= options.buffer_m else
                         f"{distance:.1f} m from the segment, outside the {options.buffer_m:g} m buffer"))
    if out.tier is not None:
        return out
    is_pano = bool(is_pano)
    out.measures.update(is_pano=is_pano, camera_type=camera_type)
    perspective = str(camera_type or "").lower() in {t.lower() for t in options.perspective_camera_types}
    out.verdicts.append((2, "panoramic image (is_pano)" if is_pano else None if perspective
                         else f"camera type {camera_type!r} is not perspective"))
    if out.tier is not None:
        return out
    if captured_at_ms is None:
        out.verdicts.append((3, "no capture time"))
        return out
    elevation = solar_elevation(lon, lat, captured_at_ms)
    out.measures["solar_elevation_deg"] = elevation
    out.verdicts.append((3, None if elevation >= options.solar_min_deg else
                         f"solar elevation {elevation:.1f}° < {options.solar_min_deg:g}°"))
    return out
