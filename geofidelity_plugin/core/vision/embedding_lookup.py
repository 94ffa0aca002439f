"""What the feature cache already holds for a list of image files (here and on Ray,
:mod:`..scaleout.embeddings`): every file is hashed, cached vectors are taken, the rest is left
to embed. :class:`EmbeddingResult` is what an embedding call returns.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.vision.images import ImageError, content_hash


@dataclass
class EmbeddingResult:
    """Embeddings aligned to ``paths``; every path is exactly one of failed, cached, computed."""

    paths: list[str]
    embeddings: np.ndarray  # (N, D) float32; NaN rows for failed images
    failed: dict[str, str] = field(default_factory=dict)  # path -> reason
    computed: int = 0  # paths whose embedding was computed in this call
    cached: int = 0  # paths served from the cache
    hashes: list[str | None] = field(default_factory=list)  # content sha256 per path
    model: dict[str, Any] = field(default_factory=dict)  # FeatureExtractor.model_info()

    @property
    def ok(self) -> np.ndarray:
        """Boolean mask of rows that hold an embedding."""
        return np.isfinite(self.embeddings).all(axis=1)



def _hash_or_error(name: str):
    try:
        return content_hash(name)
    except ImageError as exc:
        return exc


def _hashes(names: list[str], progress: Progress | None):
    """Each file's content hash (or its ImageError), in order. Many files are hashed by several
    threads — reading and sha256 release the GIL — since on a GPU hashing every file first took
    a sixth of a run's time."""
    workers = min(8, os.cpu_count() or 1) if len(names) >= 64 else 1
    if workers == 1:
        for i, name in enumerate(names):
            if i % 256 == 0:
                check_cancel(progress, "hashing images")
            yield _hash_or_error(name)
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="geofidelity-hash") as pool:
        for start in range(0, len(names), 256):
            check_cancel(progress, "hashing images")
            yield from pool.map(_hash_or_error, names[start:start + 256])


def lookup_cached(names: list[str], dim: int, cache, key, info: dict, progress: Progress | None = None):
    """Hash every file and take what ``cache`` holds under ``key(sha)`` (here and on Ray,
    :mod:`..scaleout.embeddings`). Returns ``(result, rows_of, todo)``: the result with the cached
    rows filled and unreadable files listed, the rows of each content hash, and the hashes left to
    embed. A cached vector of another width cannot be this model's: it is deleted and recomputed."""
    result = EmbeddingResult(paths=names, embeddings=np.full((len(names), dim), np.nan, dtype=np.float32),
                             hashes=[None] * len(names), model=info)
    rows_of: dict[str, list[int]] = {}
    for i, (name, sha) in enumerate(zip(names, _hashes(names, progress))):
        if isinstance(sha, ImageError):
            result.failed[name] = sha.reason
            continue
        result.hashes[i] = sha
        rows_of.setdefault(sha, []).append(i)
    if progress is not None:
        progress.set_progress(5.0)
    check_cancel(progress, "reading the feature cache")
    found = cache.get_many([key(s) for s in rows_of]) if cache is not None else {}
    wrong = [k for k, vector in found.items() if vector.shape != (dim,)]
    if wrong:
        cache.discard(wrong, f"of the wrong length for {info['label']} (not {dim} values)")
        found = {k: vector for k, vector in found.items() if vector.shape == (dim,)}
    for k, vector in found.items():
        for i in rows_of[k.image_sha256]:
            result.embeddings[i] = vector
            result.cached += 1
    return result, rows_of, [s for s in rows_of if key(s) not in found]
