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
