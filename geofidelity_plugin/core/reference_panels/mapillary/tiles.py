"""Search boxes along a road segment for Mapillary bbox queries (method §2).

A Mapillary bbox search has no paging — it returns at most ``limit`` images as a sample — and
a box must stay under 0.01 deg². So the buffered segment is covered by small boxes, one per
piece of about ``step_m`` metres of line; a box that still comes back full is split into
quadrants by the caller (:func:`split_box`). Metres are measured in a local azimuthal frame
around the line (method §1: metres, never degrees), and every box is the lon/lat bounding
box of the *buffered* piece, so the boxes together cover the whole buffer.
"""
from __future__ import annotations

import math

from shapely.geometry import LineString, MultiLineString
from shapely.ops import substring

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.selection.geodesy import LocalFrame

Box = tuple[float, float, float, float]  # (min_lon, min_lat, max_lon, max_lat)

#: Mapillary refuses bbox searches of this area or more (deg², method §2).
MAX_BOX_DEG2 = 0.01
#: Outward pad of every box (~0.1 m): the buffer's arcs bulge slightly past its vertices.
_PAD_DEG = 1e-6
_DIGITS = 7
_DENSIFY_M = 25.0


def box_area_deg2(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def split_box(box: Box) -> list[Box]:
    """The four quadrants of ``box`` (south-west, south-east, north-west, north-east)."""
    min_lon, min_lat, max_lon, max_lat = box
    mid_lon, mid_lat = (min_lon + max_lon) / 2.0, (min_lat + max_lat) / 2.0
    return [(min_lon, min_lat, mid_lon, mid_lat), (mid_lon, min_lat, max_lon, mid_lat),
            (min_lon, mid_lat, mid_lon, max_lat), (mid_lon, mid_lat, max_lon, max_lat)]


def _line_parts(line) -> list[LineString]:
    if isinstance(line, MultiLineString):
        parts = list(line.geoms)
    elif isinstance(line, LineString):
        parts = [line]
    else:
        raise InputError(f"a road segment must be a LineString in lon/lat, got {line.geom_type}")
    parts = [part for part in parts if not part.is_empty]
    if not parts:
        raise InputError("the road segment is empty — give a line with at least two points")
    for part in parts:
        for lon, lat, *_ in part.coords:
            if not (-180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0):
                raise InputError(f"point ({lon}, {lat}) is not a WGS84 lon/lat pair — give the "
                                 "road segment in EPSG:4326")
    return parts


def _densify(piece, spacing_m: float = _DENSIFY_M):
    """``piece`` with a vertex at least every ``spacing_m`` metres, so that the straight sides
    of its buffer stay faithful once bent into lon/lat."""
    if piece.geom_type != "LineString" or piece.length <= spacing_m:
        return piece
    points = []
    for (x0, y0), (x1, y1) in zip(piece.coords, piece.coords[1:]):
        steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / spacing_m))
        points += [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps)]
    return LineString(points + [piece.coords[-1]])


def _small_enough(box: Box) -> list[Box]:
    """``box`` itself, or its quadrants (recursively) while it is too large to query."""
    if box_area_deg2(box) < MAX_BOX_DEG2:
        return [box]
    return [small for quarter in split_box(box) for small in _small_enough(quarter)]


def tiles_along(line_lonlat, buffer_m: float = 30.0, step_m: float = 200.0) -> list[Box]:
    """Boxes that together cover ``line_lonlat`` buffered by ``buffer_m`` metres.

    The line is cut into equal pieces of at most ``step_m`` metres; each piece's buffer gives
    one box. Boxes identical to, or inside, another box are dropped. Every box is under
    :data:`MAX_BOX_DEG2` (asserted).
    """
    if not buffer_m >= 0:
        raise InputError(f"road buffer must be 0 m or more, got {buffer_m}")
    if not step_m > 0:
        raise InputError(f"tile step must be positive, got {step_m} m")
    parts = _line_parts(line_lonlat)
    centre = line_lonlat.centroid
    frame = LocalFrame(centre.x, centre.y)
    boxes: list[Box] = []
    for part in parts:
        metric = frame.line_to_metric([c[:2] for c in part.coords])
        length = metric.length
        pieces = max(1, math.ceil(length / step_m - 1e-9))
        for i in range(pieces):
            piece = _densify(substring(metric, length * i / pieces, length * (i + 1) / pieces))
            zone = piece.buffer(buffer_m) if buffer_m > 0 else piece
            min_lon, min_lat, max_lon, max_lat = frame.geometry_to_lonlat(zone).bounds
            padded = (round(min_lon - _PAD_DEG, _DIGITS), round(min_lat - _PAD_DEG, _DIGITS),
                      round(max_lon + _PAD_DEG, _DIGITS), round(max_lat + _PAD_DEG, _DIGITS))
            boxes.extend(_small_enough(padded))
    kept = _without_nested(boxes)
    for box in kept:
        assert box_area_deg2(box) < MAX_BOX_DEG2, f"search box {box} is 0.01 deg² or larger"
    return kept


def _inside(inner: Box, outer: Box) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1]
            and inner[2] <= outer[2] and inner[3] <= outer[3])


def _without_nested(boxes: list[Box]) -> list[Box]:
    """Drop repeats and boxes lying inside another box; the first of equal boxes stays."""
    unique = list(dict.fromkeys(boxes))
    kept = []
    for i, box in enumerate(unique):
        if not any(j != i and _inside(box, other) for j, other in enumerate(unique)):
            kept.append(box)
    return kept
