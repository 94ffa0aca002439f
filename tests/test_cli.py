"""The command line: help a newcomer can follow, real runs, clean errors (no traceback)."""
from __future__ import annotations

import subprocess
import sys

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
        "report": ("--evaluation", "--out", "--title"),
    }.items():
        out = _cli(command, "--help")
        assert out.returncode == 0, out.stderr
        assert [flag for flag in flags if flag not in out.stdout] == [], command


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
    curate = _cli("curate", "--store", str(store), "--siglip-model", "", "--vistas-model", "", "-q")
    assert curate.returncode == 0, curate.stderr[-2000:]
    assert "note:" in curate.stdout and "curation:" in curate.stdout
    coverage = _cli("coverage", "--store", str(store), "--out", str(tmp_path / "coverage.gpkg"))
    assert coverage.returncode == 0 and "longest gap" in coverage.stdout
    for text in (out.stdout, out.stderr, curate.stdout, curate.stderr, coverage.stdout, coverage.stderr):
        assert TOKEN not in text


def test_fetch_without_token_says_how(tmp_path):
    import os

    env = {k: v for k, v in os.environ.items() if k != "MAPILLARY_ACCESS_TOKEN"}
    out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "fetch-mapillary", "--store",
                          str(tmp_path / "s.sqlite")], cwd=REPO, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2 and "MAPILLARY_ACCESS_TOKEN" in out.stderr and "Traceback" not in out.stderr
