"""The GeoPackage layer of curation (method §2): the image points with every curation field and
status (the coverage audit's layers: :mod:`.coverage_layers`).

Each GeoPackage is built in memory and then written atomically as plain bytes: a disk that fills
up fails that one write, which names the output, and leaves no half-written SQLite file behind."""
from __future__ import annotations

from pathlib import Path

from shapely.geometry import Point, mapping

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.gpkg import field_type, field_value

IMAGES_LAYER = "reference_images"
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
