"""The summary paper's statistics and the field's comparability metrics as tables (method §6–§7):
``table_local_margin.csv`` (Local Margin by condition and L1 by model beside the anchors),
``table_clip_top_quarter.csv`` (the top-25 %-CLIP miss rate) and ``table_comparability.csv``
(:mod:`.comparability_table`); their sections of ``tables.md`` are :mod:`.paper_markdown`'s.
Built beside the bootstrap tables of :mod:`.statistics.tables`, which they do not change."""
from __future__ import annotations

import math

import numpy as np

from geofidelity_plugin.core.evaluation.paper_markdown import PAPER_TABLE_NAMES  # noqa: F401 (its names)
from geofidelity_plugin.core.evaluation.statistics.table_intervals import TableItem, table_intervals
from geofidelity_plugin.core.evaluation.statistics.tables import CONDITION_ORDER, city_label

#: a quarter of fewer panels than this is not a quarter
CLIP_TOP_QUARTER_MIN = 4
NO_CLIP_NOTE = ("top-25%-CLIP miss rate skipped: no CLIP model was loaded (--clip-model; the model manager has "
                "none, or 'none' was given) and the store holds no CLIP scores")


def _num(value):
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def _local_margin_row(label: dict, rows: list[dict], options) -> dict:
    values = np.array([np.nan if r.get("local_margin") is None else r["local_margin"] for r in rows], dtype=float)
    cities = np.array([city_label(r) for r in rows], dtype=object)
    keep = ~np.isnan(values)
    row = dict(label, panels=len(rows), local_margin_n=int(keep.sum()), cities=len(set(cities[keep].tolist())))
    if not keep.any():
        return dict(row, local_margin=None, note="no panel has a same-city negative in its gallery")
    segments = np.array([r["segment_id"] for r in rows], dtype=object)
    found = table_intervals([TableItem(values[keep], segments[keep], cities[keep], balanced=True)], options)[0]
    plain, city = found.pooled, found.balanced  # the run's bootstrap unit (method §7)
    row = dict(row, local_margin=_num(plain.estimate), local_margin_low=_num(plain.low),
               local_margin_high=_num(plain.high), city_mean=_num(city.estimate), city_low=_num(city.low),
               city_high=_num(city.high), bootstrap_unit=found.unit)
    note = found.note()
    return dict(row, interval_note=note) if note else row


def local_margin_table(rows: list[dict], options) -> list[dict]:
    """Local Margin (method §6) by condition (model panels pooled), then L1 by model, the mean of
    models and the real anchors — each mean with its interval over panels and its city-balanced
    one (method §7)."""
    models = [r for r in rows if not r["is_anchor"]]
    conditions = sorted({r["condition"] for r in models},
                        key=lambda c: (CONDITION_ORDER.index(c) if c in CONDITION_ORDER else len(CONDITION_ORDER), c))
    groups = [({"condition": c, "model": "all models"}, [r for r in models if r["condition"] == c])
              for c in conditions]
    l1 = [r for r in models if r["condition"] == "L1"]
    groups += [({"condition": "L1", "model": m}, [r for r in l1 if r["model"] == m])
               for m in sorted({r["model"] for r in l1})]
    anchors = sorted({r["model"] for r in rows if r["is_anchor"]})
    groups += [({"condition": "anchor", "model": a}, [r for r in rows if r["model"] == a]) for a in anchors]
    return [_local_margin_row(label, members, options) for label, members in groups if members]


def clip_top_quarter(rows: list[dict], clip_model: str | None = None) -> tuple[list[dict], str | None]:
    """The summary paper's top-25 %-CLIP miss rate: among the quarter of model panels with the
    highest CLIP score (the ⌈n/4⌉ highest; panels tied with the last one are kept too), the share
    that still miss the target (1 − top-1; a panel's top-1 is a share of its images in
    ``--retrieval-mode image``). Over all model panels, then per condition. Returns the rows and,
    when no panel has a CLIP score, no rows and the note that says so."""
    scored = [r for r in rows if not r["is_anchor"] and r.get("clip_score") is not None and r.get("top1") is not None]
    if not scored:
        return [], NO_CLIP_NOTE
    conditions = sorted({r["condition"] for r in scored},
                        key=lambda c: (CONDITION_ORDER.index(c) if c in CONDITION_ORDER else len(CONDITION_ORDER), c))
    out = []
    for scope, members in [("all conditions", scored)] + [(c, [r for r in scored if r["condition"] == c])
                                                          for c in conditions]:
        scores = np.array([r["clip_score"] for r in members], dtype=float)
        miss = 1.0 - np.array([r["top1"] for r in members], dtype=float)
        row = {"condition": scope, "clip_model": clip_model, "panels": len(members),
               "miss_rate_all": float(miss.mean()), "top_quarter": None, "miss_rate_top_quarter": None}
        if len(members) < CLIP_TOP_QUARTER_MIN:
            row["note"] = (f"only {len(members)} panel(s) with a CLIP score: a top quarter needs at least "
                           f"{CLIP_TOP_QUARTER_MIN}")
        else:
            cut = np.sort(scores)[::-1][math.ceil(len(scores) / 4) - 1]
            top = scores >= cut
            row.update(top_quarter=int(top.sum()), miss_rate_top_quarter=float(miss[top].mean()))
        out.append(row)
    return out, None


def build_paper_tables(out_rows: list[dict], panel_rows, layout, segments: dict, gamma: float, options,
                       clip_model: str | None = None, progress=None) -> tuple[dict[str, list[dict]], list[str]]:
    """The tables of :data:`PAPER_TABLE_NAMES` of one evaluation and the notes they add:
    ``out_rows`` the per-panel score rows, ``panel_rows`` the scored panels with their features."""
    from geofidelity_plugin.core.evaluation.comparability_table import comparability_table

    top, clip_note = clip_top_quarter(out_rows, clip_model)
    comparability, notes = comparability_table(panel_rows, layout, segments, gamma, options.seed, progress)
    tables = {"local_margin": local_margin_table(out_rows, options), "clip_top_quarter": top,
              "comparability": comparability}
    return tables, ([clip_note] if clip_note else []) + notes
