"""Checks of the inputs of stage 2, made before the store is opened or any request is sent: the
segments GeoPackage and the numbers a user types (docs/method.md, "Errors and exit codes")."""
from __future__ import annotations

import math
from pathlib import Path

from ..errors import InputError

SEGMENTS_LAYER = "segments"
REQUIRED_FIELDS = ("segment_id", "city", "centroid_lon", "centroid_lat")
EXPECTED = "a segments GeoPackage written by select-segments ('Select named road segments' in QGIS)"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_GPKG_IDS = (b"GPKG", b"GP10", b"GP11")  # application_id of a GeoPackage (SQLite header byte 68)
_LINES = ("LineString", "MultiLineString", "3D LineString", "3D MultiLineString")


def check_number(value, label: str, minimum: float = 0.0, inclusive: bool = False,
                 maximum: float | None = None, integer: bool = False, example: str | None = None):
    """``value`` as a finite number above ``minimum`` (or equal, ``inclusive``), at most
    ``maximum``, whole when ``integer``; else an :class:`InputError` naming ``label``."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    ok = (math.isfinite(number) and (number >= minimum if inclusive else number > minimum)
          and (maximum is None or number <= maximum) and (not integer or number == int(number)))
    if not ok:
        bound = f"{'at least' if inclusive else 'greater than'} {minimum:g}"
        if maximum is not None:
            bound += f" and at most {maximum:g}"
        raise InputError(f"{label} must be a {'whole ' if integer else ''}number {bound}, not {value}"
                         + (f" — e.g. {example}" if example else ""))
    return int(number) if integer else number


def _fail(path: Path, problem: str) -> InputError:
    return InputError(f"segments file {path} {problem} — give {EXPECTED}")


def check_segments_gpkg(path) -> Path:
    """``path`` is a GeoPackage with a ``segments`` line layer holding the required fields."""
    if path is None or not str(path).strip():
        raise InputError(f"no segments file was given — give {EXPECTED}")
    target = Path(path).expanduser()
    if not target.exists():
        raise _fail(target, "does not exist")
    if target.is_dir():
        raise _fail(target, "is a folder")
    try:
        with open(target, "rb") as fh:
            head = fh.read(72)
    except OSError as exc:
        raise _fail(target, f"cannot be read ({exc.strerror or exc})") from None
    if not head:
        raise _fail(target, "is empty")
    if not head.startswith(_SQLITE_MAGIC):
        raise _fail(target, "is not a GeoPackage (not an SQLite database)")
    if len(head) >= 72 and head[68:72] not in _GPKG_IDS:
        raise _fail(target, "is an SQLite database but not a GeoPackage (a benchmark store?)")
    import fiona
    from fiona.errors import FionaError

    try:
        layers = fiona.listlayers(str(target))
        if SEGMENTS_LAYER not in layers:
            raise _fail(target, f"has no '{SEGMENTS_LAYER}' layer (its layers: "
                                f"{', '.join(layers) or 'none'})")
        with fiona.open(str(target), layer=SEGMENTS_LAYER) as src:
            fields, geometry = set(src.schema["properties"]), src.schema.get("geometry")
    except FionaError as exc:
        raise _fail(target, f"is not a readable GeoPackage ({str(exc)[:200]})") from None
    missing = [f for f in REQUIRED_FIELDS if f not in fields]
    if missing:
        raise _fail(target, f"lacks the field(s) {', '.join(missing)} in its '{SEGMENTS_LAYER}' layer")
    if geometry not in _LINES + ("Unknown", "Any"):
        raise _fail(target, f"has {geometry or 'no'} geometries in its '{SEGMENTS_LAYER}' layer, not lines")
    return target


def read_segments_checked(path) -> list[dict]:
    """The rows of a segments GeoPackage (attributes and a shapely ``geometry``), every row
    checked for an id, a city, a centroid and a line."""
    import fiona
    from fiona.errors import FionaError
    from shapely.geometry import shape

    target = check_segments_gpkg(path)
    rows, seen = [], set()
    try:
        with fiona.open(str(target), layer=SEGMENTS_LAYER) as src:
            for n, feature in enumerate(src, start=1):
                row = dict(feature["properties"])
                geometry = feature["geometry"]
                row["geometry"] = shape(geometry) if geometry is not None else None
                missing = [f for f in REQUIRED_FIELDS if row.get(f) in (None, "")]
                if row["geometry"] is None or row["geometry"].is_empty:
                    missing.append("geometry")
                if missing:
                    raise _fail(target, f"has a feature ({n}, segment {row.get('segment_id') or '?'}) "
                                        f"without {', '.join(missing)}")
                if row["segment_id"] in seen:
                    raise _fail(target, f"holds segment {row['segment_id']} twice")
                seen.add(row["segment_id"])
                rows.append(row)
    except (FionaError, ValueError, TypeError, AttributeError) as exc:
        raise _fail(target, f"could not be read ({str(exc)[:200]})") from None
    if not rows:
        raise _fail(target, "holds no segments")
    return rows


#: How a store gets its segments.
LOAD_SEGMENTS = ("give the segments GeoPackage of select-segments ('Select named road segments' in "
                 "QGIS) with --segments ('Segments GeoPackage to load first' in QGIS)")


def check_store_has_a_source(store_path, segments) -> None:
    """A store that does not exist yet is created only when segments are given to fill it:
    otherwise the run would leave an empty store behind and fail anyway."""
    if segments:
        return
    if store_path is None or not str(store_path).strip():
        raise InputError("no benchmark store was given — give the store's .sqlite path (--store)")
    path = Path(store_path).expanduser()
    if not path.exists():
        raise InputError(f"the benchmark store {path} does not exist yet and no segments were given "
                         f"to fill it — {LOAD_SEGMENTS}, or check the store path")
