"""method §6 panel metrics — CosSim, MMD², DCSF, GADS — for one panel and for many at once.

The single-panel functions compute each quantity plainly (explicit pairwise distances), so they
are the readable definition. The batched pass that scores many generated panels at once (with
the reference terms computed once per run) lives in :mod:`.metric_pass`, the chunked float32 →
float64 streaming in :mod:`.panel_arrays`; both are re-exported here. All arithmetic is float64.
Embeddings are the per-image DINOv2 features of method §5 (one row per image).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.spatial.distance import cdist

from geofidelity_plugin.core.evaluation.metrics.metric_pass import DCSF_LAMBDA, ReferenceSet, score_panels
from geofidelity_plugin.core.evaluation.options import GAMMA_SAMPLE_SIZE
from geofidelity_plugin.core.evaluation.metrics.panel_arrays import (CHUNK_IMAGES, PanelStack, float64_chunks, panel_groups)
from geofidelity_plugin.core.evaluation.metrics.panel_arrays import as_panel as _as_panel
from geofidelity_plugin.core.evaluation.metrics.panel_arrays import check_gamma as _check_gamma
from geofidelity_plugin.core.evaluation.metrics.panel_arrays import unit_rows as _unit_rows

__all__ = ["CHUNK_IMAGES", "DCSF_LAMBDA", "GADS_BINS", "GAMMA_SAMPLE_SIZE", "GAMMA_SEED", "PanelStack",
           "ReferenceSet", "attribute_histograms", "cos_sim", "dcsf", "float64_chunks", "gads", "gads_batch",
           "jensen_shannon_distance", "mean_pairwise_cosine_distance", "median_heuristic_gamma", "mmd2",
           "panel_groups", "rbf_kernel_matrix", "reference_histograms", "score_panels"]

#: method §6 GADS: histogram bins on [0, 1].
GADS_BINS = 10
#: method §6 MMD²: seed of the global median-heuristic sample (its size is an option).
GAMMA_SEED = 0


# --------------------------------------------------------------------------- single panel
def cos_sim(generated_panel, reference_panel) -> float:
    """method §6 CosSim: cosine of the panel mean embeddings."""
    g = _as_panel(generated_panel, "generated_panel").mean(axis=0)
    r = _as_panel(reference_panel, "reference_panel").mean(axis=0)
    g, r = _unit_rows(np.stack([g, r]), "panel mean")
    return float(np.dot(g, r))


def rbf_kernel_matrix(a, b, gamma: float) -> np.ndarray:
    """k(a, b) = exp(−γ‖a − b‖²) for every pair of rows (method §6 MMD²)."""
    return np.exp(-_check_gamma(gamma) * cdist(a, b, "sqeuclidean"))


def mmd2(generated_panel, reference_panel, gamma: float, unbiased: bool = False) -> float:
    """method §6 MMD² with an RBF kernel; no square root is taken.

    Default: the paper's biased V-statistic, whose 1/m² and 1/n² sums include the diagonal
    (mathematically ≥ 0; a rounding residue below 0 is clipped). ``unbiased=True``: the
    U-statistic, leaving the diagonal out of the within-panel sums and clipped at 0; it needs at
    least two images in each panel.
    """
    g = _as_panel(generated_panel, "generated_panel")
    r = _as_panel(reference_panel, "reference_panel")
    k_gg = rbf_kernel_matrix(g, g, gamma)
    k_rr = rbf_kernel_matrix(r, r, gamma)
    k_gr = rbf_kernel_matrix(g, r, gamma)
    m, n = len(g), len(r)
    if not unbiased:
        value = k_gg.mean() + k_rr.mean() - 2.0 * k_gr.mean()
    else:
        if m < 2 or n < 2:
            raise ValueError(f"the unbiased MMD² needs ≥ 2 images per panel (got {m} generated, "
                             f"{n} reference); use the default biased estimate.")
        value = ((k_gg.sum() - np.trace(k_gg)) / (m * (m - 1))
                 + (k_rr.sum() - np.trace(k_rr)) / (n * (n - 1)) - 2.0 * k_gr.mean())
    return max(float(value), 0.0)


def mean_pairwise_cosine_distance(panel) -> float:
    """method §6 DCSF diversity d: mean of 1 − cos over all pairs of images of one panel.

    A one-image panel has no pairs; its d is defined as 0 (no measurable diversity), so a
    one-image generated panel is penalised against any diverse reference panel.
    """
    p = _as_panel(panel, "panel")
    if len(p) < 2:
        return 0.0
    unit = _unit_rows(p, "panel")
    return float(np.mean(cdist(unit, unit, "cosine")[np.triu_indices(len(p), 1)]))


def dcsf(generated_panel, reference_panel, gamma: float, diversity_weight: float = DCSF_LAMBDA,
         unbiased: bool = False) -> float:
    """method §6 DCSF = MMD² + λ·max(0, d_R − d_G), λ = ``diversity_weight`` (0.5)."""
    penalty = max(0.0, mean_pairwise_cosine_distance(reference_panel)
                  - mean_pairwise_cosine_distance(generated_panel))
    return mmd2(generated_panel, reference_panel, gamma, unbiased) + diversity_weight * penalty


def median_heuristic_gamma(reference_embeddings, sample_size: int = GAMMA_SAMPLE_SIZE,
                           seed: int = GAMMA_SEED) -> float:
    """method §6 MMD²: γ = 1 / median of the positive pairwise squared distances.

    One global, seeded sample (without replacement) of the reference embeddings — an
    ``(N, D)`` array or a sequence of reference panels, which are pooled — gives one γ for the
    whole run; never fit it per panel. Zero distances (the same image assigned to two
    segments) are left out.
    """
    if isinstance(reference_embeddings, np.ndarray):
        panels = [reference_embeddings]
        name = "reference_embeddings"
    else:  # pooled without copying: only the sampled rows are read (and made float64)
        panels = list(reference_embeddings)
        name = "reference panel"
    for p in panels:
        if np.ndim(p) != 2 or len(p) == 0:
            _as_panel(p, name)  # raises with the message for a malformed panel
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in panels])])
    rng = np.random.default_rng(seed)
    take = min(int(sample_size), int(offsets[-1]))
    picked = np.sort(rng.choice(int(offsets[-1]), size=take, replace=False))
    owner = np.searchsorted(offsets, picked, side="right") - 1
    sample = np.empty((take, np.shape(panels[0])[1]))
    for s in np.unique(owner):
        where = owner == s
        sample[where] = np.asarray(panels[s])[picked[where] - offsets[s]]
    sample = _as_panel(sample, name)
    sq = np.einsum("ij,ij->i", sample, sample)
    upper = np.triu_indices(take, 1)
    d2 = (sq[:, None] + sq[None, :] - 2.0 * sample @ sample.T)[upper]
    # The expansion leaves a rounding residue for identical rows: settle near-zero pairs exactly.
    close = np.flatnonzero(d2 <= 1e-9 * max(float(sq.max()), 1.0))
    if close.size:
        diff = sample[upper[0][close]] - sample[upper[1][close]]
        d2[close] = np.einsum("ij,ij->i", diff, diff)
    positive = d2[d2 > 0]
    if positive.size == 0:
        raise ValueError("all sampled reference embeddings are identical, so the median "
                         "heuristic has no positive distance; add distinct reference images.")
    return float(1.0 / np.median(positive))


def attribute_histograms(ratios, bins: int = GADS_BINS) -> np.ndarray:
    """method §6 GADS: per-attribute histograms (probabilities) of per-image ratios.

    ``ratios`` is ``(..., images, attributes)`` with values in [0, 1]; returns
    ``(..., attributes, bins)``. Bins are those of ``np.histogram(range=(0, 1))``: left-closed,
    and a ratio of exactly 1.0 falls in the last bin.
    """
    r = np.asarray(ratios, dtype=np.float64)
    if r.ndim < 2 or r.shape[-2] == 0:
        raise ValueError(f"ratios must be (images × attributes) with ≥ 1 image, got shape "
                         f"{r.shape}.")
    if not np.all((r >= 0.0) & (r <= 1.0)):
        raise ValueError("attribute ratios must lie in [0, 1] (pixel fractions); check the "
                         "segmentation output.")
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.minimum(np.searchsorted(edges, r, side="right") - 1, bins - 1)
    counts = (index[..., None] == np.arange(bins)).sum(axis=-3)
    return counts / r.shape[-2]


def jensen_shannon_distance(p, q) -> np.ndarray:
    """Base-2 Jensen–Shannon distance (√ of the divergence) along the last axis; p, q sum to 1.
    """
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    mid = 0.5 * (p + q)
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log2(p / mid), 0.0).sum(axis=-1)
        kl_q = np.where(q > 0, q * np.log2(q / mid), 0.0).sum(axis=-1)
    return np.sqrt(np.clip(0.5 * (kl_p + kl_q), 0.0, None))


def gads(generated_ratios, reference_ratios, bins: int = GADS_BINS) -> float:
    """method §6 GADS: mean over attributes of the JS distance between ratio histograms."""
    g = attribute_histograms(generated_ratios, bins)
    r = attribute_histograms(reference_ratios, bins)
    if g.shape != r.shape:
        raise ValueError(f"generated and reference ratios have {g.shape[0]} vs {r.shape[0]} "
                         "attributes; use the same attribute mapping for both.")
    return float(jensen_shannon_distance(g, r).mean())

# --------------------------------------------------------------------------- batched
def reference_histograms(reference_ratio_panels: Sequence[np.ndarray],
                         bins: int = GADS_BINS) -> np.ndarray:
    """method §6 GADS: ``(S, attributes, bins)`` histograms, one per reference panel."""
    return np.stack([attribute_histograms(p, bins) for p in reference_ratio_panels])


def gads_batch(generated_ratios: PanelStack, target_index,
               reference_hist: np.ndarray) -> np.ndarray:
    """Batched method §6 GADS of each generated panel against its reference histograms.

    ``generated_ratios``: ``(P, m, attributes)`` or a sequence of ``(m_i, attributes)``;
    ``reference_hist``: from :func:`reference_histograms`. Returns ``(P,)``.
    """
    target = np.asarray(target_index, dtype=np.int64).reshape(-1)
    bins = reference_hist.shape[-1]
    out = np.full(len(target), np.nan)
    for rows, stack in panel_groups(generated_ratios):
        hist = attribute_histograms(stack, bins)
        if hist.shape[1:] != reference_hist.shape[1:]:
            raise ValueError("generated and reference ratios differ in attribute count; use "
                             "the same attribute mapping for both.")
        out[rows] = jensen_shannon_distance(hist, reference_hist[target[rows]]).mean(axis=-1)
    return out
