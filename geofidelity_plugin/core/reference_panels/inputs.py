"""Checks of the inputs of stage 2, made before the store is opened or any request is sent: the
segments GeoPackage and the numbers a user types (docs/method.md, "Errors and exit codes")."""
from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..option_checks import check_number

SEGMENTS_LAYER = "segments"
REQUIRED_FIELDS = ("segment_id", "city", "centroid_lon", "centroid_lat")
EXPECTED = "a segments GeoPackage written by select-segments ('Select named road segments' in QGIS)"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_GPKG_IDS = (b"GPKG", b"GP10", b"GP11")  # application_id of a GeoPackage (SQLite header byte 68)
_LINES = ("LineString", "MultiLineString", "3D LineString", "3D MultiLineString")


def check_search_numbers(buffer_m, tile_step_m, search_pad_m, solar_min_deg) -> None:
    """The numbers of a fetch's search (``fetch-mapillary``, 'Fetch Mapillary images' in QGIS), each
    named by its option, before the store is opened or a request is sent."""
    check_number("road buffer (--buffer, m)", buffer_m, "positive", "--buffer 30")
    check_number("box spacing (--tile-step, m)", tile_step_m, minimum=10, example="--tile-step 200")
    check_number("search padding past the buffer (--search-pad, m)", search_pad_m, "non-negative",
                 "--search-pad 50")
    check_number("minimum solar elevation (--solar-min, degrees)", solar_min_deg, minimum=-90, maximum=90,
                 example="--solar-min 20")


def check_client_numbers(workers, requests_per_second, timeout_s, refresh_batch) -> None:
    """The numbers of the Mapillary client of a fetch."""
    check_number("parallel downloads (--workers)", workers, minimum=1, maximum=64, integer=True,
                 example="--workers 16")
    check_number("Graph API requests per second (--requests-per-second)", requests_per_second, "positive",
                 "--requests-per-second 10")
    check_number("seconds to wait for an answer (--timeout)", timeout_s, "positive", "--timeout 30")
    check_number("image ids per URL renewal request (--refresh-batch)", refresh_batch, minimum=1, maximum=100,
                 integer=True, example="--refresh-batch 50")


def check_coverage_numbers(radius_m, gap_radius_m=None) -> None:
    """The radii of the coverage audit (``coverage``, 'Coverage audit' in QGIS)."""
    check_number("coverage radius (--radius: covered within, m)", radius_m, "positive", "--radius 30")
    if gap_radius_m is not None:
        check_number("gap radius (--gap-radius: a gap has no image within, m)", gap_radius_m, "positive",
                     "--gap-radius 20")


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
