"""Issue 28: the bootstraps of the tables, written out resample by resample from the same draws
(oracles), against the vectorised code — to 1e-12, the rounding method §7 allows.

- The city-balanced bootstrap (two stages, city by city, slot counts summed into resamples) and
  its joint form (several tables over the same cities resampled once) give each table the
  interval of a plain loop over the very draws one call makes.
- The plain bootstrap (int32 draws, rows counted one at a time, equal columns multiplied once)
  gives the interval of a loop that takes each resample's units by index.
"""
from __future__ import annotations

import numpy as np
import pytest

from geofidelity_plugin.core.evaluation.statistics import city_bootstrap, resampling
from geofidelity_plugin.core.evaluation.statistics.bootstrap import bootstrap_mean
from geofidelity_plugin.core.evaluation.statistics.city_bootstrap import (city_balanced_bootstrap,
                                                                          city_balanced_intervals)


def _nanmean(values: np.ndarray) -> np.ndarray:
    """Column means over the rows with a value; NaN where none has one."""
    present = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(present.any(axis=0), np.where(present, values, 0.0).sum(axis=0) / present.sum(axis=0),
                        np.nan)


def loop_two_stage(values, cities, n_resamples, seed, block, weighting="city"):
    """method §7 two-stage bootstrap, one resample at a time, from the draws the code makes: per
    block of resamples, the cities of every resample, then, city by city (sorted by name), the
    units of each of its slots in resample order. City weighting: per column, the mean over the
    resample's slots with a value of each slot's mean; target weighting: the mean of all values
    drawn."""
    labels = [str(c) for c in cities]
    names = sorted(set(labels))
    members = [np.array([i for i, c in enumerate(labels) if c == name]) for name in names]
    rng = np.random.default_rng(seed)
    stats = []
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        drawn = rng.integers(0, len(names), size=(size, len(names)))
        slots = [[] for _ in range(size)]
        for c, units in enumerate(members):
            owners = [r for r in range(size) for _ in range(int((drawn[r] == c).sum()))]
            draws = rng.integers(0, len(units), size=(len(owners), len(units)))
            for r, d in zip(owners, draws):
                slots[r].append(units[d])
        for r in range(size):
            if weighting == "city":
                stats.append(_nanmean(np.stack([_nanmean(values[u]) for u in slots[r]])))
            else:
                stats.append(_nanmean(values[np.concatenate(slots[r])]))
    stats = np.array(stats)
    low = [np.percentile(col[~np.isnan(col)], 2.5) if (~np.isnan(col)).any() else np.nan for col in stats.T]
    high = [np.percentile(col[~np.isnan(col)], 97.5) if (~np.isnan(col)).any() else np.nan for col in stats.T]
    return np.array(low), np.array(high)


@pytest.fixture
def tables():
    """Four tables over the same 60 units in 7 cities (two with the same gaps, one with a column no
    unit has), and one over other cities."""
    rng = np.random.default_rng(28)
    cities = rng.choice(["Oslo", "Lima", "Pune", "Kyiv", "Baku", "Doha", "Riga"], size=60).tolist()
    a = rng.normal(0.1, 1.0, size=(60, 3))
    b = rng.normal(-0.2, 1.0, size=(60, 2))
    b[rng.random((60, 2)) < 0.3] = np.nan
    b[[i for i, c in enumerate(cities) if c == "Pune"], 0] = np.nan  # a city without a value
    c = np.column_stack([rng.normal(size=60), np.full(60, np.nan)])
    other = rng.normal(size=(60, 2))
    other_cities = rng.choice(["Oslo", "Lima", "Pune"], size=60).tolist()
    return [(a, cities), (b, cities), (c, cities), (other, other_cities), (3.0 * b[:, ::-1], cities)]


@pytest.mark.parametrize("weighting", ["city", "target"])
def test_joint_city_balanced_intervals_equal_a_loop_over_the_same_draws(tables, monkeypatch, weighting):
    monkeypatch.setattr(city_bootstrap, "_CELLS_PER_CITY_CHUNK", 1)  # blocks of half the resamples
    monkeypatch.setattr(city_bootstrap, "_CITY_DRAW_CELLS", 50)  # cities drawn 7 resamples at a time
    calls = []
    resampled = city_bootstrap._resampled
    monkeypatch.setattr(city_bootstrap, "_resampled", lambda data, *a: calls.append(data.shape) or resampled(data, *a))
    results = city_balanced_intervals(tables, n_resamples=240, seed=7, weighting=weighting)
    assert sorted(calls) == [(60, 2), (60, 9)]  # the four tables over the same cities: one resampling
    for (values, cities), got in zip(tables, results):
        low, high = loop_two_stage(values, cities, 240, 7, block=120, weighting=weighting)
        np.testing.assert_allclose(got.low, low, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.high, high, rtol=0, atol=1e-12)
        alone = city_balanced_bootstrap(values, cities, n_resamples=240, seed=7, weighting=weighting)
        np.testing.assert_array_equal(alone.n, got.n)
        np.testing.assert_allclose(alone.estimate, got.estimate, rtol=0, atol=1e-12)
    assert np.isnan(results[2].low[1]) and not np.isnan(results[1].low[0])


def test_joint_city_balanced_keeps_each_tables_own_blocks(tables):
    """A table whose gaps give it other blocks of resamples draws other numbers: it is resampled
    on its own, never with a table it would change."""
    (a, cities), (b, _), *_ = tables
    wide = np.hstack([b] * 40)  # 80 gappy columns: blocks of 2,000 resamples where a has one block
    blocks = [city_bootstrap._plan(values, cities, 4000, "city")[3] for values in (a, wide)]
    assert blocks[0] >= 4000 > blocks[1]
    joint = city_balanced_intervals([(a, cities), (wide, cities)], n_resamples=4000, seed=1)
    for values, got in zip((a, wide), joint):
        alone = city_balanced_bootstrap(values, cities, n_resamples=4000, seed=1)
        np.testing.assert_allclose(got.low, alone.low, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.high, alone.high, rtol=0, atol=1e-12)


def loop_plain(values, n_resamples, seed):
    """method §7 plain bootstrap, one resample at a time: the units drawn in one stream, row by row."""
    draws = np.random.default_rng(seed).integers(0, len(values), size=(n_resamples, len(values)))
    stats = np.array([_nanmean(values[d]) for d in draws])
    return np.percentile(stats, 2.5, axis=0), np.percentile(stats, 97.5, axis=0)


@pytest.mark.parametrize("n_units", [300, 4100])
def test_plain_bootstrap_with_repeated_columns_equals_a_loop(n_units, monkeypatch):
    """Equal columns (a copy, a metric no unit has, gaps that repeat) are multiplied once; int32
    draws and wide rows counted one at a time; chunks of 64 resamples or more."""
    monkeypatch.setattr(resampling, "_CACHE_CELLS", 1)  # the fewest resamples a chunk may hold
    rng = np.random.default_rng(5)
    x = rng.normal(size=(n_units, 2))
    x[::3, 1] = np.nan
    values = np.column_stack([x, x[:, 0], np.zeros(n_units), np.where(np.isnan(x[:, 1]), np.nan, 2.0)])
    values = np.column_stack([values, np.full(n_units, np.nan)])
    present = ~np.isnan(values)
    distinct, source = resampling.distinct_columns([values], present, np.flatnonzero(~present.all(axis=0)))
    # the product: 6 values (0 where missing), then the presence of columns 1, 4 and 5; the copy of
    # column 0, the zeros of columns 3 and 5 and of the presence of 5, and 4's presence (1's) merged
    assert source.tolist() == [0, 1, 0, 2, 3, 2, 4, 4, 2] and distinct.shape == (n_units, 5)
    monkeypatch.setattr(resampling, "_ROWS_PER_BLOCK", 1000)  # columns compared block by block
    got = bootstrap_mean(values, n_resamples=150, seed=3)
    low, high = loop_plain(values[:, :5], 150, seed=3)
    np.testing.assert_allclose(got.low[:5], low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.high[:5], high, rtol=0, atol=1e-12)
    assert np.isnan(got.low[5]) and got.n[5] == 0
    assert got.low[0] == got.low[2]


def test_columns_with_one_digest_that_differ_are_all_kept(monkeypatch):
    """Columns are merged only when they are equal: were two digests to collide, every column is
    multiplied and the intervals stay the same."""
    values = np.random.default_rng(2).normal(size=(500, 3))
    values[::4, 2] = np.nan
    expected = bootstrap_mean(values, n_resamples=200, seed=9)

    class Collide:
        def __init__(self, digest_size):
            pass

        def update(self, data):
            pass

        def digest(self):
            return b"same"

    monkeypatch.setattr(resampling.hashlib, "blake2b", Collide)
    distinct, source = resampling.distinct_columns([values], ~np.isnan(values), np.array([2]))
    assert source.tolist() == [0, 1, 2, 3] and distinct.shape == (500, 4)
    got = bootstrap_mean(values, n_resamples=200, seed=9)
    np.testing.assert_allclose(got.low, expected.low, rtol=0, atol=1e-12)
