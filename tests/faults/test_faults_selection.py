"""Fault cases of stage 1, ``select-segments`` (docs/method.md, "Errors and exit codes"): a bad
Overpass answer never poisons the cache, wrong files get the right advice, bad tables and
options get a message naming them, and outputs are checked first and written all-or-nothing.

Overpass is faked with a local HTTP server (pytest-httpserver); every case has its own cache
folder (``GEOFIDELITY_CACHE_DIR``).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO
from overpass_server import road_requests
from faultkit import (assert_fails_cleanly, assert_no_partial_outputs, assert_qgis_fails_cleanly,
                      file_size_limit, no_traceback, run_cli, run_qgis)  # noqa: F401

pytestmark = pytest.mark.fault

CITIES = REPO / "resources" / "data" / "demo_cities.csv"  # Helsinki
PATH = "/api/interpreter"
HEADER = "name,country,country_code,lon,lat\n"
OUTPUTS = ("seg.gpkg", "seg.manifest.json", "seg.summary.html")


# --- helpers ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def helsinki_answer(helsinki_pbf) -> dict:
    """A real-format Overpass ``out geom`` answer holding the Helsinki extract's roads."""
    from geofidelity_plugin.core.selection.osm_file import read_osm_file

    data = read_osm_file(helsinki_pbf, with_admin_areas=False)
    elements = [{"type": "way", "id": w.way_id, "tags": {"name": w.name, "highway": w.highway},
                 "geometry": [{"lat": lat, "lon": lon} for lon, lat in w.coords]} for w in data.ways]
    elements += [{"type": "node", "id": p.node_id, "lat": p.lat, "lon": p.lon,
                  "tags": {"name": p.name, "place": p.place}} for p in data.places]
    return {"version": 0.6, "osm3s": {"timestamp_osm_base": "2024-05-14T09:21:43Z"},
            "elements": elements}


def serve(httpserver, body: bytes, content_type: str = "application/json", status: int = 200) -> str:
    """``body`` answers the road query; the map-context query gets a valid empty answer."""
    from overpass_server import EMPTY, is_context_query, query_of
    from werkzeug import Response

    def handler(request):
        if is_context_query(query_of(request)):
            return Response(json.dumps(EMPTY), content_type="application/json")
        return Response(body, status=status, content_type=content_type)

    httpserver.clear()
    httpserver.expect_request(PATH, method="POST").respond_with_handler(handler)
    return httpserver.url_for(PATH)


def select(tmp_path: Path, *args, cities=CITIES, out=None, env=None, preexec_fn=None, **kw):
    out = out if out is not None else tmp_path / "out" / "seg.gpkg"
    run_env = {"GEOFIDELITY_CACHE_DIR": str(tmp_path / "cache"), **(env or {})}
    return run_cli("select-segments", "-q", "--cities", cities, "--out", out, *args, env=run_env,
                   preexec_fn=preexec_fn, **kw)


def cache_files(tmp_path: Path) -> list[Path]:
    """The cached road answers (the map-context answers are cached beside them)."""
    files = sorted((tmp_path / "cache" / "overpass").glob("overpass_*.json"))
    return [f for f in files if b"around:" in f.read_bytes()]


def assert_selected(out, gpkg: Path) -> list[dict]:
    """A clean run: exit 0, no traceback, a readable GeoPackage with its manifest and summary."""
    from geofidelity_plugin.core.selection.writers import read_segments_gpkg

    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-3000:]
    assert no_traceback(text), text[-3000:]
    rows = read_segments_gpkg(gpkg)
    assert rows
    manifest = json.loads(gpkg.with_suffix(".manifest.json").read_text(encoding="utf-8"))
    assert manifest["outputs"]["segments"] == len(rows)
    assert gpkg.with_suffix(".summary.html").stat().st_size > 0
    assert_no_partial_outputs(gpkg.parent)
    return rows


def malformed(answer: dict, kind: str) -> dict:
    bad = json.loads(json.dumps(answer))
    line = [{"lat": 60.17, "lon": 24.94}, {"lat": 60.171, "lon": 24.945}]
    if kind == "no type":
        bad["elements"].append({"id": 9, "tags": {"name": "X", "highway": "primary"}, "geometry": line})
    elif kind == "geometry not a list":
        bad["elements"].append({"type": "way", "id": 9, "tags": {"name": "X", "highway": "primary"},
                                "geometry": "60.17,24.94 60.171,24.945"})
    elif kind == "tags a string":
        bad["elements"].append({"type": "way", "id": 9, "tags": "name=X;highway=primary", "geometry": line})
    elif kind == "elements not a list":
        bad["elements"] = {"ways": bad["elements"][:3]}
    return bad


MALFORMED = {"no type": "'type'", "geometry not a list": "geometry", "tags a string": "tags",
             "elements not a list": "elements"}


# --- 1 · a malformed Overpass answer never reaches the cache --------------------------------

@pytest.mark.parametrize("kind", list(MALFORMED))
def test_malformed_overpass_answer_is_not_cached(tmp_path, httpserver, helsinki_answer, kind):
    url = serve(httpserver, json.dumps(malformed(helsinki_answer, kind)).encode())
    out = select(tmp_path, "--overpass", url)
    assert_fails_cleanly(out, url, "malformed", MALFORMED[kind])
    assert road_requests(httpserver) == 1  # a malformed answer is not asked for again and again
    assert cache_files(tmp_path) == []
    assert not (tmp_path / "out" / "seg.gpkg").exists()
    serve(httpserver, json.dumps(helsinki_answer).encode())  # the server is fixed
    assert_selected(select(tmp_path, "--overpass", url), tmp_path / "out" / "seg.gpkg")
    assert len(cache_files(tmp_path)) == 1


@pytest.mark.parametrize("damage", ["older version", "truncated file", "not JSON"])
def test_bad_cache_entry_is_deleted_and_fetched_again(tmp_path, httpserver, helsinki_answer, damage):
    url = serve(httpserver, json.dumps(helsinki_answer).encode())
    assert_selected(select(tmp_path, "--overpass", url), tmp_path / "out" / "seg.gpkg")
    (entry,) = cache_files(tmp_path)
    record = json.loads(entry.read_text(encoding="utf-8"))
    if damage == "older version":  # what an earlier release cached without parsing it
        record["payload"] = malformed(helsinki_answer, "geometry not a list")
        entry.write_text(json.dumps(record), encoding="utf-8")
    elif damage == "truncated file":
        entry.write_bytes(entry.read_bytes()[:1000])
    else:
        entry.write_bytes(b"\x00\x17garbage from a disk error")
    out = select(tmp_path, "--overpass", url, "--max-per-city", "2")
    assert_selected(out, tmp_path / "out" / "seg.gpkg")
    assert "warning:" in out.stderr and str(entry) in out.stderr, out.stderr[-2000:]
    assert road_requests(httpserver) == 2  # fetched again
    assert json.loads(entry.read_text(encoding="utf-8"))["payload"] == helsinki_answer
    out = select(tmp_path, "--overpass", url)  # now a good cache entry: no request, no warning
    assert out.returncode == 0 and "warning:" not in out.stderr and road_requests(httpserver) == 2


def test_qgis_malformed_overpass_answer_is_not_cached(tmp_path, httpserver, helsinki_answer, qgis_env):
    url = serve(httpserver, json.dumps(malformed(helsinki_answer, "tags a string")).encode())
    env = dict(qgis_env, GEOFIDELITY_CACHE_DIR=str(tmp_path / "cache"))
    out_path = tmp_path / "out" / "seg.gpkg"
    params = dict(CITIES=CITIES, SOURCE=1, OVERPASS_URL=url, OVERPASS_RETRIES=0, OUTPUT=out_path)
    out = run_qgis(env, "select_segments", **params)
    assert_qgis_fails_cleanly(out, url, "malformed", "tags")
    assert cache_files(tmp_path) == [] and not out_path.exists()
    serve(httpserver, json.dumps(helsinki_answer).encode())
    out = run_qgis(env, "select_segments", **params)
    assert out.returncode == 0 and no_traceback(out.stdout + out.stderr), (out.stdout + out.stderr)[-3000:]
    assert out_path.exists() and len(cache_files(tmp_path)) == 1


# --- 2 · the advice fits the fault ----------------------------------------------------------

def test_html_answer_is_named_as_html(tmp_path, httpserver, helsinki_answer):
    portal = (b"<!DOCTYPE html><html><head><title>Hotel WiFi - please log in</title></head>"
              b"<body><form>Accept the terms to continue</form></body></html>")
    url = serve(httpserver, portal, content_type="text/html; charset=utf-8")
    out = select(tmp_path, "--overpass", url)
    message = assert_fails_cleanly(out, url, "HTML", "not Overpass JSON", "endpoint URL", "proxy")
    assert "truncated" not in message
    assert road_requests(httpserver) == 1 and cache_files(tmp_path) == []
    serve(httpserver, json.dumps(helsinki_answer).encode())
    assert_selected(select(tmp_path, "--overpass", url), tmp_path / "out" / "seg.gpkg")


def _osm_garbage(tmp_path: Path, helsinki_pbf: Path, kind: str) -> Path:
    if kind == "garbage .pbf":
        path = tmp_path / "roads.pbf"
        path.write_bytes(bytes(range(100)))
    elif kind == "truncated .osm.pbf":
        path = tmp_path / "roads.osm.pbf"
        path.write_bytes(helsinki_pbf.read_bytes()[:100])
    elif kind == "empty .osm":
        path = tmp_path / "roads.osm"
        path.write_bytes(b"")
    elif kind == ".osm.bz2 that is not bz2":
        path = tmp_path / "roads.osm.bz2"
        path.write_bytes(b"<osm version='0.6'></osm>\n")
    elif kind == "osm without data":
        path = tmp_path / "roads.osm"
        path.write_bytes(b"<?xml version='1.0'?>\n<osm version='0.6' generator='x'></osm>\n")
    else:
        path = tmp_path / "roads.osm.pbf"
        path.mkdir()
    return path


@pytest.mark.parametrize("kind,fragments", [
    ("garbage .pbf", ("not a valid or complete OSM file", "download it again")),
    ("truncated .osm.pbf", ("not a valid or complete OSM file", "download it again")),
    ("empty .osm", ("is empty", "download")),
    (".osm.bz2 that is not bz2", ("not a valid or complete OSM file", "download it again")),
    ("osm without data", ("no OSM data", "download")),
    ("a folder", ("is a folder", ".osm.pbf")),
])
def test_bad_osm_file_gets_the_right_advice(tmp_path, helsinki_pbf, kind, fragments):
    path = _osm_garbage(tmp_path, helsinki_pbf, kind)
    message = assert_fails_cleanly(select(tmp_path, "--osm", path), path.name, *fragments)
    assert "check the centre" not in message
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


# --- 3 · city tables and options ------------------------------------------------------------

def _latin1_table(tmp_path: Path) -> Path:
    path = tmp_path / "cities.csv"  # the usual Excel export on Windows: cp1252, Helsinki's Töölö
    path.write_bytes((HEADER + "Töölö,Suomi – Finland,FI,24.9441,60.1711\n").encode("cp1252"))
    return path


def test_latin1_city_table_is_read_with_a_warning(tmp_path, helsinki_pbf):
    table = _latin1_table(tmp_path)
    out = select(tmp_path, "--osm", helsinki_pbf, cities=table)
    rows = assert_selected(out, tmp_path / "out" / "seg.gpkg")
    assert {r["city"] for r in rows} == {"Töölö"} and {r["country"] for r in rows} == {"Suomi – Finland"}
    assert "warning:" in out.stderr and str(table) in out.stderr and "cp1252" in out.stderr


def test_qgis_latin1_city_table_is_read_with_a_warning(tmp_path, helsinki_pbf, qgis_env):
    from geofidelity_plugin.core.selection.writers import read_segments_gpkg

    table = _latin1_table(tmp_path)
    out_path = tmp_path / "seg.gpkg"
    out = run_qgis(qgis_env, "select_segments", CITIES=table, SOURCE=0, OSM_FILE=helsinki_pbf,
                   OUTPUT=out_path)
    text = out.stdout + out.stderr
    assert out.returncode == 0 and no_traceback(text), text[-3000:]
    assert "cp1252" in text and str(table) in text
    assert {r["city"] for r in read_segments_gpkg(out_path)} == {"Töölö"}


@pytest.mark.parametrize("content,fragments", [
    (HEADER.replace(",lat", "") + "Helsinki,Finland,FI,24.9\n", ("lacks column(s) lat",)),
    (b"", ("is empty", "name, country, country_code, lon, lat")),
    (HEADER + "Helsinki,Finland,FI,east,60.17\n", ("not numbers", "Helsinki")),
    (HEADER + "Helsinki,Finland,FI,24.94,160.17\n", ("outside", "lat [-90, 90]")),
    (HEADER + "Helsinki,Finland,FI,inf,60.17\n", ("finite",)),
    (b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00" + bytes(200), ("Excel workbook", "save it as CSV")),
    (None, ("is a folder",)),
])
def test_bad_city_table(tmp_path, helsinki_pbf, content, fragments):
    table = tmp_path / "cities.csv"
    if content is None:
        table.mkdir()
    else:
        table.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    out = select(tmp_path, "--osm", helsinki_pbf, cities=table)
    assert_fails_cleanly(out, "cities.csv", *fragments)
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_semicolon_city_table_with_decimal_commas(tmp_path, helsinki_pbf):
    """Excel in a European locale writes ';' and decimal commas: read as meant."""
    table = tmp_path / "cities.csv"
    table.write_bytes("name;country;country_code;lon;lat\nHelsinki;Finland;FI;24,9441;60,1711\n"
                      .encode("utf-8-sig"))
    out = select(tmp_path, "--osm", helsinki_pbf, cities=table)
    rows = assert_selected(out, tmp_path / "out" / "seg.gpkg")
    assert {r["city"] for r in rows} == {"Helsinki"}


@pytest.mark.parametrize("option,value", [
    ("--radius", "nan"), ("--radius", "inf"), ("--radius", "-5"), ("--radius", "0"),
    ("--min-length", "-1"), ("--min-length", "nan"), ("--clip-length", "0"), ("--clip-length", "inf"),
    ("--min-spacing", "-5"), ("--min-spacing", "nan"), ("--max-per-city", "0"), ("--max-per-city", "-3"),
    ("--seed", "-1"),
])
def test_bad_numeric_option(tmp_path, helsinki_pbf, option, value):
    out = select(tmp_path, "--osm", helsinki_pbf, f"{option}={value}")
    message = assert_fails_cleanly(out, f"argument {option}", value)
    assert "usage:" in message
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value,fragment", [
    ("primary: [trunk]", "not JSON"),
    ('["trunk", "primary"]', "not a JSON object"),
    ('{"main": "primary"}', "list"),
    ('{"main": [1, 2]}', "list"),
    ('{"main": []}', "at least one"),
    ("{}", "at least one"),
])
def test_bad_road_classes(tmp_path, helsinki_pbf, value, fragment):
    out = select(tmp_path, "--osm", helsinki_pbf, f"--road-classes={value}")
    assert_fails_cleanly(out, "argument --road-classes", fragment, 'e.g. {"primary": ["trunk", "primary"]')


@pytest.mark.parametrize("field,value,fragment", [
    ("radius_m", float("nan"), "radius"), ("radius_m", 0.0, "radius"),
    ("clip_length_m", float("inf"), "clip length"),
    ("min_length_m", -1.0, "minimum length"), ("min_spacing_m", float("nan"), "spacing"),
    ("max_per_city", 0, "per city"), ("seed", -2, "seed"),
    ("neighbourhood_max_distance_m", float("nan"), "neighbourhood"),
])
def test_core_options_check_agrees_with_the_cli(field, value, fragment):
    """QGIS and Python callers go through the same check as the CLI's option types."""
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.selection.segments import SelectionOptions

    with pytest.raises(InputError) as err:
        SelectionOptions(**{field: value}).validate()
    assert fragment in str(err.value) and str(value) in str(err.value)


# --- 4 · outputs: checked first, written all-or-nothing -------------------------------------

def test_output_that_is_a_folder(tmp_path, helsinki_pbf):
    folder = tmp_path / "seg.gpkg"
    folder.mkdir()
    out = select(tmp_path, "--osm", helsinki_pbf, out=folder)
    message = assert_fails_cleanly(out, str(folder), "is a folder")
    assert "reading roads" not in message  # refused before any work
    assert list(folder.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == ["seg.gpkg"]


def test_output_under_a_file(tmp_path, helsinki_pbf):
    blocker = tmp_path / "results"
    blocker.write_text("notes")
    out = select(tmp_path, "--osm", helsinki_pbf, out=blocker / "seg.gpkg")
    message = assert_fails_cleanly(out, "results is a file, not a folder")
    assert "reading roads" not in message and blocker.read_text() == "notes"


@pytest.mark.parametrize("blocked", ["seg.manifest.json", "seg.summary.html"])
def test_manifest_or_summary_cannot_be_written(tmp_path, helsinki_pbf, blocked):
    out_dir = tmp_path / "out"
    (out_dir / blocked).mkdir(parents=True)
    out = select(tmp_path, "--osm", helsinki_pbf)
    message = assert_fails_cleanly(out, str(out_dir / blocked), "is a folder")
    assert "reading roads" not in message
    assert sorted(p.name for p in out_dir.iterdir()) == [blocked]


@pytest.mark.parametrize("earlier_run", [False, True])
def test_disk_full_mid_write_leaves_nothing_partial(tmp_path, helsinki_pbf, earlier_run):
    out_dir = tmp_path / "out"
    before = {}
    if earlier_run:
        assert_selected(select(tmp_path, "--osm", helsinki_pbf, "--max-per-city", "1"), out_dir / "seg.gpkg")
        before = {name: (out_dir / name).read_bytes() for name in OUTPUTS}
    out = select(tmp_path, "--osm", helsinki_pbf, preexec_fn=file_size_limit(40_000))
    assert_fails_cleanly(out, str(out_dir / "seg.gpkg"), "file size limit")
    assert_no_partial_outputs(out_dir)
    after = {p.name: p.read_bytes() for p in out_dir.iterdir()} if out_dir.exists() else {}
    assert after == before  # nothing new, and an earlier result stays whole
    assert_selected(select(tmp_path, "--osm", helsinki_pbf), out_dir / "seg.gpkg")  # re-run works


def test_existing_output_is_replaced_not_appended(tmp_path, helsinki_pbf):
    gpkg = tmp_path / "out" / "seg.gpkg"
    assert len(assert_selected(select(tmp_path, "--osm", helsinki_pbf), gpkg)) >= 2
    rows = assert_selected(select(tmp_path, "--osm", helsinki_pbf, "--max-per-city", "1"), gpkg)
    assert len(rows) == 1
    manifest = json.loads(gpkg.with_suffix(".manifest.json").read_text(encoding="utf-8"))
    assert manifest["options"]["max_per_city"] == 1


def test_qgis_output_that_is_a_folder(tmp_path, helsinki_pbf, qgis_env):
    folder = tmp_path / "seg.gpkg"
    folder.mkdir()
    out = run_qgis(qgis_env, "select_segments", CITIES=CITIES, SOURCE=0, OSM_FILE=helsinki_pbf, OUTPUT=folder)
    text = assert_qgis_fails_cleanly(out, str(folder), "is a folder")
    assert "reading roads" not in text  # refused before any work
    assert list(folder.iterdir()) == [] and [p.name for p in tmp_path.iterdir()] == ["seg.gpkg"]


# --- 5 · an output that is one of the run's inputs is refused before it is touched ----------

@pytest.mark.parametrize("victim,fragments", [
    ("osm", ("is the OSM file (--osm)",)),
    ("cities", ("is the city table (--cities)",)),
    ("cities_as_manifest", ("run manifest", "is the city table (--cities)")),
])
def test_output_that_is_an_input(tmp_path, helsinki_pbf, victim, fragments):
    import shutil

    osm = tmp_path / "h.osm.pbf"
    shutil.copy(helsinki_pbf, osm)
    cities = tmp_path / ("seg.manifest.json" if victim == "cities_as_manifest" else "c.csv")
    shutil.copy(CITIES, cities)
    target = {"osm": osm, "cities": cities, "cities_as_manifest": tmp_path / "seg.gpkg"}[victim]
    before = {p: p.read_bytes() for p in (osm, cities)}
    out = select(tmp_path, "--osm", osm, cities=cities, out=target)
    message = assert_fails_cleanly(out, str(target if victim != "cities_as_manifest" else cities), *fragments,
                                   "must not replace an input")
    assert "reading roads" not in message  # refused before any reading
    assert {p: p.read_bytes() for p in (osm, cities)} == before  # both inputs untouched
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == sorted({osm.name, cities.name})
    if victim == "cities":  # the fix the message gives: another file name
        assert_selected(select(tmp_path, "--osm", osm, cities=cities, out=tmp_path / "seg.gpkg"), tmp_path / "seg.gpkg")


def test_qgis_output_that_is_the_osm_file(tmp_path, helsinki_pbf, qgis_env):
    import shutil

    osm = tmp_path / "roads.gpkg"  # Processing adds .gpkg to the output, so only a .gpkg input can collide
    shutil.copy(helsinki_pbf, osm)
    before = osm.read_bytes()
    out = run_qgis(qgis_env, "select_segments", CITIES=CITIES, SOURCE=0, OSM_FILE=osm, OUTPUT=osm)
    text = assert_qgis_fails_cleanly(out, str(osm), "is the OSM file", "must not replace an input")
    assert "reading roads" not in text
    assert osm.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["roads.gpkg"]
