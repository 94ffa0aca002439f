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
    A stacked float32 array (e.g. a memory-mapped feature cache) is passed through as it is:
    the batched functions convert it to float64 chunk by chunk (:func:`float64_chunks`).
    """
    if isinstance(panels, np.ndarray) and panels.ndim == 3:
        if panels.shape[0] == 0 or panels.shape[1] == 0:
            raise ValueError("generated panels are empty; pass at least one image per panel.")
        if panels.dtype not in (np.float32, np.float64):
            panels = _as_panel(panels.reshape(-1, panels.shape[-1]),
                               "generated panels").reshape(panels.shape)
        return [(np.arange(panels.shape[0]), panels)]
    arrays = [_as_panel(p, f"generated panel {i}") for i, p in enumerate(panels)]
    if not arrays:
        raise ValueError("no generated panels given; pass at least one panel.")
    by_size: dict[tuple[int, int], list[int]] = {}
    for i, array in enumerate(arrays):
        by_size.setdefault(array.shape, []).append(i)
    return [(np.asarray(rows), np.stack([arrays[i] for i in rows])) for rows in by_size.values()]


#: generated images converted to float64 at a time (bounds the memory of a metric pass)
CHUNK_IMAGES = 1 << 14


def float64_chunks(stack: np.ndarray, order: np.ndarray, chunk_images: int = CHUNK_IMAGES):
    """Yield ``(positions, panels)``: ``order`` in runs of at most ``chunk_images`` images,
    each run's panels copied to float64 (and checked finite) — never the whole stack at once.

    The yielded array is one buffer reused from run to run (fresh memory costs page faults on
    every run): use it before asking for the next run, never keep it.
    """
    step = max(1, min(int(chunk_images) // max(1, stack.shape[1]), len(order)))
    buffer = np.empty((step,) + stack.shape[1:])
    gathered = None if stack.dtype == np.float64 else np.empty((step,) + stack.shape[1:], stack.dtype)
    for start in range(0, len(order), step):
        positions = order[start:start + step]
        part = buffer[:len(positions)]
        if gathered is None:
            np.take(stack, positions, axis=0, out=part)
        else:
            np.take(stack, positions, axis=0, out=gathered[:len(positions)])
            np.copyto(part, gathered[:len(positions)])
        if not np.all(np.isfinite(part)):
            raise ValueError("generated panels hold NaN or infinite values; recompute those "
                             "embeddings.")
        yield positions, part


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
        """Float32 panels (embeddings read from the feature cache) are kept as float32 and
        turned into float64 panel by panel where they are used, so every result is the same as
        from float64 copies while the run holds half the memory."""
        gamma = _check_gamma(gamma)
        panels = []
        for i, p in enumerate(reference_panels):
            array = np.asarray(p)
            if array.dtype != np.float32 or array.ndim != 2 or array.shape[0] == 0:
                array = _as_panel(array, f"reference panel {i}")  # float32 is checked below
            panels.append(array)
        if not panels:
            raise ValueError("no reference panels given; pass one (images × features) array "
                             "per segment.")
        offsets = np.concatenate([[0], np.cumsum([len(p) for p in panels])])
        embeddings = np.concatenate(panels)
        del panels
        n_panels = len(offsets) - 1
        sq_norms = np.empty(len(embeddings))
        means = np.empty((n_panels, embeddings.shape[1]))
        self_kernel = np.empty(n_panels)
        self_unbiased = np.full(n_panels, np.nan)
        diversity = np.zeros(n_panels)
        for s in range(n_panels):
            p = _as_panel(embeddings[offsets[s]:offsets[s + 1]], f"reference panel {s}")
            sq = np.einsum("ij,ij->i", p, p)
            sq_norms[offsets[s]:offsets[s + 1]] = sq
            means[s] = p.mean(axis=0)
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

    def panel(self, s: int, buffer: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Reference panel ``s`` as float64 rows (in ``buffer`` when given, reused from panel
        to panel so that no fresh memory is touched each time) and their squared norms."""
        lo, hi = self.offsets[s], self.offsets[s + 1]
        if buffer is None or self.embeddings.dtype == np.float64:
            return np.asarray(self.embeddings[lo:hi], dtype=np.float64), self.sq_norms[lo:hi]
        out = buffer[:hi - lo]
        np.copyto(out, self.embeddings[lo:hi])
        return out, self.sq_norms[lo:hi]


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
    """Fill the results for one stack of equal-sized generated panels ``g`` (P, m, D).

    The panels are visited in order of their reference panel, a bounded chunk at a time
    (:func:`float64_chunks`), so the cross term of each reference panel is one matrix product
    on all its generated images in the chunk and memory stays flat whatever P is.
    """
    n_panels, m, dim = g.shape
    gamma = refs.gamma
    kernel_sum = np.empty(n_panels)
    cross = np.empty(n_panels)
    order = np.argsort(target, kind="stable")
    ref_buffer = np.empty((int(refs.sizes.max()), dim))
    for pos, part in float64_chunks(g, order):
        t = target[pos]
        unit_means = _unit_rows(part.mean(axis=1), "generated panel mean")
        out["cos_sim"][rows[pos]] = np.einsum("pd,pd->p", unit_means, refs.unit_means[t])
        sq = np.einsum("pid,pid->pi", part, part)
        gram = np.matmul(part, part.transpose(0, 2, 1))
        d2 = np.clip(sq[:, :, None] + sq[:, None, :] - 2.0 * gram, 0.0, None)
        diag = np.arange(m)
        d2[:, diag, diag] = 0.0
        kernel_sum[pos] = np.exp(-gamma * d2).sum(axis=(1, 2))
        if m > 1:
            if np.any(sq == 0):
                raise ValueError("a generated panel contains a zero-length embedding; check the "
                                 "embeddings for blank images.")
            cos = gram / np.sqrt(sq[:, :, None] * sq[:, None, :])
            off_diag = cos.sum(axis=(1, 2)) - np.trace(cos, axis1=1, axis2=2)
            out["diversity_generated"][rows[pos]] = 1.0 - off_diag / (m * (m - 1))
        else:
            out["diversity_generated"][rows[pos]] = 0.0
        bounds = np.r_[np.flatnonzero(np.r_[True, t[1:] != t[:-1]]), len(t)]
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            ref, ref_sq = refs.panel(int(t[lo]), ref_buffer)
            images = part[lo:hi].reshape(-1, dim)
            d2_cross = np.clip(sq[lo:hi].reshape(-1)[:, None] + ref_sq[None, :]
                               - 2.0 * images @ ref.T, 0.0, None)
            cross[pos[lo:hi]] = np.exp(-gamma * d2_cross).reshape(hi - lo, -1).mean(axis=1)

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
