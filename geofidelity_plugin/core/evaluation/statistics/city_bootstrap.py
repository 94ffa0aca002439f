"""method §7 city-balanced bootstrap: cities with replacement, then each drawn city's units with
replacement.

Its blocks of resamples depend only on the data (its shape and which values are missing), never
on the memory or the machine, and each block is worked city by city in bounded memory; so a seed
gives the same interval everywhere (method §7 "Chunks and memory"). The draws of a seed depend on
the cities' sizes, in order, and on those blocks only, not on the values: tables whose rows cover
the same units (the paired deltas and the per-condition summaries of one run: the same (model,
segment) units in the same order) are resampled once, their columns side by side
(:func:`city_balanced_intervals`), and each still gets the interval its own call gives.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from geofidelity_plugin.core.evaluation.statistics.resampling import (BOOTSTRAP_SEED, CONFIDENCE, N_RESAMPLES, BootstrapResult, _check_options, _columns, _count_matrix, _finish, _ratio, draw_type)

_CELLS_PER_CITY_CHUNK = 1 << 21
_MAX_CITY_CHUNKS = 2
_CITY_DRAW_CELLS = 1 << 20       # first-stage draws counted at a time
_ONE_THREAD_MACS = 1 << 18


def city_members(cities: Sequence[Any]) -> list[np.ndarray]:
    """The row indices of each city, in ascending order, the cities sorted by name (as text):
    grouped once — the names coded by hashing, then one sort of the codes — linear in the rows,
    where a scan per city grew with rows × cities (and a sort of the text took four times as long)."""
    lookup: dict[str, int] = {}
    labels = np.asarray(cities, dtype=object).reshape(-1).tolist()
    codes = np.fromiter((lookup.setdefault(str(c), len(lookup)) for c in labels), dtype=np.int64, count=len(labels))
    if codes.size == 0:
        return []
    names = list(lookup)
    rank = np.empty(len(names), dtype=np.int64)
    rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    city_of = rank[codes]
    order = np.argsort(city_of, kind="stable")  # stable: each city's rows keep their order
    return np.split(order, np.flatnonzero(np.diff(city_of[order])) + 1)


def city_totals(values: np.ndarray, members: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per city and column (``values``: units × columns): the sum of the values that are not NaN
    and how many there are.

    The sums add each city's rows in order, one step per row position for all cities at once —
    the order a sum over a city's rows takes (for several columns), so a mean exactly 0 stays 0
    and the counts of cities with a positive mean (method §7) do not move; where a loop over the
    cities took 2,500 steps per 100× table, this takes as many as the largest city has rows."""
    present = ~np.isnan(values)
    filled = np.where(present, values, 0.0)
    sizes = np.array([len(u) for u in members])
    order, first = np.concatenate(members), np.cumsum(sizes) - sizes
    sums = np.zeros((len(members), values.shape[1]))
    counts = np.zeros((len(members), values.shape[1]), dtype=np.int64)
    for position in range(int(sizes.max(initial=0))):
        rows = np.flatnonzero(sizes > position)
        unit = order[first[rows] + position]
        sums[rows] += filled[unit]
        counts[rows] += present[unit]
    return sums, counts


def _by_resample(rows: np.ndarray, first: np.ndarray, slots: np.ndarray) -> np.ndarray:
    """The sum of each drawn resample's ``slots`` consecutive rows, starting at ``first``: one
    step per slot rank (a city is rarely drawn more than 6 times into one resample), where
    ``np.add.reduceat`` took three to five times as long on these short groups."""
    out = rows[first]
    more = np.flatnonzero(slots > 1)
    rank = 1
    while more.size:
        out[more] += rows[first[more] + rank]
        rank += 1
        more = more[slots[more] > rank]
    return out


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` in blocks of rows that OpenBLAS multiplies on one thread (fewer than 2¹⁸
    multiply-adds): a city's product is small, and two threads spent longer waiting for each other
    than multiplying — on a busy machine, five times longer."""
    step = max(1, _ONE_THREAD_MACS // max(1, a.shape[1] * b.shape[1]))
    if a.shape[0] <= step:
        return a @ b
    out = np.empty((a.shape[0], b.shape[1]))
    for start in range(0, a.shape[0], step):
        np.matmul(a[start:start + step], b, out=out[start:start + step])
    return out


def _times_drawn(rng: np.random.Generator, size: int, n_cities: int) -> np.ndarray:
    """The first stage of ``size`` resamples: how often each city is drawn into each, as
    (cities, resamples). The cities are drawn resample after resample in one stream, counted a
    block of resamples at a time (the stream, hence the draws, is the same in any blocks)."""
    times = np.empty((n_cities, size), dtype=np.int32)
    step = max(1, _CITY_DRAW_CELLS // n_cities)
    for start in range(0, size, step):
        rows = min(step, size - start)
        drawn = rng.integers(0, n_cities, size=(rows, n_cities), dtype=draw_type(n_cities))
        times[:, start:start + rows] = np.bincount((drawn * np.int64(rows) + np.arange(rows)[:, None]).ravel(),
                                                   minlength=n_cities * rows).reshape(n_cities, rows)
    return times


def _two_stage_chunk(rng: np.random.Generator, size: int, starts: np.ndarray, product: np.ndarray,
                     gappy_values: np.ndarray, pattern: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``size`` two-stage resamples (cities, then units within each drawn city) → the sums of
    ``product``'s columns over each resample's draws, and its gappy slot means (below).

    The rows of ``product`` and ``gappy_values`` are in city order (city c: rows
    ``starts[c]:starts[c + 1]``). A *slot* is one drawn city in one resample; a city's slots come
    ordered by resample. City by city, the units drawn into each slot are counted, the slots'
    counts summed into their resamples, and those counts times the city's rows added to the
    resamples' sums, so the memory is one city's, whatever the data size. Under city weighting a
    column with missing values averages only the slots that hold a value: its slot means are
    formed from the same slot counts and summed into their resamples. ``gappy_values``: the
    values of those columns, then each distinct pattern of presence (column j's is
    ``pattern[j]``: a margin's gaps follow the segment's gallery, so the deltas of every pair of
    conditions share them); the returned gappy sums hold the slot means, then per pattern the
    slots with a value.
    """
    n_cities, g = len(starts) - 1, len(pattern)
    times_drawn = _times_drawn(rng, size, n_cities)
    total = np.zeros((size, product.shape[1]))
    gappy_total = np.zeros((size, gappy_values.shape[1]))
    for c in range(n_cities):
        drawn = np.flatnonzero(times_drawn[c])
        if drawn.size == 0:
            continue
        lo, hi = starts[c], starts[c + 1]
        slots = times_drawn[c, drawn]
        first = np.cumsum(slots) - slots  # each drawn resample's first slot
        draws = rng.integers(0, hi - lo, size=(int(slots.sum()), hi - lo), dtype=draw_type(hi - lo))
        per_slot = _count_matrix(draws, hi - lo)
        total[drawn] += _product(_by_resample(per_slot, first, slots), product[lo:hi])
        if g:
            slot = _product(per_slot, gappy_values[lo:hi])  # per slot: the values' sums, then their counts
            slot[:, :g] /= np.maximum(slot[:, g:], 1.0)[:, pattern]  # a slot without a value keeps its 0
            np.minimum(slot[:, g:], 1.0, out=slot[:, g:])  # 1 for a slot with a value
            gappy_total[drawn] += _by_resample(slot, first, slots)
    return total, gappy_total


def _plan(values, cities, n_resamples: int, weighting: str) -> tuple[np.ndarray, bool, list, int]:
    """(values as units × columns, whether 1-D, the cities' members, resamples per block)."""
    data, one_d = _columns(values)
    labels = np.asarray(cities, dtype=object)
    if labels.shape != (data.shape[0],):
        raise ValueError(f"give one city per unit: {data.shape[0]} units, {labels.size} cities.")
    members = city_members(labels)
    gappy = int(np.isnan(data).any(axis=0).sum()) if weighting == "city" else 0
    chunk = max(1, _CELLS_PER_CITY_CHUNK // max(len(members) * (1 + 2 * gappy), data.shape[0], data.shape[1]))
    # A block loops over the cities: at most _MAX_CITY_CHUNKS blocks keep blocks × cities linear
    # in the data (a block's memory: its (resamples × cities) counts and one city's). The rule
    # reads the data only, never --max-memory; small tables keep their blocks and intervals.
    chunk = max(chunk, -(-int(n_resamples) // _MAX_CITY_CHUNKS))
    return data, one_d, members, chunk


def _resampled(data: np.ndarray, members: list[np.ndarray], chunk: int, n_resamples: int, seed: int,
               by_city: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(resampled statistics (n_resamples × columns), estimates, units with a value)."""
    n_cities, k = len(members), data.shape[1]
    order = np.concatenate(members)
    sizes = np.array([len(u) for u in members])
    starts = np.r_[0, np.cumsum(sizes)]
    present = ~np.isnan(data)
    filled, weight = np.where(present, data, 0.0)[order], present[order].astype(np.float64)
    gappy = np.flatnonzero(~present.all(axis=0)) if by_city else np.empty(0, dtype=np.int64)
    solid = np.setdiff1d(np.arange(k), gappy)
    # Row-major (C order), as a city's rows were: taking columns by index gives a column-major
    # array, whose products the BLAS sums in another order (1e-16 apart).
    if by_city:  # a unit's value over its city's size and the number of cities
        product = np.ascontiguousarray(filled[:, solid] / np.repeat(sizes * n_cities, sizes)[:, None])
    else:
        product = np.hstack([filled, weight])
    patterns: dict[bytes, int] = {}
    pattern = np.array([patterns.setdefault(weight[:, j].tobytes(), len(patterns)) for j in gappy], dtype=np.int64)
    _, first_of = np.unique(pattern, return_index=True)
    gappy_values = np.ascontiguousarray(np.hstack([filled[:, gappy], weight[:, gappy[first_of]]]))
    rng = np.random.default_rng(seed)
    stats = np.empty((n_resamples, k))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        total, gappy_total = _two_stage_chunk(rng, size, starts, product, gappy_values, pattern)
        block = stats[start:start + size]
        if not by_city:
            block[:] = _ratio(total[:, :k], total[:, k:])
            continue
        block[:, solid] = total
        block[:, gappy] = _ratio(gappy_total[:, :gappy.size], gappy_total[:, gappy.size:][:, pattern])
    n = present.sum(axis=0)
    if by_city:
        sums, counts = city_totals(data, members)
        city_means = _ratio(sums, counts)
        has = ~np.isnan(city_means)
        estimate = _ratio(np.where(has, city_means, 0.0).sum(axis=0), has.sum(axis=0))
    else:
        estimate = _ratio(np.where(present, data, 0.0).sum(axis=0), n)
    return stats, estimate, n


def city_balanced_intervals(items: Sequence[tuple[Any, Sequence[Any]]], *, n_resamples: int = N_RESAMPLES,
                            confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED,
                            weighting: str = "city") -> list[BootstrapResult]:
    """:func:`city_balanced_bootstrap` of each ``(values, cities)``, the items whose draws are the
    same (the same cities of the same sizes, the units in the same order, the same blocks of
    resamples) resampled once, their columns side by side: each result is its own call's."""
    _check_options(n_resamples, confidence)
    if weighting not in ("city", "target"):
        raise ValueError(f"weighting must be 'city' or 'target', got {weighting!r}.")
    plans = [_plan(values, cities, n_resamples, weighting) for values, cities in items]
    groups: dict[tuple, list[int]] = {}
    for i, (data, _, members, chunk) in enumerate(plans):
        sizes = np.array([len(u) for u in members])
        blocks = min(chunk, int(n_resamples))  # blocks past the resamples are all one block
        groups.setdefault((blocks, sizes.tobytes(), np.concatenate(members).tobytes()), []).append(i)
    results: list = [None] * len(plans)
    method = f"city_balanced_percentile[{weighting}]"
    for chosen in groups.values():
        _, _, members, chunk = plans[chosen[0]]
        stats, estimate, n = _resampled(np.hstack([plans[i][0] for i in chosen]), members, chunk,
                                        int(n_resamples), seed, weighting == "city")
        start = 0
        for i in chosen:
            part = slice(start, start + plans[i][0].shape[1])
            start = part.stop
            results[i] = _finish(stats[:, part], estimate[part], n[part], plans[i][1], n_resamples,
                                 confidence, seed, method)
    return results


def city_balanced_bootstrap(values, cities: Sequence[Any], *, n_resamples: int = N_RESAMPLES,
                            confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED,
                            weighting: str = "city") -> BootstrapResult:
    """method §7 city-balanced summary: resample cities, then targets within each drawn city.

    ``weighting="city"`` (default): the statistic is the mean of the per-city means, so every
    city weighs the same (the estimate too). ``weighting="target"``: the pooled mean of all
    targets drawn in the two stages.
    """
    return city_balanced_intervals([(values, cities)], n_resamples=n_resamples, confidence=confidence,
                                   seed=seed, weighting=weighting)[0]
