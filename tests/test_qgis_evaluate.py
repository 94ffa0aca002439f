"""The evaluation algorithms inside real QGIS: import_release → build_galleries → evaluate with a
tiny DINOv2 loaded through the real code; the margin layer loads with its diverging style."""
from __future__ import annotations

import pytest
from qgis.core import QgsProcessingException, QgsProject

from test_release import make_release
from tiny_models import make_tiny_dinov2


def test_release_to_margin_layer(qgis_provider, tmp_path):
    import processing

    root = make_release(tmp_path / "release")
    store = tmp_path / "store.sqlite"
    imported = processing.run("geofidelity:import_release", {"RELEASE_ROOT": str(root), "STORE": str(store)})
    assert imported["SEGMENTS"] == 4 and imported["MISSING_FILES"] == 0
    built = processing.run("geofidelity:build_galleries", {"STORE": str(store), "KEEP_EXISTING": True})
    assert built["GALLERIES"] == 4
    model = make_tiny_dinov2(tmp_path / "dinov2")
    result = processing.runAndLoadResults("geofidelity:evaluate", {
        "STORE": str(store), "FEATURE_MODEL": str(model), "OUTPUT_FOLDER": str(tmp_path / "eval"),
        "BOOTSTRAP": 200, "CONDITION": "L1"})
    assert result["PANELS"] >= 8
    layers = [l for l in QgsProject.instance().mapLayers().values() if l.name().startswith("GeoFidelity Δhard")]
    assert layers, "margin layer not loaded"
    layer = layers[-1]
    assert layer.featureCount() == 4
    renderer = layer.renderer()
    assert renderer.type() == "graduatedSymbol" and renderer.classAttribute() == "margin_hard"
    bounds = sorted((r.lowerValue(), r.upperValue()) for r in renderer.ranges())
    assert any(low < 0 == high for low, high in bounds) and any(low == 0 < high for low, high in bounds)
    QgsProject.instance().removeMapLayer(layer.id())


def test_evaluate_without_model_offline(qgis_provider, tmp_path):
    import processing

    root = make_release(tmp_path / "release")
    store = tmp_path / "store.sqlite"
    processing.run("geofidelity:import_release", {"RELEASE_ROOT": str(root), "STORE": str(store)})
    with pytest.raises(QgsProcessingException, match="facebook/dinov2-base"):
        processing.run("geofidelity:evaluate", {"STORE": str(store), "FEATURE_MODEL": "facebook/dinov2-base",
                                                "OUTPUT_FOLDER": str(tmp_path / "eval")})
