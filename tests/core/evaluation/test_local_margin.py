"""The summary paper's Local Margin and top-25 %-CLIP miss rate (docs/method.md §6–§7) against plain
re-computations: the margin from the store's own embeddings with cosines of panel means written
out in loops (both retrieval modes), the table's means, and the CLIP top quarter picked by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store
from geofidelity_plugin.core.evaluation.metrics.local_margin import local_margin
from geofidelity_plugin.core.evaluation.metrics.retrieval import GALLERY_COLUMNS
from geofidelity_plugin.core.evaluation.paper_tables import NO_CLIP_NOTE, clip_top_quarter, local_margin_table

SAME_CITY = ("nearest_same_city", "same_city_other_neighbourhood", "same_neighbourhood")


def cosine(a, b) -> float:
    dot = sum(float(x) * float(y) for x, y in zip(a, b))
    return dot / math.sqrt(sum(float(x) ** 2 for x in a) * sum(float(y) ** 2 for y in b))


def mean(vectors):
    return [sum(col) / len(vectors) for col in zip(*vectors)]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    store, vectors = make_store(tmp_path_factory.mktemp("lm"))
    results = {mode: evaluate_store(store, TableEmbedder(vectors), EvaluationOptions(n_bootstrap=200,
                                                                                    retrieval_mode=mode))
               for mode in ("panel", "image")}
    panels = {sid: [vectors[r["abs_path"]] for r in imgs] for sid, imgs in store.reference_panels().items()}
    generated = {key: [vectors[g["abs_path"]] for g in imgs] for key, imgs in store.generated_panels().items()}
    galleries = store.galleries()
    store.close()
    return results, panels, generated, galleries


def plain_local_margin(queries, target, negatives) -> float | None:
    """Per query: cos(query, mean(target)) − the largest cos(query, mean(negative)); the mean over
    the queries (one query, the panel mean, in the paper's panel mode)."""
    if not negatives:
        return None
    values = []
    for q in queries:
        s_t = cosine(q, mean(target))
        values.append(s_t - max(cosine(q, mean(n)) for n in negatives))
    return sum(values) / len(values)


@pytest.mark.parametrize("mode", ["panel", "image"])
def test_local_margin_equals_a_plain_loop(run, mode):
    results, panels, generated, galleries = run
    checked = with_value = 0
    for row in results[mode].rows:
        if row["is_anchor"]:
            continue
        images = generated[(row["model"], row["condition"], row["segment_id"])]
        queries = [mean(images)] if mode == "panel" else images
        gallery = galleries[row["segment_id"]]
        negatives = [panels[gallery[k]] for k in SAME_CITY if gallery.get(k)]
        expected = plain_local_margin(queries, panels[row["segment_id"]], negatives)
        if expected is None:
            assert row["local_margin"] is None
        else:
            assert row["local_margin"] == pytest.approx(expected, abs=1e-9)
            with_value += 1
        checked += 1
    assert checked == 2 * 4 * 9 and with_value == checked  # every gallery of the fixture has a same-city street


def test_local_margin_leaves_out_the_other_city_negatives_and_needs_a_same_city_one():
    sims = np.full((3, len(GALLERY_COLUMNS)), np.nan)
    col = {name: GALLERY_COLUMNS.index(name) for name in GALLERY_COLUMNS}
    sims[:, col["target"]] = 0.5
    sims[0, [col["nearest_same_city"], col["random_other_city"]]] = [0.2, 0.9]   # other city ignored
    sims[1, [col["same_city_other_neighbourhood"], col["same_neighbourhood"]]] = [0.1, 0.7]  # strict counts
    sims[2, col["same_driving_side_other_city"]] = 0.3                          # none of its city
    assert local_margin(sims)[:2] == pytest.approx([0.3, -0.2], abs=1e-15)
    assert np.isnan(local_margin(sims)[2])


def test_local_margin_table_means_are_the_rows_means(run):
    results, *_ = run
    result = results["panel"]
    table = {(r["condition"], r["model"]): r for r in result.tables["local_margin"]}
    models = [r for r in result.rows if not r["is_anchor"]]
    for condition in ("L0", "L1", "L2", "C_WRONG_STREET"):
        values = [r["local_margin"] for r in models if r["condition"] == condition]
        assert table[(condition, "all models")]["local_margin"] == pytest.approx(sum(values) / len(values), abs=1e-12)
        assert table[(condition, "all models")]["local_margin_n"] == len(values) == 18
    l1_m1 = [r["local_margin"] for r in models if r["condition"] == "L1" and r["model"] == "m1"]
    row = table[("L1", "m1")]
    assert row["local_margin"] == pytest.approx(sum(l1_m1) / len(l1_m1), abs=1e-12)
    assert row["local_margin_low"] <= row["local_margin"] <= row["local_margin_high"]
    assert row["city_low"] <= row["city_mean"] <= row["city_high"] and row["cities"] == 3
    assert ("anchor", "anchor:held_out_real") in table


def plain_top_quarter(scores, hits):
    """The ⌈n/4⌉ panels with the highest score, ties with the last one kept; the share of misses."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    cut = scores[order[math.ceil(len(scores) / 4) - 1]]
    chosen = [i for i in range(len(scores)) if scores[i] >= cut]
    return len(chosen), sum(1 - hits[i] for i in chosen) / len(chosen)


def test_clip_top_quarter_equals_a_choice_by_hand():
    rng = np.random.default_rng(3)
    scores = [float(v) for v in np.round(rng.uniform(0.2, 0.35, 23), 2)]  # rounded: ties at the cut
    hits = [float(v) for v in rng.integers(0, 2, 23)]
    rows = [{"model": "m", "condition": "L1" if i % 2 else "L0", "is_anchor": False, "clip_score": s, "top1": h}
            for i, (s, h) in enumerate(zip(scores, hits))]
    rows.append({"model": "anchor:held_out_real", "condition": "anchor", "is_anchor": True, "clip_score": 0.99,
                 "top1": 0.0})  # anchors never enter
    table, note = clip_top_quarter(rows, "clip-test")
    assert note is None and table[0]["condition"] == "all conditions" and table[0]["panels"] == 23
    size, miss = plain_top_quarter(scores, hits)
    assert (table[0]["top_quarter"], table[0]["miss_rate_top_quarter"]) == (size, pytest.approx(miss, abs=1e-12))
    assert table[0]["miss_rate_all"] == pytest.approx(1 - sum(hits) / 23, abs=1e-12)
    for row in table[1:]:
        chosen = [i for i in range(23) if rows[i]["condition"] == row["condition"]]
        size, miss = plain_top_quarter([scores[i] for i in chosen], [hits[i] for i in chosen])
        assert (row["top_quarter"], row["miss_rate_top_quarter"]) == (size, pytest.approx(miss, abs=1e-12))


def test_clip_top_quarter_without_clip_scores_is_skipped_with_a_note():
    rows = [{"model": "m", "condition": "L1", "is_anchor": False, "clip_score": None, "top1": 1.0}] * 8
    assert clip_top_quarter(rows) == ([], NO_CLIP_NOTE)
    few = [dict(rows[0], clip_score=0.3)] * 3
    table, note = clip_top_quarter(few)
    assert note is None and table[0]["miss_rate_top_quarter"] is None and "at least 4" in table[0]["note"]


def test_a_run_without_clip_scores_says_so_in_its_notes(run, tmp_path):
    import sqlite3

    from geofidelity_plugin.core.store.store import BenchmarkStore

    results, *_ = run  # the fixture's store holds CLIP scores: the statistic is there
    assert results["panel"].tables["clip_top_quarter"] and NO_CLIP_NOTE not in results["panel"].notes
    store, vectors = make_store(tmp_path, per_city=1, refs=5, models=("m1",))
    store.close()
    with sqlite3.connect(tmp_path / "store.sqlite") as con:
        con.execute("UPDATE generated_images SET clip_score = NULL")
    with BenchmarkStore(tmp_path / "store.sqlite", create=False) as store:
        result = evaluate_store(store, TableEmbedder(vectors), EvaluationOptions(n_bootstrap=50))
    assert result.tables["clip_top_quarter"] == [] and NO_CLIP_NOTE in result.notes
