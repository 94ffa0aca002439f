"""PSNR and SSIM beside MFP (method §10), from scikit-image — the pixel metrics the paper
compares MFP with. Both on 8-bit RGB (data range 255); SSIM with scikit-image's defaults (7 × 7
uniform window, colour channels averaged). PSNR of identical images is +inf."""
from __future__ import annotations

import math

import numpy as np


def psnr(generated: np.ndarray, reference: np.ndarray) -> float:
    from skimage.metrics import peak_signal_noise_ratio

    if np.array_equal(generated, reference):
        return math.inf  # scikit-image divides by a zero MSE (and warns)
    return float(peak_signal_noise_ratio(reference, generated, data_range=255))


def ssim(generated: np.ndarray, reference: np.ndarray) -> float:
    """SSIM, or NaN for an image under 7 px (smaller than the window)."""
    from skimage.metrics import structural_similarity

    if min(generated.shape[:2]) < 7:
        return math.nan
    return float(structural_similarity(reference, generated, data_range=255, channel_axis=-1))


def pixel_scores(generated: np.ndarray, reference: np.ndarray) -> dict[str, np.ndarray]:
    """PSNR and SSIM of each pair in two (B, H, W, 3) uint8 stacks."""
    return {"psnr": np.array([psnr(g, r) for g, r in zip(generated, reference)], dtype=np.float64),
            "ssim": np.array([ssim(g, r) for g, r in zip(generated, reference)], dtype=np.float64)}
