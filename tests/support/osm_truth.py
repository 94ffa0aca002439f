"""Independent reading of OSM files for the tests: plain pyosmium + pyproj.Geod, sharing no
code with the selection stage, so that its rules can be checked from the raw data."""
from __future__ import annotations

import osmium
from pyproj import Geod

GEOD = Geod(ellps="WGS84")


def named_ways(path) -> dict[int, dict]:
    ways = {}
    for obj in osmium.FileProcessor(str(path)).with_locations():
        if obj.is_way() and obj.tags.get("name") and obj.tags.get("highway"):
            nodes = [(n.ref, n.lon, n.lat) for n in obj.nodes if n.location.valid()]
            ways[obj.id] = {"name": obj.tags["name"], "highway": obj.tags["highway"], "nodes": nodes}
    return ways


def place_nodes(path) -> list[tuple[str, float, float]]:
    out = []
    for obj in osmium.FileProcessor(str(path), osmium.osm.NODE):
        if obj.tags.get("place") in ("neighbourhood", "suburb", "quarter") and obj.tags.get("name"):
            out.append((obj.tags["name"], obj.location.lon, obj.location.lat))
    return out


def geodesic_length(geom) -> float:
    parts = geom.geoms if hasattr(geom, "geoms") else [geom]
    total = 0.0
    for part in parts:
        lons, lats = zip(*[(c[0], c[1]) for c in part.coords])
        total += GEOD.line_length(lons, lats)
    return total


def distance(lon1, lat1, lon2, lat2) -> float:
    return GEOD.inv(lon1, lat1, lon2, lat2)[2]
