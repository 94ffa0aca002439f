"""Generated and reference panels as arrays (method §5–§6): input checks, grouping by panel size,
and the chunked float32 → float64 streaming that bounds the memory of a metric pass.

Embeddings are read from the feature cache as float32 (often memory-mapped); every metric is
computed in float64. :func:`float64_chunks` converts a bounded run of panels at a time, so a pass
over a 100× benchmark never holds a float64 copy of all its images.
"""
from __future__ import annotations

from typing import Sequence, Union

import numpy as np

PanelStack = Union[np.ndarray, Sequence[np.ndarray]]

#: generated images converted to float64 at a time by default, and at most: larger chunks
#: only miss the processor's caches (at 768-d a chunk is then 50 MB of float64)
CHUNK_IMAGES = 1 << 13


def chunk_images_for(max_memory_bytes: int, dim: int) -> int:
    """Generated images per chunk that keep a metric pass's working set under a quarter of
    ``max_memory_bytes`` (a float32 gather, its float64 copy and the per-chunk products: about
    16 bytes per feature of an image), at most :data:`CHUNK_IMAGES`."""
    return max(64, min(CHUNK_IMAGES, int(max_memory_bytes) // 4 // (16 * max(1, int(dim)))))


def as_panel(panel, name: str) -> np.ndarray:
    array = np.asarray(panel, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array (images × features), got shape "
                         f"{array.shape}; pass one row per image.")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds NaN or infinite values; recompute those embeddings.")
    return array


def check_gamma(gamma: float) -> float:
    gamma = float(gamma)
    if not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"gamma must be a positive finite number, got {gamma}; use "
                         "median_heuristic_gamma() on the reference embeddings.")
    return gamma


def unit_rows(vectors: np.ndarray, name: str) -> np.ndarray:
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
            panels = as_panel(panels.reshape(-1, panels.shape[-1]),
                              "generated panels").reshape(panels.shape)
        return [(np.arange(panels.shape[0]), panels)]
    arrays = [as_panel(p, f"generated panel {i}") for i, p in enumerate(panels)]
    if not arrays:
        raise ValueError("no generated panels given; pass at least one panel.")
    by_size: dict[tuple[int, int], list[int]] = {}
    for i, array in enumerate(arrays):
        by_size.setdefault(array.shape, []).append(i)
    return [(np.asarray(rows), np.stack([arrays[i] for i in rows])) for rows in by_size.values()]


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
            source = part
        else:  # checked in float32: a float32 value is finite exactly when its float64 copy is
            source = gathered[:len(positions)]
            np.take(stack, positions, axis=0, out=source)
            np.copyto(part, source)
        if not np.isfinite(source).all():
            raise ValueError("generated panels hold NaN or infinite values; recompute those "
                             "embeddings.")
        yield positions, part
