"""``evaluate --export-features DIR`` through the real command line with a tiny DINOv2 (docs/method.md
§6 "Comparability with the field"): one ``.npz`` per model × condition and ``reference.npz``, read
with a plain ``numpy.load`` (no pickle), holding exactly the embeddings the run scored with their
image and segment ids; the index and the run manifest list them; and the field's metrics computed
from the exported arrays alone give ``table_comparability.csv``."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from eval_fixtures import make_store
from geofidelity_plugin.backend.cli import main
from geofidelity_plugin.core.evaluation.metrics.comparability import FieldReference, comparability_metrics
from geofidelity_plugin.core.store.store import BenchmarkStore
from tiny_models import make_tiny_dinov2


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    store, _ = make_store(root / "b", per_city=3, refs=6, models=("m1", "m/2"))
    store.close()
    dino = make_tiny_dinov2(root / "dino")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GEOFIDELITY_CACHE_DIR", str(root / "cache"))
        assert main(["evaluate", "--store", str(root / "b" / "store.sqlite"), "--out", str(root / "eval"),
                     "--feature-model", str(dino), "--bootstrap", "50", "--device", "cpu", "-q",
                     "--semantic-model", "none", "--clip-model", "none",
                     "--export-features", str(root / "features")]) == 0
    return root, dino


def _load(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as z:  # what another toolkit does
        return {k: z[k] for k in z.files}


def test_one_file_per_model_and_condition_with_the_scored_embeddings(exported, monkeypatch):
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache
    from geofidelity_plugin.core.vision.features import FeatureExtractor

    root, dino = exported
    index = json.loads((root / "features" / "features.json").read_text())
    names = sorted(e["file"] for e in index["sets"])
    assert names == sorted(f"{m}__{c}.npz" for m in ("m1", "m_2") for c in ("C_WRONG_STREET", "L0", "L1", "L2"))
    with BenchmarkStore(root / "b" / "store.sqlite", create=False) as store:
        generated = store.generated_panels()
        panels = store.reference_panels()
    paths = sorted({g["abs_path"] for imgs in generated.values() for g in imgs}
                   | {r["abs_path"] for imgs in panels.values() for r in imgs})
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(root / "cache"))
    with FeatureCache() as cache:  # the embeddings evaluate computed, read back
        result = FeatureExtractor(str(dino), device="cpu", batch_size=8, cache=cache).embed_paths(paths)
    assert result.computed == 0 and not result.failed
    embedding = dict(zip(paths, np.asarray(result.embeddings, dtype=np.float64)))
    store_root = (root / "b").resolve()
    for entry in index["sets"]:
        data = _load(root / "features" / entry["file"])
        images = [g for (m, c, _), imgs in sorted(generated.items()) if (m, c) == (entry["model"], entry["condition"])
                  for g in imgs]
        assert data["features"].dtype == np.float64 and data["features"].shape == (len(images), 32)
        assert data["image_ids"].tolist() == [g["image_path"] for g in images]
        assert data["segment_ids"].tolist() == [g["segment_id"] for g in images]
        assert data["sample_index"].tolist() == [g["sample_index"] for g in images]
        expected = np.stack([embedding[str(store_root / i)] for i in data["image_ids"]])
        assert np.array_equal(data["features"], expected)
    reference = _load(root / "features" / "reference.npz")
    assert reference["features"].shape == (9 * 6, 32) and len(set(reference["segment_ids"].tolist())) == 9
    assert np.array_equal(reference["features"], np.stack([embedding[str(store_root / i)]
                                                           for i in reference["image_ids"]]))


def test_the_manifest_records_the_export(exported):
    root, _ = exported
    manifest = json.loads((root / "eval" / "evaluation.manifest.json").read_text())
    export = manifest["feature_export"]
    assert export["folder"] == str(root / "features") and len(export["files"]) == 8
    assert all(Path(e["file"]).is_file() and (e["images"], e["segments"]) == (36, 9) for e in export["files"])
    assert Path(export["reference"]).is_file() and Path(export["index"]).is_file()


def test_the_comparability_table_follows_from_the_exported_arrays(exported):
    root, _ = exported
    with open(root / "eval" / "table_comparability.csv", newline="", encoding="utf-8") as fh:
        table = {(r["model"], r["condition"]): r for r in csv.DictReader(fh) if r["city"] == "all"}
    manifest = json.loads((root / "eval" / "evaluation.manifest.json").read_text())
    reference = _load(root / "features" / "reference.npz")["features"]
    index = json.loads((root / "features" / "features.json").read_text())
    for entry in index["sets"]:
        gen = _load(root / "features" / entry["file"])["features"]
        values = comparability_metrics(gen, FieldReference(reference, seed=0), rbf_gamma=manifest["gamma"], seed=0)
        row = table[(entry["model"], entry["condition"])]
        for key in ("fd", "kid", "kid_rbf", "precision", "recall", "density", "coverage", "vendi"):
            assert values[key] is not None and float(row[key]) == pytest.approx(values[key], rel=1e-9, abs=1e-12), key
    assert ("anchor:held_out_real", "anchor") in table  # the real-against-real baseline (not exported)
    settings = manifest["comparability"]
    assert (settings["prdc_k"], settings["kid_subsets"], settings["kid_seed"]) == (5, 100, 0)
    assert settings["kid_rbf_gamma"] == manifest["gamma"]
