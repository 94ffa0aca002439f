"""method §6 batched metric pass: CosSim, MMD², DCSF and the retrieval similarities of many
generated panels against their reference panels, in one streamed pass over the generated images.

Everything that depends only on a reference panel (its mean, the kernel self-term k_RR, its
within-panel diversity d_R) is computed once in :class:`ReferenceSet`. The generated panels are
visited in order of their gallery row (whose first column is the target reference panel), a
bounded chunk at a time (:func:`~.panel_arrays.float64_chunks`): each run of panels sharing a
gallery row gets its MMD² cross term from one matrix product with its reference panel and its
retrieval similarities (method §6 retrieval, panel and per-image) from one product with the ≤ 6
panel means of its gallery — so the float32 embeddings are read once, never P × S compared.
All arithmetic is float64; each quantity equals the single-panel definitions in
:mod:`.metrics` and :mod:`.retrieval`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from geofidelity_plugin.core.evaluation.metrics.panel_arrays import (CHUNK_IMAGES, PanelStack, as_panel, check_gamma, float64_chunks, panel_groups, unit_rows)

#: method §6 DCSF: weight λ of the diversity penalty.
DCSF_LAMBDA = 0.5


@dataclass(frozen=True)
class ReferenceSet:
    """Reference-panel terms computed once per run (method §6), indexed by panel position.

    ``panels`` holds the panels as given (float32 views of a memory-mapped feature cache stay
    views: nothing is concatenated or copied); their rows, back to back, are numbered by
    ``offsets`` (panel ``s`` is rows ``offsets[s]:offsets[s + 1]`` of ``sq_norms``).
    """

    gamma: float
    panels: tuple                    # S arrays (n_s, D), float32 or float64
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

    @property
    def embeddings(self) -> np.ndarray:
        """Every panel's rows back to back, ``(N, D)`` (a copy: for inspection, not the pass)."""
        return np.concatenate(self.panels)

    @classmethod
    def from_panels(cls, reference_panels: Sequence[np.ndarray], gamma: float) -> "ReferenceSet":
        """Float32 panels (embeddings read from the feature cache) are kept as float32 and
        turned into float64 panel by panel where they are used, so every result is the same as
        from float64 copies while the run holds half the memory."""
        gamma = check_gamma(gamma)
        panels = []
        for i, p in enumerate(reference_panels):
            array = np.asarray(p)
            if array.dtype != np.float32 or array.ndim != 2 or array.shape[0] == 0:
                array = as_panel(array, f"reference panel {i}")  # float32 is checked below
            panels.append(array)
        if not panels:
            raise ValueError("no reference panels given; pass one (images × features) array "
                             "per segment.")
        dims = {p.shape[1] for p in panels}
        if len(dims) > 1:
            raise ValueError(f"reference panels have different feature sizes {sorted(dims)}; embed "
                             "every image with the same model.")
        offsets = np.concatenate([[0], np.cumsum([len(p) for p in panels])])
        n_panels = len(offsets) - 1
        sq_norms = np.empty(int(offsets[-1]))
        means = np.empty((n_panels, dims.pop()))
        self_kernel = np.empty(n_panels)
        self_unbiased = np.full(n_panels, np.nan)
        diversity = np.zeros(n_panels)
        for s in range(n_panels):
            p = as_panel(panels[s], f"reference panel {s}")
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
        return cls(gamma, tuple(panels), offsets, means, unit_rows(means, "reference panel mean"),
                   sq_norms, self_kernel, self_unbiased, diversity)

    def panel(self, s: int, buffer: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Reference panel ``s`` as float64 rows (in ``buffer`` when given, reused from panel
        to panel so that no fresh memory is touched each time) and their squared norms."""
        lo, hi = self.offsets[s], self.offsets[s + 1]
        panel = self.panels[s]
        if buffer is None or panel.dtype == np.float64:
            return np.asarray(panel, dtype=np.float64), self.sq_norms[lo:hi]
        out = buffer[:hi - lo]
        np.copyto(out, panel)
        return out, self.sq_norms[lo:hi]


def score_panels(generated_panels: PanelStack, target_index, references: ReferenceSet, *,
                 unbiased: bool = False, diversity_weight: float = DCSF_LAMBDA,
                 gallery_rows=None, image_similarities: bool = False,
                 chunk_images: int = CHUNK_IMAGES) -> dict:
    """Batched method §6 CosSim, MMD², DCSF of each generated panel against its reference.

    ``generated_panels``: ``(P, m, D)`` or a sequence of ``(m_i, D)`` arrays;
    ``target_index``: ``(P,)`` positions into ``references``. Returns arrays of length P:
    ``cos_sim``, ``mmd2``, ``dcsf``, ``diversity_generated`` (d_G), ``diversity_reference``
    (d_R). Equal to :func:`~.metrics.cos_sim`, :func:`~.metrics.mmd2`, :func:`~.metrics.dcsf`
    panel by panel.

    ``gallery_rows``: ``(P, len(GALLERY_COLUMNS))`` reference positions from
    :func:`~.retrieval.gallery_table` (column 0 the target). With them the same pass adds
    ``gallery_similarities`` ``(P, C)``, s(g, r) of method §6 retrieval in mode ``"panel"``
    (NaN where a kind is missing) — what :func:`~.retrieval.gallery_similarities` returns —
    and, with ``image_similarities``, ``image_similarities``: one ``(rows, (p, m, C))`` pair
    per panel size m (mode ``"image"``: each generated image against the panel means).
    ``chunk_images``: generated images converted to float64 at a time (the memory bound).

    ``unbiased``: the U-statistic is undefined for a panel of one image (generated or
    reference); such a panel gets NaN for MMD² and DCSF (missing), where ``mmd2`` raises.
    """
    target = np.asarray(target_index, dtype=np.int64).reshape(-1)
    n_ref = len(references.means)
    if target.size and (target.min() < 0 or target.max() >= n_ref):
        raise ValueError(f"target_index must lie in [0, {n_ref}); it indexes the reference set.")
    gallery = None if gallery_rows is None else _check_gallery_rows(gallery_rows, target, n_ref)
    out = {key: np.empty(len(target)) for key in ("cos_sim", "mmd2", "diversity_generated")}
    if gallery is not None:
        out["gallery_similarities"] = np.full(gallery.shape, np.nan)
    per_size = []
    seen = 0
    for rows, stack in panel_groups(generated_panels):
        if rows.max() >= len(target):
            raise ValueError("target_index has fewer entries than there are generated panels.")
        seen += len(rows)
        images = None
        if gallery is not None and image_similarities:
            images = np.full((len(rows), stack.shape[1], gallery.shape[1]), np.nan)
            per_size.append((rows, images))
        _score_stack(stack, target[rows], references, unbiased, rows, out,
                     None if gallery is None else gallery[rows], images, chunk_images)
    if seen != len(target):
        raise ValueError(f"{seen} generated panels but {len(target)} target indices; give one "
                         "target per panel.")
    if gallery is not None and image_similarities:
        out["image_similarities"] = per_size
    d_ref = references.diversity[target]
    out["diversity_reference"] = d_ref
    out["dcsf"] = out["mmd2"] + diversity_weight * np.maximum(
        0.0, d_ref - out["diversity_generated"])
    return out


def _check_gallery_rows(gallery_rows, target: np.ndarray, n_ref: int) -> np.ndarray:
    from geofidelity_plugin.core.evaluation.metrics.retrieval import GALLERY_COLUMNS

    rows = np.asarray(gallery_rows, dtype=np.int64)
    if rows.ndim != 2 or rows.shape != (len(target), len(GALLERY_COLUMNS)):
        raise ValueError(f"gallery_rows must be (panels × {len(GALLERY_COLUMNS)}), one row per "
                         "generated panel; build them with gallery_table().")
    if rows.max(initial=-1) >= n_ref:
        raise ValueError("gallery_rows point past the reference panels; check the indices.")
    if not np.array_equal(rows[:, 0], target):
        raise ValueError("the first gallery column (the target) differs from target_index; "
                         "build both from the same panels.")
    return rows


def _score_stack(g: np.ndarray, target: np.ndarray, refs: ReferenceSet, unbiased: bool,
                 rows: np.ndarray, out: dict, gallery: np.ndarray | None,
                 images_out: np.ndarray | None, chunk_images: int) -> None:
    """Fill the results for one stack of equal-sized generated panels ``g`` (P, m, D).

    The panels are visited in order of their gallery row (or target), a bounded chunk at a time
    (:func:`float64_chunks`), so each run sharing a reference panel is one matrix product with
    it and memory stays flat whatever P is.
    """
    n_panels, m, dim = g.shape
    gamma = refs.gamma
    kernel_sum = np.empty(n_panels)
    cross = np.empty(n_panels)
    keys = target[:, None] if gallery is None else gallery
    order = np.lexsort(keys.T[::-1]) if gallery is not None else np.argsort(target, kind="stable")
    ref_buffer = np.empty((int(refs.sizes.max()), dim))
    for pos, part in float64_chunks(g, order, chunk_images):
        t = target[pos]
        unit_means = unit_rows(part.mean(axis=1), "generated panel mean")
        out["cos_sim"][rows[pos]] = np.einsum("pd,pd->p", unit_means, refs.unit_means[t])
        gram = np.matmul(part, part.transpose(0, 2, 1))
        sq = np.diagonal(gram, axis1=1, axis2=2).copy()
        d2 = np.clip(sq[:, :, None] + sq[:, None, :] - 2.0 * gram, 0.0, None)
        diag = np.arange(m)
        d2[:, diag, diag] = 0.0
        kernel_sum[pos] = np.exp(-gamma * d2).sum(axis=(1, 2))
        if (m > 1 or images_out is not None) and np.any(sq == 0):
            raise ValueError("a generated panel contains a zero-length embedding; check the "
                             "embeddings for blank images.")
        if m > 1:
            cos = gram / np.sqrt(sq[:, :, None] * sq[:, None, :])
            off_diag = cos.sum(axis=(1, 2)) - np.trace(cos, axis1=1, axis2=2)
            out["diversity_generated"][rows[pos]] = 1.0 - off_diag / (m * (m - 1))
        else:
            out["diversity_generated"][rows[pos]] = 0.0
        k = keys[pos]
        bounds = np.r_[np.flatnonzero(np.r_[True, np.any(k[1:] != k[:-1], axis=1)]), len(t)]
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            ref, ref_sq = refs.panel(int(t[lo]), ref_buffer)
            images = part[lo:hi].reshape(-1, dim)
            d2_cross = np.clip(sq[lo:hi].reshape(-1)[:, None] + ref_sq[None, :]
                               - 2.0 * images @ ref.T, 0.0, None)
            cross[pos[lo:hi]] = np.exp(-gamma * d2_cross).reshape(hi - lo, -1).mean(axis=1)
            if gallery is None:
                continue
            missing = k[lo] < 0
            columns = refs.unit_means[np.maximum(k[lo], 0)].T          # (D, C)
            sims = unit_means[lo:hi] @ columns
            sims[:, missing] = np.nan
            out["gallery_similarities"][rows[pos[lo:hi]]] = sims
            if images_out is not None:
                per_image = (images @ columns) / np.sqrt(sq[lo:hi].reshape(-1))[:, None]
                per_image[:, missing] = np.nan
                images_out[pos[lo:hi]] = per_image.reshape(hi - lo, m, -1)

    if not unbiased:
        value = kernel_sum / (m * m) + refs.self_kernel[target] - 2.0 * cross
    elif m < 2:  # no pair of generated images: the U-statistic is undefined
        value = np.full(n_panels, np.nan)
    else:  # a one-image reference panel has a NaN self-term, so its panels stay NaN
        value = ((kernel_sum - m) / (m * (m - 1)) + refs.self_kernel_unbiased[target]
                 - 2.0 * cross)
    out["mmd2"][rows] = np.where(np.isnan(value), np.nan, np.maximum(value, 0.0))
