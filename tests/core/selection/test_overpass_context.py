"""The map context on the Overpass path (method §1 "context layers"): one more request per city,
answered by a local Overpass server from the real central-Helsinki extract; what the plugin
writes is compared with what the server served, and with the OSM-file path on the same extract.
A failed context request keeps the selection; ``--no-context`` sends no context request."""
from __future__ import annotations

import json
import re
from collections import Counter

import fiona
import pytest

from conftest import SleepRecorder
from overpass_server import OverpassServer, ContextWorld, context_requests, layer_of, road_requests

from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.selection.cities import make_city
from geofidelity_plugin.core.selection.overpass import OverpassClient
from geofidelity_plugin.core.selection.overpass_context import build_context_query
from geofidelity_plugin.core.selection.workflow import select_segments
from geofidelity_plugin.core.selection.segments import SelectionOptions

HELSINKI = make_city("Helsinki", "Finland", "FI", 24.9441, 60.1711)
DEMO = dict(min_length_m=300, min_spacing_m=300)
LAYERS = ("context_roads", "context_water", "context_green", "context_buildings")


@pytest.fixture(scope="module")
def road_answer(helsinki_pbf) -> dict:
    """The road query's answer: the extract's named highways and place nodes, in Overpass JSON."""
    from geofidelity_plugin.core.selection.osm_file import read_osm_file

    data = read_osm_file(helsinki_pbf, with_admin_areas=False)
    elements = [{"type": "way", "id": w.way_id, "tags": {"name": w.name, "highway": w.highway},
                 "geometry": [{"lat": lat, "lon": lon} for lon, lat in w.coords]} for w in data.ways]
    elements += [{"type": "node", "id": p.node_id, "lat": p.lat, "lon": p.lon,
                  "tags": {"name": p.name, "place": p.place}} for p in data.places]
    return {"version": 0.6, "osm3s": {"timestamp_osm_base": "2024-05-14T09:21:43Z"}, "elements": elements}


@pytest.fixture(scope="module")
def world(helsinki_pbf) -> ContextWorld:
    return ContextWorld(helsinki_pbf)


def client(url: str, **kwargs) -> OverpassClient:
    options = dict(max_retries=0, backoff_s=0.0, jitter=0.0, sleep=SleepRecorder())
    options.update(kwargs)
    return OverpassClient(url, **options)


def rings_close(members: list) -> bool:
    """Whether a multipolygon's outer members form closed rings (every end point shared by an
    even number of member ends); in a cut extract some members are missing and no outline can be
    built (an inner ring that does not close is left out, as OSM tools do)."""
    ends = Counter()
    for member in members:
        points = [(p["lon"], p["lat"]) for p in member["geometry"]]
        if member["role"] in ("outer", "") and len(points) >= 2:
            ends.update([points[0], points[-1]])
    return bool(ends) and all(n % 2 == 0 for n in ends.values())


def served_counts(answer: dict) -> dict:
    """Per context layer, the served elements the test server's own tag table puts in it."""
    counts = dict.fromkeys(LAYERS, 0)
    for element in answer["elements"]:
        tags = element["tags"]
        if element["type"] == "way" and "highway" in tags and tags.get("area") != "yes":
            counts["context_roads"] += 1
        if element["type"] == "relation":
            closed = rings_close(element["members"])
        else:
            closed = len(element["geometry"]) >= 4 and element["geometry"][0] == element["geometry"][-1]
        if closed:
            layer = layer_of(tags)
            if layer:
                counts[layer] += 1
            counts["context_buildings"] += tags.get("building", "no") != "no"
    return counts


def test_context_query_asks_for_the_box_with_every_context_tag():
    query = build_context_query((24.93, 60.16, 24.96, 60.18), 90)
    assert query.startswith("[out:json][timeout:90];") and query.rstrip().endswith("out geom;")
    bbox = "(60.1600000,24.9300000,60.1800000,24.9600000)"
    assert f'way["highway"]{bbox};' in query and "around:" not in query
    assert f'way["building"]["building"!="no"]{bbox};' in query
    for key, value in (("natural", "water"), ("natural", "wood"), ("waterway", "riverbank"), ("landuse", "grass"),
                       ("landuse", "reservoir"), ("leisure", "park")):
        line = next(x for x in query.splitlines() if x.startswith(f'  way["{key}"~'))
        assert value in re.search(r'~"\^\(([^)]*)\)\$"', line).group(1).split("|"), (key, line)
        assert any(x.startswith(f'  rel["type"="multipolygon"]["{key}"~') for x in query.splitlines())


@pytest.fixture(scope="module")
def overpass_run(tmp_path_factory, httpserver_module, road_answer, world):
    server = OverpassServer(road_answer, world)
    url = server.install(httpserver_module)
    out = tmp_path_factory.mktemp("overpass_context") / "segments.gpkg"
    result = select_segments([HELSINKI], client(url), SelectionOptions(**DEMO), output_gpkg=out)
    return result, out, server, road_requests(httpserver_module), context_requests(httpserver_module)


@pytest.fixture(scope="module")
def httpserver_module():
    from pytest_httpserver import HTTPServer

    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    yield server
    server.clear()
    server.stop()


def test_overpass_path_writes_the_context_that_was_served(overpass_run):
    result, out, server, roads, contexts = overpass_run
    assert (roads, contexts) == (1, 1)  # one city: the road query, then one context query
    entry = result.manifest["outputs"]["context"]
    assert entry["fetched"] is True and "Overpass" in entry["note"]
    (answer,) = server.served
    expected = served_counts(answer)
    assert expected["context_roads"] > 1000 and expected["context_buildings"] > 100
    assert entry["layers"] == {k: v for k, v in expected.items() if v}
    assert set(fiona.listlayers(out)) == {"segments", *(k for k, v in expected.items() if v)}
    for layer, count in entry["layers"].items():
        with fiona.open(out, layer=layer) as src:
            assert len(src) == count, layer


def _ids(path, layer) -> set[int]:
    if layer not in fiona.listlayers(path):
        return set()
    with fiona.open(path, layer=layer) as src:
        return {f["properties"]["osm_id"] for f in src}


def test_overpass_and_osm_file_give_the_same_context(overpass_run, helsinki_pbf, world, tmp_path):
    """The same features, except areas the extract's edge cut (nodes or members missing): the file
    reader drops such a ring, while the served part of it may still close — a real server would
    send it whole."""
    result, online_path, *_ = overpass_run
    offline_path = tmp_path / "f.gpkg"
    from_file = select_segments([HELSINKI], helsinki_pbf, SelectionOptions(**DEMO), output_gpkg=offline_path)
    online, offline = result.manifest["outputs"]["context"], from_file.manifest["outputs"]["context"]
    assert online["bounds"] == offline["bounds"]
    assert _ids(online_path, "context_roads") == _ids(offline_path, "context_roads")
    for layer in ("context_buildings", "context_green", "context_water"):
        on, off = _ids(online_path, layer), _ids(offline_path, layer)
        assert off <= on and on - off <= world.cut, (layer, sorted(on - off - world.cut))
    assert len(_ids(offline_path, "context_buildings")) > 300


@pytest.mark.parametrize("status", [429, 504])
def test_failed_context_request_keeps_the_segments_and_warns(tmp_path, httpserver, road_answer, status):
    url = OverpassServer(road_answer, None, context_status=status).install(httpserver)
    progress = RecordingProgress()
    out = tmp_path / "segments.gpkg"
    result = select_segments([HELSINKI], client(url, max_retries=1), SelectionOptions(**DEMO), output_gpkg=out,
                             progress=progress)
    assert result.segments and fiona.listlayers(out) == ["segments"]
    assert (road_requests(httpserver), context_requests(httpserver)) == (1, 2)  # the context was retried once
    entry = json.loads(result.manifest_path.read_text(encoding="utf-8"))["outputs"]["context"]
    assert entry["fetched"] is False and entry["status"] == "failed" and entry["layers"] == {}
    assert f"HTTP {status}" in entry["note"] and "--no-context" in entry["note"] and "again" in entry["note"]
    (warning,) = [w for w in progress.warnings if "map context" in w]
    assert warning == entry["note"]


def test_no_context_sends_no_context_request(tmp_path, httpserver, road_answer, world):
    url = OverpassServer(road_answer, world).install(httpserver)
    out = tmp_path / "segments.gpkg"
    result = select_segments([HELSINKI], client(url), SelectionOptions(write_context=False, **DEMO), output_gpkg=out)
    assert (road_requests(httpserver), context_requests(httpserver)) == (1, 0)
    entry = result.manifest["outputs"]["context"]
    assert entry["fetched"] is False and entry["status"] == "skipped" and entry["layers"] == {}
    assert result.manifest["options"]["write_context"] is False
    assert fiona.listlayers(out) == ["segments"]


def test_the_command_line_flag_turns_the_context_off():
    from geofidelity_plugin.backend.cli import build_parser
    from geofidelity_plugin.backend.commands.selection import _selection_options

    parser = build_parser()
    base = ["select-segments", "--cities", "c.csv", "--overpass", "http://127.0.0.1:9/api", "--out", "o.gpkg"]
    assert _selection_options(parser.parse_args(base)).write_context is True
    assert _selection_options(parser.parse_args(base + ["--no-context"])).write_context is False


def test_processing_boolean_turns_the_context_off(qgis_provider, tmp_path, helsinki_pbf):
    """"Write map context layers" (default on) unticked: the backend gets --no-context."""
    import processing
    from qgis.core import QgsApplication

    from geofidelity_plugin.core.resources import resource

    alg = QgsApplication.processingRegistry().algorithmById("geofidelity:select_segments")
    assert alg.parameterDefinition("WRITE_CONTEXT").defaultValue() is True
    out = tmp_path / "segments.gpkg"
    result = processing.run("geofidelity:select_segments", {
        "CITIES": str(resource("data", "demo_cities.csv")), "SOURCE": 0, "OSM_FILE": str(helsinki_pbf),
        "WRITE_CONTEXT": False, "OUTPUT": str(out)})
    manifest = json.loads(open(result["MANIFEST"], encoding="utf-8").read())
    assert manifest["options"]["write_context"] is False and manifest["outputs"]["context"]["status"] == "skipped"
    assert fiona.listlayers(out) == ["segments"]
