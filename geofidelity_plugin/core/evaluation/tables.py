"""The paper's tables from per-panel rows (method §7): by prompt condition (its Table 5),
L1 minus each control and the prompt-level deltas (Table 8), L1 by model beside the real
anchors (Table 9), city-balanced summaries, and the CLIP check. Every interval is a seeded
percentile bootstrap; deltas pair by (model, segment) and resample the differences.
"""
from __future__ import annotations

import io
import csv

import numpy as np

from ..conditions import CONDITIONS
from .statistics import auroc, bootstrap_mean, city_balanced_bootstrap, paired_bootstrap, spearman

METRICS = ("cos_sim", "top1", "chance_adjusted_top1", "reciprocal_rank", "margin_hard", "margin_mean",
           "margin_nearest_same_city", "mmd2", "dcsf", "gads")
DELTA_METRICS = ("cos_sim", "top1", "margin_hard")
#: the tables :func:`build_tables` returns (each written as ``table_<name>.csv``)
TABLE_NAMES = ("by_condition", "by_model_L1", "deltas", "city_balanced", "clip_check")
CONDITION_ORDER = CONDITIONS
#: (baseline, treatment): prompt-level deltas, then L1 minus each control
DELTAS = (("L0", "L1"), ("L1", "L2"), ("C_WRONG_STREET", "L1"), ("C_SHUFFLED_NEIGHBORHOOD", "L1"),
          ("C_WRONG_STREET_NEIGHBORHOOD", "L1"))


def _order(conditions):
    known = [c for c in CONDITION_ORDER if c in conditions]
    return known + sorted(set(conditions) - set(known))


def _summary_row(label: dict, rows: list[dict], options) -> dict:
    data = np.array([[np.nan if r.get(m) is None else r[m] for m in METRICS] for r in rows], dtype=float)
    out = dict(label, panels=len(rows))
    res = bootstrap_mean(data, n_resamples=options.n_bootstrap, confidence=options.confidence, seed=options.seed)
    for j, m in enumerate(METRICS):
        out[m] = _num(res.estimate[j])
        out[f"{m}_low"] = _num(res.low[j])
        out[f"{m}_high"] = _num(res.high[j])
    return out


def _num(value):
    value = float(value)
    return None if np.isnan(value) else value


def build_tables(rows: list[dict], options) -> dict[str, list[dict]]:
    models = [r for r in rows if not r["is_anchor"]]
    anchors = [r for r in rows if r["is_anchor"]]
    tables: dict[str, list[dict]] = {}
    conditions = _order({r["condition"] for r in models})
    tables["by_condition"] = [_summary_row({"condition": c}, [r for r in models if r["condition"] == c], options)
                              for c in conditions]
    l1_models = sorted({r["model"] for r in models if r["condition"] == "L1"})
    table9 = [_summary_row({"model": m, "condition": "L1"},
                           [r for r in models if r["model"] == m and r["condition"] == "L1"], options)
              for m in l1_models]
    if l1_models:
        table9.append(_summary_row({"model": "mean of models", "condition": "L1"},
                                   [r for r in models if r["condition"] == "L1"], options))
    for a in sorted({r["model"] for r in anchors}):
        table9.append(_summary_row({"model": a, "condition": "anchor"}, [r for r in anchors if r["model"] == a], options))
    tables["by_model_L1"] = table9
    deltas = []
    for base, treat in DELTAS:
        if base not in conditions or treat not in conditions:
            continue
        for metric in DELTA_METRICS:
            try:
                s = paired_bootstrap(models, metric, "condition", base, treat, n_resamples=options.n_bootstrap,
                                     confidence=options.confidence, seed=options.seed)
            except ValueError:
                continue
            deltas.append({"delta": f"{treat} − {base}", "metric": metric, "mean": _num(s.interval.estimate),
                           "low": _num(s.interval.low), "high": _num(s.interval.high),
                           "matched_pairs": s.counts["matched_pairs"], "positive_pairs": s.counts["positive_pairs"],
                           "cities": s.counts.get("cities"), "cities_positive": s.counts.get("cities_positive")})
    tables["deltas"] = deltas
    balanced = []
    for c in conditions:
        sel = [r for r in models if r["condition"] == c]
        data = np.array([[np.nan if r.get(m) is None else r[m] for m in DELTA_METRICS] for r in sel], dtype=float)
        res = city_balanced_bootstrap(data, [r["city"] for r in sel], n_resamples=options.n_bootstrap,
                                      confidence=options.confidence, seed=options.seed)
        row = {"condition": c, "panels": len(sel), "cities": len({r["city"] for r in sel})}
        for j, m in enumerate(DELTA_METRICS):
            row.update({m: _num(res.estimate[j]), f"{m}_low": _num(res.low[j]), f"{m}_high": _num(res.high[j])})
        balanced.append(row)
    tables["city_balanced"] = balanced
    clip = [r for r in models if r.get("clip_score") is not None]
    tables["clip_check"] = []
    if len(clip) >= 3:
        scores = [r["clip_score"] for r in clip]
        top1 = [r["top1"] for r in clip]
        row = {"panels": len(clip), "spearman_clip_cos_sim": spearman(scores, [r["cos_sim"] for r in clip]),
               "spearman_clip_top1": spearman(scores, top1)}
        row["auroc_clip_top1"] = auroc(scores, top1) if 0 < sum(top1) < len(top1) else None
        tables["clip_check"] = [row]
    return tables


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    header = list(dict.fromkeys(k for r in rows for k in r))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def _fmt(row, key):
    value = row.get(key)
    if value is None:
        return "—"
    if f"{key}_low" in row and row.get(f"{key}_low") is not None:
        return f"{value:.3f} [{row[f'{key}_low']:.3f}, {row[f'{key}_high']:.3f}]"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def to_markdown(title: str, rows: list[dict], columns: list[str]) -> str:
    if not rows:
        return f"### {title}\n\n(no rows)\n"
    lines = [f"### {title}", "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(_fmt(r, c) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def tables_markdown(tables: dict[str, list[dict]], stand_in_note: str | None = None,
                    notes: list[str] | tuple = ()) -> str:
    """The tables as Markdown under a banner: the stand-in warning, then every note of the run
    (what was left out and why)."""
    parts = ["# GeoFidelity evaluation tables", ""]
    if stand_in_note:
        parts += [f"> **{stand_in_note}**", ""]
    for note in notes:
        parts += [f"> Note: {note}", ""]
    parts.append(to_markdown("By prompt condition (paper Table 5)", tables.get("by_condition", []),
                             ["condition", "panels", "cos_sim", "top1", "chance_adjusted_top1", "margin_hard", "mmd2", "gads"]))
    parts.append(to_markdown("L1 by model with the real anchors (paper Table 9)", tables.get("by_model_L1", []),
                             ["model", "panels", "cos_sim", "top1", "chance_adjusted_top1", "margin_hard", "mmd2"]))
    parts.append(to_markdown("Paired deltas (paper Table 8: L1 minus each control)", tables.get("deltas", []),
                             ["delta", "metric", "mean", "low", "high", "matched_pairs", "positive_pairs", "cities_positive"]))
    parts.append(to_markdown("City-balanced (cities, then targets within each city)", tables.get("city_balanced", []),
                             ["condition", "panels", "cities", "cos_sim", "top1", "margin_hard"]))
    parts.append(to_markdown("CLIP check", tables.get("clip_check", []),
                             ["panels", "spearman_clip_cos_sim", "spearman_clip_top1", "auroc_clip_top1"]))
    return "\n".join(parts)
