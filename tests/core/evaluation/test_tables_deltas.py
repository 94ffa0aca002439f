"""The paper's tables (method §7) checked against independent re-computations: city-balanced
paired deltas against a plain two-stage loop, sample pairing in shared-noise runs against plain
per-sample differences, the CLIP check against ``scipy.stats.spearmanr`` and a pairwise AUROC
count, and a cell that cannot be computed kept as a row with its note."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr

from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
from geofidelity_plugin.core.evaluation.statistics.tables import DELTA_METRICS, build_tables

# (city, country): two cities named Alpha in two countries stay two cities
CITIES = [("Alpha", "FI", 3), ("Alpha", "US", 2), ("Beta", "GB", 5), ("Gamma", "FR", 1), ("Delta", "JP", 4)]


def panel_rows(seed=0, shift=0.05):
    rng = np.random.default_rng(seed)
    rows = []
    for city, cc, n in CITIES:
        offset = rng.normal(0, 0.1)
        for k in range(n):
            for model in ("m1", "m2"):
                base = rng.normal(0.5, 0.1)
                for condition, extra in (("L0", 0.0), ("L1", shift + offset + rng.normal(0, 0.05))):
                    rows.append({"model": model, "condition": condition, "segment_id": f"{cc}-{k}", "city": city,
                                 "country_code": cc, "is_anchor": False, "cos_sim": base + extra,
                                 "top1": float(rng.random() < 0.4 + extra), "reciprocal_rank": rng.random(),
                                 "margin_hard": rng.normal(-0.05 + extra, 0.05), "margin_mean": rng.normal(0, 0.05),
                                 "margin_nearest_same_city": rng.normal(extra, 0.05),
                                 "margin_same_neighbourhood": None, "clip_score": float(rng.random())})
    return rows


def plain_two_stage(units: dict, n_resamples: int, seed: int):
    """Resample cities, then units within each drawn city; the mean of the drawn cities' means."""
    rng = np.random.default_rng(seed)
    names = sorted(units)
    stats = []
    for _ in range(n_resamples):
        means = []
        for c in rng.integers(0, len(names), len(names)):
            values = units[names[c]]
            means.append(np.mean([values[i] for i in rng.integers(0, len(values), len(values))]))
        stats.append(np.mean(means))
    return np.percentile(stats, [2.5, 97.5])


def test_city_balanced_paired_delta_equals_a_plain_two_stage_loop():
    """The paper's city-balanced interval (--bootstrap-unit model-segment): cities, then matched
    model–segment rows within each."""
    rows = panel_rows()
    table = build_tables(rows, EvaluationOptions(n_bootstrap=6000, seed=3, bootstrap_unit="model-segment"))["deltas"]
    row = next(r for r in table if r["delta"] == "L1 − L0" and r["metric"] == "cos_sim")
    by_unit = {}
    for r in rows:
        by_unit.setdefault((r["model"], r["segment_id"], r["city"], r["country_code"]), {})[r["condition"]] = r["cos_sim"]
    diffs = {u: v["L1"] - v["L0"] for u, v in by_unit.items()}
    units = {}
    for (model, sid, city, cc), d in diffs.items():
        units.setdefault((city, cc), []).append(d)
    assert len(units) == 5  # Alpha FI and Alpha US apart
    assert row["mean"] == pytest.approx(np.mean(list(diffs.values())), rel=1e-12)
    assert row["city_mean"] == pytest.approx(np.mean([np.mean(v) for v in units.values()]), rel=1e-12)
    low, high = plain_two_stage(units, 6000, seed=11)
    assert row["city_low"] == pytest.approx(low, abs=0.012)
    assert row["city_high"] == pytest.approx(high, abs=0.012)
    assert row["city_low"] != pytest.approx(row["low"], abs=1e-3)  # not the plain matched-unit interval
    assert row["matched_pairs"] == len(diffs) and row["pairing"] == "panel"
    assert row["positive_pairs"] == sum(d > 0 for d in diffs.values())
    assert row["cities"] == 5
    assert row["cities_positive"] == sum(np.mean(v) > 0 for v in units.values())
    assert row["bootstrap_unit"] == "model-segment" and "interval_note" not in row


def test_a_cell_that_cannot_be_computed_is_kept_with_a_note():
    rows = panel_rows()
    rows += [dict(r, condition="C_WRONG_STREET", segment_id="orphan-" + r["segment_id"]) for r in rows[:4]
             if r["condition"] == "L0"]
    table = build_tables(rows, EvaluationOptions(n_bootstrap=200))["deltas"]
    assert [r["metric"] for r in table if r["delta"] == "L1 − L0"] == list(DELTA_METRICS)
    strict = next(r for r in table if r["delta"] == "L1 − L0" and r["metric"] == "margin_same_neighbourhood")
    assert strict["mean"] is None and strict["matched_pairs"] == 0 and "margin_same_neighbourhood" in strict["note"]
    control = [r for r in table if r["delta"] == "L1 − C_WRONG_STREET"]
    assert len(control) == len(DELTA_METRICS) and all("no (model, segment) unit" in r["note"] for r in control)


def test_shared_noise_runs_pair_by_sample():
    rng = np.random.default_rng(5)
    rows, samples, plain = [], [], {}
    for city, cc, n in CITIES:
        for k in range(n):
            sid = f"{cc}-{k}"
            for condition in ("L0", "L1"):
                rows.append({"model": "m", "condition": condition, "segment_id": sid, "city": city,
                             "country_code": cc, "is_anchor": False, "cos_sim": rng.random(), "top1": 0.0})
            for s in range(4):
                values = {c: rng.random() for c in ("L0", "L1")}
                for condition in ("L0", "L1"):
                    if condition == "L1" and s == 3 and k == 0:
                        continue  # an image missing under L1: its sample has no pair
                    samples.append({"model": "m", "condition": condition, "segment_id": sid, "city": city,
                                    "country_code": cc, "sample": s, "seed": 1000 * k + 10 * s + len(cc),
                                    "cos_sim": values[condition], "top1": float(values[condition] > 0.5)})
                if not (s == 3 and k == 0):
                    plain.setdefault(sid, []).append(values["L1"] - values["L0"])
    table = build_tables(rows, EvaluationOptions(n_bootstrap=300), samples)["deltas"]
    row = next(r for r in table if r["delta"] == "L1 − L0" and r["metric"] == "cos_sim")
    assert row["pairing"] == "sample"
    assert row["mean"] == pytest.approx(np.mean([np.mean(v) for v in plain.values()]), rel=1e-12)
    assert row["matched_pairs"] == len(plain)
    # distinct seeds per condition (the paper's default): the panels are paired
    for s in samples:
        s["seed"] += 1 if s["condition"] == "L1" else 0
    row = next(r for r in build_tables(rows, EvaluationOptions(n_bootstrap=300), samples)["deltas"]
               if r["delta"] == "L1 − L0" and r["metric"] == "cos_sim")
    assert row["pairing"] == "panel"
    # --pairing sample-index (the paper's): the images are paired by sample index all the same
    row = next(r for r in build_tables(rows, EvaluationOptions(n_bootstrap=300, pairing="sample-index"),
                                       samples)["deltas"] if r["delta"] == "L1 − L0" and r["metric"] == "cos_sim")
    assert row["pairing"] == "sample-index"
    assert row["mean"] == pytest.approx(np.mean([np.mean(v) for v in plain.values()]), rel=1e-12)
    assert row["matched_pairs"] == len(plain)
    # --pairing panel pairs the panels even where the noise is shared
    for s in samples:
        s["seed"] -= 1 if s["condition"] == "L1" else 0
    row = next(r for r in build_tables(rows, EvaluationOptions(n_bootstrap=300, pairing="panel"), samples)["deltas"]
               if r["delta"] == "L1 − L0" and r["metric"] == "cos_sim")
    assert row["pairing"] == "panel"
    assert row["mean"] == pytest.approx(np.mean([r["cos_sim"] * (1 if r["condition"] == "L1" else -1)
                                                 for r in rows]) * 2, rel=1e-12)
    # without per-image rows, sample-index pairing falls back to the panels and says so
    row = next(r for r in build_tables(rows, EvaluationOptions(n_bootstrap=300, pairing="sample-index"))["deltas"]
               if r["delta"] == "L1 − L0" and r["metric"] == "cos_sim")
    assert row["pairing"] == "panel"


def pairwise_auroc(scores, hits):
    pos = [s for s, h in zip(scores, hits) if h]
    neg = [s for s, h in zip(scores, hits) if not h]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def test_clip_check_equals_scipy_and_a_pairwise_count():
    rows = panel_rows(seed=2)
    for i, r in enumerate(rows):
        r["clip_score"] = round(r["clip_score"], 1) if i % 3 else r["clip_score"]  # some ties
    check = build_tables(rows, EvaluationOptions(n_bootstrap=100), clip_model="tiny")["clip_check"][0]
    scores = [r["clip_score"] for r in rows]
    assert check["panels"] == len(rows) and check["clip_model"] == "tiny"
    assert check["spearman_clip_cos_sim"] == pytest.approx(spearmanr(scores, [r["cos_sim"] for r in rows])[0], rel=1e-12)
    assert check["spearman_clip_top1"] == pytest.approx(spearmanr(scores, [r["top1"] for r in rows])[0], rel=1e-12)
    assert check["auroc_clip_top1"] == pytest.approx(pairwise_auroc(scores, [r["top1"] == 1.0 for r in rows]),
                                                     rel=1e-12)
    all_hits = [dict(r, top1=1.0) for r in rows]
    check = build_tables(all_hits, EvaluationOptions(n_bootstrap=100))["clip_check"][0]
    assert check["auroc_clip_top1"] is None and "every panel is a top-1 hit" in check["note"]
