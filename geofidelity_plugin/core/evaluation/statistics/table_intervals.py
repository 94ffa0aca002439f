"""method §7: the one place that turns a table's rows into its intervals, by the bootstrap unit of
the run (``--bootstrap-unit``): every table — the paper's tables, the deltas, the city-balanced
summaries and the tables built beside them — asks here, so that a run's intervals are all of one
kind and each row says which.

- ``city`` (default): cities resampled, each with all its segments and every model's and
  condition's row of a segment (:mod:`.cluster_bootstrap`), Student's t for the number of cities. A
  table of one city (the demo's) resamples its segments instead, each with all its rows: its
  interval speaks for that city only, and its rows say so.
- ``model-segment``: the paper's intervals, exactly as before — a percentile bootstrap of the
  matched (model, segment) rows, and the two-stage city-balanced one (cities, then rows within).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from geofidelity_plugin.core.evaluation.options import BOOTSTRAP_UNITS
from geofidelity_plugin.core.evaluation.statistics.city_bootstrap import city_balanced_intervals
from geofidelity_plugin.core.evaluation.statistics.cluster_bootstrap import cities_note, cluster_intervals, cluster_item
from geofidelity_plugin.core.evaluation.statistics.resampling import BootstrapResult, cells_for, joint_bootstrap_mean

DEFAULT_UNIT = BOOTSTRAP_UNITS[0]
#: how the tables and their Markdown name each unit's intervals
UNIT_LABELS = {
    "city": "city-clustered bootstrap (cities resampled with all their segments; the estimate ± Student's t for "
            "the number of cities × the resampled standard error)",
    "model-segment": "the paper's bootstrap over matched model–segment rows (percentile) and its two-stage "
                     "city-balanced one; it ignores that rows of one segment or city are dependent, so it is "
                     "too narrow for pooled tables",
}


@dataclass(frozen=True)
class TableItem:
    """One block of a table: rows × value columns (NaN where missing), with each row's segment and
    city; ``pooled``/``balanced``: whether the table prints the pooled mean's and the
    city-balanced mean's interval."""

    values: np.ndarray
    segments: Sequence[Any]
    cities: Sequence[Any]
    pooled: bool = True
    balanced: bool = False


@dataclass(frozen=True)
class Intervals:
    """An item's intervals: ``pooled`` and ``balanced`` (None where not asked for), the unit, and
    per column the cities that hold a value."""

    pooled: Optional[BootstrapResult]
    balanced: Optional[BootstrapResult]
    unit: str
    cities: np.ndarray
    one_city: bool = False  # the segments of one city resampled

    def note(self, column: int = 0) -> Optional[str]:
        """The row's note when its cities are too few for the stated coverage (``city`` unit)."""
        if self.unit != "city":
            return None
        if self.one_city:
            return ("1 city: its segments resampled, each with all its rows, so the interval speaks for this city "
                    "only (docs/method.md §7)")
        return cities_note(int(self.cities[column]))


def bootstrap_unit(options) -> str:
    return getattr(options, "bootstrap_unit", DEFAULT_UNIT) or DEFAULT_UNIT


def _boot(options, plain: bool = False) -> dict:
    boot = dict(n_resamples=options.n_bootstrap, confidence=options.confidence, seed=options.seed)
    memory = getattr(options, "max_memory_bytes", None)
    if plain and memory is not None:  # the plain bootstrap's chunks: a memory bound only
        boot["max_cells"] = cells_for(memory())
    return boot


def plain_intervals(matrices: list[np.ndarray], options) -> list[BootstrapResult]:
    """The paper's percentile bootstrap of each matrix (rows × columns). Matrices with as many rows
    share one call, their columns side by side: a seed's draws depend on the number of rows only,
    so each result is the one its own call gives, while the draws are made once."""
    boot = _boot(options, plain=True)
    results: list = [None] * len(matrices)
    by_units: dict[int, list[int]] = {}
    for i, matrix in enumerate(matrices):
        by_units.setdefault(matrix.shape[0], []).append(i)
    for members in by_units.values():
        joint = joint_bootstrap_mean([matrices[i] for i in members], **boot)
        start = 0
        for i in members:
            part = slice(start, start + matrices[i].shape[1])
            start = part.stop
            results[i] = joint.columns(part)
    return results


def _city_count(item: TableItem) -> np.ndarray:
    """Per column, the cities that hold a value."""
    values = np.asarray(item.values, dtype=np.float64).reshape(len(item.cities), -1)
    lookup: dict = {}
    codes = np.fromiter((lookup.setdefault(str(c), len(lookup)) for c in item.cities), dtype=np.int64,
                        count=len(item.cities))
    return np.array([int((np.bincount(codes, ~np.isnan(values[:, j]), len(lookup)) > 0).sum())
                     for j in range(values.shape[1])], dtype=np.int64)


def _segments_as_cities(item: TableItem) -> list[str]:
    """Each row's segment as its cluster: the items of one city resample its segments."""
    return [f"{c}\x1f{s}" for c, s in zip(item.cities, item.segments)]


def table_intervals(items: Sequence[TableItem], options) -> list[Intervals]:
    """The intervals of every item of a run's tables, by its bootstrap unit, each item's the one
    its own call would give (draws shared where they would be the same)."""
    unit = bootstrap_unit(options)
    if unit not in BOOTSTRAP_UNITS:
        raise ValueError(f"unknown bootstrap unit {unit!r}; use one of {', '.join(BOOTSTRAP_UNITS)}.")
    if unit == "city":
        single = [len({str(c) for c in i.cities}) == 1 for i in items]
        found = cluster_intervals([cluster_item(i.values, i.segments, _segments_as_cities(i) if one else i.cities)
                                   for i, one in zip(items, single)], **_boot(options))
        out = []
        for i, r, one in zip(items, found, single):
            city = r.pooled if one else r.city  # one city: its mean is the pooled mean
            out.append(Intervals(r.pooled if i.pooled else None, city if i.balanced else None, unit,
                                 np.minimum(r.cities, 1) if one else r.cities, one))
        return out
    pooled = iter(plain_intervals([np.asarray(i.values, dtype=np.float64).reshape(len(i.cities), -1)
                                   for i in items if i.pooled], options))
    balanced = iter(city_balanced_intervals([(i.values, i.cities) for i in items if i.balanced], **_boot(options)))
    return [Intervals(next(pooled) if i.pooled else None, next(balanced) if i.balanced else None, unit,
                      _city_count(i)) for i in items]


def intervals_banner(tables: dict[str, list[dict]]) -> Optional[str]:
    """The line that heads ``tables.md``: which intervals its tables print."""
    units = {r.get("bootstrap_unit") for rows in tables.values() for r in rows if r.get("bootstrap_unit")}
    if not units:
        return None
    names = "; ".join(f"`{u}`: {UNIT_LABELS.get(u, u)}" for u in sorted(units))
    return f"Intervals (bootstrap unit {names}); docs/method.md §7 gives their measured coverage."
