"""method §6 panel metrics, each checked against a plain computation written out here."""
import math

import numpy as np
import pytest
from scipy.spatial.distance import jensenshannon, pdist

from geofidelity_plugin.core.evaluation.metrics import panel_metrics as metrics


def rbf(a, b, gamma):
    return math.exp(-gamma * sum((x - y) ** 2 for x, y in zip(a, b)))


def mmd2_loop(g, r, gamma, unbiased=False):
    """MMD² by explicit double loops over the images."""
    g, r = [list(map(float, row)) for row in g], [list(map(float, row)) for row in r]
    m, n = len(g), len(r)
    if unbiased:
        k_gg = sum(rbf(g[i], g[j], gamma) for i in range(m) for j in range(m) if i != j)
        k_rr = sum(rbf(r[i], r[j], gamma) for i in range(n) for j in range(n) if i != j)
        k_gg, k_rr = k_gg / (m * (m - 1)), k_rr / (n * (n - 1))
    else:
        k_gg = sum(rbf(g[i], g[j], gamma) for i in range(m) for j in range(m)) / m ** 2
        k_rr = sum(rbf(r[i], r[j], gamma) for i in range(n) for j in range(n)) / n ** 2
    k_gr = sum(rbf(g[i], r[j], gamma) for i in range(m) for j in range(n)) / (m * n)
    value = k_gg + k_rr - 2 * k_gr
    return max(value, 0.0) if unbiased else value


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def diversity_loop(panel):
    pairs = [(i, j) for i in range(len(panel)) for j in range(i + 1, len(panel))]
    if not pairs:
        return 0.0
    return sum(1 - cosine(panel[i], panel[j]) for i, j in pairs) / len(pairs)


@pytest.fixture
def panels():
    rng = np.random.default_rng(11)
    centre = rng.normal(0, 1, 6)
    generated = centre + rng.normal(0, 0.8, (4, 6))
    reference = centre + 0.5 + rng.normal(0, 1.0, (9, 6))
    return generated, reference


GAMMA = 0.07


def test_cos_sim_is_cosine_of_panel_means(panels):
    g, r = panels
    assert metrics.cos_sim(g, r) == pytest.approx(cosine(g.mean(0), r.mean(0)), abs=1e-12)
    assert metrics.cos_sim(r, r) == pytest.approx(1.0, abs=1e-12)


def test_mmd2_biased_matches_double_loop(panels):
    g, r = panels
    expected = mmd2_loop(g, r, GAMMA)
    assert expected > 0
    assert metrics.mmd2(g, r, GAMMA) == pytest.approx(expected, rel=1e-10)


def test_mmd2_unbiased_matches_double_loop(panels):
    g, r = panels
    expected = mmd2_loop(g, r, GAMMA, unbiased=True)
    assert expected > 0
    assert metrics.mmd2(g, r, GAMMA, unbiased=True) == pytest.approx(expected, rel=1e-10)


def test_mmd2_identical_panels(panels):
    _, r = panels
    assert metrics.mmd2(r, r, GAMMA) == pytest.approx(0.0, abs=1e-12)
    # The U-statistic of a panel against itself is negative before clipping.
    raw = mmd2_loop(r, r, GAMMA, unbiased=False)  # biased: exactly 0 up to rounding
    assert abs(raw) < 1e-12
    assert metrics.mmd2(r, r, GAMMA, unbiased=True) == 0.0


def test_mmd2_one_image_panels(panels):
    g, r = panels
    assert metrics.mmd2(g[:1], r, GAMMA) == pytest.approx(mmd2_loop(g[:1], r, GAMMA), rel=1e-10)
    assert metrics.mmd2(g[:1], r[:1], GAMMA) == pytest.approx(mmd2_loop(g[:1], r[:1], GAMMA),
                                                              rel=1e-10)
    with pytest.raises(ValueError, match="unbiased"):
        metrics.mmd2(g[:1], r, GAMMA, unbiased=True)


def test_mean_pairwise_cosine_distance(panels):
    g, r = panels
    assert metrics.mean_pairwise_cosine_distance(g) == pytest.approx(diversity_loop(g.tolist()),
                                                                     rel=1e-12)
    assert metrics.mean_pairwise_cosine_distance(r[:1]) == 0.0


def test_dcsf_adds_half_the_missing_diversity(panels):
    g, r = panels
    d_g, d_r = diversity_loop(g.tolist()), diversity_loop(r.tolist())
    expected = mmd2_loop(g, r, GAMMA) + 0.5 * max(0.0, d_r - d_g)
    assert metrics.dcsf(g, r, GAMMA) == pytest.approx(expected, rel=1e-10)
    # A one-image generated panel has d_G = 0: the full reference diversity is the penalty.
    one = mmd2_loop(g[:1], r, GAMMA) + 0.5 * d_r
    assert metrics.dcsf(g[:1], r, GAMMA) == pytest.approx(one, rel=1e-10)
    # A more diverse generated panel gets no penalty.
    assert metrics.dcsf(r, r[:2], GAMMA) == pytest.approx(mmd2_loop(r, r[:2], GAMMA), rel=1e-10)


def test_median_heuristic_gamma_over_all_rows():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 2, (30, 5))
    x = np.vstack([x, x[:4]])  # the same image assigned to two segments: zero distances
    d2 = pdist(x, "sqeuclidean")
    expected = 1.0 / np.median(d2[d2 > 0])
    assert metrics.median_heuristic_gamma(x, sample_size=1000, seed=0) == pytest.approx(
        expected, rel=1e-10)
    as_panels = [x[:10], x[10:21], x[21:]]
    assert metrics.median_heuristic_gamma(as_panels, sample_size=1000) == pytest.approx(
        expected, rel=1e-10)


def test_median_heuristic_gamma_is_seeded():
    x = np.random.default_rng(4).normal(0, 1, (200, 8))
    a = metrics.median_heuristic_gamma(x, sample_size=50, seed=1)
    assert a == metrics.median_heuristic_gamma(x, sample_size=50, seed=1)
    assert a != metrics.median_heuristic_gamma(x, sample_size=50, seed=2)
    with pytest.raises(ValueError, match="identical"):
        metrics.median_heuristic_gamma(np.ones((5, 3)))


def histogram(values):
    counts, _ = np.histogram(values, bins=10, range=(0.0, 1.0))
    return counts / counts.sum()


def test_gads_matches_scipy_jensenshannon():
    rng = np.random.default_rng(5)
    g = rng.beta(2, 5, (4, 8))
    r = rng.beta(2, 3, (40, 8))
    g[0, 0], r[0, 1], r[1, 2] = 1.0, 0.0, 0.3  # edges: 1.0, 0.0, a float-rounded boundary
    expected = np.mean([jensenshannon(histogram(g[:, a]), histogram(r[:, a]), base=2)
                        for a in range(8)])
    assert metrics.gads(g, r) == pytest.approx(expected, abs=1e-12)
    assert metrics.gads(r, r) == pytest.approx(0.0, abs=1e-12)


def test_histogram_bins_follow_numpy_and_put_one_in_last_bin():
    ratios = np.array([[0.0], [0.1], [0.2], [0.3], [0.7], [0.9999], [1.0]])
    assert np.allclose(metrics.attribute_histograms(ratios)[0], histogram(ratios[:, 0]))
    assert metrics.attribute_histograms(np.array([[1.0]]))[0, -1] == 1.0
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        metrics.attribute_histograms(np.array([[1.2]]))


def test_input_errors(panels):
    g, r = panels
    with pytest.raises(ValueError, match="gamma"):
        metrics.mmd2(g, r, 0.0)
    bad = g.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        metrics.cos_sim(bad, r)
    with pytest.raises(ValueError, match="2-D"):
        metrics.cos_sim(g[0], r)


# --------------------------------------------------------------------------- batched
@pytest.fixture
def reference_set():
    rng = np.random.default_rng(8)
    panels = [rng.normal(0, 1, (n, 6)) + rng.normal(0, 1, 6) for n in (5, 9, 1, 7)]
    return panels, metrics.ReferenceSet.from_panels(panels, GAMMA)


def test_score_panels_equals_single_panel_functions(reference_set):
    panels, refs = reference_set
    rng = np.random.default_rng(9)
    generated = rng.normal(0, 1, (10, 4, 6))
    target = np.array([0, 1, 2, 3, 1, 1, 0, 2, 3, 3])
    generated[4] = panels[1][:4]  # a generated panel made of reference images
    scores = metrics.score_panels(generated, target, refs)
    for p, t in enumerate(target):
        assert scores["cos_sim"][p] == pytest.approx(metrics.cos_sim(generated[p], panels[t]),
                                                     abs=1e-12)
        assert scores["mmd2"][p] == pytest.approx(metrics.mmd2(generated[p], panels[t], GAMMA),
                                                  rel=1e-9, abs=1e-13)
        assert scores["dcsf"][p] == pytest.approx(metrics.dcsf(generated[p], panels[t], GAMMA),
                                                  rel=1e-9, abs=1e-13)


def test_score_panels_unbiased_and_one_image_reference(reference_set):
    panels, refs = reference_set
    generated = np.random.default_rng(10).normal(0, 1, (3, 4, 6))
    target = np.array([0, 1, 3])
    scores = metrics.score_panels(generated, target, refs, unbiased=True)
    for p, t in enumerate(target):
        assert scores["mmd2"][p] == pytest.approx(
            metrics.mmd2(generated[p], panels[t], GAMMA, unbiased=True), rel=1e-9, abs=1e-13)
    assert refs.diversity[2] == 0.0 and refs.self_kernel[2] == 1.0
    # a one-image reference panel (2) or generated panel: no U-statistic, NaN for that panel only
    mixed = metrics.score_panels(generated, np.array([2, 0, 1]), refs, unbiased=True)
    assert np.isnan(mixed["mmd2"][0]) and np.isnan(mixed["dcsf"][0])
    assert mixed["mmd2"][1] == pytest.approx(metrics.mmd2(generated[1], panels[0], GAMMA, unbiased=True),
                                             rel=1e-9, abs=1e-13)
    assert mixed["cos_sim"][0] == pytest.approx(metrics.cos_sim(generated[0], panels[2]), abs=1e-12)
    ragged = metrics.score_panels([generated[0], generated[1][:1]], np.array([0, 1]), refs, unbiased=True)
    assert ragged["mmd2"][0] == pytest.approx(scores["mmd2"][0], rel=1e-12) and np.isnan(ragged["mmd2"][1])


def test_score_panels_ragged_and_identical(reference_set):
    panels, refs = reference_set
    rng = np.random.default_rng(12)
    generated = [rng.normal(0, 1, (4, 6)), rng.normal(0, 1, (1, 6)), panels[3].copy()]
    target = [0, 1, 3]
    scores = metrics.score_panels(generated, target, refs)
    for p, t in enumerate(target):
        assert scores["dcsf"][p] == pytest.approx(metrics.dcsf(generated[p], panels[t], GAMMA),
                                                  rel=1e-9, abs=1e-13)
    assert scores["cos_sim"][2] == pytest.approx(1.0, abs=1e-12)
    assert scores["mmd2"][2] == pytest.approx(0.0, abs=1e-12)
    assert scores["diversity_generated"][1] == 0.0


def test_score_panels_checks_targets(reference_set):
    _, refs = reference_set
    generated = np.zeros((2, 4, 6)) + 1.0
    with pytest.raises(ValueError, match="target_index"):
        metrics.score_panels(generated, [0, 9], refs)
    with pytest.raises(ValueError, match="one target per panel"):
        metrics.score_panels(generated, [0, 1, 2], refs)


def test_gads_batch_equals_gads():
    rng = np.random.default_rng(13)
    reference = [rng.random((n, 8)) for n in (12, 30, 5)]
    generated = rng.random((6, 4, 8))
    target = np.array([0, 1, 2, 2, 1, 0])
    batch = metrics.gads_batch(generated, target, metrics.reference_histograms(reference))
    for p, t in enumerate(target):
        assert batch[p] == pytest.approx(metrics.gads(generated[p], reference[t]), abs=1e-12)
