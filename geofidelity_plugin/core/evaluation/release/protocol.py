"""The published release's own evaluator (docs/method.md §6 "Release protocol"), so that a new
generator's numbers land on the published GeoFidelity-Bench leaderboard: the same reference
split, the same 5-way per-image retrieval, a γ fitted per pair, the release's GAAS and its three
baselines, row for row in the columns of its ``raw_results.csv``.

Everything here is plain Python and numpy over embeddings given by image path; the layout (block
order, image order, the release's own ``neg_*`` blocks) comes from :func:`release_layout`.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

import numpy as np

#: the release's negative fields, in its gallery's column order after the target
NEG_FIELDS = ("neg_same_neighborhood_diff_block", "neg_same_city_diff_neighborhood",
              "neg_same_driving_side_diff_city", "neg_random_city")
SIM_COLUMNS = ("sim_target",) + tuple("sim_" + f[len("neg_"):] for f in NEG_FIELDS)
EPS = 1e-8                  # added to every norm
MAX_HOLDOUT = 4             # k = max(1, min(4, n // 2)) images held out per block
BASELINE_SIZE = 4           # images of a baseline panel
DCSF_ALPHA = 0.5
GAAS_BINS = 10
GAAS_BIN_EPS = 1e-8
ORACLE, RANDOM_GLOBAL, RANDOM_SAME_COUNTRY = "oracle_nn", "random_global", "random_same_country"
BASELINES = (ORACLE, RANDOM_GLOBAL, RANDOM_SAME_COUNTRY)
BASELINE_LEVEL = "baseline"
RAW_COLUMNS = ("method", "level", "block_id", "city", "country", "n_gen", "n_ref", "n_gallery", "gamma",
               "cos_sim", "mmd", "dcsf", "diversity_gen", "diversity_ref", "gaas", "retrieval_acc", "mrr",
               *SIM_COLUMNS)
#: what the summaries average (mean and standard deviation per group)
SUMMARY_METRICS = ("cos_sim", "dcsf", "mmd", "gaas", "retrieval_acc", "mrr")
SUMMARIES = {"by_method": ("method",), "by_method_level": ("method", "level"),
             "by_city_method": ("city", "country", "method"), "by_level": ("level",)}
#: evaluate's options that this protocol fixes or has no use for (the split, the MMD², the retrieval, the
#: baselines and the summaries are the release's; there is no bootstrap): the manifest lists them
#: under ``options_not_used``, not among the options the run used (:func:`split_unused_options`)
UNUSED_OPTIONS = ("mmd_unbiased", "retrieval_mode", "holdout_size", "anchor_size", "anchors", "gamma_sample_size",
                  "n_bootstrap", "bootstrap", "bootstrap_unit", "pairing", "confidence", "min_reference_images",
                  "tables", "max_memory")


def split_unused_options(manifest: dict) -> dict:
    """The manifest of a release-protocol run with :data:`UNUSED_OPTIONS` moved out of ``options``
    into ``options_not_used``, so that no reader takes them for settings that shaped the numbers."""
    options = dict(manifest.get("options") or {})
    unused = {key: options.pop(key) for key in UNUSED_OPTIONS if key in options}
    return dict(manifest, options=options, options_not_used=unused)


@dataclass
class Block:
    block_id: str
    city: str
    country: str
    images: list[str]                       # image paths in the release's order
    negatives: dict[str, str | None] = field(default_factory=dict)  # NEG_FIELDS → block id


def seeded_random(text: str) -> random.Random:
    """``random.Random`` seeded with the first 8 bytes (big-endian) of sha256(text)."""
    return random.Random(int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big"))


def split_block(block_id: str, images: list[str], seed: int = 0) -> tuple[list[str], list[str]]:
    """(held-out, gallery): the block's list shuffled by ``"<seed>|<block_id>"``; the first
    k = max(1, min(4, n // 2)) images are held out."""
    order = list(images)
    seeded_random(f"{seed}|{block_id}").shuffle(order)
    k = max(1, min(MAX_HOLDOUT, len(order) // 2))
    return order[:k], order[k:]


def _unit(x: np.ndarray) -> np.ndarray:
    return x / (np.linalg.norm(x, axis=-1, keepdims=True) + EPS)


def pair_gamma(generated: np.ndarray, reference: np.ndarray) -> float:
    """1 / median of the positive squared distances among the pooled embeddings of one pair."""
    pool = np.concatenate([generated, reference])
    upper = np.triu_indices(len(pool), 1)
    d2 = ((pool[:, None, :] - pool[None, :, :]) ** 2).sum(-1)[upper]
    positive = d2[d2 > 0]
    return float(1.0 / np.median(positive)) if positive.size else float("nan")


def unbiased_mmd2(generated: np.ndarray, reference: np.ndarray, gamma: float) -> float:
    """U-statistic MMD² with the RBF kernel, clamped at 0; NaN when a set has < 2 images."""
    m, n = len(generated), len(reference)
    if m < 2 or n < 2 or not np.isfinite(gamma):
        return float("nan")

    def kernel(a, b):
        return np.exp(-gamma * ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))

    k_gg, k_rr = kernel(generated, generated), kernel(reference, reference)
    value = ((k_gg.sum() - np.trace(k_gg)) / (m * (m - 1)) + (k_rr.sum() - np.trace(k_rr)) / (n * (n - 1))
             - 2.0 * kernel(generated, reference).mean())
    return max(float(value), 0.0)


def diversity(panel: np.ndarray) -> float:
    """Mean pairwise cosine distance over the unordered pairs; NaN for fewer than 2 images."""
    if len(panel) < 2:
        return float("nan")
    unit = _unit(panel)
    cos = unit @ unit.T
    return float(np.mean(1.0 - cos[np.triu_indices(len(panel), 1)]))


def gaas(generated_ratios: np.ndarray, reference_ratios: np.ndarray) -> float:
    """Mean over attributes of the base-2 Jensen–Shannon distance of 10-bin histograms on [0, 1],
    1e-8 added to every bin before normalising."""
    out = []
    for a in range(generated_ratios.shape[1]):
        p, q = (np.histogram(r[:, a], bins=GAAS_BINS, range=(0.0, 1.0))[0] + GAAS_BIN_EPS
                for r in (generated_ratios, reference_ratios))
        p, q = p / p.sum(), q / q.sum()
        mid = 0.5 * (p + q)
        js = 0.5 * np.sum(p * np.log2(p / mid)) + 0.5 * np.sum(q * np.log2(q / mid))
        out.append(np.sqrt(max(js, 0.0)))
    return float(np.mean(out))


def retrieval(generated: np.ndarray, gallery_means: list[np.ndarray | None]) -> dict[str, float]:
    """Per generated image: similarities to the L2-normalised panel means of the gallery (target
    first, None where a negative is missing), rank by descending similarity (a stable sort, so a
    tie ranks the target first); then the means over the images."""
    present = [i for i, mean in enumerate(gallery_means) if mean is not None]
    means = _unit(np.stack([gallery_means[i] for i in present]))
    sims = _unit(generated) @ means.T                                  # (m, K)
    ranks = np.array([int(np.flatnonzero(np.argsort(-row, kind="stable") == 0)[0]) + 1 for row in sims])
    out = {"retrieval_acc": float(np.mean(ranks == 1)), "mrr": float(np.mean(1.0 / ranks)),
           "n_gallery": len(present)}
    for column, name in enumerate(SIM_COLUMNS):
        out[name] = float(sims[:, present.index(column)].mean()) if column in present else float("nan")
    return out


def score_row(generated: np.ndarray, target: np.ndarray, gallery_means: list[np.ndarray | None],
              generated_ratios: np.ndarray | None = None, reference_ratios: np.ndarray | None = None) -> dict:
    """Every metric of one (method, level, block) row of ``raw_results.csv``."""
    gamma = pair_gamma(generated, target)
    mmd = unbiased_mmd2(generated, target, gamma)
    d_gen, d_ref = diversity(generated), diversity(target)
    penalty = max(0.0, d_ref - d_gen) if np.isfinite(d_ref) and np.isfinite(d_gen) else 0.0
    row = {"n_gen": len(generated), "n_ref": len(target), "gamma": gamma,
           "cos_sim": float(_unit(generated.mean(0)) @ _unit(target.mean(0))),
           "mmd": mmd, "dcsf": mmd + DCSF_ALPHA * penalty if np.isfinite(mmd) else float("nan"),
           "diversity_gen": d_gen, "diversity_ref": d_ref,
           "gaas": (gaas(generated_ratios, reference_ratios)
                    if generated_ratios is not None and reference_ratios is not None else float("nan"))}
    row.update(retrieval(generated, gallery_means))
    return row


def baseline_paths(block: Block, held_out: list[str], blocks: list[Block], seed: int = 0) -> dict[str, list[str]]:
    """The three baselines' images: the held-out set repeated to 4; 4 reference images drawn with
    ``random.Random`` seeded by ``"<seed>|<block_id>|<method>"`` from every listed image of every
    block (release order), or of the other blocks of the same country."""
    out = {}
    if held_out:
        out[ORACLE] = [held_out[i % len(held_out)] for i in range(BASELINE_SIZE)]
    pools = {RANDOM_GLOBAL: [p for b in blocks for p in b.images],
             RANDOM_SAME_COUNTRY: [p for b in blocks if b.country == block.country and b.block_id != block.block_id
                                   for p in b.images]}
    for method, pool in pools.items():
        if pool:
            rng = seeded_random(f"{seed}|{block.block_id}|{method}")
            out[method] = rng.sample(pool, min(BASELINE_SIZE, len(pool)))
    return out
