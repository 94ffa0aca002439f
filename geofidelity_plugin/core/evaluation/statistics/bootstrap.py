"""method §7 statistics: seeded percentile bootstraps, paired deltas, city-balanced summaries,
counts, and the Spearman / AUROC of the CLIP check — numpy arrays and lists of dicts only.

The plain bootstrap lives in :mod:`.resampling` and the city-balanced one in
:mod:`.city_bootstrap`; both are named here too, so that callers import one module. This module
pairs rows into deltas, counts them, and pivots rows into the one joint resampling of a table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

from geofidelity_plugin.core.evaluation.metrics.rank_stats import auroc, rank_average_ties, spearman  # noqa: F401 (the CLIP check, §7)
from geofidelity_plugin.core.evaluation.statistics.city_bootstrap import (city_balanced_bootstrap, city_balanced_intervals, city_members, city_totals)  # noqa: F401 (named here for callers)
from geofidelity_plugin.core.evaluation.statistics.resampling import (BOOTSTRAP_SEED, CONFIDENCE, N_RESAMPLES, BootstrapResult, _columns, _ratio, bootstrap_mean, cells_for, joint_bootstrap_mean)  # noqa: F401 (named here for callers)


# --------------------------------------------------------------------------- paired deltas
def _value(row: Mapping[str, Any], key: str) -> float:
    item = row.get(key)
    return np.nan if item is None else float(item)


@dataclass(frozen=True)
class PairedDeltas:
    """Differences treatment − baseline over matched units (method §7 prompt deltas)."""

    unit_keys: tuple[str, ...]
    value_keys: tuple[str, ...]
    units: list[tuple]
    deltas: np.ndarray               # (pairs, len(value_keys))
    cities: Optional[list]
    unmatched_baseline: int
    unmatched_treatment: int

    def as_rows(self, city_key: str = "city") -> list[dict[str, Any]]:
        """One dict per matched unit — its keys, city and deltas — e.g. for
        :func:`bootstrap_table`."""
        rows = []
        for i, unit in enumerate(self.units):
            row = dict(zip(self.unit_keys, unit))
            if self.cities is not None:
                row[city_key] = self.cities[i]
            row.update(zip(self.value_keys, self.deltas[i].tolist()))
            rows.append(row)
        return rows


def pair_deltas(rows: Sequence[Mapping[str, Any]], value_keys: Union[str, Sequence[str]],
                condition_key: str, baseline: str, treatment: str,
                unit_keys: Sequence[str] = ("model", "segment_id"),
                city_key: Optional[str] = "city") -> PairedDeltas:
    """Pair rows of two conditions by ``unit_keys`` and form the differences first.

    Add ``"sample"`` to ``unit_keys`` to pair per sample (shared-noise runs, method §4). Two
    rows of one condition with the same unit are an error, since the pairing would be ambiguous.
    A missing or None value becomes NaN.
    """
    keys = (value_keys,) if isinstance(value_keys, str) else tuple(value_keys)
    unit_keys = tuple(unit_keys)
    sides: dict[str, dict[tuple, Mapping[str, Any]]] = {baseline: {}, treatment: {}}
    for row in rows:
        side = sides.get(row.get(condition_key))
        if side is None:
            continue
        try:
            unit = tuple(row[key] for key in unit_keys)
        except KeyError as missing:
            raise ValueError(f"a row lacks the pairing key {missing}; every row needs "
                             f"{', '.join(unit_keys)}.") from None
        if unit in side:
            raise ValueError(f"two rows of condition {row[condition_key]!r} share the unit "
                             f"{dict(zip(unit_keys, unit))}; add a key such as 'sample' to "
                             "unit_keys so that each unit is one row.")
        side[unit] = row
    base, treat = sides[baseline], sides[treatment]
    matched = [unit for unit in base if unit in treat]

    deltas = np.array([[_value(treat[u], key) - _value(base[u], key) for key in keys]
                       for u in matched], dtype=np.float64).reshape(len(matched), len(keys))
    cities = None
    if city_key is not None and matched and all(city_key in base[u] for u in matched):
        cities = [base[u][city_key] for u in matched]
    return PairedDeltas(unit_keys, keys, matched, deltas, cities,
                        len(base) - len(matched), len(treat) - len(matched))


def delta_counts(deltas, cities: Optional[Sequence[Any]] = None) -> dict[str, Any]:
    """method §7 counts: matched pairs, pairs with a positive difference, cities with a
    positive mean difference (per value column when ``deltas`` has several)."""
    data, one_d = _columns(deltas)
    present = ~np.isnan(data)
    counts: dict[str, Any] = {"matched_pairs": present.sum(axis=0),
                              "positive_pairs": (np.where(present, data, 0.0) > 0).sum(axis=0)}
    if cities is not None:
        means = _ratio(*city_totals(data, city_members(cities)))
        counts["cities"] = (~np.isnan(means)).sum(axis=0)
        counts["cities_positive"] = (np.nan_to_num(means, nan=0.0) > 0).sum(axis=0)
    if one_d:
        counts = {key: int(value[0]) for key, value in counts.items()}
    return counts


@dataclass(frozen=True)
class DeltaSummary:
    """A paired delta: the bootstrap interval of the mean difference plus the counts."""

    interval: BootstrapResult
    counts: dict[str, Any]
    pairs: PairedDeltas


def paired_bootstrap(rows: Sequence[Mapping[str, Any]], value_keys: Union[str, Sequence[str]],
                     condition_key: str, baseline: str, treatment: str, *,
                     unit_keys: Sequence[str] = ("model", "segment_id"),
                     city_key: Optional[str] = "city", city_balanced: bool = False,
                     n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
                     seed: int = BOOTSTRAP_SEED) -> DeltaSummary:
    """method §7 paired bootstrap of treatment − baseline over matched units.

    The differences are formed first and the matched units resampled (or, with
    ``city_balanced=True``, cities and then units within them).
    """
    pairs = pair_deltas(rows, value_keys, condition_key, baseline, treatment, unit_keys,
                        city_key)
    if not pairs.units:
        raise ValueError(f"no unit has rows under both {baseline!r} and {treatment!r}; check "
                         f"the condition names and the pairing keys {tuple(unit_keys)}.")
    values = pairs.deltas[:, 0] if isinstance(value_keys, str) else pairs.deltas
    interval = _resample(values, pairs.cities if city_balanced else None, city_balanced,
                         city_key, dict(n_resamples=n_resamples, confidence=confidence, seed=seed))
    return DeltaSummary(interval, delta_counts(values, pairs.cities), pairs)


def _resample(values, cities, city_balanced: bool, city_key, options) -> BootstrapResult:
    if not city_balanced:
        return bootstrap_mean(values, **options)
    options = {k: v for k, v in options.items() if k != "max_cells"}  # bounded city by city
    if cities is None:
        raise ValueError(f"city-balanced resampling needs a {city_key!r} value in every row; "
                         "add it or set city_balanced=False.")
    return city_balanced_bootstrap(values, cities, **options)


def bootstrap_table(rows: Sequence[Mapping[str, Any]], value_keys: Union[str, Sequence[str]],
                    group_keys: Sequence[str], *, unit_keys: Sequence[str] = ("segment_id",),
                    city_key: Optional[str] = "city", city_balanced: bool = False,
                    with_counts: bool = False, n_resamples: int = N_RESAMPLES,
                    confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED,
                    max_cells: Optional[int] = None) -> list[dict[str, Any]]:
    """A whole table of method §7 intervals (every group × value) from one joint resampling.

    Rows are pivoted into one matrix — a row per unit (``unit_keys``), a column per group
    (``group_keys``, e.g. model and condition) and value, NaN where a group lacks the unit —
    and the units are resampled once for all columns. Each interval has the distribution of a
    bootstrap of its column alone; the table costs one pass instead of one per cell. Returns
    one dict per group and value: the group keys, ``metric``, ``estimate``, ``low``, ``high``,
    ``n`` (+ the :func:`delta_counts` when ``with_counts``, for tables of paired deltas).
    """
    keys = (value_keys,) if isinstance(value_keys, str) else tuple(value_keys)
    units: dict[tuple, int] = {}
    groups: dict[tuple, int] = {}
    cities: dict[int, Any] = {}
    placed = []
    for row in rows:
        u = units.setdefault(tuple(row[key] for key in unit_keys), len(units))
        g = groups.setdefault(tuple(row[key] for key in group_keys), len(groups))
        if city_key is not None and city_key in row:
            cities.setdefault(u, row[city_key])
        placed.append((u, g, row))
    if not placed:
        raise ValueError("no rows to summarise; check the filters that built the table.")
    wide = np.full((len(units), len(groups), len(keys)), np.nan)
    seen = np.zeros((len(units), len(groups)), dtype=bool)
    for u, g, row in placed:
        if seen[u, g]:
            raise ValueError(f"two rows share the unit {[row[k] for k in unit_keys]} in group "
                             f"{[row[k] for k in group_keys]}; add a key to unit_keys or "
                             "group_keys so that each cell holds one row per unit.")
        seen[u, g] = True
        wide[u, g] = [_value(row, key) for key in keys]
    wide = wide.reshape(len(units), -1)
    city_list = [cities.get(u) for u in range(len(units))] if len(cities) == len(units) else None
    result = _resample(wide, city_list, city_balanced, city_key,
                       dict(n_resamples=n_resamples, confidence=confidence, seed=seed, max_cells=max_cells))
    counts = delta_counts(wide, city_list) if with_counts else {}
    table = []
    for group, g in groups.items():
        for j, key in enumerate(keys):
            col = g * len(keys) + j
            entry = dict(zip(group_keys, group), metric=key, estimate=float(result.estimate[col]),
                         low=float(result.low[col]), high=float(result.high[col]),
                         n=int(result.n[col]))
            entry.update({name: int(value[col]) for name, value in counts.items()})
            table.append(entry)
    return table
