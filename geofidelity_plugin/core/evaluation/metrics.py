"""method §6 panel metrics — CosSim, MMD², DCSF, GADS — for one panel and for many at once.

The single-panel functions compute each quantity plainly (explicit pairwise distances), so they
are the readable definition. The batched functions score many generated panels against their
reference panels in one pass: everything that depends only on a reference panel (its mean, the
kernel self-term k_RR, its within-panel diversity d_R) is computed once in :class:`ReferenceSet`,
and the cross terms come from matrix products grouped by reference panel. All arithmetic is
float64. Embeddings are the per-image DINOv2 features of method §5 (one row per image).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np
from scipy.spatial.distance import cdist

#: method §6 DCSF: weight λ of the diversity penalty.
DCSF_LAMBDA = 0.5
#: method §6 GADS: histogram bins on [0, 1].
GADS_BINS = 10
#: method §6 MMD²: defaults of the global median-heuristic sample.
from .options import GAMMA_SAMPLE_SIZE  # noqa: E402,F401 (defined with the options)
GAMMA_SEED = 0

PanelStack = Union[np.ndarray, Sequence[np.ndarray]]


# --------------------------------------------------------------------------- input checks
def _as_panel(panel, name: str) -> np.ndarray:
    array = np.asarray(panel, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array (images × features), got shape "
                         f"{array.shape}; pass one row per image.")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds NaN or infinite values; recompute those embeddings.")
    return array


def _check_gamma(gamma: float) -> float:
    gamma = float(gamma)
    if not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"gamma must be a positive finite number, got {gamma}; use "
                         "median_heuristic_gamma() on the reference embeddings.")
    return gamma


def _unit_rows(vectors: np.ndarray, name: str) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    if np.any(norms == 0):
        raise ValueError(f"{name} contains a zero-length vector, whose cosine is undefined; "
                         "check the embeddings for blank images.")
    return vectors / norms


def panel_groups(panels: PanelStack) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split generated panels into groups of equal size, each stacked as ``(P_g, m, D)``.

    ``panels`` is a stacked ``(P, m, D)`` array or a sequence of ``(m_i, D)`` arrays. Returns
    ``(row_indices, stack)`` pairs so that batched results can be written back in input order.
    """
    if isinstance(panels, np.ndarray) and panels.ndim == 3:
        if panels.shape[0] == 0 or panels.shape[1] == 0:
            raise ValueError("generated panels are empty; pass at least one image per panel.")
        stack = _as_panel(panels.reshape(-1, panels.shape[-1]), "generated panels")
        return [(np.arange(panels.shape[0]), stack.reshape(panels.shape))]
    arrays = [_as_panel(p, f"generated panel {i}") for i, p in enumerate(panels)]
    if not arrays:
        raise ValueError("no generated panels given; pass at least one panel.")
    by_size: dict[tuple[int, int], list[int]] = {}
    for i, array in enumerate(arrays):
        by_size.setdefault(array.shape, []).append(i)
    return [(np.asarray(rows), np.stack([arrays[i] for i in rows])) for rows in by_size.values()]


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
    if not isinstance(reference_embeddings, np.ndarray):
        reference_embeddings = np.concatenate([_as_panel(p, "reference panel")
                                               for p in reference_embeddings])
    pool = _as_panel(reference_embeddings, "reference_embeddings")
    rng = np.random.default_rng(seed)
    take = min(int(sample_size), len(pool))
    sample = pool[np.sort(rng.choice(len(pool), size=take, replace=False))]
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
@dataclass(frozen=True)
class ReferenceSet:
    """Reference-panel terms computed once per run (method §6), indexed by panel position.

    ``embeddings`` holds every panel's rows back to back; panel ``s`` is
    ``embeddings[offsets[s]:offsets[s + 1]]``.
    """

    gamma: float
    embeddings: np.ndarray           # (N, D)
    offsets: np.ndarray              # (S + 1,)
    means: np.ndarray                # (S, D) panel mean embeddings
    unit_means: np.ndarray           # (S, D) means scaled to unit length
    sq_norms: np.ndarray             # (N,) ‖u‖² per reference image
    self_kernel: np.ndarray          # (S,) biased mean of k(u, u') incl. diagonal
    self_kernel_unbiased: np.ndarray  # (S,) off-diagonal mean; NaN for one-image panels
    diversity: np.ndarray            # (S,) d_R, mean pairwise cosine distance

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)

    @classmethod
    def from_panels(cls, reference_panels: Sequence[np.ndarray], gamma: float) -> "ReferenceSet":
        gamma = _check_gamma(gamma)
        panels = [_as_panel(p, f"reference panel {i}") for i, p in enumerate(reference_panels)]
        if not panels:
            raise ValueError("no reference panels given; pass one (images × features) array "
                             "per segment.")
        offsets = np.concatenate([[0], np.cumsum([len(p) for p in panels])])
        embeddings = np.concatenate(panels)
        sq_norms = np.einsum("ij,ij->i", embeddings, embeddings)
        means = np.stack([p.mean(axis=0) for p in panels])
        self_kernel = np.empty(len(panels))
        self_unbiased = np.full(len(panels), np.nan)
        diversity = np.zeros(len(panels))
        for s, p in enumerate(panels):
            sq = sq_norms[offsets[s]:offsets[s + 1]]
            gram = p @ p.T
            d2 = np.clip(sq[:, None] + sq[None, :] - 2.0 * gram, 0.0, None)
            np.fill_diagonal(d2, 0.0)
            kernel = np.exp(-gamma * d2)
            n = len(p)
            self_kernel[s] = kernel.mean()
            if n > 1:
                if np.any(sq == 0):
                    raise ValueError(f"reference panel {s} contains a zero-length embedding; "
                                     "check the embeddings for blank images.")
                self_unbiased[s] = (kernel.sum() - n) / (n * (n - 1))
                cos = gram / np.sqrt(np.outer(sq, sq))
                diversity[s] = 1.0 - (cos.sum() - np.trace(cos)) / (n * (n - 1))
        return cls(gamma, embeddings, offsets, means, _unit_rows(means, "reference panel mean"),
                   sq_norms, self_kernel, self_unbiased, diversity)


def score_panels(generated_panels: PanelStack, target_index, references: ReferenceSet, *,
                 unbiased: bool = False, diversity_weight: float = DCSF_LAMBDA
                 ) -> dict[str, np.ndarray]:
    """Batched method §6 CosSim, MMD², DCSF of each generated panel against its reference.

    ``generated_panels``: ``(P, m, D)`` or a sequence of ``(m_i, D)`` arrays;
    ``target_index``: ``(P,)`` positions into ``references``. Returns arrays of length P:
    ``cos_sim``, ``mmd2``, ``dcsf``, ``diversity_generated`` (d_G), ``diversity_reference``
    (d_R). Equal to :func:`cos_sim`, :func:`mmd2`, :func:`dcsf` panel by panel.

    ``unbiased``: the U-statistic is undefined for a panel of one image (generated or
    reference); such a panel gets NaN for MMD² and DCSF (missing), where :func:`mmd2` raises.
    """
    target = np.asarray(target_index, dtype=np.int64).reshape(-1)
    n_ref = len(references.means)
    if target.size and (target.min() < 0 or target.max() >= n_ref):
        raise ValueError(f"target_index must lie in [0, {n_ref}); it indexes the reference set.")
    out = {key: np.empty(len(target)) for key in ("cos_sim", "mmd2", "diversity_generated")}
    seen = 0
    for rows, stack in panel_groups(generated_panels):
        if rows.max() >= len(target):
            raise ValueError("target_index has fewer entries than there are generated panels.")
        seen += len(rows)
        _score_stack(stack, target[rows], references, unbiased, rows, out)
    if seen != len(target):
        raise ValueError(f"{seen} generated panels but {len(target)} target indices; give one "
                         "target per panel.")
    d_ref = references.diversity[target]
    out["diversity_reference"] = d_ref
    out["dcsf"] = out["mmd2"] + diversity_weight * np.maximum(
        0.0, d_ref - out["diversity_generated"])
    return out


def _score_stack(g: np.ndarray, target: np.ndarray, refs: ReferenceSet, unbiased: bool,
                 rows: np.ndarray, out: dict[str, np.ndarray]) -> None:
    """Fill the results for one stack of equal-sized generated panels ``g`` (P, m, D)."""
    n_panels, m, dim = g.shape
    gamma = refs.gamma
    unit_means = _unit_rows(g.mean(axis=1), "generated panel mean")
    out["cos_sim"][rows] = np.einsum("pd,pd->p", unit_means, refs.unit_means[target])

    sq = np.einsum("pid,pid->pi", g, g)
    gram = np.matmul(g, g.transpose(0, 2, 1))
    d2 = np.clip(sq[:, :, None] + sq[:, None, :] - 2.0 * gram, 0.0, None)
    diag = np.arange(m)
    d2[:, diag, diag] = 0.0
    kernel_sum = np.exp(-gamma * d2).sum(axis=(1, 2))
    if m > 1:
        if np.any(sq == 0):
            raise ValueError("a generated panel contains a zero-length embedding; check the "
                             "embeddings for blank images.")
        cos = gram / np.sqrt(sq[:, :, None] * sq[:, None, :])
        off_diag = cos.sum(axis=(1, 2)) - np.trace(cos, axis1=1, axis2=2)
        out["diversity_generated"][rows] = 1.0 - off_diag / (m * (m - 1))
    else:
        out["diversity_generated"][rows] = 0.0

    cross = np.empty(n_panels)
    order = np.argsort(target, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(target[order]) != 0])
    for group in np.split(order, starts[1:]):
        s = target[group[0]]
        ref = refs.embeddings[refs.offsets[s]:refs.offsets[s + 1]]
        ref_sq = refs.sq_norms[refs.offsets[s]:refs.offsets[s + 1]]
        images = g[group].reshape(-1, dim)
        image_sq = sq[group].reshape(-1)
        d2_cross = np.clip(image_sq[:, None] + ref_sq[None, :] - 2.0 * images @ ref.T, 0.0, None)
        cross[group] = np.exp(-gamma * d2_cross).reshape(len(group), -1).mean(axis=1)

    if not unbiased:
        value = kernel_sum / (m * m) + refs.self_kernel[target] - 2.0 * cross
    elif m < 2:  # no pair of generated images: the U-statistic is undefined
        value = np.full(n_panels, np.nan)
    else:  # a one-image reference panel has a NaN self-term, so its panels stay NaN
        value = ((kernel_sum - m) / (m * (m - 1)) + refs.self_kernel_unbiased[target]
                 - 2.0 * cross)
    out["mmd2"][rows] = np.where(np.isnan(value), np.nan, np.maximum(value, 0.0))


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
