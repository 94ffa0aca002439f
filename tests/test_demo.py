"""`make demo`'s job: the segments GeoPackage, a .qgz that opens with the styled layer, an HTML
summary, and the paths printed."""
from __future__ import annotations

import subprocess
import sys

from qgis.core import QgsProject

from conftest import REPO


def test_demo_outputs(qgis_app, tmp_path, helsinki_pbf):
    out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "demo", "--out", str(tmp_path)],
                         cwd=REPO, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    for name in ("segments.gpkg", "geofidelity_demo.qgz", "segments.summary.html", "segments.manifest.json"):
        assert (tmp_path / name).exists(), name
        assert str(tmp_path / name) in out.stdout
    project = QgsProject()
    assert project.read(str(tmp_path / "geofidelity_demo.qgz"))
    layers = project.mapLayersByName("GeoFidelity segments")
    assert len(layers) == 1 and layers[0].isValid() and layers[0].featureCount() >= 5
    assert layers[0].renderer().type() == "categorizedSymbol"
    html = (tmp_path / "segments.summary.html").read_text()
    assert "Addressability" in html and "Per road class" in html
