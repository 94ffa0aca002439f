"""The GeoDiv diversity numbers (docs/method.md, GeoDiv): the Hill number of order 1 of an
answer distribution and its normalisation (VDI per question), SEVI (mean rating and its
diversity) and the Vendi score of a set of embeddings. numpy only.
"""
from __future__ import annotations

import math

import numpy as np


def hill_number(counts) -> float:
    """Hill number of order 1, D = 2^H with H the base-2 Shannon entropy of the distribution
    ``counts`` (counts or probabilities; zeros allowed and contribute nothing)."""
    c = np.asarray(counts, dtype=float)
    if c.ndim != 1 or c.size == 0 or (c < 0).any() or c.sum() <= 0:
        raise ValueError("hill_number needs a non-empty list of non-negative counts with a positive sum")
    p = c[c > 0] / c.sum()
    return float(2.0 ** (-(p * np.log2(p)).sum()))


def normalised_hill(counts, k: int | None = None) -> float:
    """(D − 1)/(K − 1): 0 when every image gives the same answer, 1 when the answers are spread
    evenly over the K options. K is the number of options, those nobody chose included
    (``k=None`` takes ``len(counts)``)."""
    k = len(counts) if k is None else int(k)
    if k < 2:
        raise ValueError("a normalised Hill number needs K ≥ 2 options")
    return (hill_number(counts) - 1.0) / (k - 1.0)


def vdi(counts, count_zero_options: bool = True) -> float:
    """VDI of one question: the normalised Hill number of its answer counts. With
    ``count_zero_options=False`` K is the number of options chosen at least once (NaN when that
    is one option only) — the method keeps them (the default)."""
    c = np.asarray(counts, dtype=float)
    if count_zero_options:
        return normalised_hill(c)
    kept = c[c > 0]
    return float("nan") if kept.size < 2 else normalised_hill(kept)


def sevi(counts) -> tuple[float, float]:
    """(mean rating, rating diversity) of a 1–5 rating from its five level counts."""
    c = np.asarray(counts, dtype=float)
    if c.size != 5:
        raise ValueError("SEVI needs the counts of the five rating levels")
    mean = float((c * np.arange(1, 6)).sum() / c.sum()) if c.sum() > 0 else float("nan")
    return mean, normalised_hill(c)


def vendi_score(embeddings) -> float:
    """Vendi score: exp of the Shannon entropy (natural log) of the eigenvalues of K/n, with K
    the cosine-similarity matrix of the n embeddings. 1 for n identical images, n for n
    mutually orthogonal ones."""
    x = np.asarray(embeddings, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] == 0:
        raise ValueError("vendi_score needs an (n, d) array of embeddings with n ≥ 1")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    if (norms == 0).any():
        raise ValueError("vendi_score: an embedding is all zeros")
    x = x / norms
    n = x.shape[0]
    # the non-zero eigenvalues of X Xᵀ/n equal those of Xᵀ X/n: take the smaller matrix
    gram = (x @ x.T) if n <= x.shape[1] else (x.T @ x)
    lam = np.clip(np.linalg.eigvalsh(gram / n), 0.0, None)
    lam = lam[lam > 1e-12]
    return float(math.exp(-(lam * np.log(lam)).sum()))
