"""The GeoDiv city layer (docs/method.md, GeoDiv): one point per city and model group at the
mean centroid of the city's segments, carrying the model − real differences, styled by the
overall VDI difference (``resources/styles/geodiv_vdi_difference.qml``)."""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

from .. import atomic

LAYER = "geodiv_cities"
STYLE = "geodiv_vdi_difference.qml"


def city_points(store_path) -> dict[str, tuple[float, float, str]]:
    """city → (lon, lat, country): the mean centroid of its segments in the store."""
    from ..store.store import BenchmarkStore

    store = BenchmarkStore(store_path, create=False)
    try:
        segments = store.segments()
    finally:
        store.close()
    sums: dict[str, list] = defaultdict(lambda: [0.0, 0.0, 0, ""])
    for s in segments:
        acc = sums[s["city"]]
        acc[0] += float(s["centroid_lon"])
        acc[1] += float(s["centroid_lat"])
        acc[2] += 1
        acc[3] = s.get("country") or acc[3]
    return {city: (lon / n, lat / n, country) for city, (lon, lat, n, country) in sums.items()}


def write_city_layer(differences: list[dict], points: dict, path) -> Path | None:
    """Write the layer (None when no difference row has a city with a position)."""
    import fiona
    from fiona.crs import CRS

    rows = [r for r in differences if r.get("city") in points]
    if not rows:
        return None
    numeric = [k for k in rows[0] if k.endswith(("_minus_real", "_paired", "_low", "_high"))]
    props = {"city": "str", "country": "str", "model": "str", "condition": "str", **{k: "float" for k in numeric}}
    path = Path(path)
    with atomic.atomic_path(path) as tmp:  # published whole; never through a link or over a folder
        with fiona.open(str(tmp), "w", driver="GPKG", layer=LAYER, crs=CRS.from_epsg(4326),
                        schema={"geometry": "Point", "properties": props}) as dst:
            for r in rows:
                lon, lat, country = points[r["city"]]
                values = {k: (None if not isinstance(r.get(k), float) or math.isnan(r[k]) else r[k]) for k in numeric}
                dst.write({"geometry": {"type": "Point", "coordinates": (lon, lat)},
                           "properties": {"city": r["city"], "country": country, "model": r.get("model", ""),
                                          "condition": r.get("condition", ""), **values}})
    return path
