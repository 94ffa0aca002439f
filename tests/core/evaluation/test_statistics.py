"""method §7 statistics against scipy and against plain loops written out here."""
import numpy as np
import pytest
from scipy import stats as sps

from geofidelity_plugin.core.evaluation.statistics import bootstrap as st


@pytest.fixture
def paired_rows():
    """Two conditions per (model, segment); L1 is L0 + 0.3 + noise, on a unit scale."""
    rng = np.random.default_rng(31)
    rows = []
    for model in ("a", "b"):
        for s in range(60):
            base = rng.normal(0.5, 0.3)
            city = f"city{s % 7}"
            for condition, value in (("L0", base), ("L1", base + 0.3 + rng.normal(0, 0.5))):
                rows.append({"model": model, "segment_id": f"s{s}", "city": city,
                             "condition": condition, "cos_sim": value})
    return rows


def test_bootstrap_mean_agrees_with_scipy_percentile():
    x = np.random.default_rng(1).normal(0.2, 1.0, 150)
    ours = st.bootstrap_mean(x, n_resamples=10000, seed=5)
    ref = sps.bootstrap((x,), np.mean, n_resamples=10000, method="percentile",
                        confidence_level=0.95, random_state=np.random.default_rng(6))
    assert ours.estimate == pytest.approx(x.mean())
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=0.015)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=0.015)
    assert ours.n == 150 and ours.n_resamples == 10000 and ours.seed == 5


def test_paired_bootstrap_agrees_with_scipy_paired(paired_rows):
    summary = st.paired_bootstrap(paired_rows, "cos_sim", "condition", "L0", "L1", seed=2)
    l0 = {(r["model"], r["segment_id"]): r["cos_sim"] for r in paired_rows
          if r["condition"] == "L0"}
    l1 = {(r["model"], r["segment_id"]): r["cos_sim"] for r in paired_rows
          if r["condition"] == "L1"}
    keys = sorted(l0)
    x, y = np.array([l0[k] for k in keys]), np.array([l1[k] for k in keys])
    ref = sps.bootstrap((x, y), lambda a, b: np.mean(b - a), paired=True, vectorized=False,
                        n_resamples=5000, method="percentile",
                        random_state=np.random.default_rng(3))
    assert summary.interval.estimate == pytest.approx(np.mean(y - x))
    assert summary.interval.low == pytest.approx(ref.confidence_interval.low, abs=0.02)
    assert summary.interval.high == pytest.approx(ref.confidence_interval.high, abs=0.02)
    assert summary.counts["matched_pairs"] == 120
    assert summary.counts["positive_pairs"] == int(np.sum(y - x > 0))


def test_bootstrap_is_seeded():
    x = np.random.default_rng(2).random(40)
    a = st.bootstrap_mean(x, n_resamples=2000, seed=7)
    assert a == st.bootstrap_mean(x, n_resamples=2000, seed=7)
    b = st.bootstrap_mean(x, n_resamples=2000, seed=8)
    assert (a.low, a.high) != (b.low, b.high)
    cities = [f"c{i % 5}" for i in range(40)]
    c = st.city_balanced_bootstrap(x, cities, n_resamples=2000, seed=7)
    assert c == st.city_balanced_bootstrap(x, cities, n_resamples=2000, seed=7)
    d = st.city_balanced_bootstrap(x, cities, n_resamples=2000, seed=8)
    assert (c.low, c.high) != (d.low, d.high)


def test_columns_share_resamples_and_skip_missing_values():
    rng = np.random.default_rng(4)
    x = rng.random((50, 3))
    joint = st.bootstrap_mean(x, n_resamples=3000, seed=1)
    alone = st.bootstrap_mean(x[:, 1], n_resamples=3000, seed=1)
    # the same resamples drive every column; a 1-column and a 3-column mean reduce in different
    # orders on different BLAS kernels, so they agree to 1e-12, not to the last bit
    assert joint.low[1] == pytest.approx(alone.low, rel=0, abs=1e-12)
    assert joint.high[1] == pytest.approx(alone.high, rel=0, abs=1e-12)
    x[::4, 2] = np.nan
    gappy = st.bootstrap_mean(x, n_resamples=3000, seed=1)
    assert gappy.n.tolist() == [50, 50, 37]
    assert gappy.estimate[2] == pytest.approx(np.nanmean(x[:, 2]))
    assert gappy.low[2] < gappy.estimate[2] < gappy.high[2]


def city_balanced_loop(values, cities, n_resamples, seed):
    """Two-stage resampling written plainly: draw cities, then units within each drawn city."""
    rng = np.random.default_rng(seed)
    names = sorted(set(cities))
    members = {c: [v for v, city in zip(values, cities) if city == c] for c in names}
    stats = []
    for _ in range(n_resamples):
        city_means = []
        for c in rng.choice(names, size=len(names)):
            units = members[c]
            city_means.append(np.mean([units[i] for i in rng.integers(0, len(units), len(units))]))
        stats.append(np.mean(city_means))
    return np.percentile(stats, [2.5, 97.5])


def test_city_balanced_agrees_with_plain_loop():
    rng = np.random.default_rng(9)
    cities = [f"c{i}" for i in rng.integers(0, 6, 45)]
    offset = {c: rng.normal(0, 0.3) for c in set(cities)}
    values = np.array([0.5 + offset[c] + rng.normal(0, 0.2) for c in cities])
    ours = st.city_balanced_bootstrap(values, cities, n_resamples=5000, seed=1)
    low, high = city_balanced_loop(values, cities, 5000, seed=2)
    city_means = [values[[c == name for c in cities]].mean() for name in sorted(set(cities))]
    assert ours.estimate == pytest.approx(np.mean(city_means))
    assert ours.low == pytest.approx(low, abs=0.02)
    assert ours.high == pytest.approx(high, abs=0.02)


def test_city_balanced_with_one_unit_per_city_is_the_plain_bootstrap():
    x = np.random.default_rng(10).random(60)
    cities = [f"c{i}" for i in range(60)]
    two_stage = st.city_balanced_bootstrap(x, cities, n_resamples=5000, seed=3)
    plain = st.bootstrap_mean(x, n_resamples=5000, seed=4)
    assert two_stage.estimate == pytest.approx(plain.estimate)
    assert two_stage.low == pytest.approx(plain.low, abs=0.01)
    assert two_stage.high == pytest.approx(plain.high, abs=0.01)


def test_city_balanced_weighting_and_missing_values():
    values = np.array([[1.0, 1.0], [3.0, np.nan], [10.0, 10.0]])
    cities = ["a", "a", "b"]
    by_city = st.city_balanced_bootstrap(values, cities, n_resamples=500, seed=0)
    assert by_city.estimate.tolist() == pytest.approx([(2.0 + 10.0) / 2, (1.0 + 10.0) / 2], rel=1e-12)
    pooled = st.city_balanced_bootstrap(values, cities, n_resamples=500, seed=0,
                                        weighting="target")
    assert pooled.estimate.tolist() == pytest.approx([14.0 / 3, 11.0 / 2], rel=1e-12)
    assert by_city.low[1] >= 1.0 and by_city.high[1] <= 10.0


def test_pair_deltas_pairs_by_keys_first(paired_rows):
    rows = paired_rows + [{"model": "a", "segment_id": "extra", "condition": "L1",
                           "cos_sim": 1.0, "city": "x"}]
    pairs = st.pair_deltas(rows, "cos_sim", "condition", "L0", "L1")
    assert len(pairs.units) == 120 and pairs.unmatched_treatment == 1
    lookup = {(r["model"], r["segment_id"], r["condition"]): r["cos_sim"] for r in rows}
    unit = pairs.units[5]
    assert pairs.deltas[5, 0] == pytest.approx(lookup[unit + ("L1",)] - lookup[unit + ("L0",)])
    with pytest.raises(ValueError, match="sample"):
        st.pair_deltas(rows + [rows[0]], "cos_sim", "condition", "L0", "L1")
    sampled = [dict(r, sample=i % 2) for i, r in enumerate(paired_rows)]
    by_sample = st.pair_deltas(sampled, "cos_sim", "condition", "L0", "L1",
                               unit_keys=("model", "segment_id", "sample"))
    assert len(by_sample.units) == 0  # L0 rows are sample 0, L1 rows sample 1: nothing matches


def test_delta_counts_by_hand():
    counts = st.delta_counts([0.2, -0.1, 0.4, np.nan, -0.5], ["a", "a", "b", "b", "c"])
    assert counts == {"matched_pairs": 4, "positive_pairs": 2, "cities": 3,
                      "cities_positive": 2}


def test_paired_city_balanced(paired_rows):
    summary = st.paired_bootstrap(paired_rows, ["cos_sim"], "condition", "L0", "L1",
                                  city_balanced=True, n_resamples=2000, seed=1)
    assert summary.interval.method.startswith("city_balanced")
    assert summary.interval.low[0] < summary.interval.estimate[0] < summary.interval.high[0]
    assert summary.counts["cities"][0] == 7


def test_bootstrap_table_equals_per_cell_bootstrap(paired_rows):
    table = st.bootstrap_table(paired_rows, "cos_sim", ("model", "condition"),
                               n_resamples=2000, seed=4)
    assert len(table) == 4
    cell = next(t for t in table if t["model"] == "b" and t["condition"] == "L1")
    values = [r["cos_sim"] for r in paired_rows if r["model"] == "b" and r["condition"] == "L1"]
    alone = st.bootstrap_mean(values, n_resamples=2000, seed=4)
    assert (cell["estimate"], cell["low"], cell["high"], cell["n"]) == pytest.approx(
        (alone.estimate, alone.low, alone.high, alone.n))
    deltas = st.pair_deltas(paired_rows, "cos_sim", "condition", "L0", "L1").as_rows()
    pooled = st.bootstrap_table(deltas, "cos_sim", (), unit_keys=("model", "segment_id"),
                                with_counts=True, city_balanced=True, n_resamples=1000)
    assert pooled[0]["matched_pairs"] == 120 and pooled[0]["cities"] == 7


def test_rank_average_ties_matches_scipy():
    x = [3.0, 1.0, 2.0, 3.0, 3.0, 0.5, 2.0]
    assert st.rank_average_ties(x).tolist() == sps.rankdata(x).tolist()


def test_spearman_matches_scipy_with_ties():
    rng = np.random.default_rng(12)
    x = np.round(rng.random(200), 1)
    y = x + rng.normal(0, 0.3, 200)
    top1 = (y > 0.6).astype(float)
    assert st.spearman(x, y) == pytest.approx(sps.spearmanr(x, y).correlation, abs=1e-12)
    assert st.spearman(x, top1) == pytest.approx(sps.spearmanr(x, top1).correlation, abs=1e-12)
    assert np.isnan(st.spearman(x, np.ones(200)))


def test_auroc_matches_mann_whitney_with_ties():
    rng = np.random.default_rng(13)
    scores = np.round(rng.random(150), 1)
    labels = rng.random(150) < scores
    u = sps.mannwhitneyu(scores[labels], scores[~labels]).statistic
    assert st.auroc(scores, labels) == pytest.approx(u / (labels.sum() * (~labels).sum()))
    assert st.auroc([0.1, 0.5, 0.5, 0.9], [0, 0, 1, 1]) == pytest.approx(0.875)
    with pytest.raises(ValueError, match="both positive and negative"):
        st.auroc([0.1, 0.2], [1, 1])
