"""Issue 41: the default intervals (method §7) — cities resampled with all their segments, and
Student's t for the number of cities times the resampling's standard error — against oracles written out
resample by resample from the same draws; the Bell–McCaffrey degrees of freedom against the matrix
formula; the segment as the unit (a second model that copies the first adds no information); and
the note a table row carries when its cities are too few for the stated coverage.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import t

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.options import EvaluationOptions
from geofidelity_plugin.core.evaluation.statistics import cluster_bootstrap as cb
from geofidelity_plugin.core.evaluation.statistics.table_intervals import TableItem, table_intervals
from geofidelity_plugin.core.evaluation.statistics.tables import build_tables


def uneven_rows(seed=0, n_cities=7, models=("m1", "m2", "m3"), gap=0.1):
    """Rows of several models per segment, cities of uneven size, a city and a segment effect,
    some values missing: (values (rows × 2), segment of each row, city of each row)."""
    rng = np.random.default_rng(seed)
    sizes = 1 + rng.multinomial(3 * n_cities, rng.dirichlet(np.ones(n_cities)))
    values, segments, cities = [], [], []
    for c, size in enumerate(sizes):
        city_effect = rng.normal(0, 0.3)
        for s in range(size):
            seg_effect = rng.normal(0, 0.2)
            for _ in models:
                values.append(city_effect + seg_effect + rng.standard_t(3, 2))
                segments.append(f"s{s}")           # the same ids in every city: a segment is (city, id)
                cities.append(f"city{c:02d}")
    values = np.array(values)
    values[rng.random(values.shape) < gap] = np.nan
    return values, segments, cities


def plain_icc(y, city):
    """One-way ANOVA intra-class correlation of the segment means, kept within [−1/(n − 1), 1]
    (n: the most segments of a city)."""
    groups = {}
    for v, c in zip(y, city):
        groups.setdefault(c, []).append(v)
    n = sum(len(g) for g in groups.values())
    k = len(groups)
    if n - k <= 0:
        return 1.0
    grand = np.mean(y)
    msb = sum(len(g) * (np.mean(g) - grand) ** 2 for g in groups.values()) / (k - 1)
    msw = sum(sum((v - np.mean(g)) ** 2 for v in g) for g in groups.values()) / (n - k)
    n0 = (n - sum(len(g) ** 2 for g in groups.values()) / n) / (k - 1)
    largest = max(len(g) for g in groups.values())
    return float(np.clip((msb - msw) / (msb + (n0 - 1) * msw), -1 / (largest - 1) if largest > 1 else 0, 1))


def matrix_dof(weights, city, rho):
    """Bell–McCaffrey: (tr B)² / tr(B²), B = Qᵀ Ω Q, with Q's column g = (ℓ_g − P_g ℓ)/√(1 − P_g)
    and Ω the working model's correlation of the segment means (ρ within a city)."""
    ell = np.asarray(weights, float) / np.sum(weights)
    city = np.asarray(city)
    names = sorted(set(city.tolist()))
    cols = []
    for g in names:
        ell_g = np.where(city == g, ell, 0.0)
        cols.append((ell_g - ell_g.sum() * ell) / np.sqrt(1 - ell_g.sum()))
    q = np.column_stack(cols)
    omega = (1 - rho) * np.eye(len(ell)) + rho * (city[:, None] == city[None, :])
    b = q.T @ omega @ q
    return np.trace(b) ** 2 / np.sum(b * b)


def oracle(values, segments, cities, n_resamples, seed, confidence=0.95):
    """The default intervals of one column, resample by resample: the cities drawn in one stream
    (sorted by name), each drawn city's rows all taken; the pooled mean and the mean of the drawn
    cities' means; each estimate ± t · SE, SE the standard deviation of its resampled values (pooled:
    t at the Bell–McCaffrey ν of the segment means; city-balanced: t at G − 1, times √(G/(G − 1))),
    cut to the range of the values."""
    keep = ~np.isnan(values)
    values, segments, cities = values[keep], np.asarray(segments)[keep], np.asarray(cities)[keep]
    names = sorted(set(cities.tolist()))
    rows = [values[cities == c] for c in names]
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, len(names), size=(n_resamples, len(names)))
    pooled = [np.concatenate([rows[c] for c in d]).mean() for d in drawn]
    balanced = [np.mean([rows[c].mean() for c in d]) for d in drawn]
    q = 0.5 + confidence / 2
    seg_keys = list(dict.fromkeys(zip(cities.tolist(), segments.tolist())))
    seg_vals = [values[(cities == c) & (segments == s)] for c, s in seg_keys]
    seg_city = [c for c, _ in seg_keys]
    rho = plain_icc([v.mean() for v in seg_vals], seg_city)
    nu = matrix_dof([len(v) for v in seg_vals], seg_city, rho)
    g = len(names)
    out = {}
    for name, stats, estimate, factor in (
            ("pooled", pooled, values.mean(), t.ppf(q, nu)),
            ("city", balanced, np.mean([r.mean() for r in rows]), t.ppf(q, g - 1) * np.sqrt(g / (g - 1)))):
        se = np.std(stats, ddof=1)  # the interval cut to the values' range, which no mean can leave
        out[name] = (estimate, max(estimate - factor * se, values.min()), min(estimate + factor * se, values.max()))
    return out, nu, rho


@pytest.mark.parametrize("seed,n_cities", [(0, 7), (1, 4), (2, 12)])
def test_default_intervals_equal_a_loop_over_the_same_draws(seed, n_cities):
    values, segments, cities = uneven_rows(seed, n_cities)
    found = cb.cluster_intervals([cb.cluster_item(values, segments, cities)], n_resamples=700, seed=seed + 5,
                                 confidence=0.9)[0]
    for j in range(values.shape[1]):
        expected, nu, _ = oracle(values[:, j], segments, cities, 700, seed + 5, confidence=0.9)
        assert found.dof[j] == pytest.approx(nu, rel=1e-10)
        for name, result in (("pooled", found.pooled), ("city", found.city)):
            estimate, low, high = expected[name]
            assert result.estimate[j] == pytest.approx(estimate, abs=1e-12), name
            assert result.low[j] == pytest.approx(low, abs=1e-12), name
            assert result.high[j] == pytest.approx(high, abs=1e-12), name
        assert found.cities[j] == n_cities


@pytest.mark.parametrize("rho", [0.0, 0.35, 1.0])
def test_degrees_of_freedom_in_sums_equal_the_matrix_formula(rho):
    values, segments, cities = uneven_rows(3, 9)
    item = cb.cluster_item(values, segments, cities)
    dof = cb.pooled_dof(item, np.full(values.shape[1], rho))
    for j in range(values.shape[1]):
        counts = item.segment_counts[:, j]
        keep = counts > 0
        expected = matrix_dof(counts[keep], item.segment_city[keep], rho)
        assert dof[j] == pytest.approx(expected, rel=1e-10)
        assert 1 <= dof[j] <= 8 + 1e-9  # at most G − 1


def test_intra_city_correlation_equals_a_plain_anova():
    values, segments, cities = uneven_rows(4, 8)
    item = cb.cluster_item(values, segments, cities)
    rho = cb.intra_city_correlation(item)
    for j in range(values.shape[1]):
        keep = item.segment_counts[:, j] > 0
        means = item.segment_sums[keep, j] / item.segment_counts[keep, j]
        assert rho[j] == pytest.approx(plain_icc(means, item.segment_city[keep]), abs=1e-12)


def test_the_segment_is_the_unit_a_copied_model_adds_nothing():
    """A second model whose rows copy the first's: the rows of a segment are resampled together,
    so the default interval does not move, where the paper's (rows as units) narrows by about √2."""
    values, segments, cities = uneven_rows(6, 10, models=("m1",), gap=0.0)
    twice = (np.vstack([values, values]), segments + segments, cities + cities)
    options = EvaluationOptions(n_bootstrap=2000, seed=1)
    once, copied = table_intervals([TableItem(values, segments, cities), TableItem(*twice)], options)
    np.testing.assert_allclose(copied.pooled.low, once.pooled.low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(copied.pooled.high, once.pooled.high, rtol=0, atol=1e-12)
    paper = EvaluationOptions(n_bootstrap=2000, seed=1, bootstrap_unit="model-segment")
    p_once, p_copied = table_intervals([TableItem(values, segments, cities), TableItem(*twice)], paper)
    ratio = (p_copied.pooled.high - p_copied.pooled.low) / (p_once.pooled.high - p_once.pooled.low)
    assert np.all(ratio < 0.8)


def _rows(n_cities, per_city=3):
    rng = np.random.default_rng(n_cities)
    rows = []
    for c in range(n_cities):
        for s in range(per_city):
            for condition in ("L0", "L1"):
                rows.append({"model": "m", "condition": condition, "segment_id": f"c{c}s{s}", "city": f"c{c}",
                             "country_code": "XX", "is_anchor": False, "cos_sim": rng.normal(0.5, 0.1) +
                             (0.05 if condition == "L1" else 0.0), "top1": float(rng.random() < 0.5)})
    return rows


def test_rows_say_their_unit_and_when_cities_are_too_few():
    few = build_tables(_rows(4), EvaluationOptions(n_bootstrap=200))
    enough = build_tables(_rows(cb.MIN_CITIES_FOR_COVERAGE), EvaluationOptions(n_bootstrap=200))
    for name in ("by_condition", "by_model_L1", "deltas", "city_balanced"):
        assert all(r["bootstrap_unit"] == "city" for r in few[name]), name
        assert all("only 4 cities" in r["interval_note"] for r in few[name] if r.get("matched_pairs", 1)), name
        assert not any(r.get("interval_note") for r in enough[name]), name
    paper = build_tables(_rows(4), EvaluationOptions(n_bootstrap=200, bootstrap_unit="model-segment"))
    assert all(r["bootstrap_unit"] == "model-segment" and "interval_note" not in r for r in paper["deltas"])


def test_an_interval_stays_within_the_range_of_its_values():
    """A rate near 1 over few cities: Student's interval would pass 1; it is cut at the largest value."""
    hits = np.array([1.0] * 9 + [0.0])
    found = table_intervals([TableItem(hits, [f"s{i}" for i in range(10)], [f"c{i % 3}" for i in range(10)],
                                       balanced=True)], EvaluationOptions(n_bootstrap=500))[0]
    for result in (found.pooled, found.balanced):
        assert result.high == 1.0 and 0.0 <= result.low < result.estimate


def test_one_city_resamples_its_segments_and_says_so():
    """The demo's single city: its segments are the clusters (each with all its rows); the interval
    speaks for that city only, and every row says so. A column with values in one city of several
    has no interval."""
    rows = _rows(1, per_city=12)
    one = build_tables(rows, EvaluationOptions(n_bootstrap=400, seed=2))
    row = next(r for r in one["deltas"] if r["metric"] == "cos_sim")
    assert row["low"] < row["mean"] < row["high"] and (row["city_low"], row["city_high"]) == (row["low"], row["high"])
    assert "speaks for this city only" in row["interval_note"] and row["cities"] == 1
    by_segment = [dict(r, city=r["segment_id"]) for r in rows]  # each segment a city of its own
    alone = build_tables(by_segment, EvaluationOptions(n_bootstrap=400, seed=2))
    other = next(r for r in alone["deltas"] if r["metric"] == "cos_sim")
    assert (other["low"], other["high"]) == pytest.approx((row["low"], row["high"]), abs=1e-12)
    values = np.array([[1.0, np.nan], [2.0, np.nan], [1.5, 0.3], [2.5, 0.4]])
    found = table_intervals([TableItem(values, ["a", "b", "c", "d"], ["x", "x", "y", "y"])],
                            EvaluationOptions(n_bootstrap=100))[0]
    assert np.isnan(found.pooled.low[1]) and "values in 1 city only" in found.note(1)
def test_unknown_unit_or_pairing_is_refused_naming_the_option():
    for field, flag in (("bootstrap_unit", "--bootstrap-unit"), ("pairing", "--pairing")):
        with pytest.raises(InputError, match=flag):
            EvaluationOptions(**{field: "segments"}).validate()
