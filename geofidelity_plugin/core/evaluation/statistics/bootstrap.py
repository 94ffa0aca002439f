"""method §7 statistics: seeded percentile bootstraps, paired deltas, city-balanced summaries,
counts, and the Spearman / AUROC of the CLIP check — numpy arrays and lists of dicts only.

Bootstraps are vectorised: each chunk of resamples draws an index matrix, turns it into a
count matrix (how often each unit was drawn), and gets every resampled mean of every value
column from one matrix product. A plain bootstrap's chunk size is a memory bound only
(``max_cells``): its resamples are drawn in one stream, row after row, so any chunking draws the
same indices. The city-balanced bootstrap's blocks of resamples depend only on the data (its
shape and which values are missing), never on the memory or the machine, and each block is
worked city by city in bounded memory; so a seed gives the same interval everywhere.
NaN marks a missing value (e.g. a margin against a negative kind that a gallery lacks): it is
left out of every mean, and ``n`` counts the units with a value.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

from geofidelity_plugin.core.evaluation.metrics.rank_stats import auroc, rank_average_ties, spearman  # noqa: F401 (the CLIP check, §7)

#: method §7: 5,000 resamples, percentile 95% intervals.
N_RESAMPLES = 5000
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 0
_CELLS_PER_CHUNK = 1 << 22       # default memory bound of the (resamples × units) count matrix
_CACHE_CELLS = 1 << 18           # a count matrix that stays in the processor's cache
_MIN_CHUNK_RESAMPLES = 16        # fewer rows make the matrix product slower than the cache misses
_CELLS_PER_CITY_CHUNK = 1 << 21
_MAX_CITY_CHUNKS = 2

Number = Union[float, np.ndarray]


@dataclass(frozen=True)
class BootstrapResult:
    """A mean with its percentile interval; arrays when several value columns were given."""

    estimate: Number
    low: Number
    high: Number
    n: Union[int, np.ndarray]
    n_resamples: int
    confidence: float
    seed: int
    method: str


def _columns(values) -> tuple[np.ndarray, bool]:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim not in (1, 2) or array.shape[0] == 0:
        raise ValueError(f"values must be a non-empty 1-D or 2-D array (units × columns), got "
                         f"shape {array.shape}.")
    return array.reshape(array.shape[0], -1), array.ndim == 1


def _check_options(n_resamples: int, confidence: float) -> None:
    if int(n_resamples) < 1 or not 0.0 < confidence < 1.0:
        raise ValueError(f"need n_resamples ≥ 1 and 0 < confidence < 1, got {n_resamples} and "
                         f"{confidence}.")


_ROW_BY_ROW_UNITS = 4096         # from here a row's counts are built alone, in the processor's cache


def _count_matrix(draws: np.ndarray, n_units: int) -> np.ndarray:
    """Per row of ``draws`` (indices into n_units), how often each unit was drawn.

    Wide rows are counted one at a time: a row's integer counts stay in cache on their way into
    the float matrix, where one count over all rows would send two more matrices through memory.
    """
    rows = draws.shape[0]
    if n_units >= _ROW_BY_ROW_UNITS:
        out = np.empty((rows, n_units))
        for r in range(rows):
            out[r] = np.bincount(draws[r], minlength=n_units)
        return out
    flat = (draws + n_units * np.arange(rows)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_units).reshape(rows, n_units).astype(np.float64)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1),
                        np.nan)


def _finish(stats: np.ndarray, estimate: np.ndarray, n: np.ndarray, one_d: bool,
            n_resamples: int, confidence: float, seed: int, method: str) -> BootstrapResult:
    alpha = (1.0 - confidence) / 2.0
    percents = [100 * alpha, 100 * (1 - alpha)]
    complete = ~np.isnan(stats).any(axis=0)
    low = np.full(stats.shape[1], np.nan)
    high = np.full(stats.shape[1], np.nan)
    if complete.any():
        low[complete], high[complete] = np.percentile(stats[:, complete], percents, axis=0)
    for col in np.flatnonzero(~complete):
        column = stats[~np.isnan(stats[:, col]), col]
        if column.size:
            low[col], high[col] = np.percentile(column, percents)
    if one_d:
        return BootstrapResult(float(estimate[0]), float(low[0]), float(high[0]), int(n[0]),
                               n_resamples, confidence, seed, method)
    return BootstrapResult(estimate, low, high, n, n_resamples, confidence, seed, method)


def cells_for(max_memory_bytes: int) -> int:
    """Count-matrix cells per chunk that keep a bootstrap near an eighth of ``max_memory_bytes``
    (a cell costs an int64 draw, its bincount slot and a float64 count)."""
    return max(1 << 16, int(max_memory_bytes) // 8 // 32)


def bootstrap_mean(values, *, n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
                   seed: int = BOOTSTRAP_SEED, max_cells: Optional[int] = None) -> BootstrapResult:
    """method §7 seeded percentile bootstrap of a mean over units (rows).

    ``values``: ``(n,)`` or ``(n, k)``; with k columns the same resampled units serve every
    column (one table row: all metrics of one model and condition). ``max_cells`` bounds the
    memory of a chunk of resamples (:func:`cells_for`); the interval does not depend on it.
    """
    _check_options(n_resamples, confidence)
    data, one_d = _columns(values)
    n_units = data.shape[0]
    present = ~np.isnan(data)
    k = data.shape[1]
    # One product per chunk: the values, then the presence of the columns that miss a value (a
    # column without gaps has every resample's n units, exactly); the counts are read once.
    gappy = np.flatnonzero(~present.all(axis=0))
    stacked = np.hstack([np.where(present, data, 0.0), present[:, gappy].astype(np.float64)])
    denominator = np.full((1, k), float(n_units))
    rng = np.random.default_rng(seed)
    memory_cap = max(1, int(max_cells or _CELLS_PER_CHUNK) // n_units)
    chunk = min(max(_MIN_CHUNK_RESAMPLES, _CACHE_CELLS // n_units), memory_cap)
    # int32 draws are the same numbers as int64 ones (numpy draws both as bounded 32-bit values
    # below 2³²), in half the memory; tests/core/evaluation/test_city_grouping.py holds that
    draw_type = np.int32 if _ROW_BY_ROW_UNITS <= n_units < 2 ** 31 else np.int64
    stats = np.empty((n_resamples, k))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        counts = _count_matrix(rng.integers(0, n_units, size=(size, n_units), dtype=draw_type), n_units)
        sums = counts @ stacked
        denominators = np.repeat(denominator, size, axis=0)
        denominators[:, gappy] = sums[:, k:]
        stats[start:start + size] = _ratio(sums[:, :k], denominators)
    filled = stacked[:, :k]
    n = present.sum(axis=0)
    estimate = _ratio(filled.sum(axis=0), n)
    return _finish(stats, estimate, n, one_d, n_resamples, confidence, seed, "percentile")


def _two_stage_chunk(rng: np.random.Generator, size: int, members: list[np.ndarray],
                     filled: np.ndarray, present: np.ndarray, by_city: bool) -> np.ndarray:
    """``size`` two-stage resamples (cities, then units within each drawn city) → (size, k).

    A *slot* is one drawn city in one resample. City by city, the units drawn into its slots
    become a (resample × unit-of-the-city) count matrix whose product with the city's values
    is added to the resamples' sums (under city weighting a unit's value is first divided by its
    city's size and the number of cities), so the memory is one city's, whatever the data size.
    Under city weighting a column with missing values averages only the slots that hold a value:
    its slot means are formed city by city and summed into their resamples with ``reduceat``
    (a city's slots come ordered by resample).
    """
    n_cities, k = len(members), filled.shape[1]
    times_drawn = _count_matrix(rng.integers(0, n_cities, size=(size, n_cities)),
                                n_cities).astype(np.int64)
    gappy = np.flatnonzero(~present.all(axis=0)) if by_city else np.empty(0, dtype=np.int64)
    g = gappy.size
    gappy_values = np.hstack([filled[:, gappy], present[:, gappy]])
    gappy_total = np.zeros((size, 2 * g))
    numerator, denominator = np.zeros((size, k)), np.zeros((size, k))
    for c, units in enumerate(members):
        owner = np.repeat(np.arange(size), times_drawn[:, c])
        if owner.size == 0:
            continue
        draws = rng.integers(0, len(units), size=(owner.size, len(units)))
        counts = np.bincount((draws + (owner * len(units))[:, None]).ravel(),
                             minlength=size * len(units)).reshape(size, len(units)).astype(float)
        if by_city:
            numerator += counts @ (filled[units] / (len(units) * n_cities))
        else:
            numerator += counts @ filled[units]
            denominator += counts @ present[units]
        if g:
            slot = _count_matrix(draws, len(units)) @ gappy_values[units]
            has = slot[:, g:] > 0
            np.divide(slot[:, :g], slot[:, g:], out=slot[:, :g], where=has)
            slot[:, :g][~has] = 0.0
            slot[:, g:] = has
            starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
            gappy_total[owner[starts]] += np.add.reduceat(slot, starts, axis=0)
    if not by_city:
        return _ratio(numerator, denominator)
    numerator[:, gappy] = _ratio(gappy_total[:, :g], gappy_total[:, g:])
    return numerator


def city_members(cities: Sequence[Any]) -> list[np.ndarray]:
    """The row indices of each city, in ascending order, the cities sorted by name (as text):
    grouped once, by one sort — linear in the rows, where a scan per city grew with rows × cities."""
    labels = np.asarray(cities, dtype=object).astype(str)
    if labels.size == 0:
        return []
    _, city_of = np.unique(labels, return_inverse=True)
    city_of = city_of.reshape(-1)
    order = np.argsort(city_of, kind="stable")  # stable: each city's rows keep their order
    starts = np.flatnonzero(np.diff(city_of[order])) + 1
    return np.split(order, starts)


def city_balanced_bootstrap(values, cities: Sequence[Any], *, n_resamples: int = N_RESAMPLES,
                            confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED,
                            weighting: str = "city") -> BootstrapResult:
    """method §7 city-balanced summary: resample cities, then targets within each drawn city.

    ``weighting="city"`` (default): the statistic is the mean of the per-city means, so every
    city weighs the same (the estimate too). ``weighting="target"``: the pooled mean of all
    targets drawn in the two stages.
    """
    _check_options(n_resamples, confidence)
    if weighting not in ("city", "target"):
        raise ValueError(f"weighting must be 'city' or 'target', got {weighting!r}.")
    data, one_d = _columns(values)
    labels = np.asarray(cities, dtype=object)
    if labels.shape != (data.shape[0],):
        raise ValueError(f"give one city per unit: {data.shape[0]} units, {labels.size} cities.")
    members = city_members(labels)
    n_cities, k = len(members), data.shape[1]
    present = ~np.isnan(data)
    filled, weight = np.where(present, data, 0.0), present.astype(np.float64)
    rng = np.random.default_rng(seed)
    gappy = int((~present).any(axis=0).sum()) if weighting == "city" else 0
    chunk = max(1, _CELLS_PER_CITY_CHUNK // max(n_cities * (1 + 2 * gappy), data.shape[0], k))
    # A block loops over the cities: at most _MAX_CITY_CHUNKS blocks keep blocks × cities linear
    # in the data (a block's memory: its (resamples × cities) counts and one city's). The rule
    # reads the data only, never --max-memory; small tables keep their blocks and intervals.
    chunk = max(chunk, -(-int(n_resamples) // _MAX_CITY_CHUNKS))
    stats = np.empty((n_resamples, k))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        stats[start:start + size] = _two_stage_chunk(rng, size, members, filled, weight,
                                                     weighting == "city")
    n = present.sum(axis=0)
    if weighting == "city":
        city_means = np.stack([_ratio(filled[u].sum(axis=0), present[u].sum(axis=0))
                               for u in members])
        has = ~np.isnan(city_means)
        estimate = _ratio(np.where(has, city_means, 0.0).sum(axis=0), has.sum(axis=0))
    else:
        estimate = _ratio(filled.sum(axis=0), n)
    return _finish(stats, estimate, n, one_d, n_resamples, confidence, seed,
                   f"city_balanced_percentile[{weighting}]")


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
        means = np.stack([_ratio(np.where(present[u], data[u], 0).sum(0), present[u].sum(0))
                          for u in city_members(cities)])
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
