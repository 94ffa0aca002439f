"""The paper's tables from per-panel rows (method §7): by prompt condition (its Table 5),
L1 minus each control and the prompt-level deltas (Table 8) — each with its matched-unit and its
city-balanced interval —, L1 by model beside the real anchors (Table 9), city-balanced summaries,
and the CLIP check. Every interval is a seeded bootstrap of the run's unit (:mod:`.table_intervals`:
cities with their segments by default, the paper's model–segment rows as an option), and each row
names it. A cell that cannot be computed is kept as a row with a ``note`` saying why, never dropped.
"""
from __future__ import annotations

import csv
import io
from typing import Any

import numpy as np

from geofidelity_plugin.core.conditions import CONDITIONS
from geofidelity_plugin.core.evaluation.metrics.retrieval import NEGATIVE_KINDS, STRICT_NEGATIVE_KIND
from geofidelity_plugin.core.evaluation.statistics.row_columns import (as_columns, city_labels, first_seen_groups, group_means, last_rows, pair_rows, select, unit_codes, with_keys)
from geofidelity_plugin.core.evaluation.statistics.bootstrap import auroc, delta_counts, spearman
from geofidelity_plugin.core.evaluation.statistics.table_intervals import (Intervals, TableItem, intervals_banner, table_intervals)
from geofidelity_plugin.core.evaluation.statistics.table_intervals import plain_intervals as _plain_intervals  # noqa: F401 (named here for callers)

MARGIN_KINDS = tuple(f"margin_{k}" for k in NEGATIVE_KINDS + (STRICT_NEGATIVE_KIND,))
METRICS = ("cos_sim", "top1", "chance_adjusted_top1", "reciprocal_rank", "margin_hard", "margin_mean",
           *MARGIN_KINDS, "mmd2", "dcsf", "gads")
#: the paired deltas' metrics: the primary ones first (retrieval and margins), then CosSim
DELTA_METRICS = ("top1", "reciprocal_rank", "margin_hard", "margin_mean", "margin_nearest_same_city",
                 "margin_same_neighbourhood", "cos_sim")
BALANCED_METRICS = ("cos_sim", "top1", "margin_hard")
#: the tables :func:`build_tables` returns (each written as ``table_<name>.csv``)
TABLE_NAMES = ("by_condition", "by_model_L1", "deltas", "city_balanced", "clip_check")
CONDITION_ORDER = CONDITIONS
#: (baseline, treatment): prompt-level deltas, then L1 minus each control
DELTAS = (("L0", "L1"), ("L1", "L2"), ("C_WRONG_STREET", "L1"), ("C_SHUFFLED_NEIGHBORHOOD", "L1"),
          ("C_WRONG_STREET_NEIGHBORHOOD", "L1"))
#: per-image quantities a sample-paired delta uses (method §7: shared-noise runs)
SAMPLE_METRICS = ("cos_sim", "top1", "reciprocal_rank", "margin_hard", "margin_mean", "margin_nearest_same_city",
                  "margin_same_neighbourhood")


def city_label(row: dict) -> str:
    """A city is its name and its country: two Springfields stay two cities."""
    return f"{row.get('city')} ({row.get('country_code') or '?'})"


def _order(conditions):
    known = [c for c in CONDITION_ORDER if c in conditions]
    return known + sorted(set(conditions) - set(known))


def _matrix(cols, keys, mask=None) -> np.ndarray:
    return np.column_stack([cols[k] if mask is None else cols[k][mask] for k in keys]).astype(float)


def _summary_item(cols, mask, keys=METRICS, balanced: bool = False) -> TableItem:
    """A summary row's rows as the bootstrap takes them: values, segments and cities."""
    return TableItem(_matrix(cols, keys, mask), cols["segment_id"][mask], city_labels(cols)[mask],
                     pooled=not balanced, balanced=balanced)


def _interval_columns(row: dict, found: Intervals) -> dict:
    """The columns every row with an interval ends with: the unit, the cities, and a note when
    they are too few for the stated coverage (method §7)."""
    row["bootstrap_unit"] = found.unit
    row.setdefault("cities", int(found.cities.max(initial=0)))
    note = found.note(int(np.argmax(found.cities)) if found.cities.size else 0)
    if note:
        row["interval_note"] = note
    return row


def _summary_rows(specs: list[tuple[dict, Any, np.ndarray]], results) -> list[dict]:
    """One summary row per (label, columns, mask): every metric's mean and interval, from the
    next of ``results`` (the :func:`table_intervals` of each spec's :func:`_summary_item`)."""
    out = []
    for (label, _, mask), found in zip(specs, results):
        res = found.pooled
        row = dict(label, panels=int(mask.sum()))
        for j, m in enumerate(METRICS):
            row[m] = _num(res.estimate[j])
            row[f"{m}_low"] = _num(res.low[j])
            row[f"{m}_high"] = _num(res.high[j])
            row[f"{m}_n"] = int(res.n[j])
        out.append(_interval_columns(row, found))
    return out


def _num(value):
    if value is None:
        return None
    value = float(value)
    return None if np.isnan(value) else value


def _describe(cols, keys):
    return lambda row: {k: cols[k][row] for k in keys}


def shared_noise(samples, base: str, treat: str) -> bool:
    """Whether the two conditions share their noise (method §4 shared-noise mode): every
    (model, segment, sample) present under both has one recorded seed under both, and the seeds
    vary between samples (one constant seed everywhere records no noise design)."""
    samples = as_columns(samples)
    if not len(samples.get("condition", ())):
        return False
    keys = ("model", "segment_id", "sample")
    codes = unit_codes(samples, keys)
    seed = samples.get("seed", np.full(len(codes), None, dtype=object))
    sides = []
    for condition in (base, treat):  # each unit's seed as its last row records it
        rows = np.flatnonzero(samples["condition"] == condition)
        known, last = last_rows(codes[rows])
        sides.append((known, seed[rows[last]]))
    (known_base, seed_base), (known_treat, seed_treat) = sides
    _, in_base, in_treat = np.intersect1d(known_base, known_treat, assume_unique=True, return_indices=True)
    both, other = seed_base[in_base], seed_treat[in_treat]
    if not both.size or any(s is None for s in both.tolist()) or not np.all(both == other):
        return False
    return both.size == 1 or len(set(both.tolist())) > 1


def _by_sample(samples, base: str, treat: str, pairing: str) -> str | None:
    """The sample pairing a delta takes (``"sample"``: shared noise; ``"sample-index"``: by index
    where the noise differs), or None for the panel pairing (method §7, ``--pairing``)."""
    if pairing == "panel" or not len(samples.get("condition", ())):
        return None
    if shared_noise(samples, base, treat):
        return "sample"
    if pairing != "sample-index":
        return None
    present = set(samples["condition"].tolist())
    return "sample-index" if base in present and treat in present else None


def unit_deltas(rows, sample_rows, base: str, treat: str, pairing: str = "auto") -> tuple[np.ndarray, list, list, str]:
    """Differences treatment − baseline, one row per matched (model, segment) unit.

    Panels are paired by (model, segment); in a shared-noise run the images are paired by
    (model, segment, sample) and a unit's delta is the mean of its samples' differences
    (method §7). ``pairing="sample-index"`` pairs the images by sample index wherever per-image
    rows exist, shared noise or not (the paper's pairing); ``"panel"`` always pairs panels.
    Rows and sample rows are lists of dicts or columns (:mod:`.row_columns`).
    Returns (deltas (units × DELTA_METRICS), units, city labels, pairing)."""
    samples = as_columns(sample_rows or {}, [m for m in DELTA_METRICS if m in SAMPLE_METRICS])
    by_sample = _by_sample(samples, base, treat, pairing)
    if by_sample:
        keys = [m for m in DELTA_METRICS if m in SAMPLE_METRICS]
        unit_keys = ("model", "segment_id", "sample")
        codes = unit_codes(samples, unit_keys)
        b, t = pair_rows(codes, samples["condition"] == base, samples["condition"] == treat,
                         _describe(samples, unit_keys))
        unit = unit_codes(samples, ("model", "segment_id"))
        group, first = first_seen_groups(unit[b])
        means = group_means(_matrix(samples, keys, t) - _matrix(samples, keys, b), group, len(first))
        deltas = np.full((len(first), len(DELTA_METRICS)), np.nan)
        deltas[:, [DELTA_METRICS.index(k) for k in keys]] = means
        known, last = last_rows(unit)  # a unit's city: its last row's, labelled for those rows only
        rows = last[np.searchsorted(known, unit[b[first]])]
        cities = city_labels({k: samples[k][rows] for k in ("city", "country_code", "city_label") if k in samples})
        units = list(zip(samples["model"][b[first]].tolist(), samples["segment_id"][b[first]].tolist()))
        return deltas, units, cities.tolist(), by_sample
    cols = as_columns(rows, DELTA_METRICS)
    keys = ("model", "segment_id")
    b, t = pair_rows(unit_codes(cols, keys), cols["condition"] == base, cols["condition"] == treat,
                     _describe(cols, keys))
    units = list(zip(cols["model"][b].tolist(), cols["segment_id"][b].tolist()))
    deltas = _matrix(cols, DELTA_METRICS, t) - _matrix(cols, DELTA_METRICS, b)
    return deltas, units, city_labels(select(cols, b)).tolist(), "panel"


def delta_rows(rows, sample_rows, base: str, treat: str, options) -> list[dict]:
    """One row per metric of ``treat − base``: the mean over matched units with its interval,
    the city-balanced mean (every city weighing the same) with its interval, and the counts. A
    metric that cannot be computed is a row with a ``note``."""
    prepared = _prepare_deltas(rows, sample_rows, [(base, treat)], getattr(options, "pairing", "auto"))
    data = [d for _, d in prepared if d is not None]
    found = table_intervals([_delta_item(d) for d in data], options)
    return _delta_rows(prepared, iter(found))


def _delta_item(data) -> TableItem:
    deltas, cities, _, segments = data
    return TableItem(deltas, segments, cities, pooled=True, balanced=True)


def _prepare_deltas(rows, sample_rows, pairs: list[tuple[str, str]], pairing: str = "auto") -> list[tuple[Any, Any]]:
    """Per (base, treat) pair: (its label, (deltas, cities, pairing, segments)), or (its rows
    with a ``note``, None) when no interval can be computed."""
    prepared = []
    for base, treat in pairs:
        label = f"{treat} − {base}"
        try:
            deltas, units, cities, used = unit_deltas(rows, sample_rows, base, treat, pairing)
        except ValueError as exc:
            prepared.append(([{"delta": label, "metric": m, "note": str(exc)} for m in DELTA_METRICS], None))
            continue
        if not units:
            prepared.append(([{"delta": label, "metric": m, "matched_pairs": 0,
                               "note": f"no (model, segment) unit has panels under both {base} and {treat}"}
                              for m in DELTA_METRICS], None))
            continue
        prepared.append((label, (deltas, cities, used, [unit[1] for unit in units])))
    return prepared


def _delta_rows(prepared, found) -> list[dict]:
    """The rows of the prepared deltas, each pair's intervals the next of ``found`` (one per pair
    with data, in order)."""
    out = []
    for head, data in prepared:
        if data is None:
            out.extend(head)
            continue
        deltas, cities, pairing, _ = data
        intervals = next(found)
        plain, city = intervals.pooled, intervals.balanced
        counts = delta_counts(deltas, cities)
        for j, metric in enumerate(DELTA_METRICS):
            row = {"delta": head, "metric": metric, "pairing": pairing, "mean": _num(plain.estimate[j]),
                   "low": _num(plain.low[j]), "high": _num(plain.high[j]),
                   "city_mean": _num(city.estimate[j]), "city_low": _num(city.low[j]),
                   "city_high": _num(city.high[j]),
                   **{k: int(v[j]) for k, v in counts.items()}}
            if row["matched_pairs"] == 0:
                row["note"] = f"no matched unit has a {metric} under both conditions (e.g. the gallery lacks that kind)"
            row["bootstrap_unit"] = intervals.unit
            note = intervals.note(j) if row["matched_pairs"] else None
            if note:
                row["interval_note"] = note
            out.append(row)
    return out


def build_tables(rows, options, sample_rows=None, clip_model: str | None = None) -> dict[str, list[dict]]:
    """The tables of method §7 from per-panel rows and (for sample pairing) per-image rows, each
    a list of dicts or columns of numpy arrays (:mod:`.row_columns`; a 100× run keeps columns)."""
    cols = with_keys(as_columns(rows, METRICS + ("clip_score",)), ("model", "segment_id"))
    models = select(cols, ~cols["is_anchor"])
    anchor = cols["is_anchor"]
    samples = None
    if sample_rows is not None and len(sample_rows):
        samples = as_columns(sample_rows, SAMPLE_METRICS)
        samples = with_keys(select(samples, ~samples["is_anchor"]), ("model", "segment_id", "sample"),
                            ("model", "segment_id"), labels=False)  # a delta labels its units' rows only
    tables: dict[str, list[dict]] = {}
    conditions = _order(set(models["condition"].tolist()))
    l1 = models["condition"] == "L1"
    l1_models = sorted(set(models["model"][l1].tolist()))
    by_model = [({"model": m, "condition": "L1"}, models, l1 & (models["model"] == m)) for m in l1_models]
    if l1_models:
        by_model.append(({"model": "mean of models", "condition": "L1"}, models, l1))
    by_model += [({"model": a, "condition": "anchor"}, cols, anchor & (cols["model"] == a))
                 for a in sorted(set(cols["model"][anchor].tolist()))]
    summaries = {"by_condition": [({"condition": c}, models, models["condition"] == c) for c in conditions],
                 "by_model_L1": by_model}
    prepared = _prepare_deltas(models, samples, [(base, treat) for base, treat in DELTAS
                                                 if base in conditions and treat in conditions],
                               getattr(options, "pairing", "auto"))
    deltas = [data for _, data in prepared if data is not None]
    labels = city_labels(models) if len(models["condition"]) else np.empty(0, dtype=object)
    selected = [models["condition"] == c for c in conditions]
    # One call serves every interval of the run: its draws depend on the units (or cities) only,
    # so draws are shared where they would be the same, and each interval is its own call's.
    items = ([_summary_item(c, mask) for specs in summaries.values() for _, c, mask in specs]
             + [_delta_item(d) for d in deltas]
             + [_summary_item(models, sel, BALANCED_METRICS, balanced=True) for sel in selected])
    found = iter(table_intervals(items, options))
    for name, specs in summaries.items():
        tables[name] = _summary_rows(specs, found)
    tables["deltas"] = _delta_rows(prepared, found)
    balanced = []
    for c, sel in zip(conditions, selected):
        intervals = next(found)
        res = intervals.balanced
        row = {"condition": c, "panels": int(sel.sum()), "cities": len(set(labels[sel].tolist()))}
        for j, m in enumerate(BALANCED_METRICS):
            row.update({m: _num(res.estimate[j]), f"{m}_low": _num(res.low[j]), f"{m}_high": _num(res.high[j])})
        balanced.append(_interval_columns(row, intervals))
    tables["city_balanced"] = balanced
    tables["clip_check"] = clip_check(models, clip_model)
    return tables


def clip_check(models, clip_model: str | None = None) -> list[dict]:
    """method §7 CLIP check over the model panels that have a CLIP score; one row, with a note
    when a statistic is undefined (fewer than 3 panels, a constant variable, only hits)."""
    cols = as_columns(models, ("clip_score", "top1", "cos_sim"))
    scored = ~np.isnan(cols["clip_score"]) & ~np.isnan(cols["top1"])
    if not scored.any():
        return []
    scores, top1 = cols["clip_score"][scored], cols["top1"][scored]
    row = {"panels": int(scored.sum()), "clip_model": clip_model, "spearman_clip_cos_sim": None,
           "spearman_clip_top1": None, "auroc_clip_top1": None, "top1_hits": int((top1 == 1.0).sum())}
    notes = []
    if len(scores) < 3:
        notes.append(f"only {len(scores)} panel(s) with a CLIP score: the check needs at least 3")
    else:
        row["spearman_clip_cos_sim"] = _num(spearman(scores, cols["cos_sim"][scored]))
        row["spearman_clip_top1"] = _num(spearman(scores, top1))
        if row["spearman_clip_cos_sim"] is None or row["spearman_clip_top1"] is None:
            notes.append("a Spearman ρ is undefined: the CLIP scores, CosSim or top-1 are constant")
        hits = top1 == 1.0
        if 0 < hits.sum() < len(hits):
            row["auroc_clip_top1"] = auroc(scores, hits)
        else:
            notes.append("AUROC undefined: every panel is a top-1 " + ("hit" if hits.all() else "miss"))
    if notes:
        row["note"] = "; ".join(notes)
    return [row]


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
    for low, high in ((f"{key}_low", f"{key}_high"), ("low", "high") if key == "mean" else (None, None),
                      ("city_low", "city_high") if key == "city_mean" else (None, None)):
        if low and row.get(low) is not None:
            return f"{value:.3f} [{row[low]:.3f}, {row[high]:.3f}]"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def to_markdown(title: str, rows: list[dict], columns: list[str]) -> str:
    if not rows:
        return f"### {title}\n\n(no rows)\n"
    columns = columns + [k for k in ("note", "interval_note") if any(r.get(k) for r in rows)]
    lines = [f"### {title}", "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(_fmt(r, c).replace("|", "/") for c in columns) + " |")
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
    banner = intervals_banner(tables)
    if banner:
        parts += [f"> {banner}", ""]
    parts.append(to_markdown("By prompt condition (paper Table 5)", tables.get("by_condition", []),
                             ["condition", "panels", "cos_sim", "top1", "chance_adjusted_top1", "margin_hard",
                              "margin_nearest_same_city", "margin_same_neighbourhood", "mmd2", "gads"]))
    parts.append(to_markdown("L1 by model with the real anchors (paper Table 9)", tables.get("by_model_L1", []),
                             ["model", "panels", "cos_sim", "top1", "chance_adjusted_top1", "margin_hard",
                              "margin_nearest_same_city", "mmd2"]))
    parts.append(to_markdown("Paired deltas (paper Table 8: L1 minus each control): matched units, then "
                             "city-balanced", tables.get("deltas", []),
                             ["delta", "metric", "pairing", "mean", "city_mean", "matched_pairs", "positive_pairs",
                              "cities", "cities_positive"]))
    parts.append(to_markdown("City-balanced (the mean of the cities' means)", tables.get("city_balanced", []),
                             ["condition", "panels", "cities", "cos_sim", "top1", "margin_hard"]))
    parts.append(to_markdown("CLIP check", tables.get("clip_check", []),
                             ["panels", "clip_model", "spearman_clip_cos_sim", "spearman_clip_top1", "auroc_clip_top1",
                              "top1_hits"]))
    return "\n".join(parts)
