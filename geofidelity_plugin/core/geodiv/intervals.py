"""Paired bootstrap intervals for GeoDiv's model − real differences (docs/method.md, GeoDiv;
the statistics of method §7): the unit is the segment — each resample draws segments with
replacement and recomputes the VDI of the model's and of the real panels of those same
segments, so a difference is judged against how much it moves with the choice of streets.
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from .answers import tally
from .diversity import vdi
from .images import REAL_MODEL
from .questions import VDI_AXES, QuestionSet

N_RESAMPLES = 1000
CONFIDENCE = 0.95


def _vdi_rows(c: np.ndarray, count_zero: bool) -> np.ndarray:
    """:func:`.diversity.vdi` of each row of a (B, K) count matrix (NaN for an empty row)."""
    if not count_zero:
        return np.array([vdi(row, False) if row.sum() > 0 else np.nan for row in c])
    total = c.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = c / total
        h = -np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0).sum(axis=1)
    out = (2.0 ** h - 1.0) / (c.shape[1] - 1.0)
    out[total[:, 0] <= 0] = np.nan
    return out


def _overall(counts: dict[str, np.ndarray], qset: QuestionSet, count_zero: bool) -> np.ndarray:
    """VDI overall per resample from summed counts ``{question id: (B, K)}``."""
    axes = []
    for axis in VDI_AXES:
        values = []
        for q in qset.on_axis(axis):
            if q.id not in counts:
                continue
            c = counts[q.id]
            values.append(_vdi_rows(c, count_zero))
        if values:
            axes.append(np.nanmean(np.stack(values), axis=0) if len(values) > 1 else values[0])
    if not axes:
        return np.full(1, np.nan)
    return np.nanmean(np.stack(axes), axis=0) if len(axes) > 1 else axes[0]


def _segment_counts(rows, qset, labels: tuple) -> dict[str, dict[str, np.ndarray]]:
    """segment id → question id → counts, for the answer rows of one group."""
    cells = tally(rows, qset, labels + ("segment_id",))
    out: dict[str, dict[str, np.ndarray]] = defaultdict(dict)
    for (key, qid), cell in cells.items():
        out[key[-1]][qid] = np.asarray(cell["counts"], dtype=float)
    return out


def model_minus_real(answers: list[dict], qset: QuestionSet, group_by, n_resamples: int = N_RESAMPLES,
                     confidence: float = CONFIDENCE, seed: int = 0, count_zero_options: bool = True) -> list[dict]:
    """Rows ``{group…, segments, vdi_overall_minus_real, _low, _high}`` for each model group with a
    real group of the same other labels; needs a ``segment_id`` column (else returns [])."""
    if not answers or "segment_id" not in answers[0] or "model" not in group_by:
        return []
    others = tuple(c for c in group_by if c not in ("model", "condition"))
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in answers:
        groups[tuple(str(row.get(c, "")) for c in group_by)].append(row)
    real = {tuple(k[group_by.index(c)] for c in others): v for k, v in groups.items()
            if k[group_by.index("model")] == REAL_MODEL}
    rng = np.random.default_rng(seed)
    out = []
    for key in sorted(groups):
        labels = dict(zip(group_by, key))
        base = real.get(tuple(labels[c] for c in others))
        if labels["model"] == REAL_MODEL or base is None:
            continue
        model_counts = _segment_counts(groups[key], qset, ())
        real_counts = _segment_counts(base, qset, ())
        segments = sorted(set(model_counts) & set(real_counts))
        if not segments:
            continue
        draws = rng.integers(0, len(segments), size=(n_resamples, len(segments)))
        weights = np.stack([np.bincount(d, minlength=len(segments)) for d in draws]).astype(float)
        full = np.ones((1, len(segments)))
        diff = []
        for w in (full, weights):
            sides = []
            for per_segment in (model_counts, real_counts):
                counts = {}
                for q in qset.questions:
                    stacked = [per_segment[s].get(q.id) for s in segments]
                    if q.axis in VDI_AXES and any(x is not None for x in stacked):
                        k = len(q.options)
                        counts[q.id] = w @ np.stack([x if x is not None else np.zeros(k) for x in stacked])
                sides.append(_overall(counts, qset, count_zero_options))
            diff.append(sides[0] - sides[1])
        boot = diff[1][np.isfinite(diff[1])]
        alpha = (1 - confidence) / 2
        low, high = (np.quantile(boot, [alpha, 1 - alpha]) if boot.size else (math.nan, math.nan))
        out.append({**labels, "segments": len(segments), "vdi_overall_minus_real": float(diff[0][0]),
                    "vdi_overall_minus_real_low": float(low), "vdi_overall_minus_real_high": float(high)})
    return out
