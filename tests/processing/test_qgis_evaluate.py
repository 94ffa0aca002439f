"""The evaluation algorithms inside real QGIS: import_release → build_galleries → evaluate with a
tiny DINOv2 loaded through the real code; the margin layer loads with its diverging style."""
from __future__ import annotations

import pytest
from qgis.core import QgsProcessingException, QgsProject

from release_fixture import make_release
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
    layers = [l for l in QgsProject.instance().mapLayers().values() if l.name().startswith("GeoFidelity scores")]
    assert layers, "margin layer not loaded"
    layer = layers[-1]
    assert layer.featureCount() == 4
    # as the demo project shows it: readable field names and a map tip (a release's segments are points:
    # one point style; a line layer gets the demo project's four variants too, tests/qgis_side/test_project_file.py)
    assert layer.attributeDisplayName(layer.fields().indexOf("margin_hard")) == "Δhard"
    assert "margin_hard" in layer.mapTipTemplate() and "street_name" in layer.mapTipTemplate()
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


def test_alternative_score_styles(qgis_provider, tmp_path):
    """Every shipped score style loads on a real segment_scores layer, keyed on its metric, with
    the line width driven by the reference-panel size."""
    from qgis.core import QgsSymbolLayer, QgsVectorLayer

    from eval_fixtures import TableEmbedder, make_store
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
    from geofidelity_plugin.core.evaluation.outputs import write_outputs
    from geofidelity_plugin.core.resources import resource

    store, vectors = make_store(tmp_path / "b", per_city=1, refs=6, models=("m1",))
    result = evaluate_store(store, TableEmbedder(vectors), EvaluationOptions(n_bootstrap=50))
    # lines, as segments from select_segments have
    with store.transaction():
        for s in store.segments():
            lon, lat = s["centroid_lon"], s["centroid_lat"]
            store.db.execute("UPDATE segments SET geometry_wkt = ? WHERE segment_id = ?",
                             (f"LINESTRING ({lon} {lat}, {lon + 0.005} {lat})", s["segment_id"]))
    paths = write_outputs(tmp_path / "e", result, store.segments(),
                          evaluation_manifest(result, EvaluationOptions(), store, [], []), "m1", "L1")
    store.close()
    layer = QgsVectorLayer(f"{paths['gpkg']}|layername=segment_scores", "s", "ogr")
    assert layer.isValid()
    for name, attribute in (("segment_margin_hard", "margin_hard"), ("segment_top1", "top1"),
                            ("segment_cos_sim", "cos_sim"), ("segment_gads", "gads")):
        message, ok = layer.loadNamedStyle(str(resource("styles", f"{name}.qml")))
        assert ok, message
        renderer = layer.renderer()
        assert renderer.classAttribute() == attribute
        ranges = renderer.ranges()  # keep the copies alive while their symbols are used
        from geofidelity_plugin.core.evaluation.score_names import SCORE_NAMES

        assert all(r.label().startswith(SCORE_NAMES[attribute] + " ") for r in ranges), name  # the legend names it
        symbol = ranges[0].symbol()
        width = symbol.symbolLayer(0).dataDefinedProperties().property(QgsSymbolLayer.Property.StrokeWidth)
        assert width.isActive() and "n_reference" in width.expressionString()
        assert layer.labelsEnabled()


def test_generate_then_evaluate(qgis_provider, tmp_path):
    """Stage 3 in QGIS: a tiny Stable Diffusion (custom folder, loaded through the real code)
    generates panels for the release's segments; a re-run resumes; evaluate scores them."""
    import processing

    from tiny_models import make_tiny_sd

    root = make_release(tmp_path / "release")
    store = tmp_path / "store.sqlite"
    processing.run("geofidelity:import_release", {"RELEASE_ROOT": str(root), "STORE": str(store)})
    sd = make_tiny_sd(tmp_path / "tiny-sd")
    params = {"STORE": str(store), "GENERATOR": 6, "CUSTOM_FOLDER": str(sd), "CUSTOM_NAME": "tiny-sd",
              "CONDITIONS": [0, 1, 3], "SAMPLES": 2, "STEPS": 2, "RESOLUTION": 32, "GUIDANCE": 5.0}
    first = processing.run("geofidelity:generate_panels", params)
    # L0 and L1 for the 4 blocks, the wrong-street control for the 3 Helsinki ones (London is alone)
    assert first["GENERATED"] == (4 + 4 + 3) * 2
    again = processing.run("geofidelity:generate_panels", params)
    assert again["GENERATED"] == 0 and again["KEPT"] == first["GENERATED"]
    from geofidelity_plugin.core.store.store import BenchmarkStore

    with BenchmarkStore(store, create=False) as s:
        panels = {k: v for k, v in s.generated_panels().items() if k[0] == "tiny-sd"}
    assert panels and all(len(v) == 2 and all(g["seed"] is not None for g in v) for v in panels.values())
    model = make_tiny_dinov2(tmp_path / "dinov2")
    result = processing.run("geofidelity:evaluate", {"STORE": str(store), "FEATURE_MODEL": str(model),
                                                     "MODEL": "tiny-sd", "CONDITION": "L1", "BOOTSTRAP": 100,
                                                     "OUTPUT_FOLDER": str(tmp_path / "eval")})
    assert result["PANELS"] >= len(panels)
