"""The notebook API (geofidelity_plugin.api): the CLI's stages called from Python, with the
CLI's options, outputs and messages — and the same files as the command line writes."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO
from geofidelity_plugin import api as gf
from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.core.selection.writers import read_segments_gpkg


def test_select_segments_from_python_equals_the_command_line(helsinki_pbf, tmp_path):
    cities = resource("data", "demo_cities.csv")
    run = gf.select_segments(cities=cities, osm=helsinki_pbf, out=tmp_path / "api.gpkg", min_length=300,
                             min_spacing=300, quiet=True)
    assert run.outputs["OUTPUT"] == str(tmp_path / "api.gpkg")
    assert run.layers["OUTPUT"].endswith("|layername=segments")
    assert run.values["SEGMENT_COUNT"] > 0
    done = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "select-segments", "--cities", str(cities),
                           "--osm", str(helsinki_pbf), "--out", str(tmp_path / "cli.gpkg"), "--min-length", "300",
                           "--min-spacing", "300", "--quiet"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    ours, theirs = read_segments_gpkg(tmp_path / "api.gpkg"), read_segments_gpkg(tmp_path / "cli.gpkg")
    assert len(ours) == run.values["SEGMENT_COUNT"]
    assert [(r["segment_id"], r["street_name"]) for r in ours] == [(r["segment_id"], r["street_name"]) for r in theirs]
    for a, b in zip(ours, theirs):
        assert a["geometry"].equals_exact(b["geometry"], 1e-9)


def test_a_failed_stage_raises_with_the_cli_message(tmp_path):
    with pytest.raises(gf.RunFailed) as failed:
        gf.build_galleries(store=tmp_path / "nowhere" / "store.sqlite")
    assert failed.value.kind == "input" and failed.value.exit_code == 2
    assert "store.sqlite" in failed.value.message
    # a usage mistake (an option out of its range) is the same kind of error, not a SystemExit
    with pytest.raises(gf.RunFailed) as failed:
        gf.select_segments(cities=tmp_path / "c.csv", osm=tmp_path / "x.pbf", out=tmp_path / "o.gpkg",
                           min_length="many")
    assert failed.value.kind == "input" and "--min-length" in failed.value.message


def test_options_are_the_cli_long_options():
    argv = gf.argv_for("evaluate", {"store": "s.sqlite", "out": "ev", "l2_normalise": True, "mmd_unbiased": False,
                                    "only_segments": ["b1", "b2"], "bootstrap": 200, "seed": None})
    assert argv == ["evaluate", "--store", "s.sqlite", "--out", "ev", "--l2-normalise", "--only-segments", "b1,b2",
                    "--bootstrap", "200"]
    # the Python name of an option whose destination differs from its flag works both ways
    assert gf.argv_for("curate", {"store": "s", "buffer": 20}) == gf.argv_for("curate", {"store": "s", "buffer_m": 20})
    with pytest.raises(TypeError, match="no option min_lenght .*min_length"):
        gf.argv_for("select-segments", {"min_lenght": 3})
    with pytest.raises(ValueError, match="unknown command 'score'"):
        gf.argv_for("score", {})
