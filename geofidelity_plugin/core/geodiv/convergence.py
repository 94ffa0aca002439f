"""Convergence check (docs/method.md, GeoDiv; seed 003, Fig. 19): how the ranking of the groups
by overall VDI settles as the number of images per group grows, so users know how many images
they need. For each size n, repeated draws of n images per group are scored, and each draw's
ranking is compared with the ranking from all images (Spearman's ρ).
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from .answers import score_answers
from .questions import QuestionSet


def _spearman(a, b) -> float:
    from scipy.stats import spearmanr

    a, b = np.asarray(a, float), np.asarray(b, float)
    keep = np.isfinite(a) & np.isfinite(b)
    if keep.sum() < 3 or np.ptp(a[keep]) == 0 or np.ptp(b[keep]) == 0:
        return math.nan
    return float(spearmanr(a[keep], b[keep]).statistic)


def default_sizes(smallest_group: int) -> list[int]:
    sizes, n = [], 2
    while n < smallest_group:
        sizes.append(n)
        n *= 2
    return sizes + [smallest_group] if smallest_group >= 2 else []


def ranking_convergence(answers: list[dict], qset: QuestionSet, group_by, sizes=None, draws: int = 20,
                        seed: int = 0, metric: str = "vdi_overall") -> list[dict]:
    """Rows ``{images_per_group, draws, spearman_mean, spearman_low, spearman_high}``."""
    group_by = tuple(group_by)
    full = {tuple(g[c] for c in group_by): g[metric] for g in score_answers(answers, qset, group_by)["groups"]}
    keys = sorted(full)
    by_group: dict[tuple, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for row in answers:
        by_group[tuple(str(row.get(c, "")) for c in group_by)][str(row["image_id"])].append(row)
    smallest = min(len(images) for images in by_group.values()) if by_group else 0
    sizes = sorted(set(sizes or default_sizes(smallest)))
    rng = np.random.default_rng(seed)
    out = []
    for n in sizes:
        rhos = []
        for _ in range(draws):
            sample = []
            for key in keys:
                images = sorted(by_group[key])
                for i in rng.choice(len(images), size=min(n, len(images)), replace=False):
                    sample += by_group[key][images[i]]
            scored = {tuple(g[c] for c in group_by): g[metric]
                      for g in score_answers(sample, qset, group_by)["groups"]}
            rhos.append(_spearman([full[k] for k in keys], [scored.get(k, math.nan) for k in keys]))
        finite = np.array([r for r in rhos if np.isfinite(r)])
        out.append({"images_per_group": n, "draws": len(finite),
                    "spearman_mean": float(finite.mean()) if finite.size else math.nan,
                    "spearman_low": float(np.quantile(finite, 0.05)) if finite.size else math.nan,
                    "spearman_high": float(np.quantile(finite, 0.95)) if finite.size else math.nan})
    return out


def plot_convergence(rows: list[dict], path) -> None:
    """ρ against images per group, with the 5–95 % band of the draws."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 3.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    n = [r["images_per_group"] for r in rows]
    ax.plot(n, [r["spearman_mean"] for r in rows], marker="o")
    ax.fill_between(n, [r["spearman_low"] for r in rows], [r["spearman_high"] for r in rows], alpha=0.25)
    ax.set_xlabel("images per group")
    ax.set_ylabel("Spearman ρ with the all-image ranking")
    ax.set_ylim(-1.05, 1.05)
    fig.tight_layout()
    fig.savefig(path)
