"""method §6 retrieval: rank the target reference panel within its gallery (method §3).

A gallery row holds reference-panel positions in the column order of :data:`GALLERY_COLUMNS`:
the target, one negative per kind of :data:`NEGATIVE_KINDS` (−1 where that kind is missing), and
the strict same-neighbourhood negative, which is scored as its own margin and never enters the
main gallery. The similarity is s(g, r) = cos(mean(G), mean(R)) (mode ``"panel"``, the
protocol's default) or, in mode ``"image"`` (the published release's evaluator, see
RELEASE_FORMAT.md), each generated image against the panel means, every per-row quantity then
averaged over the images.

Per row: rank = 1 + number of negatives with s ≥ s_target (a tie counts against the target),
top-1 indicator, reciprocal rank, chance-adjusted top-1 (a − 1/K)/(1 − 1/K) with K the realised
gallery size, margin_hard = s_target − max negatives, margin_mean = s_target − mean negatives,
and one margin per negative kind (NaN where the kind is missing).

The evaluation takes the similarities of both modes from its one metric pass
(:func:`~.metric_pass.score_panels` with ``gallery_rows``); :func:`gallery_similarities` computes
them alone, equal to 1e-12.
"""
from __future__ import annotations

from typing import Mapping, Optional, Sequence

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.metrics.panel_arrays import PanelStack, float64_chunks, panel_groups

_CHUNK_IMAGES = 1 << 14  # generated images per chunk (bounds the float64 copy)

NEGATIVE_KINDS = ("nearest_same_city", "same_city_other_neighbourhood",
                  "same_driving_side_other_city", "random_other_city")
STRICT_NEGATIVE_KIND = "same_neighbourhood"
GALLERY_COLUMNS = ("target",) + NEGATIVE_KINDS + (STRICT_NEGATIVE_KIND,)
RETRIEVAL_MODES = ("panel", "image")

_MAIN = slice(1, 1 + len(NEGATIVE_KINDS))
_STRICT = len(GALLERY_COLUMNS) - 1


class GalleryError(InputError, ValueError):
    """A gallery that cannot be scored (no target, no negatives, a negative equal to the target)."""


def _no_negatives_error(where: str) -> GalleryError:
    return GalleryError(
        f"{where} has no negative panels, so retrieval is undefined (K would be 1). Give it at "
        f"least one of {', '.join(NEGATIVE_KINDS)} (method §3), or leave that target out of "
        "the retrieval scores.")


def gallery_table(galleries: Sequence[Mapping[str, Optional[int]]]) -> np.ndarray:
    """Turn galleries given as ``{column: reference panel position or None}`` into an int array.

    Returns ``(T, len(GALLERY_COLUMNS))`` with −1 for missing kinds. Raises
    :class:`GalleryError` for a missing target, a gallery without negatives, a negative equal
    to its target, or an unknown column name (a misspelt kind would silently shrink K).
    """
    table = np.full((len(galleries), len(GALLERY_COLUMNS)), -1, dtype=np.int64)
    for row, gallery in enumerate(galleries):
        unknown = set(gallery) - set(GALLERY_COLUMNS)
        if unknown:
            raise GalleryError(f"gallery {row} has unknown kinds {sorted(unknown)}; use the "
                               f"names {', '.join(GALLERY_COLUMNS)}.")
        for col, name in enumerate(GALLERY_COLUMNS):
            value = gallery.get(name)
            if value is not None and int(value) >= 0:
                table[row, col] = int(value)
        if table[row, 0] < 0:
            raise GalleryError(f"gallery {row} has no target panel; set 'target' to the target "
                               "segment's reference panel position.")
        if np.all(table[row, _MAIN] < 0):
            raise _no_negatives_error(f"gallery {row}")
        if np.any(table[row, 1:] == table[row, 0]):
            raise GalleryError(f"gallery {row} uses its target panel as a negative; pick "
                               "negatives from other segments.")
    return table


def retrieval_from_similarities(similarities) -> dict[str, np.ndarray]:
    """Rank, top-1, reciprocal rank, chance-adjusted top-1 and margins from similarities.

    ``similarities`` is ``(..., len(GALLERY_COLUMNS))``: column 0 the target, then the four
    negative kinds and the strict negative, NaN where missing. Every output has the leading
    shape. Vectorised over any number of rows.
    """
    sims = np.asarray(similarities, dtype=np.float64)
    if sims.shape[-1] != len(GALLERY_COLUMNS):
        raise ValueError(f"similarities need {len(GALLERY_COLUMNS)} columns "
                         f"({', '.join(GALLERY_COLUMNS)}), got {sims.shape[-1]}.")
    target = sims[..., 0]
    negatives = sims[..., _MAIN]
    present = ~np.isnan(negatives)
    if np.any(np.isnan(target)):
        raise GalleryError("a row has no target similarity; every gallery needs its target.")
    n_negatives = present.sum(axis=-1)
    if np.any(n_negatives == 0):
        raise _no_negatives_error("a gallery row")
    beaten_or_tied = (present & (negatives >= target[..., None])).sum(axis=-1)
    rank = 1.0 + beaten_or_tied
    top1 = (beaten_or_tied == 0).astype(np.float64)
    size = 1.0 + n_negatives
    filled = np.where(present, negatives, 0.0)
    result = {
        "similarity_target": target,
        "gallery_size": size,
        "rank": rank,
        "top1": top1,
        "reciprocal_rank": 1.0 / rank,
        "chance_adjusted_top1": (top1 - 1.0 / size) / (1.0 - 1.0 / size),
        "margin_hard": target - np.where(present, negatives, -np.inf).max(axis=-1),
        "margin_mean": target - filled.sum(axis=-1) / n_negatives,
    }
    for k, kind in enumerate(NEGATIVE_KINDS):
        result[f"margin_{kind}"] = target - negatives[..., k]
    result[f"margin_{STRICT_NEGATIVE_KIND}"] = target - sims[..., _STRICT]
    return result


def gallery_similarities(generated_panels: PanelStack, gallery_rows, reference_means,
                         mode: str = "panel") -> np.ndarray:
    """s(g, r) for every column of each generated panel's gallery row (NaN where missing).

    ``gallery_rows``: ``(P, len(GALLERY_COLUMNS))`` reference positions (from
    :func:`gallery_table`, one row per generated panel); ``reference_means``: ``(S, D)``.
    Mode ``"panel"`` returns ``(P, C)``; mode ``"image"`` returns ``(P, m, C)`` (panels must
    then share one size m).
    """
    if mode not in RETRIEVAL_MODES:
        raise ValueError(f"mode must be one of {RETRIEVAL_MODES}, got {mode!r}.")
    rows = np.asarray(gallery_rows, dtype=np.int64)
    ref_unit = np.asarray(reference_means, dtype=np.float64)
    norms = np.linalg.norm(ref_unit, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise ValueError("a reference panel mean has zero length; check its embeddings.")
    ref_unit = ref_unit / norms
    if rows.ndim != 2 or rows.shape[1] != len(GALLERY_COLUMNS):
        raise ValueError(f"gallery_rows must be (panels × {len(GALLERY_COLUMNS)}); build them "
                         "with gallery_table().")
    if rows.max(initial=-1) >= len(ref_unit):
        raise ValueError("gallery_rows point past the reference panels; check the indices.")
    groups = panel_groups(generated_panels)
    if sum(len(r) for r, _ in groups) != len(rows):
        raise ValueError("give exactly one gallery row per generated panel.")
    if mode == "image" and len(groups) > 1:
        raise ValueError("mode 'image' needs generated panels of one size; score each size "
                         "separately.")
    m = groups[0][1].shape[1]
    out = np.full((len(rows), m, rows.shape[1]) if mode == "image" else rows.shape, np.nan)
    for idx, stack in groups:
        # Only the ≤ 6 gallery columns of each panel are compared (P × 6, never P × S), a
        # bounded chunk of panels at a time.
        # Panels sharing a gallery row (a target segment's panels) are visited together, so each
        # run of them is one small matrix product with its ≤ 6 reference means.
        order = np.lexsort(rows[idx].T[::-1])
        chunks = (float64_chunks(stack, order, _CHUNK_IMAGES) if mode == "image"
                  else _mean_chunks(stack, order))
        for pos, vectors in chunks:
            norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
            if np.any(norms == 0):
                raise ValueError("a generated embedding (or panel mean) has zero length; check "
                                 "the embeddings for blank images.")
            vectors = vectors / norms
            cols = rows[idx[pos]]
            missing = cols < 0
            starts = np.flatnonzero(np.r_[True, np.any(cols[1:] != cols[:-1], axis=1)])
            if len(starts) * 4 > len(pos):  # few panels share a row: one gathered product
                picked = np.matmul(vectors, ref_unit[np.maximum(cols, 0)].transpose(0, 2, 1))
            else:
                picked = np.empty((len(pos), vectors.shape[1], cols.shape[1]))
                for lo, hi in zip(starts, np.r_[starts[1:], len(pos)]):
                    picked[lo:hi] = vectors[lo:hi] @ ref_unit[np.maximum(cols[lo], 0)].T
            picked[np.broadcast_to(missing[:, None, :], picked.shape)] = np.nan   # (p, m', C)
            out[idx[pos]] = picked if mode == "image" else picked[:, 0, :]
    return out


def _mean_chunks(stack: np.ndarray, order: np.ndarray):
    """Yield ``(positions, panel means (p, 1, D))`` in float64 for runs of ``order``; the
    images are summed in float64 straight from the stored dtype (no float64 copy of them)."""
    step = max(1, min(_CHUNK_IMAGES // max(1, stack.shape[1]), len(order)))
    gathered = np.empty((step,) + stack.shape[1:], stack.dtype)
    for start in range(0, len(order), step):
        positions = order[start:start + step]
        part = gathered[:len(positions)]
        np.take(stack, positions, axis=0, out=part)
        means = part.mean(axis=1, dtype=np.float64, keepdims=True)
        if not np.all(np.isfinite(means)):
            raise ValueError("generated panels hold NaN or infinite values; recompute those "
                             "embeddings.")
        yield positions, means


def retrieval_batch(generated_panels: PanelStack, gallery_rows, reference_means,
                    mode: str = "panel") -> dict[str, np.ndarray]:
    """method §6 retrieval for many generated panels in one pass; arrays of length P.

    Mode ``"image"`` ranks each generated image and averages every quantity over the images
    (rank becomes a mean rank). Equal, row by row, to :func:`score_gallery`.
    """
    sims = gallery_similarities(generated_panels, gallery_rows, reference_means, mode)
    result = retrieval_from_similarities(sims)
    if mode == "image":
        result = {key: value.mean(axis=1) for key, value in result.items()}
    return result


def score_gallery(generated_panel, target_panel, negative_panels: Mapping[str, np.ndarray],
                  strict_negative_panel=None, mode: str = "panel") -> dict[str, float]:
    """method §6 retrieval for one generated panel, written plainly (the batched reference).

    ``negative_panels`` maps kinds of :data:`NEGATIVE_KINDS` to ``(n, D)`` reference panels;
    missing kinds are simply absent.
    """
    if mode not in RETRIEVAL_MODES:
        raise ValueError(f"mode must be one of {RETRIEVAL_MODES}, got {mode!r}.")
    unknown = set(negative_panels) - set(NEGATIVE_KINDS)
    if unknown:
        raise GalleryError(f"unknown negative kinds {sorted(unknown)}; use "
                           f"{', '.join(NEGATIVE_KINDS)}.")
    if not negative_panels:
        raise _no_negatives_error("this gallery")
    generated = np.asarray(generated_panel, dtype=np.float64)
    queries = generated if mode == "image" else generated.mean(axis=0, keepdims=True)
    target_mean = np.asarray(target_panel, dtype=np.float64).mean(axis=0)
    negative_means = {k: np.asarray(p, dtype=np.float64).mean(axis=0)
                      for k, p in negative_panels.items()}
    strict_mean = (None if strict_negative_panel is None
                   else np.asarray(strict_negative_panel, dtype=np.float64).mean(axis=0))

    def cosine(a, b):
        return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))

    per_query = []
    for query in queries:
        s_target = cosine(query, target_mean)
        s_neg = {k: cosine(query, mean) for k, mean in negative_means.items()}
        rank = 1 + sum(1 for value in s_neg.values() if value >= s_target)
        size = 1 + len(s_neg)
        top1 = 1.0 if rank == 1 else 0.0
        row = {
            "similarity_target": s_target,
            "gallery_size": float(size),
            "rank": float(rank),
            "top1": top1,
            "reciprocal_rank": 1.0 / rank,
            "chance_adjusted_top1": (top1 - 1.0 / size) / (1.0 - 1.0 / size),
            "margin_hard": s_target - max(s_neg.values()),
            "margin_mean": s_target - sum(s_neg.values()) / len(s_neg),
        }
        for kind in NEGATIVE_KINDS:
            row[f"margin_{kind}"] = s_target - s_neg[kind] if kind in s_neg else float("nan")
        row[f"margin_{STRICT_NEGATIVE_KIND}"] = (
            float("nan") if strict_mean is None else s_target - cosine(query, strict_mean))
        per_query.append(row)
    return {key: float(np.mean([row[key] for row in per_query])) for key in per_query[0]}
