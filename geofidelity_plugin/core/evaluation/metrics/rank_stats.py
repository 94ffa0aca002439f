"""method §7 CLIP check: Spearman's ρ and the AUROC of the CLIP score for top-1 retrieval,
from ranks with ties averaged (written out here; the tests compare with scipy)."""
from __future__ import annotations

import numpy as np


def rank_average_ties(values) -> np.ndarray:
    """1-based ranks with tied values sharing the average of their ranks."""
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    if np.any(np.isnan(x)):
        raise ValueError("cannot rank NaN values; drop those rows first.")
    order = np.argsort(x, kind="mergesort")
    ordered = x[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], x.size]
    ranks = np.empty(x.size)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def spearman(x, y) -> float:
    """method §7 CLIP check: Spearman's ρ, the Pearson correlation of average-tie ranks.

    NaN when either variable is constant (ρ is undefined).
    """
    rx, ry = rank_average_ties(x), rank_average_ties(y)
    if rx.size != ry.size or rx.size < 2:
        raise ValueError(f"spearman needs two equally long samples of ≥ 2 values, got "
                         f"{rx.size} and {ry.size}.")
    rx, ry = rx - rx.mean(), ry - ry.mean()
    denominator = np.sqrt((rx * rx).sum() * (ry * ry).sum())
    return float((rx * ry).sum() / denominator) if denominator > 0 else float("nan")


def auroc(scores, labels) -> float:
    """method §7 CLIP check: AUROC of ``scores`` for the positive ``labels`` (e.g. top-1).

    From the rank sum (Mann–Whitney U / (n₁·n₀)); a tie between a positive and a negative
    counts one half.
    """
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    positive = np.asarray(labels).reshape(-1).astype(bool)
    if s.size != positive.size:
        raise ValueError(f"{s.size} scores but {positive.size} labels; give one label per score.")
    n_pos = int(positive.sum())
    n_neg = s.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("AUROC needs both positive and negative labels (e.g. top-1 hits and "
                         "misses); it is undefined for this set.")
    u = rank_average_ties(s)[positive].sum() - n_pos * (n_pos + 1) / 2.0
    return float(u / (n_pos * n_neg))
