"""The command line: help a newcomer can follow, real runs, clean errors (no traceback)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO
from geofidelity_plugin.core.resources import resource


def _cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "geofidelity_plugin", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def test_help():
    out = _cli("--help")
    assert out.returncode == 0 and "select-segments" in out.stdout and "demo" in out.stdout
    out = _cli("select-segments", "--help")
    assert out.returncode == 0
    for flag in ("--cities", "--osm", "--overpass", "--min-length", "--clip-length", "--min-spacing", "--seed"):
        assert flag in out.stdout


def test_output_commands_offer_every_choice_of_their_algorithms():
    """The Processing algorithms run these commands: each of their parameters has its option."""
    for command, flags in {
        "generate": ("--store", "--generator", "--custom-folder", "--steps", "--guidance", "--dtype", "--resolution",
                     "--samples", "--seed", "--shared-noise", "--conditions", "--templates", "--device", "--out"),
        "import-generated": ("--store", "--folder", "--model", "--replace"),
        "build-galleries": ("--store", "--segments", "--seed", "--rebuild"),
        "import-release": ("--release", "--store", "--seed"),
        "report": ("--evaluation", "--out", "--title", "--coverage"),
    }.items():
        out = _cli(command, "--help")
        assert out.returncode == 0, out.stderr
        assert [flag for flag in flags if flag not in out.stdout] == [], command


def test_stage_1_and_2_commands_offer_every_choice_of_their_algorithms():
    """Each parameter of the select, fetch, curate and coverage algorithms has its option, with the
    default the algorithm shows (both read the stdlib options modules)."""
    from geofidelity_plugin.backend.cli import build_parser
    from geofidelity_plugin.core.reference_panels import options as panels
    from geofidelity_plugin.core.selection.options import DEFAULT_OVERPASS_RETRIES, SelectionOptions

    for command, flags in {
        "select-segments": ("--cities", "--osm", "--overpass", "--roads", "--places", "--overpass-retries", "--radius",
                            "--min-length", "--clip-length", "--min-spacing", "--max-per-city", "--seed",
                            "--road-classes", "--no-other", "--no-context", "--neighbourhood-max-distance", "--out"),
        "fetch-mapillary": ("--store", "--segments", "--base-url", "--buffer", "--tile-step", "--workers",
                            "--requests-per-second", "--timeout", "--out"),
        "curate": ("--store", "--audit-csv", "--siglip-model", "--vistas-model", "--buffer", "--solar-min",
                   "--siglip-threshold", "--laplacian-min", "--luma-min", "--luma-max", "--colourfulness-min",
                   "--aspect-min", "--aspect-max", "--phash-radius", "--thinning", "--cap", "--seed", "--out"),
        "coverage": ("--store", "--radius", "--gap-radius", "--out"),
    }.items():
        out = _cli(command, "--help")
        assert out.returncode == 0, out.stderr
        assert [flag for flag in flags if flag not in out.stdout] == [], command
    parser = build_parser()
    select = parser.parse_args(["select-segments", "--cities", "c.csv", "--osm", "x.osm.pbf", "--out", "o.gpkg"])
    d = SelectionOptions()
    assert (select.radius, select.min_length, select.clip_length, select.min_spacing, select.max_per_city,
            select.seed, select.neighbourhood_max_distance, select.overpass_retries, select.no_other,
            select.no_context) == (
        d.radius_m, d.min_length_m, d.clip_length_m, d.min_spacing_m, d.max_per_city, d.seed,
        d.neighbourhood_max_distance_m, DEFAULT_OVERPASS_RETRIES, not d.include_other, not d.write_context)
    curate = parser.parse_args(["curate", "--store", "s.sqlite"])
    c = panels.CurationOptions()
    for attr in ("buffer_m", "solar_min_deg", "siglip_threshold", "laplacian_var_min", "luma_min", "luma_max",
                 "colourfulness_min", "aspect_min", "aspect_max", "phash_radius", "thinning_m", "siglip_model",
                 "vistas_model", "seed"):
        assert getattr(curate, attr) == getattr(c, attr), attr
    assert curate.cap == c.cap_per_segment
    fetch = parser.parse_args(["fetch-mapillary", "--store", "s.sqlite"])
    assert (fetch.buffer, fetch.tile_step, fetch.workers, fetch.requests_per_second, fetch.timeout) == (
        panels.FETCH_BUFFER_M, panels.FETCH_TILE_STEP_M, panels.FETCH_WORKERS, panels.FETCH_REQUESTS_PER_SECOND,
        panels.FETCH_TIMEOUT_S)
    coverage = parser.parse_args(["coverage", "--store", "s", "--out", "c.gpkg"])
    assert (coverage.radius, coverage.gap_radius) == (panels.COVERAGE_RADIUS_M, panels.COVERAGE_GAP_RADIUS_M)


def _write_layer(path, geometry: str, crs: str, properties: dict, features: list) -> None:
    import fiona
    from fiona.crs import CRS

    with fiona.open(path, "w", driver="GPKG", schema={"geometry": geometry, "properties": properties},
                    crs=CRS.from_string(crs)) as dst:
        dst.writerecords(features)


def test_select_segments_from_layer_files(tmp_path, helsinki_pbf):
    """Cities as points in a projected CRS, roads as a line layer and neighbourhoods as points:
    the same segments as from the OSM file they were made of."""
    import json

    from pyproj import Transformer

    from geofidelity_plugin.core.selection.osm_file import read_osm_file
    from geofidelity_plugin.core.selection.writers import read_segments_gpkg

    data = read_osm_file(helsinki_pbf)
    lon, lat = 24.9441, 60.1711  # demo_cities.csv
    x, y = Transformer.from_crs("EPSG:4326", "EPSG:3067", always_xy=True).transform(lon, lat)
    _write_layer(tmp_path / "cities.gpkg", "Point", "EPSG:3067",
                 {"name": "str", "country": "str", "country_code": "str"},
                 [{"geometry": {"type": "Point", "coordinates": (x, y)},
                   "properties": {"name": "Helsinki", "country": "Finland", "country_code": "FI"}}])
    _write_layer(tmp_path / "roads.gpkg", "LineString", "EPSG:4326", {"name": "str", "highway": "str", "osm_id": "int"},
                 [{"geometry": {"type": "LineString", "coordinates": list(w.coords)},
                   "properties": {"name": w.name, "highway": w.highway, "osm_id": w.way_id}} for w in data.ways])
    _write_layer(tmp_path / "places.gpkg", "Point", "EPSG:4326", {"name": "str"},
                 [{"geometry": {"type": "Point", "coordinates": (p.lon, p.lat)}, "properties": {"name": p.name}}
                  for p in data.places])
    from_osm, from_layers = tmp_path / "osm.gpkg", tmp_path / "layers.gpkg"
    out = _cli("select-segments", "-q", "--cities", str(resource("data", "demo_cities.csv")),
               "--osm", str(helsinki_pbf), "--out", str(from_osm))
    assert out.returncode == 0, out.stderr
    out = _cli("select-segments", "-q", "--cities", str(tmp_path / "cities.gpkg"),
               "--roads", str(tmp_path / "roads.gpkg"), "--places", str(tmp_path / "places.gpkg"),
               "--out", str(from_layers))
    assert out.returncode == 0, out.stderr
    rows = read_segments_gpkg(from_layers)
    assert [r["segment_id"] for r in rows] == [r["segment_id"] for r in read_segments_gpkg(from_osm)]
    assert any(r["neighbourhood_source"] and r["neighbourhood"] for r in rows)  # named by the place points
    (city,) = json.loads(from_layers.with_suffix(".manifest.json").read_text(encoding="utf-8"))["inputs"]["cities"]
    assert (city["lon"], city["lat"]) == (pytest.approx(lon, abs=1e-7), pytest.approx(lat, abs=1e-7))
    wrong = _cli("select-segments", "--cities", str(tmp_path / "cities.gpkg"), "--osm", str(helsinki_pbf),
                 "--places", str(tmp_path / "places.gpkg"), "--out", str(tmp_path / "x.gpkg"))
    assert wrong.returncode == 2 and "--places" in wrong.stderr and "--roads" in wrong.stderr
    assert "Traceback" not in wrong.stderr and not (tmp_path / "x.gpkg").exists()
    no_name = _cli("select-segments", "--cities", str(tmp_path / "places.gpkg"),
                   "--roads", str(tmp_path / "roads.gpkg"), "--out", str(tmp_path / "x.gpkg"))
    assert no_name.returncode == 2 and "lacks field(s) country_code" in no_name.stderr


def test_select_segments(tmp_path, helsinki_pbf):
    target = tmp_path / "s.gpkg"
    out = _cli("select-segments", "--cities", str(resource("data", "demo_cities.csv")), "--osm",
               str(helsinki_pbf), "--out", str(target), "--min-length", "300")
    assert out.returncode == 0, out.stderr
    assert target.exists() and "segments →" in out.stdout
    assert "select segments" in out.stderr  # the progress bar


def test_bad_input_message(tmp_path):
    out = _cli("select-segments", "--cities", str(tmp_path / "none.csv"), "--osm", "x.osm.pbf",
               "--out", str(tmp_path / "s.gpkg"))
    assert out.returncode == 2
    assert "city table not found" in out.stderr and "Traceback" not in out.stderr


def test_stage2_commands_against_the_fake_graph_api(tmp_path, helsinki_pbf):
    import json
    import os

    from mapillary_server import TOKEN, FakeMapillary, fake_images_along
    from geofidelity_plugin.core.selection.writers import read_segments_gpkg

    segments = tmp_path / "s.gpkg"
    assert _cli("select-segments", "--cities", str(resource("data", "demo_cities.csv")), "--osm", str(helsinki_pbf),
                "--out", str(segments), "--min-length", "300", "--max-per-city", "2", "-q").returncode == 0
    images = []
    for n, row in enumerate(read_segments_gpkg(segments)):
        images += fake_images_along(list(row["geometry"].coords), 10, start_id=4_200_000_000_000 + n * 1_000_000)
    env = dict(os.environ, MAPILLARY_ACCESS_TOKEN=TOKEN)
    store = tmp_path / "bench" / "store.sqlite"
    with FakeMapillary(images) as fake:
        out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "fetch-mapillary", "--store", str(store),
                              "--segments", str(segments), "--base-url", fake.base_url, "--out",
                              str(tmp_path / "images.gpkg")], cwd=REPO, capture_output=True, text=True,
                             timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "images: 20" in out.stdout or "images: 2" in out.stdout
    curate = _cli("curate", "--store", str(store), "--siglip-model", "", "--vistas-model", "", "-q",
                  "--out", str(tmp_path / "curated.gpkg"), "--luma-max", "250", "--phash-radius", "4")
    assert curate.returncode == 0, curate.stderr[-2000:]
    assert "note:" in curate.stdout and "curation:" in curate.stdout
    options = json.loads((tmp_path / "curated.manifest.json").read_text(encoding="utf-8"))["options"]
    assert (options["luma_max"], options["phash_radius"], options["siglip_model"]) == (250.0, 4, None)
    coverage = _cli("coverage", "--store", str(store), "--out", str(tmp_path / "coverage.gpkg"))
    assert coverage.returncode == 0 and "longest gap" in coverage.stdout
    for text in (out.stdout, out.stderr, curate.stdout, curate.stderr, coverage.stdout, coverage.stderr):
        assert TOKEN not in text
    # what the QGIS algorithm reads: the layers with style and store, and the counts
    events = _cli("--events", "jsonl", "coverage", "--store", str(store), "--out", str(tmp_path / "cov2.gpkg"))
    lines = [json.loads(line) for line in events.stdout.splitlines()]
    assert events.returncode == 0 and lines[0]["event"] == "hello" and lines[-1]["event"] == "result"
    layers = {o["key"]: o for o in lines[-1]["outputs"]}
    assert layers["OUTPUT"]["layer"] == f"{tmp_path / 'cov2.gpkg'}|layername=coverage"
    assert layers["GAPS_LAYER"]["layer"].endswith("|layername=coverage_gaps")
    assert (layers["OUTPUT"]["style"], layers["GAPS_LAYER"]["style"]) == ("coverage_by_images.qml", "coverage_gaps.qml")
    assert layers["OUTPUT"]["properties"] == {"geofidelity/store": str(store.resolve())}
    assert lines[-1]["values"]["SEGMENTS"] == 2 and lines[-1]["values"]["GAPS"] >= 0


def test_fetch_without_token_says_how(tmp_path):
    import os

    env = {k: v for k, v in os.environ.items() if k != "MAPILLARY_ACCESS_TOKEN"}
    out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "fetch-mapillary", "--store",
                          str(tmp_path / "s.sqlite")], cwd=REPO, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2 and "MAPILLARY_ACCESS_TOKEN" in out.stderr and "Traceback" not in out.stderr
