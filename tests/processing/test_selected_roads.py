"""Roads picked on the map: fetch and evaluate take a layer of roads with "Selected features
only", and only the selected roads reach their outputs (issue 25). The evaluate test also checks
that a road's scores do not depend on which other roads were selected."""
from __future__ import annotations

import csv

import pytest
from qgis.core import (QgsProcessingException, QgsProcessingFeatureSourceDefinition, QgsProject,
                       QgsVectorLayer)

from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.core.store.store import BenchmarkStore
from mapillary_server import TOKEN, FakeMapillary, fake_images_along
from release_fixture import make_release
from tiny_models import make_tiny_dinov2


def _selected(layer: QgsVectorLayer, ids: list[str]) -> QgsProcessingFeatureSourceDefinition:
    layer.selectByExpression(" OR ".join(f"\"segment_id\" = '{i}'" for i in ids))
    assert layer.selectedFeatureCount() == len(ids)
    return QgsProcessingFeatureSourceDefinition(layer.id(), True)


def test_fetch_three_roads_selected_on_the_map(qgis_provider, helsinki_pbf, tmp_path, monkeypatch):
    import processing
    from geofidelity_plugin.core.selection.writers import read_segments_gpkg

    segments = tmp_path / "segments.gpkg"
    processing.run("geofidelity:select_segments", {"CITIES": str(resource("data", "demo_cities.csv")),
                                                   "OSM_FILE": str(helsinki_pbf), "OUTPUT": str(segments),
                                                   "MIN_LENGTH": 300, "MIN_SPACING": 300, "MAX_PER_CITY": 6})
    rows = read_segments_gpkg(segments)
    assert len(rows) >= 5
    images = []
    for n, row in enumerate(rows):
        images += fake_images_along(list(row["geometry"].coords), 6, start_id=4_200_000_000_000 + n * 1_000_000)
    layer = QgsVectorLayer(f"{segments}|layername=segments", "segments", "ogr")
    assert layer.isValid()
    QgsProject.instance().addMapLayer(layer)
    picked = sorted(r["segment_id"] for r in rows)[1:4]
    monkeypatch.setenv("MAPILLARY_ACCESS_TOKEN", TOKEN)
    store = tmp_path / "store.sqlite"
    with FakeMapillary(images) as fake:
        result = processing.run("geofidelity:fetch_mapillary", {
            # the segments layer of the map, loaded into the store; only the selected roads fetched
            "STORE": str(store), "SEGMENTS": layer.id(), "ONLY_SEGMENTS": _selected(layer, picked),
            "BASE_URL": fake.base_url, "OUTPUT": str(tmp_path / "images.gpkg")})
    assert layer.selectedFeatureCount() == 3  # the run reads the selection and leaves it as it was
    with BenchmarkStore(store, create=False) as s:
        assert len(s.segments()) == len(rows)  # the whole layer is in the store
        assert {c["segment_id"] for c in s.candidates()} == set(picked)
    points = QgsVectorLayer(f"{result['OUTPUT']}|layername=reference_images", "p", "ogr")
    assert points.isValid() and points.featureCount() > 0
    assert {f["segment_id"] for f in points.getFeatures()} == set(picked)
    QgsProject.instance().removeMapLayer(layer.id())


def _scores(folder) -> dict:
    with open(folder / "per_panel_scores.csv", newline="") as fh:
        return {(r["model"], r["condition"], r["segment_id"]): r for r in csv.DictReader(fh)}


def test_evaluate_roads_selected_on_the_map(qgis_provider, tmp_path):
    import processing

    root = make_release(tmp_path / "release")
    store = tmp_path / "store.sqlite"
    processing.run("geofidelity:import_release", {"RELEASE_ROOT": str(root), "STORE": str(store)})
    processing.run("geofidelity:build_galleries", {"STORE": str(store), "KEEP_EXISTING": True})
    model = make_tiny_dinov2(tmp_path / "dinov2")
    common = {"STORE": str(store), "FEATURE_MODEL": str(model), "BOOTSTRAP": 200, "CONDITION": "L1"}
    full = processing.run("geofidelity:evaluate", {**common, "OUTPUT_FOLDER": str(tmp_path / "all")})
    layer = QgsVectorLayer(f"{full['SEGMENT_SCORES']}", "scores", "ogr")
    assert layer.isValid() and layer.featureCount() == 4
    QgsProject.instance().addMapLayer(layer)
    picked = ["b001", "b002", "b004"]
    part = processing.run("geofidelity:evaluate", {**common, "ONLY_SEGMENTS": _selected(layer, picked),
                                                   "OUTPUT_FOLDER": str(tmp_path / "three")})
    assert layer.selectedFeatureCount() == 3
    roads = QgsVectorLayer(part["SEGMENT_SCORES"], "three", "ogr")
    assert sorted(f["segment_id"] for f in roads.getFeatures()) == picked
    # a layer this test owns goes before the failing run below: QGIS keeps a failed algorithm's
    # Python frames (this one too) to the end, and a layer freed after GDAL's shutdown segfaults
    del roads
    three, every = _scores(tmp_path / "three"), _scores(tmp_path / "all")
    assert {key[2] for key in three} == set(picked)
    # a road's scores are those of the run over every road (same γ, split, negatives and anchors)
    for key, row in three.items():
        for metric in ("cos_sim", "mmd2", "margin_hard", "top1", "rank"):
            assert float(row[metric]) == pytest.approx(float(every[key][metric]), abs=1e-9), (key, metric)
    import json

    manifest = json.loads((tmp_path / "three" / "evaluation.manifest.json").read_text())
    assert manifest["options"]["only_segments"] == picked
    # an empty selection is refused with what to do, not run over every road
    layer.removeSelection()
    with pytest.raises(QgsProcessingException, match="select at least one road"):
        processing.run("geofidelity:evaluate", {**common, "ONLY_SEGMENTS": QgsProcessingFeatureSourceDefinition(
            layer.id(), True), "OUTPUT_FOLDER": str(tmp_path / "none")})
    QgsProject.instance().removeMapLayer(layer.id())


def test_evaluate_offers_the_feature_models_the_backend_has_first(qgis_provider, tmp_path, monkeypatch):
    """A models folder holding DINOv2-S/14 only: Evaluate lists it first and takes it as the
    default (no error on a fresh install that has one model); the method's B/14 is still listed,
    to download."""
    from geofidelity_plugin.core.models.registry import model_entry
    from geofidelity_plugin.core.vision.model_ids import DINOV2_BASE, DINOV2_SMALL
    from geofidelity_plugin.qgis_side.feature_models import feature_model_choices
    from processing_algorithms.evaluate import EvaluateAlgorithm

    models = tmp_path / "models"
    entry = model_entry(DINOV2_SMALL)
    snapshot = models / ("models--" + DINOV2_SMALL.replace("/", "--")) / "snapshots" / entry.revision
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    monkeypatch.setenv("GEOFIDELITY_MODELS_DIR", str(models))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))
    usable, missing = feature_model_choices()
    assert usable[0] == DINOV2_SMALL and DINOV2_BASE in missing
    algorithm = EvaluateAlgorithm()
    algorithm.initAlgorithm()
    param = algorithm.parameterDefinition("FEATURE_MODEL")
    assert param.defaultValue() == DINOV2_SMALL
    hints = param.metadata()["widget_wrapper"]["value_hints"]
    assert hints[0] == DINOV2_SMALL and hints.index(DINOV2_BASE) > 0
    # an empty models folder: the method's model stays the default (the run then says how to get it)
    monkeypatch.setenv("GEOFIDELITY_MODELS_DIR", str(tmp_path / "none"))
    usable, _ = feature_model_choices()
    algorithm = EvaluateAlgorithm()
    algorithm.initAlgorithm()
    expected = usable[0] if usable else DINOV2_BASE  # a clone's offline S/14 counts as usable
    assert algorithm.parameterDefinition("FEATURE_MODEL").defaultValue() == expected
