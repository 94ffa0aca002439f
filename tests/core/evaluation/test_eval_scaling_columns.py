"""Issue 16: the scaled engine's new paths give the same numbers as the plain ones.

- The tables from rows kept as columns of numpy arrays equal the tables from lists of dicts.
- A bootstrap gives the same intervals (1e-12) whatever its chunk size (``--max-memory``),
  with the joint resampling kept (one set of resampled units for every column of a table).
- The fused metric pass gives the retrieval similarities of :mod:`retrieval` in both modes,
  whatever its chunk size.
"""
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.metrics import panel_metrics as metrics, retrieval
from geofidelity_plugin.core.evaluation.statistics import bootstrap as statistics, resampling
from geofidelity_plugin.core.evaluation.options import EvaluationOptions, parse_memory
from geofidelity_plugin.core.evaluation.statistics.tables import build_tables

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

import eval_synthetic  # noqa: E402


@pytest.fixture(scope="module")
def run():
    data = eval_synthetic.build(1, dim=32)
    gamma = metrics.median_heuristic_gamma(data["reference"], sample_size=500, seed=0)
    refs = metrics.ReferenceSet.from_panels(data["reference"], gamma)
    table = data["galleries"][data["target"]]
    scores = metrics.score_panels(data["generated"], data["target"], refs, gallery_rows=table,
                                  image_similarities=True)
    return data, refs, table, scores


def _cells(tables):
    return {(name, r, key): value for name, rows in tables.items() for r, row in enumerate(rows)
            for key, value in row.items()}


def _assert_same_tables(a, b):
    ca, cb = _cells(a), _cells(b)
    assert ca.keys() == cb.keys()
    for key, value in ca.items():
        other = cb[key]
        if isinstance(value, float) and isinstance(other, float):
            assert abs(value - other) <= 1e-12, key
        else:
            assert value == other, key


def _tables(run, options, columns):
    data, _, _, scores = run
    part = dict(scores)
    sims, ((_, images),) = part.pop("gallery_similarities"), part.pop("image_similarities")
    part.update(retrieval.retrieval_from_similarities(sims))
    per_image = retrieval.retrieval_from_similarities(images)
    if columns:
        return build_tables(eval_synthetic.panel_columns(data, part), options,
                            eval_synthetic.sample_columns(data, per_image), "synthetic")
    return build_tables(eval_synthetic.panel_rows(data, part), options,
                        eval_synthetic.sample_rows(data, per_image), "synthetic")


def test_tables_from_columns_equal_tables_from_dicts(run):
    options = EvaluationOptions(n_bootstrap=300)
    from_dicts = _tables(run, options, columns=False)
    assert from_dicts["deltas"][0]["pairing"] == "sample"  # the per-image pairing is exercised
    assert any(r["low"] is not None and r["low"] < r["high"] for r in from_dicts["deltas"])
    _assert_same_tables(from_dicts, _tables(run, options, columns=True))


def test_tables_do_not_depend_on_the_memory_bound(run, monkeypatch):
    monkeypatch.setattr(resampling, "_CACHE_CELLS", 1 << 40)  # chunks as large as the bound allows
    small = _tables(run, EvaluationOptions(n_bootstrap=1000, max_memory="64MB"), columns=True)
    large = _tables(run, EvaluationOptions(n_bootstrap=1000, max_memory="64GB"), columns=True)
    # the two bounds chunk the plain bootstraps of 672 units differently: several chunks, one chunk
    assert statistics.cells_for(parse_memory("64MB")) // 672 < 1000 <= statistics.cells_for(parse_memory("64GB")) // 672
    _assert_same_tables(small, large)


@pytest.mark.parametrize("max_cells", [997, 5000, 1 << 30])
def test_bootstrap_mean_same_intervals_whatever_the_chunk_size(max_cells):
    rng = np.random.default_rng(3)
    values = rng.normal(size=(401, 3))
    values[rng.random((401, 3)) < 0.1] = np.nan
    reference = statistics.bootstrap_mean(values, n_resamples=700, seed=5, max_cells=401 * 700)
    chunked = statistics.bootstrap_mean(values, n_resamples=700, seed=5, max_cells=max_cells)
    for field in ("estimate", "low", "high"):
        np.testing.assert_allclose(getattr(chunked, field), getattr(reference, field), rtol=0, atol=1e-12)
    assert np.all(chunked.low < chunked.high)
    other_seed = statistics.bootstrap_mean(values, n_resamples=700, seed=6, max_cells=max_cells)
    assert not np.allclose(other_seed.low, reference.low)  # the seed, not the chunking, sets them


def test_joint_resampling_is_kept_in_tables():
    """One set of resampled units serves every column: two identical columns get identical
    intervals, and a column alone gets the interval it has inside the table."""
    rows = [{"segment_id": f"s{i}", "group": g, "city": f"c{i % 7}", "v": float(np.sin(i * (1 + k)))}
            for i in range(300) for k, g in enumerate(("a", "b"))]
    rows += [{"segment_id": f"s{i}", "group": "c", "city": f"c{i % 7}", "v": float(np.sin(i))}
             for i in range(300)]
    for cells in (1000, None):
        table = statistics.bootstrap_table(rows, "v", ("group",), n_resamples=400, seed=1, max_cells=cells)
        a, c = table[0], table[2]
        assert (a["low"], a["high"]) == (c["low"], c["high"])
    alone = statistics.bootstrap_table([r for r in rows if r["group"] == "a"], "v", ("group",),
                                       n_resamples=400, seed=1, max_cells=1000)
    assert alone[0]["low"] == pytest.approx(table[0]["low"], abs=1e-12)


@pytest.mark.parametrize("mode", ["panel", "image"])
def test_fused_pass_gives_the_retrieval_similarities(run, mode):
    data, refs, table, scores = run
    plain = retrieval.gallery_similarities(data["generated"], table, refs.means, mode)
    fused = scores["gallery_similarities"] if mode == "panel" else scores["image_similarities"][0][1]
    assert np.array_equal(np.isnan(plain), np.isnan(fused))
    assert np.isnan(plain).any()  # a gallery lacking a kind is exercised
    np.testing.assert_allclose(fused, plain, rtol=0, atol=1e-12)


def test_fused_pass_does_not_depend_on_the_chunk_size(run):
    data, refs, table, scores = run
    small = metrics.score_panels(data["generated"], data["target"], refs, gallery_rows=table,
                                 image_similarities=True, chunk_images=64)
    for key in ("cos_sim", "mmd2", "dcsf", "diversity_generated", "gallery_similarities"):
        np.testing.assert_allclose(small[key], scores[key], rtol=0, atol=1e-12)
    np.testing.assert_allclose(small["image_similarities"][0][1], scores["image_similarities"][0][1],
                               rtol=0, atol=1e-12)


def test_fused_pass_refuses_a_gallery_whose_target_differs(run):
    data, refs, table, _ = run
    wrong = table.copy()
    wrong[0, 0] = (wrong[0, 0] + 1) % len(refs.means)
    with pytest.raises(ValueError, match="target"):
        metrics.score_panels(data["generated"], data["target"], refs, gallery_rows=wrong)


def test_max_memory_option_is_read_checked_and_recorded():
    assert parse_memory("1GB") == 1 << 30 and parse_memory("512 MB") == 512 << 20
    for bad in ("lots", "10MB", "1XB"):
        with pytest.raises(InputError, match="max-memory"):
            EvaluationOptions(max_memory=bad).validate()
    assert asdict(EvaluationOptions(max_memory="2GB"))["max_memory"] == "2GB"  # the manifest's options


def test_cli_passes_max_memory():
    import argparse

    from geofidelity_plugin.backend.commands import evaluation

    parser = argparse.ArgumentParser()
    evaluation.register(parser.add_subparsers())
    args = parser.parse_args(["evaluate", "--store", "s.sqlite", "--out", "o", "--max-memory", "2GB"])
    assert args.max_memory == "2GB"
    assert parser.parse_args(["evaluate", "--store", "s", "--out", "o"]).max_memory == EvaluationOptions().max_memory


def test_evaluate_keeps_per_image_rows_as_columns_with_the_plain_values(tmp_path):
    """evaluate_store's sample rows (per generated image, method §7) come from the one metric pass
    as columns; each image's similarity and rank equal a plain recomputation."""
    sys.path.insert(0, str(ROOT / "tests"))
    from eval_fixtures import TableEmbedder, make_store
    from geofidelity_plugin.core.evaluation.evaluate import evaluate_store
    from geofidelity_plugin.core.evaluation.galleries import MAIN_KINDS

    store, vectors = make_store(tmp_path)
    try:
        result = evaluate_store(store, TableEmbedder(vectors), EvaluationOptions(n_bootstrap=50))
        panels = {sid: np.stack([vectors[r["abs_path"]] for r in imgs])
                  for sid, imgs in store.reference_panels().items()}
        galleries, generated = store.galleries(), store.generated_panels()
    finally:
        store.close()
    cols = result.sample_rows
    models = [r for r in result.rows if not r["is_anchor"]]
    assert isinstance(cols["cos_sim"], np.ndarray)
    assert len(cols["cos_sim"]) == sum(r["n_generated"] for r in models) > 0
    checked = 0
    for a in range(0, len(cols["cos_sim"]), 7):
        key = (cols["model"][a], cols["condition"][a], cols["segment_id"][a])
        image = [g for g in generated[key] if g["sample_index"] == cols["sample"][a]][0]
        v = vectors[image["abs_path"]]
        cos = [float(v @ p.mean(0) / np.linalg.norm(v) / np.linalg.norm(p.mean(0))) for p in
               [panels[key[2]]] + [panels[galleries[key[2]][k]] for k in MAIN_KINDS if galleries[key[2]].get(k)]]
        assert cols["cos_sim"][a] == pytest.approx(cos[0], abs=1e-9)
        assert cols["rank"][a] == 1 + sum(c >= cos[0] for c in cos[1:])
        checked += 1
    assert checked > 5
