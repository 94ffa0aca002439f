"""The field's distribution metrics (method §6 "Comparability with the field"), so that a
GeoFidelity table can be set beside the numbers of the generative-model toolkits (torch-fidelity,
dgm-eval, torchmetrics): Fréchet distance, KID, precision/recall/density/coverage and Vendi,
computed from the run's own cached features.

Each metric is the published definition, in float64, plain numpy/scipy:

- **FD** (Fréchet distance of Gaussians fitted to the two sets; "FD-DINOv2" in DINOv2 space):
  ``‖μ_g − μ_r‖² + tr Σ_g + tr Σ_r − 2 tr (Σ_g Σ_r)^{1/2}``, covariances with ``n − 1``. The trace
  of the root is the sum of the square roots of the eigenvalues of ``Σ_r^{1/2} Σ_g Σ_r^{1/2}`` —
  the same eigenvalues as ``Σ_g Σ_r`` (torch-fidelity's form), from a symmetric matrix, so they
  come out real and ≥ 0 up to rounding (clipped).
- **KID**: the unbiased MMD² with the polynomial kernel ``(x·y/d + 1)³``, averaged over random
  subsets drawn as torch-fidelity draws them (legacy ``RandomState(seed)``; per subset, generated
  indices then reference indices, without replacement); also its standard deviation over the
  subsets (``n``, not ``n − 1``). The RBF option ``exp(−γ ‖x − y‖²)`` uses the same subsets.
- **PRDC** (Naeem et al. 2020): k-NN balls (radius = distance to the k-th nearest other point of
  the same set), Euclidean distances, strict ``<``, as the authors' ``prdc`` package.
- **Vendi** of one set: ``exp(−Σ λ log λ)`` over the positive eigenvalues λ of ``K/n``, K the
  cosine-similarity kernel (Friedman & Dieng 2023).

Small samples: :data:`MINIMUM_SAMPLES` says what each metric needs; below it the metric gives no
number and :func:`comparability_metrics` says why in its ``note``.
"""
from __future__ import annotations

import numpy as np

#: k of the k-NN manifolds (Naeem et al. 2020 use 5)
PRDC_K = 5
#: KID subsets and their size, torch-fidelity's defaults (the size shrinks to the smaller set)
KID_SUBSETS = 100
KID_SUBSET_SIZE = 1000
KID_DEGREE = 3
KID_COEF0 = 1.0
#: PRDC's distance matrices grow as n²: a larger set is replaced by a seeded sample of this size
PRDC_MAX_SAMPLES = 10_000
_CHUNK_ROWS = 2048
#: what each metric needs before it gives a number (the table's note quotes it)
MINIMUM_SAMPLES = {
    "fd": "d + 1 images in each set (a full-rank covariance; d = the feature size)",
    "kid": "2 images in each set (the unbiased estimate needs a pair)",
    "prdc": f"k + 1 = {PRDC_K + 1} images in each set (each needs k other points for its ball)",
    "vendi": "2 generated images",
}


def as_features(x, name: str) -> np.ndarray:
    array = np.asarray(x, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty (images × features) array, got shape {array.shape}.")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds NaN or infinite values; recompute those embeddings.")
    return array


# ------------------------------------------------------------------ FD
def feature_statistics(x) -> tuple[np.ndarray, np.ndarray]:
    """Mean and covariance (``n − 1``) of a set's features."""
    x = as_features(x, "features")
    return x.mean(axis=0), _covariance(x)


def _covariance(x: np.ndarray) -> np.ndarray:
    return np.cov(x, rowvar=False, ddof=1).reshape(x.shape[1], x.shape[1])


def psd_sqrt(sigma: np.ndarray) -> np.ndarray:
    """The symmetric square root of a covariance (eigenvalues below 0 are rounding: set to 0)."""
    w, v = np.linalg.eigh((sigma + sigma.T) / 2.0)
    return (v * np.sqrt(np.clip(w, 0.0, None))) @ v.T


def frechet_from_statistics(mu_g, sigma_g, mu_r, sigma_r, sqrt_sigma_r=None) -> float:
    """FD of two fitted Gaussians; ``sqrt_sigma_r`` (:func:`psd_sqrt`) when it is reused."""
    root = psd_sqrt(sigma_r) if sqrt_sigma_r is None else sqrt_sigma_r
    middle = root @ sigma_g @ root
    eig = np.linalg.eigvalsh((middle + middle.T) / 2.0)
    diff = mu_g - mu_r
    trace_root = float(np.sqrt(np.clip(eig, 0.0, None)).sum())
    return float(diff @ diff + np.trace(sigma_g) + np.trace(sigma_r) - 2.0 * trace_root)


def frechet_distance(generated, reference) -> float:
    mu_g, sigma_g = feature_statistics(generated)
    mu_r, sigma_r = feature_statistics(reference)
    return frechet_from_statistics(mu_g, sigma_g, mu_r, sigma_r)


# ------------------------------------------------------------------ KID
def _unbiased_mmd2(k_xx: np.ndarray, k_yy: np.ndarray, k_xy: np.ndarray) -> float:
    m = k_xx.shape[0]
    within = (k_xx.sum() - np.trace(k_xx) + k_yy.sum() - np.trace(k_yy)) / (m * (m - 1))
    return float(within - 2.0 * k_xy.sum() / (m * m))


def _poly(gram: np.ndarray, dim: int) -> np.ndarray:
    return (gram / dim + KID_COEF0) ** KID_DEGREE


def _rbf(gram: np.ndarray, sq_a: np.ndarray, sq_b: np.ndarray, gamma: float) -> np.ndarray:
    return np.exp(-gamma * np.clip(sq_a[:, None] + sq_b[None, :] - 2.0 * gram, 0.0, None))


def kid(generated, reference, *, rbf_gamma: float | None = None, subsets: int = KID_SUBSETS,
        subset_size: int = KID_SUBSET_SIZE, seed: int = 0) -> dict[str, float]:
    """KID (polynomial kernel) and, with ``rbf_gamma``, the RBF-kernel KID on the same subsets.

    Returns ``kid``, ``kid_std`` (and ``kid_rbf``, ``kid_rbf_std``) and ``kid_subset_size`` — the
    subset size, ``min(subset_size, n_generated, n_reference)``."""
    x, y = as_features(generated, "generated features"), as_features(reference, "reference features")
    m = min(int(subset_size), len(x), len(y))
    if m < 2:
        raise ValueError(f"KID needs {MINIMUM_SAMPLES['kid']}; got {len(x)} and {len(y)}.")
    rng = np.random.RandomState(int(seed) % (1 << 32))
    poly, rbf = np.empty(subsets), np.empty(subsets)
    dim = x.shape[1]
    for i in range(subsets):
        a = x[rng.choice(len(x), m, replace=False)]
        b = y[rng.choice(len(y), m, replace=False)]
        g_aa, g_bb, g_ab = a @ a.T, b @ b.T, a @ b.T
        poly[i] = _unbiased_mmd2(_poly(g_aa, dim), _poly(g_bb, dim), _poly(g_ab, dim))
        if rbf_gamma is not None:
            sq_a, sq_b = np.diagonal(g_aa).copy(), np.diagonal(g_bb).copy()
            rbf[i] = _unbiased_mmd2(_rbf(g_aa, sq_a, sq_a, rbf_gamma), _rbf(g_bb, sq_b, sq_b, rbf_gamma),
                                    _rbf(g_ab, sq_a, sq_b, rbf_gamma))
    out = {"kid": float(poly.mean()), "kid_std": float(poly.std()), "kid_subset_size": m}
    if rbf_gamma is not None:
        out.update(kid_rbf=float(rbf.mean()), kid_rbf_std=float(rbf.std()))
    return out


# ------------------------------------------------------------------ PRDC
def _distances(a: np.ndarray, b: np.ndarray, sq_a: np.ndarray, sq_b: np.ndarray) -> np.ndarray:
    return np.sqrt(np.clip(sq_a[:, None] + sq_b[None, :] - 2.0 * (a @ b.T), 0.0, None))


def knn_radii(x: np.ndarray, k: int = PRDC_K) -> np.ndarray:
    """Per point, the distance to its k-th nearest other point of ``x`` (the (k+1)-th smallest
    distance of its row, itself at 0 included — as the ``prdc`` package computes it)."""
    sq = np.einsum("ij,ij->i", x, x)
    radii = np.empty(len(x))
    for lo in range(0, len(x), _CHUNK_ROWS):
        hi = min(lo + _CHUNK_ROWS, len(x))
        d = _distances(x[lo:hi], x, sq[lo:hi], sq)
        d[np.arange(hi - lo), np.arange(lo, hi)] = 0.0
        radii[lo:hi] = np.partition(d, k, axis=1)[:, k]
    return radii


def prdc(real, fake, k: int = PRDC_K, real_radii: np.ndarray | None = None) -> dict[str, float]:
    """Precision, recall, density and coverage of ``fake`` against ``real`` (k-NN manifolds);
    ``real_radii`` (:func:`knn_radii` of ``real``) when they are reused."""
    real, fake = as_features(real, "reference features"), as_features(fake, "generated features")
    if min(len(real), len(fake)) < k + 1:
        raise ValueError(f"PRDC needs {k + 1} images in each set; got {len(real)} and {len(fake)}.")
    r_radii = knn_radii(real, k) if real_radii is None else real_radii
    f_radii = knn_radii(fake, k)
    sq_r, sq_f = np.einsum("ij,ij->i", real, real), np.einsum("ij,ij->i", fake, fake)
    in_real_ball = np.zeros(len(fake), dtype=bool)
    ball_count = np.zeros(len(fake))
    covered = np.zeros(len(real), dtype=bool)
    recalled = np.zeros(len(real), dtype=bool)
    for lo in range(0, len(real), _CHUNK_ROWS):
        hi = min(lo + _CHUNK_ROWS, len(real))
        d = _distances(real[lo:hi], fake, sq_r[lo:hi], sq_f)
        inside = d < r_radii[lo:hi, None]
        in_real_ball |= inside.any(axis=0)
        ball_count += inside.sum(axis=0)
        covered[lo:hi] = d.min(axis=1) < r_radii[lo:hi]
        recalled[lo:hi] = (d < f_radii[None, :]).any(axis=1)
    return {"precision": float(in_real_ball.mean()), "recall": float(recalled.mean()),
            "density": float(ball_count.mean() / k), "coverage": float(covered.mean())}


# ------------------------------------------------------------------ Vendi
def unit_rows(x: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1: the cosine kernel is the Gram matrix of these."""
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise ValueError("a feature vector has zero length, so its cosine is undefined; check for blank images.")
    return x / norms


def vendi_score(x) -> float:
    """Vendi score with the cosine kernel. The nonzero eigenvalues of ``K/n = X̂X̂ᵀ/n`` are those
    of ``X̂ᵀX̂/n``, so the smaller of the two matrices is decomposed."""
    unit = unit_rows(as_features(x, "generated features"))
    n = len(unit)
    small = unit @ unit.T if n <= unit.shape[1] else unit.T @ unit
    eig = np.linalg.eigvalsh(small / n)
    eig = eig[eig > 0]
    return float(np.exp(-(eig * np.log(eig)).sum()))


# ------------------------------------------------------------------ one set against its reference
class FieldReference:
    """A reference set with what every generated set compared to it reuses (mean, covariance and
    its root, k-NN radii), computed once when first needed. A set larger than
    :data:`PRDC_MAX_SAMPLES` enters PRDC as a seeded sample of that size."""

    def __init__(self, features, seed: int = 0, k: int = PRDC_K):
        self.features = as_features(features, "reference features")
        self.seed, self.k = int(seed), int(k)
        self._stats = self._root = self._radii = None
        self.prdc_features = _sample(self.features, self.seed, "reference")

    def statistics(self):
        if self._stats is None:
            self._stats = feature_statistics(self.features)
            self._root = psd_sqrt(self._stats[1])
        return self._stats, self._root

    def radii(self) -> np.ndarray:
        if self._radii is None:
            self._radii = knn_radii(self.prdc_features, self.k)
        return self._radii


def _sample(x: np.ndarray, seed: int, what: str) -> np.ndarray:
    if len(x) <= PRDC_MAX_SAMPLES:
        return x
    rng = np.random.default_rng([seed, len(x), sum(what.encode())])
    return x[np.sort(rng.choice(len(x), PRDC_MAX_SAMPLES, replace=False))]


def comparability_metrics(generated, reference: FieldReference, *, rbf_gamma: float | None = None,
                          seed: int = 0) -> dict:
    """Every metric of this module for one generated set against ``reference``; a metric whose
    minimum sample (:data:`MINIMUM_SAMPLES`) is not met is ``None``, and ``note`` says why."""
    gen = as_features(generated, "generated features")
    ref = reference.features
    n_g, n_r, dim = len(gen), len(ref), gen.shape[1]
    if ref.shape[1] != dim:
        raise ValueError(f"the generated features have {dim} values and the reference {ref.shape[1]}; "
                         "embed both with the same model.")
    out: dict = {"n_generated": n_g, "n_reference": n_r, "dim": dim, "fd": None, "kid": None, "kid_std": None,
                 "kid_rbf": None, "kid_rbf_std": None, "kid_subset_size": None, "precision": None, "recall": None,
                 "density": None, "coverage": None, "vendi": None}
    notes = []
    if min(n_g, n_r) >= dim + 1:
        (mu_r, sigma_r), root = reference.statistics()
        mu_g, sigma_g = feature_statistics(gen)
        out["fd"] = frechet_from_statistics(mu_g, sigma_g, mu_r, sigma_r, root)
    else:
        notes.append(f"FD needs {dim + 1} images in each set (d + 1, a full-rank covariance)")
    if min(n_g, n_r) >= 2:
        out.update(kid(gen, ref, rbf_gamma=rbf_gamma, seed=seed))
    else:
        notes.append(f"KID needs {MINIMUM_SAMPLES['kid']}")
    if min(n_g, n_r) >= reference.k + 1:
        fake = _sample(gen, seed, "generated")
        out.update(prdc(reference.prdc_features, fake, reference.k, reference.radii()))
        if len(fake) < n_g or len(reference.prdc_features) < n_r:
            notes.append(f"PRDC on seeded samples of {PRDC_MAX_SAMPLES} images")
    else:
        notes.append(f"PRDC needs {reference.k + 1} images in each set (k + 1, k = {reference.k})")
    if n_g >= 2:
        out["vendi"] = vendi_score(gen)
    else:
        notes.append(f"Vendi needs {MINIMUM_SAMPLES['vendi']}")
    if notes:
        out["note"] = f"{n_g} generated, {n_r} reference images: " + "; ".join(notes)
    return out
