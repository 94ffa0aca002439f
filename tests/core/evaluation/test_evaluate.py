"""The evaluation engine end to end on a small store with known embeddings: every number of a
row recomputed by hand with plain numpy; anchors, skips, failures, determinism, outputs."""
from __future__ import annotations

import json

import numpy as np
import pytest

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
from geofidelity_plugin.core.evaluation.galleries import MAIN_KINDS
from geofidelity_plugin.core.evaluation.outputs import write_outputs
from geofidelity_plugin.core.evaluation.panels import build_reference_layout, anchor_rows

FAST = EvaluationOptions(n_bootstrap=300)


def _cos(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


@pytest.fixture
def small(tmp_path):
    store, vectors = make_store(tmp_path)
    yield store, vectors
    store.close()


def test_model_row_by_hand(small):
    store, vectors = small
    result = evaluate_store(store, TableEmbedder(vectors), FAST)
    panels = {sid: np.stack([vectors[r["abs_path"]] for r in imgs]) for sid, imgs in store.reference_panels().items()}
    galleries = store.galleries()
    generated = store.generated_panels()
    checked = 0
    for row in result.rows:
        if row["is_anchor"]:
            continue
        g = np.stack([vectors[x["abs_path"]] for x in generated[(row["model"], row["condition"], row["segment_id"])]])
        target = panels[row["segment_id"]]
        s_t = _cos(g.mean(0), target.mean(0))
        negs = [_cos(g.mean(0), panels[galleries[row["segment_id"]][k]].mean(0))
                for k in MAIN_KINDS if galleries[row["segment_id"]].get(k)]
        assert row["cos_sim"] == pytest.approx(s_t, abs=1e-9)
        assert row["gallery_size"] == 1 + len(negs)
        assert row["top1"] == float(all(n < s_t for n in negs))
        assert row["rank"] == 1 + sum(n >= s_t for n in negs)
        assert row["margin_hard"] == pytest.approx(s_t - max(negs), abs=1e-9)
        assert row["margin_mean"] == pytest.approx(s_t - np.mean(negs), abs=1e-9)
        k = row["gallery_size"]
        assert row["chance_adjusted_top1"] == pytest.approx((row["top1"] - 1 / k) / (1 - 1 / k))
        checked += 1
    assert checked == 2 * 4 * 9


def test_held_out_anchor_scores_against_reduced_panel(small):
    store, vectors = small
    result = evaluate_store(store, TableEmbedder(vectors), FAST)
    paths = {sid: [r["abs_path"] for r in imgs] for sid, imgs in store.reference_panels().items()}
    layout = build_reference_layout(paths, vectors, 4, FAST.seed)
    for row in (r for r in result.rows if r["model"] == "anchor:held_out_real"):
        sid = row["segment_id"]
        held = layout.held_out_paths[sid]
        assert len(held) == 4 and set(held) <= set(paths[sid])
        rest = [p for p in paths[sid] if p not in held]
        expected = _cos(np.mean([vectors[p] for p in held], 0), np.mean([vectors[p] for p in rest], 0))
        assert row["cos_sim"] == pytest.approx(expected, abs=1e-9)
        assert row["n_reference"] == len(rest) and row["n_generated"] == 4


def test_random_anchor_donors(small):
    store, vectors = small
    segments = {s["segment_id"]: s for s in store.segments()}
    paths = {sid: [r["abs_path"] for r in imgs] for sid, imgs in store.reference_panels().items()}
    layout = build_reference_layout(paths, vectors, 4, 0)
    owner = {p: sid for sid, ps in paths.items() for p in ps}
    rows = anchor_rows(layout, segments, store.galleries(), 4, 0)
    kinds = {r.model for r in rows}
    assert kinds == {"anchor:held_out_real", "anchor:random_same_country", "anchor:random_global"}
    for r in rows:
        donors = {owner[p] for p in r.image_paths}
        assert len(donors) == 1 and len(r.image_paths) == 4
        donor = segments[donors.pop()]
        target = segments[r.segment_id]
        if r.model.endswith("random_same_country"):
            assert donor["country_code"] == target["country_code"] and donor["segment_id"] != r.segment_id
        elif r.model.endswith("random_global"):
            assert donor["city"] != target["city"]
    again = anchor_rows(layout, segments, store.galleries(), 4, 0)
    assert [a.image_paths for a in again] == [r.image_paths for r in rows]


def test_deterministic(small):
    store, vectors = small
    a = evaluate_store(store, TableEmbedder(vectors), FAST)
    b = evaluate_store(store, TableEmbedder(vectors), FAST)
    assert a.rows == b.rows and a.tables == b.tables and a.gamma == b.gamma


def test_failed_images_listed_and_run_goes_on(small):
    store, vectors = small
    bad = next(iter(store.generated_panels().values()))[0]["abs_path"]
    emb = TableEmbedder(vectors, failed_paths={bad: "truncated JPEG"})
    result = evaluate_store(store, emb, FAST)
    assert result.failed_images == {bad: "truncated JPEG"}
    row = next(r for r in result.rows if not r["is_anchor"] and r["n_generated"] == 3)
    assert row is not None


def test_no_negatives_skipped_then_error(tmp_path):
    store, vectors = make_store(tmp_path, per_city=1)
    store.put_galleries({})
    with pytest.raises(InputError, match="no panel can be scored"):
        evaluate_store(store, TableEmbedder(vectors), FAST)
    store.close()


def test_empty_store(tmp_path):
    from geofidelity_plugin.core.store.store import BenchmarkStore

    with BenchmarkStore(tmp_path / "s.sqlite") as store, pytest.raises(InputError, match="no segments"):
        evaluate_store(store, TableEmbedder({"x": np.ones(3)}), FAST)


def test_tables_show_the_planted_effects(small):
    store, vectors = small
    tables = evaluate_store(store, TableEmbedder(vectors), FAST).tables
    deltas = {(d["delta"], d["metric"]): d for d in tables["deltas"]}
    wrong = deltas[("L1 − C_WRONG_STREET", "cos_sim")]
    assert wrong["low"] > 0 and wrong["matched_pairs"] == 18 and wrong["positive_pairs"] == 18
    assert deltas[("L1 − L0", "cos_sim")]["mean"] > 0
    models = {r["model"]: r for r in tables["by_model_L1"]}
    assert models["m1"]["cos_sim"] > models["m2"]["cos_sim"]  # m1 was planted closer
    assert models["anchor:held_out_real"]["cos_sim"] > models["anchor:random_global"]["cos_sim"]
    assert tables["clip_check"] and -1 <= tables["clip_check"][0]["spearman_clip_cos_sim"] <= 1


def test_outputs(small, tmp_path):
    import fiona

    store, vectors = small
    result = evaluate_store(store, TableEmbedder(vectors), FAST)
    manifest = evaluation_manifest(result, FAST, store, [{"id": "table-embedder"}], ["test"])
    paths = write_outputs(tmp_path / "out", result, store.segments(), manifest, "m1", "L1",
                          stand_in_note="STAND-IN embeddings")
    assert "STAND-IN" in paths["tables_md"].read_text()
    with fiona.open(paths["gpkg"], layer="panel_scores") as src:
        assert len(src) == len(result.rows)
    with fiona.open(paths["gpkg"], layer="segment_scores") as src:
        feats = list(src)
        assert len(feats) == 9 and all(f["properties"]["model"] == "m1" for f in feats)
        assert all(f["properties"]["stand_in"] == 1 for f in feats)
        assert {f["properties"]["segment_id"] for f in feats} == {s["segment_id"] for s in store.segments()}
    saved = json.loads(paths["manifest"].read_text())
    assert saved["gamma"] == result.gamma and saved["options"]["n_bootstrap"] == 300
    # issue 41: the intervals' unit and the deltas' pairing are recorded, and the tables say which
    assert (saved["options"]["bootstrap_unit"], saved["options"]["pairing"]) == ("city", "auto")
    assert "bootstrap unit `city`" in paths["tables_md"].read_text()
    assert "bootstrap_unit" in paths["table_deltas"].read_text().splitlines()[0]
    assert saved["stand_in"] == "STAND-IN embeddings"


def test_empty_reference_panel_is_skipped_and_listed(small):
    store, vectors = small
    victim = store.segments()[0]["segment_id"]
    with store.transaction():
        store.db.execute("DELETE FROM reference_images WHERE segment_id = ?", (victim,))
    result = evaluate_store(store, TableEmbedder(vectors), FAST)
    reasons = {(s.get("model"), s["segment_id"]): s["reason"] for s in result.skipped}
    assert reasons[(None, victim)] == "empty reference panel"
    assert reasons[("m1", victim)] == "target has no usable reference panel"
    assert all(r["segment_id"] != victim for r in result.rows)
    assert result.rows  # the other segments are still scored


def test_all_reference_images_rejected_by_audit(small):
    store, vectors = small
    for imgs in store.reference_panels().values():
        for r in imgs:
            store.set_audit(r["reference_id"], "reject")
    with pytest.raises(InputError, match="no reference or generated|no segment has a usable reference panel"):
        evaluate_store(store, TableEmbedder(vectors), FAST)
