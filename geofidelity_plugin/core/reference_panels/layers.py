"""GeoPackage layers of stage 2: the image points with every curation field and status, the
per-segment coverage lines, and the coverage gaps (method §2).

Each GeoPackage is built in memory and then written atomically as plain bytes: a disk that fills
up fails that one write, which names the output, and leaves no half-written SQLite file behind."""
from __future__ import annotations

from pathlib import Path

from shapely import wkt
from shapely.geometry import Point, mapping

from .. import atomic
from ..gpkg import field_type, field_value
from .coverage import SegmentCoverage

IMAGES_LAYER, COVERAGE_LAYER, GAPS_LAYER = "reference_images", "coverage", "coverage_gaps"
_SKIP = {"record", "measures", "abs_path", "record_json", "measures_json"}


def write_images_gpkg(path: str | Path, candidates: list[dict]) -> Path:
    """One point per (segment, image): status (kept / rejected / capped / fetched), the first
    failing tier and its reason, every measured value, capture time, compass angle, local path."""
    from fiona.crs import CRS
    from fiona.io import MemoryFile

    rows = []
    for c in candidates:
        if c.get("lon") is None or c.get("lat") is None:
            continue
        row = {k: v for k, v in c.items() if k not in _SKIP}
        row["local_path"] = c.get("abs_path")
        for key, value in (c.get("measures") or {}).items():
            if key not in row:
                row[key] = value
        rows.append(row)
    keys = list(dict.fromkeys(k for r in rows for k in r if k not in ("lon", "lat")))
    schema = {"geometry": "Point", "properties": {k: field_type([r.get(k) for r in rows]) for k in keys}}
    with MemoryFile(ext=".gpkg") as memory:
        with memory.open(driver="GPKG", layer=IMAGES_LAYER, crs=CRS.from_epsg(4326), schema=schema) as dst:
            for r in rows:
                dst.write({"geometry": mapping(Point(r["lon"], r["lat"])),
                           "properties": {k: field_value(r.get(k)) for k in keys}})
        atomic.write_bytes(path, memory.read())
    return Path(path)


def write_coverage_gpkg(path: str | Path, coverage: list[SegmentCoverage], segments: list[dict]) -> Path:
    """``coverage`` (segment lines + counts) and ``coverage_gaps`` (the uncovered stretches)."""
    from fiona.crs import CRS
    from fiona.io import MemoryFile

    lines = {s["segment_id"]: s for s in segments}
    attrs = [c.attributes() for c in coverage]
    props = {"street_name": "str", "city": "str", **{k: field_type([a[k] for a in attrs]) if attrs else "str"
                                                     for k in (attrs[0] if attrs else {})}}
    with MemoryFile(ext=".gpkg") as memory:
        with memory.open(driver="GPKG", layer=COVERAGE_LAYER, crs=CRS.from_epsg(4326),
                         schema={"geometry": "LineString", "properties": props}) as dst:
            for c, a in zip(coverage, attrs):
                seg = lines[c.segment_id]
                dst.write({"geometry": mapping(wkt.loads(seg["geometry_wkt"])),
                           "properties": {"street_name": seg.get("street_name"), "city": seg.get("city"), **a}})
        with memory.open(mode="w", driver="GPKG", layer=GAPS_LAYER, crs=CRS.from_epsg(4326),
                         schema={"geometry": "LineString",
                                 "properties": {"segment_id": "str", "gap_m": "float", "street_name": "str"}}) as dst:
            for c in coverage:
                for gap in c.gaps:
                    from .coverage import LocalFrame  # metres of the gap in the segment's frame
                    frame = LocalFrame(gap.centroid.x, gap.centroid.y)
                    dst.write({"geometry": mapping(gap), "properties": {
                        "segment_id": c.segment_id, "street_name": lines[c.segment_id].get("street_name"),
                        "gap_m": round(frame.line_to_metric(list(gap.coords)).length, 1)}})
        atomic.write_bytes(path, memory.read())
    return Path(path)
