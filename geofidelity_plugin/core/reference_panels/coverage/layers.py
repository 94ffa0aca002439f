"""The coverage audit's GeoPackage and city CSV (method §2, "coverage audit").

Layers (names shared with the project writer and the atlas; do not rename):

- ``coverage``: one line per segment with every figure of :meth:`.SegmentCoverage.attributes`;
- ``coverage_gaps``: the stretches with no image within the gap radius, ``gap_length_m``
  (``gap_m``: the same value under its earlier name);
- ``coverage_images``: one point per (segment, image) with its curation status (kept, rejected,
  capped; fetched before curation; ``reference`` for imported reference images), reason, tier,
  sequence, capture day and creator;
- ``coverage_buffers``: each segment buffered by the coverage radius (``buffer_m``);
- ``coverage_cities`` (no geometry): the city summary, also written as ``<name>_cities.csv``;
- ``coverage_dates`` (no geometry): the capture-date histogram, one row per segment and bin.

The GeoPackage is built in memory and written atomically, like the other stage-2 layers.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from shapely import wkt
from shapely.geometry import Point, mapping

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.selection.geodesy import LocalFrame
from geofidelity_plugin.core.reference_panels.coverage.audit import CoverageAudit

COVERAGE_LAYER, GAPS_LAYER, IMAGES_LAYER = "coverage", "coverage_gaps", "coverage_images"
BUFFERS_LAYER, CITIES_LAYER, DATES_LAYER = "coverage_buffers", "coverage_cities", "coverage_dates"
CITY_COLUMNS = {"city": "str", "segments": "int", "km": "float", "images": "int", "images_per_km": "float",
                "median_share_uncovered_20m": "float", "segments_gap_over_100m": "int", "date_first": "str",
                "date_last": "str", "date_span_days": "int"}
IMAGE_COLUMNS = {"segment_id": "str", "image_id": "str", "status": "str", "reason": "str", "tier": "int",
                 "sequence": "str", "captured_at": "str", "creator": "str"}
_STR = {"segment_id", "date_first", "date_last", "date_unit", "date_histogram"}


def cities_csv_path(gpkg: str | Path) -> Path:
    """``coverage.gpkg`` → ``coverage_cities.csv`` beside it."""
    gpkg = Path(gpkg)
    return gpkg.with_name(f"{gpkg.stem}_cities.csv")


def _coverage_schema(attrs: list[dict]) -> dict:
    props = {"street_name": "str", "city": "str"}
    for key in (attrs[0] if attrs else {"segment_id": ""}):
        props[key] = "str" if key in _STR else (
            "float" if any(isinstance(a[key], float) for a in attrs) else "int")
    return props


def _buffer(line_lonlat, buffer_m: float):
    c = line_lonlat.centroid
    frame = LocalFrame(c.x, c.y)
    return frame.geometry_to_lonlat(frame.line_to_metric(list(line_lonlat.coords)).buffer(buffer_m))


def cities_csv_text(cities: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CITY_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for row in cities:
        writer.writerow({k: "" if row.get(k) is None else row.get(k) for k in CITY_COLUMNS})
    return out.getvalue()


def write_coverage_outputs(path: str | Path, audit: CoverageAudit) -> tuple[Path, Path]:
    """Write the GeoPackage and the city CSV beside it; returns both paths."""
    from fiona.crs import CRS
    from fiona.io import MemoryFile

    path = Path(path)
    segs = {s["segment_id"]: s for s in audit.segments}
    attrs = [c.attributes() for c in audit.coverage]
    wgs84 = CRS.from_epsg(4326)
    with MemoryFile(ext=".gpkg") as memory:
        with memory.open(driver="GPKG", layer=COVERAGE_LAYER, crs=wgs84,
                         schema={"geometry": "LineString", "properties": _coverage_schema(attrs)}) as dst:
            for c, a in zip(audit.coverage, attrs):
                seg = segs[c.segment_id]
                dst.write({"geometry": mapping(wkt.loads(seg["geometry_wkt"])),
                           "properties": {"street_name": seg.get("street_name"), "city": seg.get("city"), **a}})
        with memory.open(mode="w", driver="GPKG", layer=GAPS_LAYER, crs=wgs84, schema={
                "geometry": "LineString", "properties": {"segment_id": "str", "street_name": "str",
                                                         "gap_length_m": "float", "gap_m": "float"}}) as dst:
            for c in audit.coverage:
                for gap, length in zip(c.gaps, c.gap_lengths_m):
                    dst.write({"geometry": mapping(gap), "properties": {
                        "segment_id": c.segment_id, "street_name": segs[c.segment_id].get("street_name"),
                        "gap_length_m": round(length, 1), "gap_m": round(length, 1)}})
        with memory.open(mode="w", driver="GPKG", layer=IMAGES_LAYER, crs=wgs84,
                         schema={"geometry": "Point", "properties": IMAGE_COLUMNS}) as dst:
            for r in audit.images:
                if r.get("lon") is None or r.get("lat") is None:
                    continue
                dst.write({"geometry": mapping(Point(r["lon"], r["lat"])),
                           "properties": {k: None if r.get(k) is None else (int(r[k]) if t == "int" else str(r[k]))
                                          for k, t in IMAGE_COLUMNS.items()}})
        with memory.open(mode="w", driver="GPKG", layer=BUFFERS_LAYER, crs=wgs84, schema={
                "geometry": "Polygon", "properties": {"segment_id": "str", "street_name": "str",
                                                      "buffer_m": "float"}}) as dst:
            for s in audit.segments:
                dst.write({"geometry": mapping(_buffer(wkt.loads(s["geometry_wkt"]), audit.radius_m)),
                           "properties": {"segment_id": s["segment_id"], "street_name": s.get("street_name"),
                                          "buffer_m": float(audit.radius_m)}})
        with memory.open(mode="w", driver="GPKG", layer=CITIES_LAYER,
                         schema={"geometry": None, "properties": CITY_COLUMNS}) as dst:
            for row in audit.cities:
                dst.write({"geometry": None, "properties": {k: row.get(k) for k in CITY_COLUMNS}})
        with memory.open(mode="w", driver="GPKG", layer=DATES_LAYER, schema={"geometry": None, "properties": {
                "segment_id": "str", "unit": "str", "period": "str", "images": "int"}}) as dst:
            for c in audit.coverage:
                for period, n in c.date_histogram.items():
                    dst.write({"geometry": None, "properties": {"segment_id": c.segment_id, "unit": c.date_unit,
                                                                "period": period, "images": n}})
        atomic.write_bytes(path, memory.read())
    csv_path = cities_csv_path(path)
    atomic.write_bytes(csv_path, cities_csv_text(audit.cities).encode("utf-8"))
    return path, csv_path


def histogram_of(text: str | None) -> dict[str, int]:
    """The ``date_histogram`` field back as a dict (``{}`` for empty or unreadable text)."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
