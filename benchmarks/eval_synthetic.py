"""A seeded synthetic benchmark at N× the published size (method §6–§7), built in linear time.

1× = 112 segments in 25 cities × 67 reference images, 6 models × 6 conditions × 112 segments
= 4,032 generated panels of 4 images, 768-d float32 embeddings (the size of issue 16);
N× multiplies segments and cities by N. Galleries hold the target, the four negative kinds of
method §3 and the strict same-neighbourhood negative, picked by vectorised draws.

Used by ``benchmarks/bench_eval_scaling.py`` and by ``tests/test_eval_scaling_golden.py``
(which compares every quantity of a 1× run with ``tests/data/eval_scaling_golden.npz``).
Write the golden file (only with the code whose results it must freeze):
``python benchmarks/eval_synthetic.py --write-golden tests/data/eval_scaling_golden.npz
--write-galleries-golden tests/data/eval_scaling_galleries_golden.json``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MODELS = ("sdxl", "sd35", "flux_dev", "flux_schnell", "pixart_sigma", "hunyuan")
CONDITIONS = ("L0", "L1", "L2", "C_WRONG_STREET", "C_SHUFFLED_NEIGHBORHOOD",
              "C_WRONG_STREET_NEIGHBORHOOD")
SEGMENTS_1X, CITIES_1X, N_REFERENCE, N_GENERATED, DIM = 112, 25, 67, 4, 768
N_NEIGHBOURHOODS = 3


def build(scale: int = 1, seed: int = 7, dim: int = DIM, out_dir: Path | None = None) -> dict:
    """The synthetic benchmark at ``scale``×. With ``out_dir`` the generated embeddings are
    written to ``out_dir/generated.npy`` chunk by chunk and returned as a read-only memmap
    (so a 100× store never sits in memory at once)."""
    rng = np.random.default_rng(seed)
    n_seg, n_city = SEGMENTS_1X * scale, CITIES_1X * scale
    city = np.sort(rng.integers(0, n_city, n_seg))
    city[:n_city] = np.arange(n_city)  # every city holds a segment
    city = np.sort(city)
    neighbourhood = rng.integers(0, N_NEIGHBOURHOODS, n_seg)
    left_hand = city % 4 == 0
    common = rng.normal(0, 1, dim) * 4.0
    city_centre = rng.normal(0, 1, (n_city, dim)) * 1.5
    segment_centre = common + city_centre[city] + rng.normal(0, 1, (n_seg, dim))
    reference = [(segment_centre[s] + rng.normal(0, 3, (N_REFERENCE, dim))).astype(np.float32)
                 for s in range(n_seg)]
    galleries = _galleries(rng, city, neighbourhood, left_hand)
    n_panels = len(MODELS) * len(CONDITIONS) * n_seg
    shape = (n_panels, N_GENERATED, dim)
    if out_dir is None:
        generated = np.empty(shape, dtype=np.float32)
    else:
        generated = np.lib.format.open_memmap(Path(out_dir) / "generated.npy", "w+", np.float32, shape)
    p = 0
    for model in MODELS:
        model_bias = rng.normal(0, 1, dim) * 2.0
        for ci, condition in enumerate(CONDITIONS):
            pull = 0.12 + 0.04 * (condition in ("L1", "L2")) + 0.02 * ci / len(CONDITIONS)
            centre = common + model_bias + pull * (segment_centre - common)       # (S, D)
            for start in range(0, n_seg, 1024):
                part = centre[start:start + 1024]
                generated[p:p + len(part)] = part[:, None, :] + rng.normal(0, 3, (len(part), N_GENERATED, dim))
                p += len(part)
    if out_dir is not None:
        generated.flush()
        del generated
        generated = np.load(Path(out_dir) / "generated.npy", mmap_mode="r")
    target = np.tile(np.arange(n_seg), len(MODELS) * len(CONDITIONS))
    model_of = np.repeat(np.arange(len(MODELS)), len(CONDITIONS) * n_seg)
    condition_of = np.tile(np.repeat(np.arange(len(CONDITIONS)), n_seg), len(MODELS))
    return {"reference": reference, "galleries": galleries, "city": city, "generated": generated,
            "target": target, "model_of": model_of, "condition_of": condition_of,
            "clip": rng.random(n_panels), "scale": scale}


def _galleries(rng, city, neighbourhood, left_hand) -> np.ndarray:
    """(S, 6) gallery table in GALLERY_COLUMNS order; −1 where a kind is missing."""
    n = len(city)
    idx = np.arange(n)
    start = np.searchsorted(city, city, "left")
    stop = np.searchsorted(city, city, "right")
    table = np.full((n, 6), -1, dtype=np.int64)
    table[:, 0] = idx
    # nearest_same_city: the next segment of the same city (cyclic), if the city has two
    size = stop - start
    nxt = start + (idx - start + 1) % np.maximum(size, 1)
    table[:, 1] = np.where(size > 1, nxt, -1)
    # same_city_other_neighbourhood / same_neighbourhood: scan a few offsets within the city
    for col, want_same in ((2, False), (5, True)):
        for k in range(1, 8):
            cand = start + (idx - start + k) % np.maximum(size, 1)
            ok = (table[:, col] < 0) & (size > k) & (
                (neighbourhood[cand] == neighbourhood) == want_same) & (cand != idx)
            table[ok, col] = cand[ok]
    # same_driving_side_other_city, random_other_city: random draws outside the city
    for col, same_side in ((3, True), (4, None)):
        for _ in range(20):
            cand = rng.integers(0, n, n)
            ok = (table[:, col] < 0) & (city[cand] != city)
            if same_side:
                ok &= left_hand[cand] == left_hand
            table[ok, col] = cand[ok]
    return table


def gallery_dicts(table: np.ndarray) -> list[dict]:
    from geofidelity_plugin.core.evaluation.metrics.retrieval import GALLERY_COLUMNS

    return [{c: int(v) for c, v in zip(GALLERY_COLUMNS, row) if v >= 0} for row in table]


def panel_rows(data: dict, scores: dict) -> list[dict]:
    """Per-panel rows as the evaluation writes them (what build_tables reads)."""
    from geofidelity_plugin.core.evaluation.statistics.tables import METRICS

    rows = []
    cols = {m: scores[m] for m in METRICS if m in scores}
    for i in range(len(data["target"])):
        s = int(data["target"][i])
        row = {"model": MODELS[data["model_of"][i]], "condition": CONDITIONS[data["condition_of"][i]],
               "segment_id": f"seg{s:05d}", "city": f"city{data['city'][s]:04d}", "country_code": "XX",
               "is_anchor": False, "clip_score": float(data["clip"][i]), "gads": None}
        for m, v in cols.items():
            x = float(v[i])
            row[m] = None if np.isnan(x) else x
        rows.append(row)
    return rows


def sample_rows(data: dict, per_image: dict) -> list[dict]:
    """Per generated image (shared-noise seeds, so the deltas pair by sample, method §7)."""
    out = []
    keys = [k for k in per_image if k != "similarity_target"]
    for i in range(len(data["target"])):
        s = int(data["target"][i])
        for j in range(per_image["similarity_target"].shape[1]):
            row = {"model": MODELS[data["model_of"][i]], "condition": CONDITIONS[data["condition_of"][i]],
                   "segment_id": f"seg{s:05d}", "city": f"city{data['city'][s]:04d}", "country_code": "XX",
                   "sample": j, "seed": 1000 + j, "cos_sim": float(per_image["similarity_target"][i, j])}
            for k in keys:
                x = float(per_image[k][i, j])
                row[k] = None if np.isnan(x) else x
            out.append(row)
    return out


def panel_columns(data: dict, scores: dict) -> dict[str, np.ndarray]:
    """The rows of :func:`panel_rows` as columns of numpy arrays (how a 100× run keeps them)."""
    from geofidelity_plugin.core.evaluation.statistics.tables import METRICS

    target = np.asarray(data["target"])
    cols = {"model": np.array(MODELS, dtype=object)[data["model_of"]],
            "condition": np.array(CONDITIONS, dtype=object)[data["condition_of"]],
            "segment_id": np.array([f"seg{s:05d}" for s in range(len(data["city"]))], dtype=object)[target],
            "city": np.array([f"city{c:04d}" for c in data["city"]], dtype=object)[target],
            "country_code": np.full(len(target), "XX", dtype=object),
            "is_anchor": np.zeros(len(target), dtype=bool), "clip_score": np.asarray(data["clip"], dtype=float)}
    cols.update({m: np.asarray(scores[m], dtype=float) for m in METRICS if m in scores})
    return cols


def sample_columns(data: dict, per_image: dict) -> dict[str, np.ndarray]:
    """The rows of :func:`sample_rows` as columns (panel-major, then sample)."""
    m = per_image["similarity_target"].shape[1]
    panel = {k: np.repeat(v, m) for k, v in panel_columns(data, {}).items()
             if k in ("model", "condition", "segment_id", "city", "country_code", "is_anchor")}
    samples = np.tile(np.arange(m), len(data["target"]))
    cols = dict(panel, sample=samples, seed=1000 + samples,  # int columns: a code each, no Python ints
                cos_sim=per_image["similarity_target"].reshape(-1))
    cols.update({k: v.reshape(-1) for k, v in per_image.items() if k != "similarity_target"})
    return cols


def golden_quantities(data: dict, n_bootstrap: int = 5000, bootstrap_unit: str = "city") -> dict[str, np.ndarray]:
    """Every quantity of a fixed run, flattened to named float arrays (NaN for missing); the
    tables' intervals by ``bootstrap_unit`` (method §7)."""
    from geofidelity_plugin.core.evaluation.metrics import panel_metrics as metrics, retrieval
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.statistics.tables import build_tables

    out: dict[str, np.ndarray] = {}
    gamma = metrics.median_heuristic_gamma(data["reference"], sample_size=1000, seed=0)
    out["gamma"] = np.array([gamma])
    refs = metrics.ReferenceSet.from_panels(data["reference"], gamma)
    for name in ("self_kernel", "self_kernel_unbiased", "diversity", "means"):
        out[f"refs.{name}"] = np.asarray(getattr(refs, name), dtype=np.float64)
    gen = data["generated"]
    table = data["galleries"][data["target"]]
    scores = {}
    for unbiased in (False, True):  # the evaluation's one fused pass: metrics and retrieval
        part = metrics.score_panels(gen, data["target"], refs, unbiased=unbiased, gallery_rows=table,
                                    image_similarities=True)
        sims, ((_, images),) = part.pop("gallery_similarities"), part.pop("image_similarities")
        for k, v in part.items():
            out[f"score.{'u' if unbiased else 'b'}.{k}"] = v
        if not unbiased:
            scores.update(part)
    per_image = retrieval.retrieval_from_similarities(images)
    for mode, part in (("panel", retrieval.retrieval_from_similarities(sims)),
                       ("image", {k: v.mean(axis=1) for k, v in per_image.items()})):
        for k, v in part.items():
            out[f"retrieval.{mode}.{k}"] = v
        if mode == "panel":
            scores.update(part)
    for k, v in per_image.items():
        out[f"per_image.{k}"] = v
    options = EvaluationOptions(n_bootstrap=n_bootstrap, bootstrap_unit=bootstrap_unit)
    tables = build_tables(panel_rows(data, scores), options, sample_rows(data, per_image), "synthetic")
    for name, rows in tables.items():
        for r, row in enumerate(rows):
            for key, value in row.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    out[f"table.{name}.{r}.{key}"] = np.array([float(value)])
                elif value is None:
                    out[f"table.{name}.{r}.{key}"] = np.array([np.nan])
                else:
                    out[f"table.{name}.{r}.{key}:str"] = np.array([json.dumps(value, sort_keys=True)])
    return out


def segment_records(scale: int = 1, seed: int = 11) -> tuple[list[dict], dict]:
    """Store-like segment records (city, country, neighbourhood, driving side, centroid) and a
    few kept gallery entries, for :func:`~geofidelity_plugin.core.evaluation.galleries.build_galleries`."""
    rng = np.random.default_rng(seed)
    n_seg, n_city = SEGMENTS_1X * scale, CITIES_1X * scale
    city = rng.integers(0, n_city, n_seg)
    segments = []
    for s in range(n_seg):
        c = int(city[s])
        segments.append({"segment_id": f"s{rng.integers(1 << 40):011x}", "city": f"city{c % (n_city - 3)}",
                         "country_code": "AA" if c < n_city - 3 else "BB",
                         "neighbourhood": None if s % 17 == 0 else f"n{rng.integers(0, 3)}",
                         "driving_side": "left" if c % 4 == 0 else "right",
                         "centroid_lon": float(c + rng.random() * 0.01),
                         "centroid_lat": float(rng.random() * 0.01)})
    ids = [r["segment_id"] for r in segments]
    keep = {ids[0]: {"random_other_city": ids[5], "nearest_same_city": None},
            ids[3]: {"same_neighbourhood": ids[9]}}
    return segments, keep


def galleries_golden(scale: int = 1) -> dict:
    from geofidelity_plugin.core.evaluation.galleries import build_galleries

    segments, keep = segment_records(scale)
    return {f"seed{seed}": build_galleries(segments, seed, keep) for seed in (0, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-golden", type=Path)
    parser.add_argument("--write-galleries-golden", type=Path)
    args = parser.parse_args()
    if args.write_galleries_golden:
        args.write_galleries_golden.write_text(json.dumps(galleries_golden(1), indent=0, sort_keys=True))
        print(f"galleries → {args.write_galleries_golden}")
    if args.write_golden:
        quantities = golden_quantities(build(1))
        np.savez_compressed(args.write_golden, **quantities)
        print(f"{len(quantities)} quantities → {args.write_golden}")


if __name__ == "__main__":
    main()
