"""method §7 city-clustered intervals: the default interval of every table.

The rows of a benchmark are not independent: the panels of one segment share its reference panel
and gallery (every model's and every condition's), and the segments of one city share its streets,
light and photographers. The independent units are the cities. So a resample draws cities with
replacement, and a drawn city brings all its segments, each with every row it has (models,
conditions); the resampled statistic is the pooled mean of the drawn rows, or, for the
city-balanced columns, the mean of the drawn cities' means.

A percentile interval of that resampling is too narrow with few cities: its spread is the
plug-in variance (too small by about (G − 1)/G), its quantiles are normal ones where a variance
from G cities calls for Student's t, and with heavy-tailed panels its 2.5–97.5 % range is short
of ±1.96 standard errors. Each interval is therefore ``estimate ± t_ν · c · SE``, with SE the
standard deviation of the resampled statistic (the bootstrap standard error):

- the city-balanced mean (every city weighs the same): ν = G − 1 and c = √(G/(G − 1)), the exact
  bias of a bootstrap variance of a mean of G values — Student's interval over the city means;
- the pooled mean (a city weighs by its rows): c = 1 and ν the Bell–McCaffrey degrees of freedom
  of the cluster-robust variance of a weighted mean, under a working model of a city effect whose
  intra-city correlation is estimated from the segment means; few or uneven cities give few
  degrees of freedom (docs/method.md §7 gives the simulation that chose these, and their coverage).

An interval is cut to the range of its column's values, which no mean of them can leave (a top-1
rate stays within [0, 1]).

The draws of a seed depend only on the number of cities: tables over the same number of cities
are resampled together, and each still gets the interval its own call gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from geofidelity_plugin.core.evaluation.statistics.city_bootstrap import _times_drawn, city_members, city_totals
from geofidelity_plugin.core.evaluation.statistics.resampling import (BOOTSTRAP_SEED, CONFIDENCE, N_RESAMPLES, BootstrapResult, _check_options, _columns, _ratio)

#: the fewest cities of the simulated designs (docs/method.md §7): below, the coverage is not shown
MIN_CITIES_FOR_COVERAGE = 6
METHOD = "city_cluster_t"  # Student's t with the city-clustered bootstrap's standard error
_DRAW_CELLS = 1 << 20            # (resamples × cities) counts held at a time


@dataclass(frozen=True)
class ClusterItem:
    """One table's rows as the resampling sees them: per city (sorted by name), the sums of each
    value column and how many rows hold a value; per segment the same, for the working model."""

    data: np.ndarray             # the rows (units × columns), NaN where missing
    one_d: bool
    row_cities: list             # the city of each row
    city_sums: np.ndarray        # cities × columns
    city_counts: np.ndarray
    segment_sums: np.ndarray     # segments × columns
    segment_counts: np.ndarray
    segment_city: np.ndarray     # each segment's city (index into the sorted cities)


@dataclass(frozen=True)
class ClusterResult:
    """The pooled mean and the city-balanced mean of each column with their intervals, the cities
    that hold a value and the degrees of freedom of the pooled interval."""

    pooled: BootstrapResult
    city: BootstrapResult
    cities: np.ndarray
    dof: np.ndarray


def cluster_item(values, segments: Sequence[Any], cities: Sequence[Any]) -> ClusterItem:
    """``values`` (rows × columns, NaN where missing) with each row's segment and city. A segment is
    known by its city and its id, so one id in two cities stays two segments."""
    data, one_d = _columns(values)
    if not (len(segments) == len(cities) == data.shape[0]):
        raise ValueError(f"give one segment and one city per row: {data.shape[0]} rows, {len(segments)} "
                         f"segments, {len(cities)} cities.")
    labels = [str(c) for c in cities]
    members = city_members(labels)
    city_of = np.empty(len(labels), dtype=np.int64)
    for g, rows in enumerate(members):
        city_of[rows] = g
    lookup: dict = {}
    segment_of = np.fromiter((lookup.setdefault((c, str(s)), len(lookup)) for c, s in zip(labels, segments)),
                             dtype=np.int64, count=len(labels))
    present = ~np.isnan(data)
    filled = np.where(present, data, 0.0)
    n_seg = len(lookup)
    seg_sums = np.column_stack([np.bincount(segment_of, filled[:, j], n_seg) for j in range(data.shape[1])])
    seg_counts = np.column_stack([np.bincount(segment_of, present[:, j], n_seg) for j in range(data.shape[1])])
    seg_city = np.zeros(n_seg, dtype=np.int64)
    seg_city[segment_of] = city_of
    n_city = len(members)
    city_sums = np.column_stack([np.bincount(seg_city, seg_sums[:, j], n_city) for j in range(data.shape[1])])
    city_counts = np.column_stack([np.bincount(seg_city, seg_counts[:, j], n_city) for j in range(data.shape[1])])
    return ClusterItem(data, one_d, labels, city_sums.reshape(n_city, -1), city_counts.reshape(n_city, -1),
                       seg_sums.reshape(n_seg, -1), seg_counts.reshape(n_seg, -1), seg_city)


def _estimates(item: ClusterItem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pooled means, city-balanced means, rows with a value), summed exactly as the plain and the
    city-balanced bootstraps sum them, so that a table's estimates do not depend on its interval."""
    present = ~np.isnan(item.data)
    n = present.sum(axis=0)
    pooled = _ratio(np.where(present, item.data, 0.0).sum(axis=0), n)
    sums, counts = city_totals(item.data, city_members(item.row_cities))
    means = _ratio(sums, counts)
    has = ~np.isnan(means)
    return pooled, _ratio(np.where(has, means, 0.0).sum(axis=0), has.sum(axis=0)), n


def _resampled(items: list[ClusterItem], n_cities: int, n_resamples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per resample and column of ``items`` side by side: the pooled and the city-balanced mean of
    the drawn cities. The cities are drawn resample after resample in one stream (the blocks
    never change the draws)."""
    sums = np.hstack([i.city_sums for i in items])
    counts = np.hstack([i.city_counts for i in items])
    has = (counts > 0).astype(np.float64)
    means = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
    product = np.hstack([sums, counts, means, has])
    k = sums.shape[1]
    rng = np.random.default_rng(seed)
    pooled = np.empty((n_resamples, k))
    balanced = np.empty((n_resamples, k))
    step = max(1, _DRAW_CELLS // n_cities)
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        totals = _times_drawn(rng, size, n_cities).T.astype(np.float64) @ product
        pooled[start:start + size] = _ratio(totals[:, :k], totals[:, k:2 * k])
        balanced[start:start + size] = _ratio(totals[:, 2 * k:3 * k], totals[:, 3 * k:])
    return pooled, balanced


def intra_city_correlation(item: ClusterItem) -> np.ndarray:
    """Per column, the one-way ANOVA estimate of the correlation of two segment means of one city
    (the working model's ρ): not cut at 0, which would bias it upward, but kept within
    [−1/(n − 1), 1], n the most segments of a city, where the working model stays a correlation;
    1 where no city has two segments (nothing tells a city's segments apart from the city), 0
    where the values do not vary."""
    present = item.segment_counts > 0
    y = np.where(present, item.segment_sums / np.maximum(item.segment_counts, 1), 0.0)
    n_city = item.city_sums.shape[0]
    cols = range(y.shape[1])
    n_g = np.column_stack([np.bincount(item.segment_city, present[:, j], n_city) for j in cols])
    s_g = np.column_stack([np.bincount(item.segment_city, y[:, j], n_city) for j in cols])
    q_g = np.column_stack([np.bincount(item.segment_city, y[:, j] ** 2, n_city) for j in cols])
    big_n, groups = n_g.sum(axis=0), (n_g > 0).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        grand = s_g.sum(axis=0) / big_n
        between = (np.where(n_g > 0, s_g ** 2 / np.maximum(n_g, 1), 0.0).sum(axis=0) - big_n * grand ** 2)
        within = q_g.sum(axis=0) - np.where(n_g > 0, s_g ** 2 / np.maximum(n_g, 1), 0.0).sum(axis=0)
        msb = np.maximum(between, 0.0) / (groups - 1)
        msw = np.maximum(within, 0.0) / (big_n - groups)
        n0 = (big_n - (n_g ** 2).sum(axis=0) / big_n) / (groups - 1)
        rho = (msb - msw) / (msb + (n0 - 1) * msw)
    largest = n_g.max(axis=0)
    floor = np.where(largest > 1, -1.0 / np.maximum(largest - 1, 1), 0.0)
    rho = np.clip(np.nan_to_num(rho, nan=0.0, posinf=1.0, neginf=-1.0), floor, 1.0)
    return np.where(big_n - groups <= 0, 1.0, rho)


def pooled_dof(item: ClusterItem, rho: np.ndarray) -> np.ndarray:
    """Per column, the Bell–McCaffrey degrees of freedom of the CR2 variance of the pooled mean
    (a mean weighing each segment by its rows), under the working model "segment means of one city
    correlate by ρ": (tr B)² / tr(B²), B = C (I − P1ᵀ) diag(e) (I − 1Pᵀ) C with P the cities'
    shares of the weight, C = diag((1 − P)^-½) and e = (1 − ρ)·Σ(segment shares²) + ρ·P² per city.
    Written in sums over the cities (linear in them, where the matrix is quadratic); NaN for a
    column with fewer than two cities."""
    ell = item.segment_counts / np.maximum(item.segment_counts.sum(axis=0), 1)
    n_city = item.city_sums.shape[0]
    cols = range(ell.shape[1])
    p = np.column_stack([np.bincount(item.segment_city, ell[:, j], n_city) for j in cols]).reshape(n_city, -1)
    l2 = np.column_stack([np.bincount(item.segment_city, ell[:, j] ** 2, n_city) for j in cols]).reshape(n_city, -1)
    e = (1.0 - rho) * l2 + rho * p ** 2
    big_e = e.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(p < 1.0, 1.0 / (1.0 - p), 0.0)
        trace = (w * (e - 2 * e * p + big_e * p ** 2)).sum(axis=0)
        diagonal = (w ** 2 * (e ** 2 + 2 * e * (-2 * e * p + big_e * p ** 2))).sum(axis=0)
        # the rest, Σ_gk w_g w_k R_gk², R = −e Pᵀ − P eᵀ + E P Pᵀ: three rank-one terms a_i b_iᵀ
        a = (-e, -p, big_e * p)
        b = (p, e, p)
        rest = sum((w * a[i] * a[j]).sum(axis=0) * (w * b[i] * b[j]).sum(axis=0) for i in range(3) for j in range(3))
        dof = trace ** 2 / (diagonal + rest)
    return np.where((item.city_counts > 0).sum(axis=0) >= 2, dof, np.nan)


def t_quantile(dof: np.ndarray, confidence: float) -> np.ndarray:
    """Student's two-sided quantile at ``confidence`` for each ν (NaN where ν is not positive)."""
    from scipy.stats import t

    dof = np.asarray(dof, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.where(dof > 0, t.ppf(0.5 + confidence / 2, np.where(dof > 0, dof, 1.0)), np.nan)


def _interval(stats: np.ndarray, estimate: np.ndarray, n: np.ndarray, factor: np.ndarray, data: np.ndarray,
              one_d: bool, n_resamples: int, confidence: float, seed: int) -> BootstrapResult:
    """``estimate ± factor · SE`` per column, SE the standard deviation of the column's resampled
    statistics (the resamples where it is defined), cut to the range of the column's values
    (``data``); NaN where the factor is."""
    with np.errstate(invalid="ignore", divide="ignore"):
        defined = ~np.isnan(stats)
        count = defined.sum(axis=0)
        mean = np.where(defined, stats, 0.0).sum(axis=0) / np.maximum(count, 1)
        spread = np.where(defined, stats - mean, 0.0)
        se = np.where(count > 1, np.sqrt((spread ** 2).sum(axis=0) / np.maximum(count - 1, 1)), np.nan)
        present = ~np.isnan(data)
        least = np.where(present, data, np.inf).min(axis=0, initial=np.inf)
        most = np.where(present, data, -np.inf).max(axis=0, initial=-np.inf)
        low = np.maximum(estimate - factor * se, least)
        high = np.minimum(estimate + factor * se, most)
    if one_d:
        return BootstrapResult(float(estimate[0]), float(low[0]), float(high[0]), int(n[0]), n_resamples, confidence,
                               seed, METHOD)
    return BootstrapResult(estimate, low, high, n, n_resamples, confidence, seed, METHOD)


def cluster_intervals(items: Sequence[ClusterItem], *, n_resamples: int = N_RESAMPLES,
                      confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED) -> list[ClusterResult]:
    """The city-clustered intervals (module docstring) of each item; items over as many cities are
    resampled once, their columns side by side, each still getting its own call's interval."""
    _check_options(n_resamples, confidence)
    groups: dict[int, list[int]] = {}
    for i, item in enumerate(items):
        groups.setdefault(item.city_sums.shape[0], []).append(i)
    results: list = [None] * len(items)
    for n_cities, chosen in groups.items():
        pooled, balanced = _resampled([items[i] for i in chosen], n_cities, int(n_resamples), seed)
        start = 0
        for i in chosen:
            item = items[i]
            part = slice(start, start + item.data.shape[1])
            start = part.stop
            estimate, city_estimate, n = _estimates(item)
            cities = (item.city_counts > 0).sum(axis=0)
            dof = pooled_dof(item, intra_city_correlation(item))
            with np.errstate(divide="ignore", invalid="ignore"):
                city_factor = t_quantile(cities - 1.0, confidence) * np.sqrt(cities / (cities - 1.0))
            args = (item.data, item.one_d, int(n_resamples), confidence, seed)
            results[i] = ClusterResult(_interval(pooled[:, part], estimate, n, t_quantile(dof, confidence), *args),
                                       _interval(balanced[:, part], city_estimate, n, city_factor, *args), cities, dof)
    return results


def cities_note(cities: int) -> str | None:
    """What a table row says when its cities are too few for the stated coverage."""
    if cities < 2:
        return f"values in {cities} city only: no interval (a city-clustered interval needs two cities)"
    if cities < MIN_CITIES_FOR_COVERAGE:
        return (f"only {cities} cities: the interval's coverage was measured down to {MIN_CITIES_FOR_COVERAGE} "
                "cities (docs/method.md §7), not below")
    return None
