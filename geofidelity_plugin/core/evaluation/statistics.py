"""PROTOCOL §7 statistics: seeded percentile bootstraps, paired deltas, city-balanced summaries,
counts, and the Spearman / AUROC of the CLIP check — numpy arrays and lists of dicts only.

Bootstraps are vectorised: each chunk of resamples draws an index matrix, turns it into a
count matrix (how often each unit was drawn), and gets every resampled mean of every value
column from one matrix product. Chunk sizes depend only on the data's shape, so a seed gives
the same interval on every machine. NaN marks a missing value (e.g. a margin against a negative
kind that a gallery lacks): it is left out of every mean, and ``n`` counts the units with a value.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

#: PROTOCOL §7: 5,000 resamples, percentile 95% intervals.
N_RESAMPLES = 5000
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 0
_CELLS_PER_CHUNK = 1 << 22
_CELLS_PER_PLAIN_CHUNK = 1 << 18

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
    if int(n_resamples) < 1:
        raise ValueError(f"n_resamples must be ≥ 1, got {n_resamples}.")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}.")


def _count_matrix(draws: np.ndarray, n_units: int) -> np.ndarray:
    """Per row of ``draws`` (indices into n_units), how often each unit was drawn."""
    rows = draws.shape[0]
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


def bootstrap_mean(values, *, n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
                   seed: int = BOOTSTRAP_SEED) -> BootstrapResult:
    """PROTOCOL §7 seeded percentile bootstrap of a mean over units (rows).

    ``values``: ``(n,)`` or ``(n, k)``; with k columns the same resampled units serve every
    column (one table row: all metrics of one model and condition).
    """
    _check_options(n_resamples, confidence)
    data, one_d = _columns(values)
    n_units = data.shape[0]
    present = ~np.isnan(data)
    filled = np.where(present, data, 0.0)
    weight = present.astype(np.float64)
    rng = np.random.default_rng(seed)
    chunk = max(1, _CELLS_PER_PLAIN_CHUNK // n_units)
    stats = np.empty((n_resamples, data.shape[1]))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        counts = _count_matrix(rng.integers(0, n_units, size=(size, n_units)), n_units)
        stats[start:start + size] = _ratio(counts @ filled, counts @ weight)
    n = present.sum(axis=0)
    estimate = _ratio(filled.sum(axis=0), n)
    return _finish(stats, estimate, n, one_d, n_resamples, confidence, seed, "percentile")


def _two_stage_chunk(rng: np.random.Generator, size: int, members: list[np.ndarray],
                     filled: np.ndarray, present: np.ndarray, by_city: bool) -> np.ndarray:
    """``size`` two-stage resamples (cities, then units within each drawn city) → (size, k).

    A *slot* is one drawn city in one resample. Every unit drawn into a slot adds a weight (1,
    or 1/city size when each city weighs the same) to a (resample × unit) matrix, so complete
    columns need one matrix product. Under city weighting, a column with missing values
    averages only the slots that hold a value: its slot means are formed city by city (the
    slots come ordered by resample) and summed into their resamples with ``reduceat``.
    """
    n_cities, (n_units, k) = len(members), filled.shape
    times_drawn = _count_matrix(rng.integers(0, n_cities, size=(size, n_cities)),
                                n_cities).astype(np.int64)
    resample_ids = np.arange(size)
    gappy = np.flatnonzero(~present.all(axis=0)) if by_city else np.empty(0, dtype=np.int64)
    gappy_values = np.hstack([filled[:, gappy], present[:, gappy]])
    gappy_total = np.zeros((size, 2 * gappy.size))
    cells, cell_weights = [], []
    for c, units in enumerate(members):
        owner = np.repeat(resample_ids, times_drawn[:, c])
        if owner.size == 0:
            continue
        draws = rng.integers(0, len(units), size=(owner.size, len(units)))
        cells.append((owner[:, None] * n_units + units[draws]).ravel())
        cell_weights.append(np.full(draws.size, 1.0 / len(units) if by_city else 1.0))
        if gappy.size:
            slot = _count_matrix(draws, len(units)) @ gappy_values[units]
            has = slot[:, gappy.size:] > 0
            with np.errstate(divide="ignore", invalid="ignore"):
                slot = np.hstack([np.where(has, slot[:, :gappy.size] / slot[:, gappy.size:], 0),
                                  has])
            starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
            gappy_total[owner[starts]] += np.add.reduceat(slot, starts, axis=0)
    weights = np.bincount(np.concatenate(cells), weights=np.concatenate(cell_weights),
                          minlength=size * n_units).reshape(size, n_units)
    if not by_city:
        return _ratio(weights @ filled, weights @ present)
    stats = weights @ filled / n_cities
    stats[:, gappy] = _ratio(gappy_total[:, :gappy.size], gappy_total[:, gappy.size:])
    return stats


def city_balanced_bootstrap(values, cities: Sequence[Any], *, n_resamples: int = N_RESAMPLES,
                            confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED,
                            weighting: str = "city") -> BootstrapResult:
    """PROTOCOL §7 city-balanced summary: resample cities, then targets within each drawn city.

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
    _, city_of = np.unique(labels.astype(str), return_inverse=True)
    members = [np.flatnonzero(city_of == c) for c in range(city_of.max() + 1)]
    n_cities, k = len(members), data.shape[1]
    present = ~np.isnan(data)
    filled = np.where(present, data, 0.0)
    weight = present.astype(np.float64)
    rng = np.random.default_rng(seed)
    chunk = max(1, _CELLS_PER_CHUNK // max(n_cities * k, data.shape[0]))
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
@dataclass(frozen=True)
class PairedDeltas:
    """Differences treatment − baseline over matched units (PROTOCOL §7 prompt/control deltas)."""

    unit_keys: tuple[str, ...]
    value_keys: tuple[str, ...]
    units: list[tuple]
    deltas: np.ndarray               # (pairs, len(value_keys))
    cities: Optional[list]
    unmatched_baseline: int
    unmatched_treatment: int


def pair_deltas(rows: Sequence[Mapping[str, Any]], value_keys: Union[str, Sequence[str]],
                condition_key: str, baseline: str, treatment: str,
                unit_keys: Sequence[str] = ("model", "segment_id"),
                city_key: Optional[str] = "city") -> PairedDeltas:
    """Pair rows of two conditions by ``unit_keys`` and form the differences first.

    Add ``"sample"`` to ``unit_keys`` to pair per sample (shared-noise runs, PROTOCOL §4). Two
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

    def value(row, key):
        item = row.get(key)
        return np.nan if item is None else float(item)

    deltas = np.array([[value(treat[u], key) - value(base[u], key) for key in keys]
                       for u in matched], dtype=np.float64).reshape(len(matched), len(keys))
    cities = None
    if city_key is not None and matched and all(city_key in base[u] for u in matched):
        cities = [base[u][city_key] for u in matched]
    return PairedDeltas(unit_keys, keys, matched, deltas, cities,
                        len(base) - len(matched), len(treat) - len(matched))


def delta_counts(deltas, cities: Optional[Sequence[Any]] = None) -> dict[str, Any]:
    """PROTOCOL §7 counts: matched pairs, pairs with a positive difference, cities with a
    positive mean difference (per value column when ``deltas`` has several)."""
    data, one_d = _columns(deltas)
    present = ~np.isnan(data)
    counts: dict[str, Any] = {"matched_pairs": present.sum(axis=0),
                              "positive_pairs": (np.where(present, data, 0.0) > 0).sum(axis=0)}
    if cities is not None:
        labels = np.asarray(cities, dtype=object).astype(str)
        means = np.stack([_ratio(np.where(present[labels == c], data[labels == c], 0).sum(0),
                                 present[labels == c].sum(0)) for c in np.unique(labels)])
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
    """PROTOCOL §7 paired bootstrap of treatment − baseline over matched units.

    The differences are formed first and the matched units resampled (or, with
    ``city_balanced=True``, cities and then units within them).
    """
    pairs = pair_deltas(rows, value_keys, condition_key, baseline, treatment, unit_keys,
                        city_key)
    if not pairs.units:
        raise ValueError(f"no unit has rows under both {baseline!r} and {treatment!r}; check "
                         f"the condition names and the pairing keys {tuple(unit_keys)}.")
    values = pairs.deltas[:, 0] if isinstance(value_keys, str) else pairs.deltas
    options = dict(n_resamples=n_resamples, confidence=confidence, seed=seed)
    if city_balanced:
        if pairs.cities is None:
            raise ValueError(f"city-balanced resampling needs a {city_key!r} value in every "
                             "row; add it or set city_balanced=False.")
        interval = city_balanced_bootstrap(values, pairs.cities, **options)
    else:
        interval = bootstrap_mean(values, **options)
    return DeltaSummary(interval, delta_counts(values, pairs.cities), pairs)


# --------------------------------------------------------------------------- CLIP check
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
    """PROTOCOL §7 CLIP check: Spearman's ρ, the Pearson correlation of average-tie ranks.

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
    """PROTOCOL §7 CLIP check: AUROC of ``scores`` for the positive ``labels`` (e.g. top-1).

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
