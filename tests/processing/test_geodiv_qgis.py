"""``geofidelity:geodiv`` in real QGIS (docs/method.md, GeoDiv): an answers CSV through the
backend process gives the same group table as the core computation."""
from __future__ import annotations

import csv
import json

from geofidelity_plugin.core.geodiv import questions as qs
from geofidelity_plugin.core.geodiv.answers import score_answers


def test_geodiv_algorithm_scores_an_answers_csv(qgis_provider, tmp_path):
    import processing

    qset = tmp_path / "q.json"
    qset.write_text(json.dumps({"questions": [
        {"id": "bg", "axis": "background", "question": "?", "options": ["trees", "hills", "water"]},
        {"id": "affluence", "axis": "affluence", "question": "?", "options": ["1", "2", "3", "4", "5"]}]}))
    rows = [{"image_id": f"i{i}", "question_id": q, "answer": a, "model": m, "city": "lyon"}
            for i, (m, bg, aff) in enumerate([("real", "trees", "3"), ("real", "hills", "4"), ("sdxl", "trees", "2"),
                                              ("sdxl", "trees", "2")])
            for q, a in (("bg", bg), ("affluence", aff))]
    answers = tmp_path / "answers.csv"
    with answers.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = processing.run("geofidelity:geodiv", {"ANSWERS": str(answers), "QUESTIONS": str(qset),
                                                   "GROUP_BY": "model,city", "OUTPUT_FOLDER": str(tmp_path / "out")})
    with open(result["GROUPS"], newline="") as handle:
        groups = list(csv.DictReader(handle))
    expected = score_answers(rows, qs.load(qset), ("model", "city"))["groups"]
    assert [g["model"] for g in groups] == ["real", "sdxl"]
    for got, want in zip(groups, expected):
        assert abs(float(got["vdi_background"]) - want["vdi_background"]) < 1e-5
        assert abs(float(got["affluence_mean"]) - want["affluence_mean"]) < 1e-9
    assert float(groups[1]["vdi_background"]) == 0.0  # the model drew trees every time
    with open(tmp_path / "out" / "geodiv_model_minus_real.csv", newline="") as handle:
        diff = list(csv.DictReader(handle))
    assert diff[0]["model"] == "sdxl" and float(diff[0]["affluence_mean_minus_real"]) == -1.5


def test_geodiv_algorithm_on_a_store_gives_a_styled_city_layer(qgis_provider, tmp_path):
    import processing
    from qgis.core import QgsProcessingContext, QgsProcessingFeedback, QgsProject, QgsVectorLayer

    from eval_fixtures import make_store
    from geofidelity_plugin.core.geodiv.standin import make_standin_vlm

    store, _ = make_store(tmp_path, per_city=2, refs=3)
    store.close()
    qset = tmp_path / "q.json"
    qset.write_text(json.dumps({"questions": [
        {"id": "bg", "axis": "background", "question": "?", "options": ["trees", "hills"]}]}))
    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    project = QgsProject()
    context.setProject(project)
    result = processing.run("geofidelity:geodiv", {
        "STORE": str(tmp_path / "store.sqlite"), "VQA_MODEL": str(make_standin_vlm(tmp_path / "vlm")),
        "QUESTIONS": str(qset), "GROUP_BY": "model,city", "PER_GROUP": 2, "DEVICE": "cpu",
        "OUTPUT_FOLDER": str(tmp_path / "out")}, context=context, feedback=feedback)
    layer = QgsVectorLayer(f"{result['CITY_LAYER']}|layername=geodiv_cities", "cities", "ogr")
    assert layer.isValid() and layer.featureCount() >= 2
    assert {f["model"] for f in layer.getFeatures()} == {"m1", "m2"}
    assert all(f["vdi_overall_minus_real"] is not None for f in layer.getFeatures())
    details = context.layersToLoadOnCompletion()
    assert any("geodiv_cities" in uri for uri in details)
