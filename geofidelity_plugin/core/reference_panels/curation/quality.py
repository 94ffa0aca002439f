"""Per-image quality measures for reference-panel curation (method §2, filter 6: "variance of
Laplacian ≥ 80, mean luma 55–215, Hasler–Süsstrunk colourfulness ≥ 14, aspect ratio 0.5–2.2").

Definitions, so that a number in a curation table can be recomputed by hand:

- Every measure except the aspect ratio is taken on a *working copy* of the image whose long
  side is at most :data:`WORKING_LONG_SIDE` (1024) pixels, reduced with PIL's area-averaging
  ``BOX`` filter (an image already that small is used as is). Mapillary's ``thumb_1024_url``
  thumbnails are already that size; the cap keeps the sharpness measure comparable when an
  original-resolution photo is imported, since downscaling changes the Laplacian variance.
- Luma is Rec. 601 ``Y = 0.299 R + 0.587 G + 0.114 B`` of the 8-bit RGB values (0–255).
- Sharpness is the population variance of the grey (luma) image convolved with the 3×3 kernel
  ``[[0, 1, 0], [1, -4, 1], [0, 1, 0]]`` by ``scipy.ndimage.convolve`` with ``mode="mirror"``
  (the border of OpenCV's ``cv2.Laplacian``, reflect-101), over every pixel.
- Colourfulness (Hasler & Süsstrunk 2003): ``rg = R − G``, ``yb = (R + G)/2 − B``,
  ``C = sqrt(σ_rg² + σ_yb²) + 0.3·sqrt(μ_rg² + μ_yb²)`` with population standard deviations.
- Aspect ratio is width / height of the full image.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Optional

import numpy as np
from PIL import Image
from scipy import ndimage

from geofidelity_plugin.core.reference_panels.options import QualityThresholds  # noqa: F401 (public here too)

WORKING_LONG_SIDE = 1024
LAPLACIAN_KERNEL = np.array([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
_LUMA_WEIGHTS = np.array([0.299, 0.587, 0.114])


@dataclass(frozen=True)
class QualityMeasures:
    """The four measured values of one image (see the module docstring for definitions)."""

    laplacian_var: float
    luma: float
    colourfulness: float
    aspect: float

    def as_dict(self) -> dict:
        return asdict(self)


def working_copy(image: Image.Image, long_side: int = WORKING_LONG_SIDE) -> Image.Image:
    """The image reduced (BOX filter) so that its long side is at most ``long_side`` pixels."""
    width, height = image.size
    if max(width, height) <= long_side:
        return image
    scale = long_side / max(width, height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return image.resize(size, Image.BOX)


def _as_float_rgb(rgb) -> np.ndarray:
    arr = np.asarray(rgb, dtype=np.float64)
    if arr.ndim != 3 or arr.shape[2] != 3 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"expected an H×W×3 RGB array, got shape {arr.shape}")
    return arr


def luma(rgb) -> np.ndarray:
    """Rec. 601 luma of an H×W×3 RGB array (8-bit scale)."""
    return _as_float_rgb(rgb) @ _LUMA_WEIGHTS


def laplacian_variance(grey) -> float:
    """Variance of the 3×3 Laplacian of a 2-D grey array (border: mirror, i.e. reflect-101)."""
    grey = np.asarray(grey, dtype=np.float64)
    if grey.ndim != 2 or grey.size == 0:
        raise ValueError(f"expected a non-empty 2-D grey array, got shape {grey.shape}")
    return float(np.var(ndimage.convolve(grey, LAPLACIAN_KERNEL, mode="mirror")))


def colourfulness(rgb) -> float:
    """Hasler–Süsstrunk colourfulness of an H×W×3 RGB array (8-bit scale)."""
    arr = _as_float_rgb(rgb)
    r, g, b = arr[..., 0], arr[..., 1], arr[..., 2]
    rg = r - g
    yb = 0.5 * (r + g) - b
    return float(math.hypot(rg.std(), yb.std()) + 0.3 * math.hypot(rg.mean(), yb.mean()))


def measure(image: Image.Image) -> QualityMeasures:
    """All four measures of an RGB PIL image (aspect on the full image, the rest on the
    working copy)."""
    width, height = image.size
    if width == 0 or height == 0:
        raise ValueError(f"image has no pixels ({width}×{height})")
    small = np.asarray(working_copy(image.convert("RGB")), dtype=np.float64)
    grey = luma(small)
    return QualityMeasures(laplacian_var=laplacian_variance(grey), luma=float(grey.mean()),
                           colourfulness=colourfulness(small), aspect=width / height)


def failures(measures: QualityMeasures, thresholds: Optional[QualityThresholds] = None) -> list[str]:
    """Every threshold the measures miss, in words (empty when the image passes filter 6)."""
    t = thresholds or QualityThresholds()
    out = []
    if not measures.laplacian_var >= t.laplacian_var_min:
        out.append(f"blurred or flat: Laplacian variance {measures.laplacian_var:.1f} "
                   f"< {t.laplacian_var_min:g}")
    if not measures.luma >= t.luma_min:
        out.append(f"too dark: mean luma {measures.luma:.1f} < {t.luma_min:g}")
    elif not measures.luma <= t.luma_max:
        out.append(f"too bright: mean luma {measures.luma:.1f} > {t.luma_max:g}")
    if not measures.colourfulness >= t.colourfulness_min:
        out.append(f"washed out: colourfulness {measures.colourfulness:.1f} "
                   f"< {t.colourfulness_min:g}")
    if not t.aspect_min <= measures.aspect <= t.aspect_max:
        out.append(f"aspect ratio {measures.aspect:.3f} outside {t.aspect_min:g}–{t.aspect_max:g}")
    return out
