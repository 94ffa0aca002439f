"""The embeddings and semantic ratios of a set of images as dictionaries keyed by path, with the
images that failed kept apart (method §5): shared by the paper's evaluation and the published
release's evaluator."""
from __future__ import annotations

import numpy as np


#: the reason failed_images.csv gives for a vector that holds NaN or infinity
NON_FINITE = "its {what} holds NaN or infinite values (a model or precision fault, or a damaged feature cache)"


def _finite(paths: list[str], values, failed: dict[str, str], what: str) -> dict[str, np.ndarray]:
    """The one check where vectors enter an evaluation, cached or just computed: a vector with
    NaN or inf is a failed image — counted and listed with its reason — never silently left out
    of its panel."""
    kept = {}
    for path, value in zip(paths, values):
        if path in failed:
            continue
        if value is None or not np.all(np.isfinite(value)):
            failed[path] = NON_FINITE.format(what=what)
            continue
        kept[path] = value
    return kept


def _embed(paths: list[str], embedder, options, progress) -> tuple[dict[str, np.ndarray], dict[str, str], dict]:
    result = embedder.embed_paths(paths, progress=progress)
    failed = dict(result.failed)
    vectors = {}
    for path, vec in _finite(paths, result.embeddings, failed, "embedding").items():
        v = vec.astype(np.float64)
        if options.l2_normalise:
            v = v / max(np.linalg.norm(v), 1e-12)
        vectors[path] = v
    stats = {"images": len(paths), "computed": int(result.computed), "cached": int(result.cached),
             "failed": len(failed)}
    return vectors, failed, stats


def _ratios(paths: list[str], ratio_model, progress) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    result = ratio_model.ratios_for_paths(paths, progress=progress)
    failed = dict(result.failed)
    return _finite(paths, result.ratios, failed, "semantic ratio vector"), failed
