"""One Mapillary image as the reference panels need it, parsed from a Graph API v4 item.

An item whose fields have the wrong type or an impossible value (a compass angle of "north", a
capture time of 1e400, a thumbnail URL that is a number, a sequence that is an object) is
skipped, never stored: :meth:`ImageRecord.parse` names the field, and :class:`SkippedItems`
counts the skipped items per field so that a run ends with one warning per kind of problem.
"""
from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass

_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # ids become file names: nothing else passes
#: Capture times outside 1970–2100 (epoch milliseconds) are not real capture times.
_CAPTURED_RANGE_MS = (0, 4_102_444_800_000)

#: field → what a usable value is (the warning's words).
PROBLEMS = {
    "id": "has no usable id (letters, digits, '_' or '-')",
    "position": "has no usable position (computed_geometry / geometry: a GeoJSON point with "
                "longitude -180…180 and latitude -90…90)",
    "captured_at": "has no usable captured_at (epoch milliseconds between 1970 and 2100)",
    "compass_angle": "has a compass_angle that is not a finite number",
    "is_pano": "has an is_pano that is not true or false",
    "camera_type": "has a camera_type that is not text",
    "sequence": "has a sequence that is not an id (text)",
    "width": "has a width that is not a positive whole number",
    "height": "has a height that is not a positive whole number",
    "thumb_1024_url": "has a thumb_1024_url that is not an http(s) URL",
}


class _Bad(Exception):
    def __init__(self, field: str):
        super().__init__(field)
        self.field = field


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
    #: the photographer, ``{"id": …, "username": …}`` (credited with the image; None when absent)
    creator: dict | None = None

    @classmethod
    def from_api(cls, item: dict, segment_id: str | None = None) -> "ImageRecord | None":
        """Parse one Graph API item; ``None`` when a field is unusable (see :meth:`parse`)."""
        return cls.parse(item, segment_id)[0]

    @classmethod
    def parse(cls, item, segment_id: str | None = None) -> tuple["ImageRecord | None", str | None]:
        """``(record, None)``, or ``(None, field)`` naming the first unusable field (a key of
        :data:`PROBLEMS`). A field that is absent or ``null`` is fine except id, position and
        capture time."""
        if not isinstance(item, dict):
            return None, "id"
        try:
            image_id = item.get("id")
            if isinstance(image_id, bool) or not isinstance(image_id, (str, int)) \
                    or not _ID_PATTERN.fullmatch(str(image_id)):
                raise _Bad("id")
            computed, original = _point(item, "computed_geometry"), _point(item, "geometry")
            position = computed or original
            if position is None:
                raise _Bad("position")
            angle = _number(item, "compass_angle")
            width, height = _size(item, "width"), _size(item, "height")
            record = cls(image_id=str(image_id), captured_at_ms=_captured_ms(item),
                         compass_angle=None if angle is None else angle % 360.0,
                         lon=position[0], lat=position[1],
                         original_lon=original[0] if original else None,
                         original_lat=original[1] if original else None,
                         is_pano=_flag(item, "is_pano"), camera_type=_text(item, "camera_type"),
                         sequence=_sequence(item), width=width, height=height,
                         thumb_url=_url(item), segment_id=segment_id, creator=_creator(item))
        except _Bad as bad:
            return None, bad.field
        return record, None


def _finite(value) -> float | None:
    """``value`` as a finite float when it is a JSON number (not a bool), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int beyond the float range
        return None
    return number if math.isfinite(number) else None


def _point(item: dict, key: str) -> tuple[float, float] | None:
    """``(lon, lat)`` of a GeoJSON Point; ``None`` when absent; a point that is there but
    unusable (NaN, out of range, not numbers) makes the item unusable."""
    geometry = item.get(key)
    if not isinstance(geometry, dict) or geometry.get("type") != "Point":
        return None  # absent, or another geometry type: no position from this field
    coords = geometry.get("coordinates")
    if not isinstance(coords, (list, tuple)) or len(coords) < 2:
        return None
    lon, lat = _finite(coords[0]), _finite(coords[1])
    if lon is None or lat is None or not (-180 <= lon <= 180 and -90 <= lat <= 90):
        raise _Bad("position")
    return lon, lat


def _captured_ms(item: dict) -> int:
    value = _finite(item.get("captured_at"))
    if value is None or not _CAPTURED_RANGE_MS[0] <= value < _CAPTURED_RANGE_MS[1]:
        raise _Bad("captured_at")
    return int(value)


def _number(item: dict, key: str) -> float | None:
    value = item.get(key)
    if value is None:
        return None
    number = _finite(value)
    if number is None:
        raise _Bad(key)
    return number


def _size(item: dict, key: str) -> int | None:
    number = _number(item, key)
    if number is None:
        return None
    if number <= 0 or number != int(number):
        raise _Bad(key)
    return int(number)


def _flag(item: dict, key: str) -> bool:
    value = item.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _Bad(key)
    return value


def _text(item: dict, key: str) -> str | None:
    value = item.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Bad(key)
    return value


def _sequence(item: dict) -> str | None:
    value = item.get("sequence")
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _Bad("sequence")
    return str(value)


def _creator(item: dict) -> dict | None:
    """``{"id", "username"}`` of the API's ``creator`` object, text only; anything else is no
    creator (the image stays usable: the credit then names Mapillary contributors only)."""
    value = item.get("creator")
    if not isinstance(value, dict):
        return None
    out = {k: str(value[k]) for k in ("id", "username")
           if isinstance(value.get(k), (str, int)) and not isinstance(value.get(k), bool) and str(value[k]).strip()}
    return out or None


def _url(item: dict) -> str | None:
    value = item.get("thumb_1024_url")
    if value is None or value == "":
        return None  # renewed through the API before the download
    if not isinstance(value, str) or not value.lower().startswith(("http://", "https://")):
        raise _Bad("thumb_1024_url")
    return value


class SkippedItems:
    """Thread-safe count of skipped API items per unusable field, with one example each. An
    image listed by two overlapping search boxes counts once."""

    def __init__(self):
        self._lock = threading.Lock()
        self._counts: Counter = Counter()
        self._examples: dict[str, str] = {}
        self._seen: set = set()

    def add(self, field: str, item) -> None:
        image_id = item.get("id") if isinstance(item, dict) else None
        key = (field, str(image_id) if isinstance(image_id, (str, int)) and image_id != "" else id(item))
        with self._lock:
            if key in self._seen:
                return
            self._seen.add(key)
            self._counts[field] += 1
            if field not in self._examples:
                self._examples[field] = _example(field, item)

    def total(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def drain(self) -> list[str]:
        """One warning per field (most frequent first), then forget them."""
        with self._lock:
            counts, examples = self._counts, self._examples
            self._counts, self._examples, self._seen = Counter(), {}, set()
        return [f"skipped {n} Mapillary image(s) whose API item {PROBLEMS.get(field, field)} "
                f"(e.g. {examples[field]}); they are not stored" for field, n in counts.most_common()]


def _example(field: str, item) -> str:
    if not isinstance(item, dict):
        return f"an item that is {type(item).__name__}, not an object"
    image_id = item.get("id")
    name = f"image {str(image_id)[:64]}" if isinstance(image_id, (str, int)) and image_id != "" else "an item"
    key = field
    if field == "position":
        key = "computed_geometry" if item.get("computed_geometry") is not None else "geometry"
    value = repr(item.get(key))
    return f"{name}: {key} = {value[:60]}{'…' if len(value) > 60 else ''}"
