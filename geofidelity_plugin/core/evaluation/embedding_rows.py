"""The embeddings and semantic ratios of a set of images as dictionaries keyed by path, with the
images that failed kept apart (method §5): shared by the paper's evaluation and the published
release's evaluator."""
from __future__ import annotations

import numpy as np


def _embed(paths: list[str], embedder, options, progress) -> tuple[dict[str, np.ndarray], dict[str, str], dict]:
    result = embedder.embed_paths(paths, progress=progress)
    vectors = {}
    for path, vec in zip(paths, result.embeddings):
        if path not in result.failed and np.all(np.isfinite(vec)):
            v = vec.astype(np.float64)
            if options.l2_normalise:
                v = v / max(np.linalg.norm(v), 1e-12)
            vectors[path] = v
    stats = {"images": len(paths), "computed": int(result.computed), "cached": int(result.cached),
             "failed": len(result.failed)}
    return vectors, dict(result.failed), stats


def _ratios(paths: list[str], ratio_model, progress) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    result = ratio_model.ratios_for_paths(paths, progress=progress)
    out = {p: r for p, r in zip(paths, result.ratios) if p not in result.failed and np.all(np.isfinite(r))}
    return out, dict(result.failed)
