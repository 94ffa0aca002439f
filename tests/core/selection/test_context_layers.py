"""The map context the selection step writes beside the segments (other roads, water, green,
buildings), on the real central-Helsinki extract, checked against an independent pyosmium count
of the same tags (a SimpleHandler sharing no code with the selection stage)."""
from __future__ import annotations

import fiona
import osmium
import pytest
from shapely import wkb
from shapely.geometry import LineString, box, shape
from shapely.ops import unary_union

from geofidelity_plugin.core.selection.cities import make_city
from geofidelity_plugin.core.selection.osm_file import read_osm_file
from geofidelity_plugin.core.selection.workflow import select_segments
from geofidelity_plugin.core.selection.segments import SelectionOptions
from osm_truth import GEOD

HELSINKI = make_city("Helsinki", "Finland", "FI", 24.9441, 60.1711)
DEMO = SelectionOptions(min_length_m=300, min_spacing_m=300)
LAYERS = ("context_roads", "context_water", "context_green", "context_buildings")
WATER = {"natural": {"water"}, "waterway": {"riverbank"}, "landuse": {"reservoir", "basin", "pond"}}
GREEN = {"leisure": {"park", "garden", "playground", "pitch", "nature_reserve", "common"},
         "landuse": {"grass", "forest", "meadow", "recreation_ground", "cemetery", "village_green", "allotments",
                     "orchard"},
         "natural": {"wood", "scrub", "heath", "grassland", "wetland"}}


class TagCounter(osmium.SimpleHandler):
    """Counts, per context layer, the OSM objects whose geometry touches ``area``."""

    def __init__(self, area):
        super().__init__()
        self.region, self.counts = area, dict.fromkeys(LAYERS, 0)
        self.wkb = osmium.geom.WKBFactory()

    def way(self, w):
        if "highway" not in w.tags or w.tags.get("area") == "yes":
            return
        points = [(n.lon, n.lat) for n in w.nodes if n.location.valid()]
        if len(points) >= 2 and LineString(points).intersects(self.region):
            self.counts["context_roads"] += 1

    def area(self, a):
        tags = {t.k: t.v for t in a.tags}
        is_water = any(tags.get(k) in v for k, v in WATER.items())
        is_green = not is_water and any(tags.get(k) in v for k, v in GREEN.items())
        is_building = tags.get("building", "no") != "no"
        if not (is_water or is_green or is_building):
            return
        try:
            polygon = wkb.loads(self.wkb.create_multipolygon(a), hex=True)
        except RuntimeError:
            return
        if polygon.intersects(self.region):
            self.counts["context_water"] += is_water
            self.counts["context_green"] += is_green
            self.counts["context_buildings"] += is_building


@pytest.fixture(scope="module")
def selected(tmp_path_factory, helsinki_pbf):
    out = tmp_path_factory.mktemp("context") / "segments.gpkg"
    result = select_segments([HELSINKI], helsinki_pbf, DEMO, output_gpkg=out)
    return result, out


def _features(path, layer):
    with fiona.open(path, layer=layer) as src:
        return [(shape(f["geometry"]), dict(f["properties"])) for f in src]


def test_context_layers_are_written_with_counts_in_the_manifest(selected):
    result, path = selected
    entry = result.manifest["outputs"]["context"]
    assert entry["fetched"] is True and entry["margin_m"] == 300.0
    assert set(fiona.listlayers(path)) == {"segments", *LAYERS}
    for layer in LAYERS:
        assert entry["layers"][layer] == len(_features(path, layer)), layer
    counts = entry["layers"]
    # the extract (1.0 × 1.7 km of central Helsinki) has ~2650 highway ways, 446 buildings
    assert 1500 < counts["context_roads"] < 2700
    assert 300 < counts["context_buildings"] <= 446
    assert 5 <= counts["context_water"] < 40 and 50 < counts["context_green"] < 300
    roads = _features(path, "context_roads")
    assert {"footway", "residential", "primary"} <= {p["highway"] for _, p in roads}
    assert {p["kind"] for _, p in _features(path, "context_green")} >= {"park", "grass"}


def test_counts_match_an_independent_pyosmium_count(selected, helsinki_pbf):
    result, _ = selected
    area = box(*result.manifest["outputs"]["context"]["bounds"])  # one city: one rectangle
    counter = TagCounter(area)
    counter.apply_file(str(helsinki_pbf), locations=True)
    assert counter.counts == result.manifest["outputs"]["context"]["layers"]


def test_context_lies_around_the_segments(selected):
    result, path = selected
    segments = [g for g, _ in _features(path, "segments")]
    x0, y0, x1, y1 = unary_union(segments).bounds
    bx0, by0, bx1, by1 = result.manifest["outputs"]["context"]["bounds"]
    # the context area is the segments' bounding box widened by 300 m on every side
    for (lon_a, lat_a, lon_b, lat_b) in ((bx0, y0, x0, y0), (x1, y0, bx1, y0), (x0, by0, x0, y0), (x0, y1, x0, by1)):
        assert GEOD.inv(lon_a, lat_a, lon_b, lat_b)[2] == pytest.approx(300.0, abs=3.0)
    area = box(bx0, by0, bx1, by1).buffer(1e-9)
    for layer in LAYERS:
        assert all(area.contains(g) for g, _ in _features(path, layer)), layer
    # every segment runs along the context's roads (the same OSM ways)
    roads = unary_union([g for g, _ in _features(path, "context_roads")]).buffer(2e-5)
    assert all(roads.contains(s) for s in segments)


def test_a_source_without_context_says_so_in_the_manifest(tmp_path, helsinki_pbf):
    roads = read_osm_file(helsinki_pbf)  # ready road data (as a QGIS line layer or Overpass gives)
    result = select_segments([HELSINKI], roads, DEMO, output_gpkg=tmp_path / "s.gpkg")
    entry = result.manifest["outputs"]["context"]
    assert entry["fetched"] is False and entry["layers"] == {}
    assert "no context layers were written" in entry["note"] and "OSM file" in entry["note"]
    assert fiona.listlayers(tmp_path / "s.gpkg") == ["segments"]
