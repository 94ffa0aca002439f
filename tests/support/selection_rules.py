"""Every method §1 rule, checked on a selection result from the raw OSM file with
independent code (pyosmium + pyproj.Geod)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from pyproj import Transformer
from shapely.geometry import LineString, Point
from shapely.ops import transform

from osm_truth import distance, geodesic_length, named_ways, place_nodes

REL = 5e-4  # local metric frame vs ellipsoid: agreement to 0.05 %


def check_rules(rows, city, options, osm_path, expect_side: str) -> None:
    assert rows, "no segments to check"
    ways = named_ways(osm_path)
    places = place_nodes(osm_path)
    ids = [r["segment_id"] for r in rows]
    assert len(ids) == len(set(ids)), "segment_id must be unique"
    for r in rows:
        geom = r["geometry"]
        length = geodesic_length(geom)
        # length field is metres (not degrees) and agrees with the ellipsoid
        assert abs(r["length_m"] - length) <= REL * length + 0.05, (r["segment_id"], r["length_m"], length)
        assert length >= options.min_length_m * (1 - REL) - 0.05
        assert length <= options.clip_length_m * (1 + REL) + 0.05
        assert r["merged_length_m"] >= options.min_length_m - 0.05
        if r["merged_length_m"] > options.clip_length_m + 1:
            assert abs(length - options.clip_length_m) <= REL * options.clip_length_m + 0.1, "clip length"
        # inside the radius: every vertex
        for lon, lat in geom.coords:
            assert distance(city.lon, city.lat, lon, lat) <= options.radius_m + 0.5
        # centroid fields match the line's centroid (to a metre) and are within the radius
        c = utm_centroid(geom)
        assert distance(c[0], c[1], r["centroid_lon"], r["centroid_lat"]) < 1.0
        assert abs(distance(city.lon, city.lat, r["centroid_lon"], r["centroid_lat"]) -
                   r["distance_to_centre_m"]) < 0.5
        # OSM ways: same name, touching (connected through shared nodes), covering the line
        way_ids = [int(w) for w in r["osm_way_ids"].split(",")]
        assert all(ways[w]["name"] == r["street_name"] for w in way_ids)
        assert _connected([ways[w]["nodes"] for w in way_ids]), f"{r['segment_id']} ways do not touch"
        lines = [LineString([(lon, lat) for _, lon, lat in ways[w]["nodes"]]) for w in way_ids]
        for x, y in geom.coords:
            assert min(line.distance(Point(x, y)) for line in lines) < 2e-6, "vertex off its ways"
        assert r["highway"] in {ways[w]["highway"] for w in way_ids}
        assert r["driving_side"] == expect_side
        # neighbourhood = nearest place node (within the option's distance)
        if places:
            name, plon, plat = min(places, key=lambda p: distance(p[1], p[2], r["centroid_lon"], r["centroid_lat"]))
            d = distance(plon, plat, r["centroid_lon"], r["centroid_lat"])
            if options.neighbourhood_max_distance_m is None or d <= options.neighbourhood_max_distance_m:
                assert r["neighbourhood"] == name and r["neighbourhood_source"] == "place_node"
    # spacing: pairwise centroid distances on the ellipsoid
    for a, b in combinations(rows, 2):
        d = distance(a["centroid_lon"], a["centroid_lat"], b["centroid_lon"], b["centroid_lat"])
        assert d >= options.min_spacing_m * (1 - REL), (a["segment_id"], b["segment_id"], d)
    # addressability recomputed
    keys = Counter((r["city"], r["neighbourhood"], r["street_name"]) for r in rows)
    for r in rows:
        assert bool(r["addressable"]) == (keys[(r["city"], r["neighbourhood"], r["street_name"])] == 1)
    assert len(rows) <= options.max_per_city


def utm_centroid(geom):
    """Length-weighted centroid computed in the UTM zone (a different metric projection)."""
    lon0, lat0 = geom.coords[0]
    zone = int((lon0 + 180) // 6) + 1
    utm = f"EPSG:{32600 + zone if lat0 >= 0 else 32700 + zone}"
    fwd = Transformer.from_crs("EPSG:4326", utm, always_xy=True)
    inv = Transformer.from_crs(utm, "EPSG:4326", always_xy=True)
    c = transform(fwd.transform, geom).centroid
    return inv.transform(c.x, c.y)


def _connected(node_lists) -> bool:
    parent = {}

    def find(a):
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a

    for nodes in node_lists:
        refs = [n[0] for n in nodes]
        for a, b in zip(refs, refs[1:]):
            parent[find(a)] = find(b)
        if len(refs) == 1:
            find(refs[0])
    roots = {find(nodes[0][0]) for nodes in node_lists}
    return len(roots) == 1
