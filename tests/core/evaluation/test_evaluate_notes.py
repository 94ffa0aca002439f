"""What a run says instead of failing (method §6–§7): unbiased MMD² on panels too small for it,
a reference panel without semantic ratios, a segment without room for a held-out anchor, and the
CLIP check fed by a CLIP model (a tiny random one, loaded like a downloaded checkpoint)."""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store

FAST = EvaluationOptions(n_bootstrap=200)


@pytest.fixture
def small(tmp_path):
    store, vectors = make_store(tmp_path, per_city=2, refs=6)
    yield store, vectors
    store.close()


def _shrink(store, segment_id: str, keep_refs: int, model: str, condition: str) -> None:
    """Leave ``keep_refs`` reference images of one segment (the audit rejects the rest) and one
    image of one generated panel."""
    for r in store.reference_panels()[segment_id][keep_refs:]:
        store.set_audit(r["reference_id"], "reject")
    store.db.execute("DELETE FROM generated_images WHERE model = ? AND condition = ? AND segment_id = ? "
                     "AND sample_index > 0", (model, condition, segment_id))


def test_unbiased_mmd_on_small_panels_completes_with_notes(small):
    store, vectors = small
    sid = sorted(store.reference_panels())[0]
    _shrink(store, sid, 3, "m1", "L1")
    options = EvaluationOptions(n_bootstrap=200, mmd_unbiased=True)
    result = evaluate_store(store, TableEmbedder(vectors), options)
    one_image = next(r for r in result.rows if (r["model"], r["condition"], r["segment_id"]) == ("m1", "L1", sid))
    assert one_image["n_generated"] == 1 and one_image["mmd2"] is None and one_image["dcsf"] is None
    assert one_image["cos_sim"] is not None and one_image["top1"] is not None
    others = [r for r in result.rows if not r["is_anchor"] and r is not one_image]
    assert all(r["mmd2"] is not None for r in others)
    text = " ".join(result.notes)
    assert "unbiased MMD² and DCSF left empty for 1 panel" in text
    assert "held-out anchor missing for 1 of" in text
    assert not any(r["model"].endswith("held_out_real") and r["segment_id"] == sid for r in result.rows)


class PartialRatios:
    """Ratios for every image except the reference images of one segment."""

    def __init__(self, store, segment_id):
        self.missing = {r["abs_path"] for r in store.reference_panels()[segment_id]}

    def ratios_for_paths(self, paths, progress=None):
        rows = np.array([np.linspace(0.05, 0.8, 8) * ((hash(p) % 7 + 1) / 7) for p in paths])
        failed = {p: "cannot be segmented (test)" for p in paths if p in self.missing}
        rows[[i for i, p in enumerate(paths) if p in self.missing]] = np.nan
        return SimpleNamespace(ratios=rows, failed=failed)


def test_a_reference_panel_without_ratios_empties_only_its_own_rows(small):
    store, vectors = small
    sid = sorted(store.reference_panels())[1]
    result = evaluate_store(store, TableEmbedder(vectors), FAST, ratio_model=PartialRatios(store, sid))
    own = [r for r in result.rows if r["segment_id"] == sid]
    rest = [r for r in result.rows if r["segment_id"] != sid and not r["is_anchor"]]
    assert own and all(r["gads"] is None for r in own)
    assert rest and all(r["gads"] is not None for r in rest)
    note = next(n for n in result.notes if n.startswith("GADS empty for"))
    assert f"{len(own)} scored against a reference panel without semantic ratios (1 segment(s), e.g. {sid})" in note
    drawn = [r for r in result.rows if r["is_anchor"] and r["segment_id"] != sid and r["gads"] is None]
    assert all(r["model"].endswith(("random_same_country", "random_global")) for r in drawn)


def test_clip_check_fed_by_a_clip_model(tmp_path):
    import torch
    from transformers import CLIPModel, CLIPProcessor

    from geofidelity_plugin.core.vision.clip_scores import ClipScorer
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache
    from geofidelity_plugin.backend.demo_data import make_demo_clip

    store, vectors = make_store(tmp_path / "bench", per_city=2, refs=5)
    store.db.execute("UPDATE generated_images SET clip_score = NULL, prompt = NULL WHERE condition = 'L0'")
    clip = make_demo_clip(tmp_path / "tiny-clip")
    cache = FeatureCache(tmp_path / "cache.sqlite")
    scorer = ClipScorer(str(clip), device="cpu", cache=cache)
    result = evaluate_store(store, TableEmbedder(vectors), FAST, clip_scorer=scorer)
    check = result.tables["clip_check"][0]
    models = [r for r in result.rows if not r["is_anchor"]]
    assert check["panels"] == len(models) and all(r["clip_score"] is not None for r in models)
    assert check["spearman_clip_cos_sim"] is not None and check["clip_model"] == clip.name
    assert any("rebuilt from the store's segments" in n for n in result.notes)
    assert any("not CLIP ViT-B/32" in n for n in result.notes)
    # one panel's score recomputed plainly with transformers
    row = next(r for r in models if r["condition"] == "L1")
    images = store.generated_panels()[(row["model"], "L1", row["segment_id"])]
    processor = CLIPProcessor.from_pretrained(clip)
    model = CLIPModel.from_pretrained(clip).eval()
    plain = []
    from PIL import Image
    for g in images:
        inputs = processor(text=[g["prompt"]], images=[Image.open(g["abs_path"]).convert("RGB")], return_tensors="pt",
                           padding=True)
        with torch.no_grad():
            out = model(**inputs)
        plain.append(float(torch.nn.functional.cosine_similarity(out.image_embeds, out.text_embeds)[0]))
    assert row["clip_score"] == pytest.approx(np.mean(plain), abs=1e-5)
    # cached: a second run reads the same scores without the model computing them
    again = evaluate_store(store, TableEmbedder(vectors), FAST, clip_scorer=scorer)
    assert [r["clip_score"] for r in again.rows] == [r["clip_score"] for r in result.rows]
    cache.close()
    store.close()


def test_clip_auto_without_weights_is_a_note(tmp_path, monkeypatch):
    from geofidelity_plugin.core.vision.clip_scores import resolve_clip_model
    from geofidelity_plugin.core.evaluation.workflow import resolve_semantic_model

    monkeypatch.setenv("GEOFIDELITY_MODELS_DIR", str(tmp_path / "no-models"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-hub"))
    model, note = resolve_clip_model("auto")
    assert model is None and "CLIP ViT-B/32 weights (openai/clip-vit-base-patch32) are missing" in note
    assert "models download" in note
    model, note = resolve_semantic_model("auto")
    assert model is None and "mask2former-vistas" in note
    assert resolve_clip_model("none")[0] is None and resolve_clip_model("/x/y")[0] == "/x/y"


def test_manifest_and_tables_carry_the_notes(small, tmp_path):
    from geofidelity_plugin.core.evaluation.evaluate import evaluation_manifest
    from geofidelity_plugin.core.evaluation.outputs import write_outputs

    store, vectors = small
    _shrink(store, sorted(store.reference_panels())[0], 2, "m1", "L2")
    options = EvaluationOptions(n_bootstrap=200, mmd_unbiased=True)
    result = evaluate_store(store, TableEmbedder(vectors), options)
    paths = write_outputs(tmp_path / "out", result, store.segments(), evaluation_manifest(result, options, store, [], []))
    manifest = json.loads(paths["manifest"].read_text())
    assert any("unbiased MMD²" in n for n in manifest["notes"])
    assert "> Note: unbiased MMD²" in paths["tables_md"].read_text()
