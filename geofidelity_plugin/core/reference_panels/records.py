"""One Mapillary image as the reference panels need it, parsed from a Graph API v4 item."""
from __future__ import annotations

import re
from dataclasses import dataclass

_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # ids become file names: nothing else passes


@dataclass(frozen=True)
class ImageRecord:
    """One Mapillary image as method §2 needs it. ``lon``/``lat`` are the computed (SfM)
    position when Mapillary has one, else the original GPS position."""

    image_id: str
    captured_at_ms: int
    compass_angle: float | None
    lon: float
    lat: float
    original_lon: float | None
    original_lat: float | None
    is_pano: bool
    camera_type: str | None
    sequence: str | None
    width: int | None
    height: int | None
    thumb_url: str | None
    segment_id: str | None = None

    @classmethod
    def from_api(cls, item: dict, segment_id: str | None = None) -> "ImageRecord | None":
        """Parse one Graph API item; ``None`` when it lacks a usable id, position or time."""
        image_id = str(item.get("id") or "")
        computed, original = _point(item.get("computed_geometry")), _point(item.get("geometry"))
        position = computed or original
        captured = item.get("captured_at")
        if not _ID_PATTERN.fullmatch(image_id) or position is None or captured is None:
            return None
        try:
            captured_ms = int(float(captured))
        except (TypeError, ValueError):
            return None
        angle = item.get("compass_angle")
        return cls(image_id=image_id, captured_at_ms=captured_ms,
                   compass_angle=None if angle is None else float(angle),
                   lon=position[0], lat=position[1],
                   original_lon=original[0] if original else None,
                   original_lat=original[1] if original else None,
                   is_pano=bool(item.get("is_pano")), camera_type=item.get("camera_type"),
                   sequence=item.get("sequence"), width=_int_or_none(item.get("width")),
                   height=_int_or_none(item.get("height")),
                   thumb_url=item.get("thumb_1024_url"), segment_id=segment_id)


def _point(geometry) -> tuple[float, float] | None:
    """``(lon, lat)`` of a GeoJSON Point, or ``None``."""
    if not isinstance(geometry, dict) or geometry.get("type") != "Point":
        return None
    coords = geometry.get("coordinates") or ()
    try:
        return float(coords[0]), float(coords[1])
    except (IndexError, TypeError, ValueError):
        return None


def _int_or_none(value) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None
