"""The field's metrics (docs/method.md §6 "Comparability with the field") against oracles that
share no code with them: FD and KID against torch-fidelity 0.4.0's own functions on the same
feature arrays, PRDC and Vendi against plain loops written here from the papers' definitions.
Each comparison is also run once with an error planted in the product's code, and must then fail.

torch-fidelity is a test dependency, installed with ``--no-deps`` (``make venv``): its package
``__init__`` imports its image feature extractors, which need torchvision — and torchvision from
the package index does not load beside this project's torch (docs/../ENVIRONMENT notes). So the
test loads the two metric modules under a bare package object (the package's ``__init__`` is not
run) with a stand-in for ``torch_fidelity.utils`` that holds only the names those modules import
and never call on feature arrays. Everything that computes — ``fid_features_to_statistics``,
``fid_statistics_to_metric``, ``kid_features_to_metric`` and their helpers — is torch-fidelity's.
"""
from __future__ import annotations

import importlib
import importlib.util
import math
import sys
import types

import numpy as np
import pytest

from geofidelity_plugin.core.evaluation.metrics import comparability as cm


@pytest.fixture(scope="module")
def tf():
    """torch-fidelity's ``metric_fid`` and ``metric_kid``, loaded without torchvision."""
    torch = pytest.importorskip("torch")
    spec = importlib.util.find_spec("torch_fidelity")
    if spec is None:
        pytest.fail("torch-fidelity is a test dependency — install it with `pip install --no-deps "
                    "torch-fidelity==0.4.0` (make venv does; see requirements-test.lock)")
    saved = {k: v for k, v in sys.modules.items() if k == "torch_fidelity" or k.startswith("torch_fidelity.")}
    for key in saved:
        del sys.modules[key]
    package = types.ModuleType("torch_fidelity")
    package.__path__ = list(spec.submodule_search_locations)
    utils = types.ModuleType("torch_fidelity.utils")

    def not_for_arrays(*args, **kwargs):
        raise AssertionError("the feature-array functions never call torch_fidelity.utils")

    for name in ("get_cacheable_input_name", "cache_lookup_one_recompute_on_miss", "create_feature_extractor",
                 "extract_featuresdict_from_input_id_cached", "resolve_feature_extractor",
                 "resolve_feature_layer_for_metric"):
        setattr(utils, name, not_for_arrays)
    sys.modules["torch_fidelity"], sys.modules["torch_fidelity.utils"] = package, utils
    try:
        fid = importlib.import_module("torch_fidelity.metric_fid")
        kid = importlib.import_module("torch_fidelity.metric_kid")
        assert "torchvision" not in sys.modules
        yield types.SimpleNamespace(fid=fid, kid=kid, torch=torch)
    finally:
        for key in [k for k in sys.modules if k == "torch_fidelity" or k.startswith("torch_fidelity.")]:
            del sys.modules[key]
        sys.modules.update(saved)


def features(seed: int, n: int, d: int = 24, shift: float = 0.0) -> np.ndarray:
    """Anisotropic, correlated features (not a white cloud): covariance of rank d, scales 0.1–3."""
    rng = np.random.default_rng(seed)
    mixing = rng.normal(size=(d, d)) * np.linspace(0.1, 3.0, d)
    return rng.normal(size=(n, d)) @ mixing.T / math.sqrt(d) + shift + rng.normal(size=d) * 0.2


# ------------------------------------------------------------------ FD
def tf_fd(tf, gen, ref) -> float:
    stats = [tf.fid.fid_features_to_statistics(tf.torch.from_numpy(x)) for x in (gen, ref)]
    return tf.fid.fid_statistics_to_metric(stats[0], stats[1], verbose=False)[tf.fid.KEY_METRIC_FID]


def fd_agrees(tf) -> bool:
    cases = [(features(1, 300), features(2, 420, shift=0.3)), (features(3, 60, d=8), features(4, 90, d=8, shift=1.0)),
             (features(5, 500, d=48), features(5, 500, d=48))]
    for gen, ref in cases:
        ours = cm.frechet_distance(gen, ref)
        theirs = tf_fd(tf, gen, ref)
        if not abs(ours - theirs) <= 1e-4 * max(abs(theirs), 1e-12) + 1e-10:
            return False
    return True


def test_fd_equals_torch_fidelity(tf):
    assert fd_agrees(tf)
    gen, ref = features(1, 300), features(2, 420, shift=0.3)
    assert cm.frechet_distance(gen, ref) == pytest.approx(tf_fd(tf, gen, ref), rel=1e-9)  # in fact far closer


def test_fd_check_fails_on_a_planted_error(tf, monkeypatch):
    """A covariance over n instead of n − 1, one of the transposed matrix, or a matrix taken for
    its own square root is caught."""
    monkeypatch.setattr(cm, "_covariance", lambda x: np.cov(x, rowvar=False, ddof=0))
    assert not fd_agrees(tf)
    monkeypatch.setattr(cm, "_covariance", lambda x: np.cov(x, rowvar=True))  # images × images
    with pytest.raises(ValueError):
        fd_agrees(tf)
    monkeypatch.undo()
    monkeypatch.setattr(cm, "psd_sqrt", lambda sigma: sigma)
    assert not fd_agrees(tf)


# ------------------------------------------------------------------ KID
def kid_agrees(tf, seed: int = 7) -> bool:
    gen, ref = features(11, 130), features(12, 170, shift=0.2)
    gamma = 1.0 / 30.0
    ours = cm.kid(gen, ref, rbf_gamma=gamma, subsets=25, subset_size=60, seed=seed)
    common = dict(kid_subsets=25, kid_subset_size=60, rng_seed=seed, verbose=False)
    poly = tf.kid.kid_features_to_metric(tf.torch.from_numpy(gen), tf.torch.from_numpy(ref), **common)
    rbf = tf.kid.kid_features_to_metric(tf.torch.from_numpy(gen), tf.torch.from_numpy(ref), kid_kernel="rbf",
                                        kid_kernel_rbf_sigma=math.sqrt(1.0 / (2.0 * gamma)), **common)
    pairs = [(ours["kid"], poly[tf.kid.KEY_METRIC_KID_MEAN]), (ours["kid_std"], poly[tf.kid.KEY_METRIC_KID_STD]),
             (ours["kid_rbf"], rbf[tf.kid.KEY_METRIC_KID_MEAN]), (ours["kid_rbf_std"], rbf[tf.kid.KEY_METRIC_KID_STD])]
    return ours["kid_subset_size"] == 60 and all(abs(a - b) <= 1e-6 for a, b in pairs)


def test_kid_equals_torch_fidelity_polynomial_and_rbf(tf):
    assert kid_agrees(tf)
    assert kid_agrees(tf, seed=2020)  # torch-fidelity's default seed


def test_kid_check_fails_on_a_planted_error(tf, monkeypatch):
    monkeypatch.setattr(cm, "KID_DEGREE", 2)
    assert not kid_agrees(tf)
    monkeypatch.undo()
    monkeypatch.setattr(cm, "_unbiased_mmd2", lambda xx, yy, xy: float(xx.mean() + yy.mean() - 2 * xy.mean()))
    assert not kid_agrees(tf)  # the biased V-statistic


def test_kid_subset_shrinks_to_the_smaller_set(tf):
    gen, ref = features(21, 40), features(22, 2000)
    ours = cm.kid(gen, ref, subsets=5, seed=3)
    theirs = tf.kid.kid_features_to_metric(tf.torch.from_numpy(gen), tf.torch.from_numpy(ref), kid_subsets=5,
                                           kid_subset_size=40, rng_seed=3, verbose=False)
    assert ours["kid_subset_size"] == 40
    assert ours["kid"] == pytest.approx(theirs[tf.kid.KEY_METRIC_KID_MEAN], abs=1e-6)


# ------------------------------------------------------------------ PRDC, plain loops
def plain_prdc(real, fake, k):
    """Naeem et al. 2020, Eq. 1–4, with plain loops: a sample's ball reaches its k-th nearest
    other sample of its own set; membership is a strict ``<``."""
    def dist(a, b):
        return math.sqrt(sum((float(x) - float(y)) ** 2 for x, y in zip(a, b)))

    def radii(points):
        return [sorted(dist(p, q) for j, q in enumerate(points) if j != i)[k - 1] for i, p in enumerate(points)]

    r_real, r_fake = radii(real), radii(fake)
    d = [[dist(r, f) for f in fake] for r in real]
    n, m = len(real), len(fake)
    precision = sum(any(d[i][j] < r_real[i] for i in range(n)) for j in range(m)) / m
    recall = sum(any(d[i][j] < r_fake[j] for j in range(m)) for i in range(n)) / n
    density = sum(sum(d[i][j] < r_real[i] for i in range(n)) for j in range(m)) / (k * m)
    coverage = sum(min(d[i]) < r_real[i] for i in range(n)) / n
    return {"precision": precision, "recall": recall, "density": density, "coverage": coverage}


def prdc_agrees() -> bool:
    for seed, (n, m, k) in enumerate(((60, 45, 5), (33, 70, 3), (25, 25, 5))):
        real, fake = features(30 + seed, n, d=6), features(40 + seed, m, d=6, shift=0.4)
        ours, plain = cm.prdc(real, fake, k), plain_prdc(real, fake, k)
        if any(abs(ours[key] - plain[key]) > 1e-9 for key in plain):
            return False
    return True


def test_prdc_equals_the_plain_definition():
    assert prdc_agrees()


def test_prdc_in_small_chunks_is_the_same(monkeypatch):
    real, fake = features(50, 80, d=6), features(51, 50, d=6)
    whole = cm.prdc(real, fake)
    monkeypatch.setattr(cm, "_CHUNK_ROWS", 7)
    assert cm.prdc(real, fake) == whole


def test_prdc_check_fails_on_a_planted_error(monkeypatch):
    knn = cm.knn_radii
    monkeypatch.setattr(cm, "knn_radii", lambda x, k=cm.PRDC_K: knn(x, k - 1))  # the ball of a wrong k
    assert not prdc_agrees()


# ------------------------------------------------------------------ Vendi, plain loops
def plain_vendi(x) -> float:
    """Friedman & Dieng 2023: the exponential of the Shannon entropy of the eigenvalues of K/n,
    K[i][j] the cosine similarity of samples i and j."""
    n = len(x)
    norms = [math.sqrt(sum(float(v) ** 2 for v in row)) for row in x]
    kernel = np.array([[sum(float(a) * float(b) for a, b in zip(x[i], x[j])) / (norms[i] * norms[j])
                        for j in range(n)] for i in range(n)])
    eig = np.linalg.eigvalsh(kernel / n)
    return math.exp(-sum(v * math.log(v) for v in eig if v > 0))


def vendi_agrees() -> bool:
    sets = [features(60, 40, d=12), features(61, 9, d=12), features(62, 30, d=5)]  # n > d and n ≤ d
    sets.append(np.repeat(features(63, 4, d=8), 5, axis=0))  # duplicates: Vendi counts 4 distinct samples
    return all(abs(cm.vendi_score(x) - plain_vendi(x)) <= 1e-9 for x in sets)


def test_vendi_equals_the_plain_definition():
    assert vendi_agrees()
    assert cm.vendi_score(np.eye(5)) == pytest.approx(5.0, abs=1e-12)
    assert cm.vendi_score(np.ones((7, 3))) == pytest.approx(1.0, abs=1e-12)


def test_vendi_check_fails_on_a_planted_error(monkeypatch):
    monkeypatch.setattr(cm, "unit_rows", lambda x: x)  # a linear kernel instead of the cosine
    assert not vendi_agrees()


# ------------------------------------------------------------------ the small-sample guards
def test_each_metric_below_its_minimum_sample_gives_a_note_not_a_number():
    ref = cm.FieldReference(features(70, 5, d=8))
    values = cm.comparability_metrics(features(71, 1, d=8), ref, rbf_gamma=0.1)
    assert [values[k] for k in ("fd", "kid", "precision", "recall", "density", "coverage", "vendi")] == [None] * 7
    for fragment in ("FD needs 9 images in each set", "KID needs 2 images in each set", "PRDC needs 6 images",
                     "Vendi needs 2 generated images"):
        assert fragment in values["note"]
    enough = cm.comparability_metrics(features(72, 9, d=8), cm.FieldReference(features(73, 9, d=8)), rbf_gamma=0.1)
    assert "note" not in enough and all(enough[k] is not None for k in ("fd", "kid", "kid_rbf", "coverage", "vendi"))
    assert enough["kid"] == cm.kid(features(72, 9, d=8), features(73, 9, d=8), rbf_gamma=0.1)["kid"]


def test_a_reference_larger_than_the_prdc_cap_is_sampled_and_said(monkeypatch):
    monkeypatch.setattr(cm, "PRDC_MAX_SAMPLES", 40)
    ref = cm.FieldReference(features(80, 100, d=4), seed=3)
    values = cm.comparability_metrics(features(81, 30, d=4), ref, seed=3)
    assert len(ref.prdc_features) == 40 and "PRDC on seeded samples of 40 images" in values["note"]
    again = cm.comparability_metrics(features(81, 30, d=4), cm.FieldReference(features(80, 100, d=4), seed=3), seed=3)
    assert again == values
