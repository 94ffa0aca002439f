"""Benchmark of the evaluation engine at the published benchmark's full scale (method §6–§7).

Synthetic, seeded features: 112 segments × 67 reference images, 6 models × 6 conditions ×
112 segments = 4,032 generated panels of 4 images, 768-d embeddings, galleries of K ≤ 5 with a
strict same-neighbourhood negative. Times

1. the vectorised metric pass (γ, reference terms, CosSim, MMD², DCSF, retrieval for all panels)
   against a plain per-panel loop over the single-panel functions — the loop runs on a subset
   and is extrapolated to all panels (said so in the output);
2. all bootstrap tables (per model × condition, paired deltas per model and pooled, each plain
   and city-balanced, + the CLIP check) — one joint resampling per table, and for comparison
   one bootstrap call per cell.

Run: ``python benchmarks/bench_metrics.py [--loop-subset 300]``.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from geofidelity_plugin.core.evaluation.metrics import panel_metrics as metrics, retrieval
from geofidelity_plugin.core.evaluation.statistics import bootstrap as statistics  # noqa: E402

MODELS = ("sdxl", "sd35", "flux_dev", "flux_schnell", "pixart_sigma", "hunyuan")
CONDITIONS = ("L0", "L1", "L2", "C_WRONG_STREET", "C_SHUFFLED_NEIGHBORHOOD",
              "C_WRONG_STREET_NEIGHBORHOOD")
N_SEGMENTS, N_REFERENCE, N_GENERATED, DIM, N_CITIES = 112, 67, 4, 768, 25


def build_data(seed: int = 7) -> dict:
    rng = np.random.default_rng(seed)
    city = rng.integers(0, N_CITIES, N_SEGMENTS)
    neighbourhood = rng.integers(0, 3, N_SEGMENTS)
    left_hand = city % 4 == 0
    common = rng.normal(0, 1, DIM) * 4.0
    city_centre = rng.normal(0, 1, (N_CITIES, DIM)) * 1.5
    segment_centre = common + city_centre[city] + rng.normal(0, 1, (N_SEGMENTS, DIM))
    reference = [(segment_centre[s] + rng.normal(0, 3, (N_REFERENCE, DIM))).astype(np.float32)
                 for s in range(N_SEGMENTS)]
    galleries = []
    for s in range(N_SEGMENTS):
        same_city = [t for t in range(N_SEGMENTS) if city[t] == city[s] and t != s]
        same_nb = [t for t in same_city if neighbourhood[t] == neighbourhood[s]]
        other_nb = [t for t in same_city if neighbourhood[t] != neighbourhood[s]]
        other_city = [t for t in range(N_SEGMENTS) if city[t] != city[s]]
        same_side = [t for t in other_city if left_hand[t] == left_hand[s]]
        gallery = {"target": s, "random_other_city": int(rng.choice(other_city))}
        if same_city:
            gallery["nearest_same_city"] = int(same_city[0])
        if other_nb:
            gallery["same_city_other_neighbourhood"] = int(other_nb[-1])
        if same_side:
            gallery["same_driving_side_other_city"] = int(rng.choice(same_side))
        if same_nb:
            gallery["same_neighbourhood"] = int(same_nb[0])
        galleries.append(gallery)
    panels, target, keys = [], [], []
    for mi, model in enumerate(MODELS):
        model_bias = rng.normal(0, 1, DIM) * 2.0
        for ci, condition in enumerate(CONDITIONS):
            pull = 0.12 + 0.04 * (condition in ("L1", "L2")) + 0.02 * ci / len(CONDITIONS)
            for s in range(N_SEGMENTS):
                centre = common + model_bias + pull * (segment_centre[s] - common)
                panels.append(centre + rng.normal(0, 3, (N_GENERATED, DIM)))
                target.append(s)
                keys.append({"model": model, "condition": condition, "segment_id": f"seg{s:03d}",
                             "city": f"city{city[s]:02d}"})
    return {"reference": reference, "galleries": galleries, "city": city,
            "generated": np.stack(panels).astype(np.float32), "target": np.array(target),
            "keys": keys}


def vectorised_pass(data: dict, mode: str = "panel") -> tuple[dict, dict]:
    times = {}
    t0 = time.perf_counter()
    gamma = metrics.median_heuristic_gamma(data["reference"], sample_size=1000, seed=0)
    times["gamma"] = time.perf_counter() - t0
    t = time.perf_counter()
    refs = metrics.ReferenceSet.from_panels(data["reference"], gamma)
    times["reference terms"] = time.perf_counter() - t
    t = time.perf_counter()
    generated = data["generated"].astype(np.float64)
    scores = metrics.score_panels(generated, data["target"], refs)
    times["CosSim/MMD²/DCSF"] = time.perf_counter() - t
    t = time.perf_counter()
    table = retrieval.gallery_table(data["galleries"])
    scores.update(retrieval.retrieval_batch(generated, table[data["target"]], refs.means, mode))
    times[f"retrieval ({mode})"] = time.perf_counter() - t
    times["total"] = time.perf_counter() - t0
    return scores, times


def naive_loop(data: dict, gamma: float, rows: np.ndarray) -> float:
    """The straightforward per-panel loop over the single-panel functions; seconds taken."""
    t = time.perf_counter()
    reference = [r.astype(np.float64) for r in data["reference"]]
    for p in rows:
        g = data["generated"][p].astype(np.float64)
        gallery = data["galleries"][data["target"][p]]
        r = reference[gallery["target"]]
        metrics.cos_sim(g, r)
        value = metrics.mmd2(g, r, gamma)
        value + 0.5 * max(0.0, metrics.mean_pairwise_cosine_distance(r)
                          - metrics.mean_pairwise_cosine_distance(g))
        negatives = {k: reference[v] for k, v in gallery.items()
                     if k in retrieval.NEGATIVE_KINDS}
        strict = gallery.get("same_neighbourhood")
        retrieval.score_gallery(g, r, negatives,
                                None if strict is None else reference[strict])
    return time.perf_counter() - t


COLUMNS = ("cos_sim", "mmd2", "dcsf", "top1", "reciprocal_rank", "chance_adjusted_top1",
           "margin_hard", "margin_mean") + tuple(f"margin_{k}" for k in retrieval.NEGATIVE_KINDS)
CONTRASTS = (("L0", "L1"), ("L1", "L2"), ("L1", "C_WRONG_STREET"),
             ("L1", "C_SHUFFLED_NEIGHBORHOOD"), ("L1", "C_WRONG_STREET_NEIGHBORHOOD"))


def metric_rows(data: dict, scores: dict) -> list[dict]:
    return [dict(key, **{c: float(scores[c][i]) for c in COLUMNS})
            for i, key in enumerate(data["keys"])]


def bootstrap_tables(rows: list[dict], scores: dict) -> tuple[float, int]:
    """Every table the report needs, one joint resampling per table (bootstrap_table)."""
    t = time.perf_counter()
    n_intervals = 0
    for balanced in (False, True):
        n_intervals += len(statistics.bootstrap_table(
            rows, COLUMNS, ("model", "condition"), city_balanced=balanced, seed=1))
    for baseline, treatment in CONTRASTS:
        deltas = statistics.pair_deltas(rows, COLUMNS, "condition", baseline, treatment,
                                        unit_keys=("model", "segment_id")).as_rows()
        for balanced in (False, True):
            n_intervals += len(statistics.bootstrap_table(  # per model
                deltas, COLUMNS, ("model",), city_balanced=balanced, with_counts=True, seed=2))
            n_intervals += len(statistics.bootstrap_table(  # pooled over model–segment units
                deltas, COLUMNS, (), unit_keys=("model", "segment_id"), city_balanced=balanced,
                with_counts=True, seed=3))
    clip_check(scores)
    return time.perf_counter() - t, n_intervals


def bootstrap_per_cell(rows: list[dict], scores: dict) -> tuple[float, int]:
    """The same tables with one bootstrap call per cell (per model × condition, per contrast)."""
    t = time.perf_counter()
    n_intervals = 0
    values = np.column_stack([scores[c] for c in COLUMNS])
    cities = np.array([row["city"] for row in rows])
    per_cell = len(rows) // (len(MODELS) * len(CONDITIONS))
    for cell in range(len(MODELS) * len(CONDITIONS)):
        part = slice(cell * per_cell, (cell + 1) * per_cell)
        statistics.bootstrap_mean(values[part], seed=cell)
        statistics.city_balanced_bootstrap(values[part], cities[part], seed=cell)
        n_intervals += 2 * len(COLUMNS)
    for baseline, treatment in CONTRASTS:
        for model in MODELS + (None,):
            subset = rows if model is None else [r for r in rows if r["model"] == model]
            for balanced in (False, True):
                statistics.paired_bootstrap(subset, COLUMNS, "condition", baseline, treatment,
                                            city_balanced=balanced, seed=1)
                n_intervals += len(COLUMNS)
    clip_check(scores)
    return time.perf_counter() - t, n_intervals


def clip_check(scores: dict) -> None:
    """method §7 CLIP check on a synthetic CLIP score per panel."""
    clip = scores["cos_sim"] + np.random.default_rng(3).normal(0, 0.05, len(scores["cos_sim"]))
    statistics.spearman(clip, scores["cos_sim"])
    statistics.spearman(clip, scores["top1"])
    statistics.auroc(clip, scores["top1"] > 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop-subset", type=int, default=300,
                        help="panels timed in the per-panel loop (extrapolated to all)")
    args = parser.parse_args()
    t = time.perf_counter()
    data = build_data()
    n_panels = len(data["generated"])
    print(f"synthetic data: {N_SEGMENTS} segments × {N_REFERENCE} reference images, "
          f"{n_panels} generated panels × {N_GENERATED} images, {DIM}-d "
          f"(built in {time.perf_counter() - t:.1f} s); {os.cpu_count()} CPU cores")
    vectorised_pass(data)  # warm-up (BLAS threads, page faults)
    scores, times = min((vectorised_pass(data) for _ in range(3)),
                        key=lambda item: item[1]["total"])
    for name, seconds in times.items():
        print(f"  vectorised {name:<22s} {seconds:7.3f} s")
    _, image_times = vectorised_pass(data, mode="image")
    print(f"  vectorised total with retrieval mode 'image': {image_times['total']:.3f} s")

    gamma = metrics.median_heuristic_gamma(data["reference"], sample_size=1000, seed=0)
    rows = np.random.default_rng(0).choice(n_panels, size=min(args.loop_subset, n_panels),
                                           replace=False)
    loop_seconds = naive_loop(data, gamma, rows)
    extrapolated = loop_seconds * n_panels / len(rows)
    print(f"per-panel loop: {loop_seconds:.2f} s for {len(rows)} panels, extrapolated to "
          f"{n_panels} panels: {extrapolated:.1f} s")
    print(f"speed-up (extrapolated loop / vectorised total): {extrapolated / times['total']:.0f}×")

    rows = metric_rows(data, scores)
    seconds, n_intervals = bootstrap_tables(rows, scores)
    print(f"bootstrap tables: {n_intervals} intervals ({statistics.N_RESAMPLES} resamples each; "
          f"model × condition, L0→L1/L1→L2/control deltas per model and pooled, each plain "
          f"and city-balanced) + CLIP check in {seconds:.2f} s")
    seconds, n_intervals = bootstrap_per_cell(rows, scores)
    print(f"  same tables with one bootstrap call per cell: {n_intervals} intervals in "
          f"{seconds:.2f} s")


if __name__ == "__main__":
    main()
