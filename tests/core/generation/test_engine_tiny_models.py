"""The whole evaluation engine on tiny random models built from configs, saved, and loaded
through the real loading code (transformers from a folder), with a warm-cache re-run."""
from __future__ import annotations

import json

import pytest

from eval_fixtures import make_store
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
from geofidelity_plugin.core.evaluation.workflow import run_evaluation
from tiny_models import make_tiny_dinov2, make_tiny_mask2former


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from geofidelity_plugin.core.vision.semantics import load_attribute_mapping

    root = tmp_path_factory.mktemp("tiny")
    names = load_attribute_mapping().class_names
    id2label = dict(enumerate(names)) if isinstance(names, (list, tuple)) else dict(names)
    return make_tiny_dinov2(root / "dinov2"), make_tiny_mask2former(root / "m2f", id2label)


def test_engine_end_to_end_and_warm_cache(tiny, tmp_path):
    dinov2, m2f = tiny
    store, _ = make_store(tmp_path / "bench", per_city=2, refs=6, models=("m1",))
    store.close()
    options = EvaluationOptions(n_bootstrap=200)
    cache = tmp_path / "features.sqlite"
    first = run_evaluation(tmp_path / "bench" / "store.sqlite", tmp_path / "out1", feature_model=str(dinov2),
                           options=options, semantic_model=str(m2f), cache_path=cache, batch_size=8)
    n_images = 6 * 6 + 4 * 4 * 6
    assert first.result.feature_stats == {"images": n_images, "computed": n_images, "cached": 0, "failed": 0}
    rows = first.result.rows
    assert {r["model"] for r in rows} >= {"m1", "anchor:held_out_real", "anchor:random_global"}
    assert all(r["gads"] is not None and 0 <= r["gads"] <= 1 for r in rows)
    assert all(-1 <= r["cos_sim"] <= 1 and r["mmd2"] >= 0 for r in rows)
    manifest = json.loads(first.paths["manifest"].read_text())
    assert manifest["models"][0]["id"] or manifest["models"][0]
    assert manifest["gamma"] > 0 and manifest["options"]["retrieval_mode"] == "panel"
    second = run_evaluation(tmp_path / "bench" / "store.sqlite", tmp_path / "out2", feature_model=str(dinov2),
                            options=options, semantic_model=str(m2f), cache_path=cache, batch_size=8)
    assert second.result.feature_stats["computed"] == 0
    assert second.result.feature_stats["cached"] == n_images
    assert second.result.rows == rows
    assert (tmp_path / "out1" / "per_panel_scores.csv").read_text() == (tmp_path / "out2" / "per_panel_scores.csv").read_text()


def test_missing_image_listed(tiny, tmp_path):
    dinov2, _ = tiny
    store, _ = make_store(tmp_path / "bench", per_city=2, refs=6, models=("m1",))
    victim = next(iter(store.generated_panels().values()))[0]["abs_path"]
    store.close()
    import os

    os.remove(victim)
    run = run_evaluation(tmp_path / "bench" / "store.sqlite", tmp_path / "out", feature_model=str(dinov2),
                         options=EvaluationOptions(n_bootstrap=100), cache_path=tmp_path / "c.sqlite")
    assert victim in run.result.failed_images
    assert victim in run.paths["failed_images"].read_text()
    assert any(r["n_generated"] == 3 for r in run.result.rows)
