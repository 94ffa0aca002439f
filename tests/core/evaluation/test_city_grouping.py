"""Issue 28: the cities of a bootstrap table are grouped once, by one sort; the groups, the
counts and the intervals are those of the scan per city that they replace (written out here)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from geofidelity_plugin.core.evaluation.statistics.bootstrap import (city_balanced_bootstrap, city_members,
                                                                     delta_counts)


def _scan_members(cities):
    labels = np.asarray(cities, dtype=object).astype(str)
    return [np.flatnonzero(labels == c) for c in np.unique(labels)]


def _scan_city_counts(data, cities):
    labels = np.asarray(cities, dtype=object).astype(str)
    present = ~np.isnan(data)
    means = []
    for c in np.unique(labels):
        rows = labels == c
        n = present[rows].sum(0)
        total = np.where(present[rows], data[rows], 0).sum(0)
        means.append(np.where(n > 0, total / np.maximum(n, 1), np.nan))
    means = np.stack(means)
    return (~np.isnan(means)).sum(0), (np.nan_to_num(means, nan=0.0) > 0).sum(0)


@pytest.fixture
def table():
    rng = np.random.default_rng(28)
    cities = rng.choice(["Helsinki", "Oslo", "São Paulo", "3", 3, "Zürich", "oslo"], size=400).tolist()
    data = rng.normal(0.02, 1.0, size=(400, 5))
    data[rng.random(data.shape) < 0.2] = np.nan
    data[np.asarray([str(c) == "Zürich" for c in cities]), 2] = np.nan  # one city without a value there
    return data, cities


def test_members_are_the_scans_groups_in_order(table):
    _, cities = table
    got, want = city_members(cities), _scan_members(cities)
    assert len(got) == len(want) == 6  # 3 and "3" are one city, as the text of the label
    for a, b in zip(got, want):
        assert a.tolist() == b.tolist()
    assert sorted(np.concatenate(got).tolist()) == list(range(len(cities)))


def test_city_counts_equal_the_scan(table):
    data, cities = table
    counts = delta_counts(data, cities)
    cities_n, positive = _scan_city_counts(data, cities)
    assert counts["cities"].tolist() == cities_n.tolist()
    assert counts["cities_positive"].tolist() == positive.tolist()
    assert counts["cities"][2] == 5  # the city without values in column 2 is not counted


def test_one_city_and_one_row_per_city():
    assert [m.tolist() for m in city_members(["a"] * 3)] == [[0, 1, 2]]
    assert [m.tolist() for m in city_members(["c", "b", "a"])] == [[2], [1], [0]]


def test_the_bootstrap_resamples_the_same_groups(table):
    """The two-stage bootstrap over the groups: the estimate is the mean of per-city means
    computed here from the scan's groups, and a repeat gives the same interval."""
    data, cities = table
    res = city_balanced_bootstrap(data, cities, n_resamples=300, seed=5)
    again = city_balanced_bootstrap(data, cities, n_resamples=300, seed=5)
    assert np.array_equal(res.low, again.low, equal_nan=True)
    with warnings.catch_warnings():  # a city without a value in a column: its mean is NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        means = np.stack([np.nanmean(data[rows], axis=0) for rows in _scan_members(cities)])
    np.testing.assert_allclose(res.estimate, np.nanmean(means, axis=0), rtol=0, atol=1e-12)
    assert np.all(res.low <= res.estimate) and np.all(res.estimate <= res.high)


def test_table_rows_with_as_many_units_share_one_resampling_and_keep_their_intervals():
    """build_tables bootstraps the rows of a table with as many units in one call (their columns
    side by side): each row's interval must be the one its own call gives."""
    from types import SimpleNamespace

    from geofidelity_plugin.core.evaluation.statistics.bootstrap import bootstrap_mean, cells_for
    from geofidelity_plugin.core.evaluation.statistics.tables import _plain_intervals

    rng = np.random.default_rng(3)
    matrices = [rng.normal(size=(n, k)) for n, k in ((40, 3), (40, 2), (17, 3), (40, 1), (17, 2))]
    matrices[1][rng.random((40, 2)) < 0.2] = np.nan  # a gappy column among full ones
    options = SimpleNamespace(n_bootstrap=300, confidence=0.9, seed=4, max_memory_bytes=lambda: 1 << 20)
    shared = _plain_intervals(matrices, options)
    for matrix, got in zip(matrices, shared):
        alone = bootstrap_mean(matrix, n_resamples=300, confidence=0.9, seed=4, max_cells=cells_for(1 << 20))
        for field in ("estimate", "low", "high"):
            np.testing.assert_allclose(getattr(got, field), getattr(alone, field), rtol=0, atol=1e-12)
        assert np.array_equal(got.n, alone.n) and got.low.shape == (matrix.shape[1],)
    assert not np.allclose(shared[0].low, shared[2].low)  # other units, other draws


@pytest.mark.parametrize("n_units", [301, 4096])
def test_wide_resamples_counted_row_by_row_from_int32_draws_give_the_same_intervals(monkeypatch, n_units):
    """Above _ROW_BY_ROW_UNITS units the draws are int32 and counted a row at a time; the
    intervals must be those of int64 draws counted in one pass."""
    from geofidelity_plugin.core.evaluation.statistics import resampling

    values = np.random.default_rng(8).normal(size=(n_units, 3))
    values[::7, 1] = np.nan
    monkeypatch.setattr(resampling, "_ROW_BY_ROW_UNITS", 10 ** 9)
    flat = resampling.bootstrap_mean(values, n_resamples=200, seed=2)
    monkeypatch.setattr(resampling, "_ROW_BY_ROW_UNITS", 1)
    rows = resampling.bootstrap_mean(values, n_resamples=200, seed=2)
    for field in ("estimate", "low", "high"):
        np.testing.assert_allclose(getattr(rows, field), getattr(flat, field), rtol=0, atol=1e-12)
    assert not np.allclose(rows.low, resampling.bootstrap_mean(values, n_resamples=200, seed=3).low)
