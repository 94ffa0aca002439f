"""The thresholds of ``curate`` (method §2 filters 1, 3–7), in QGIS ``geofidelity:curate_panels``:
written once here, read by argparse, the Processing parameters and ``CurationOptions``."""
from __future__ import annotations

from geofidelity_plugin.core.reference_panels.options import CurationOptions
from geofidelity_plugin.spec.options import Option

_D = CurationOptions()


def _threshold(name, flag, field, rule, label, text, kind="number"):
    return Option(name, flag, kind, label, help=text, default=getattr(_D, field), rule=rule, advanced=True,
                  field=field)


#: every curation threshold; ``field`` is the ``CurationOptions`` attribute it sets
THRESHOLDS = (
    _threshold("BUFFER", "--buffer", "buffer_m", "positive", "Road buffer (m)", "filter 1: road buffer, m"),
    _threshold("SOLAR_MIN", "--solar-min", "solar_min_deg", None, "Minimum solar elevation (°)",
               "filter 3: minimum solar elevation, degrees"),
    _threshold("SIGLIP_THRESHOLD", "--siglip-threshold", "siglip_threshold", "non-negative",
               "SigLIP street probability ≥", "filter 4: SigLIP street probability at least"),
    _threshold("LAPLACIAN_MIN", "--laplacian-min", "laplacian_var_min", "non-negative", "Variance of Laplacian ≥",
               "filter 6: variance of the Laplacian at least"),
    _threshold("LUMA_MIN", "--luma-min", "luma_min", "non-negative", "Mean luma ≥",
               "filter 6: mean luma at least (0–255)"),
    _threshold("LUMA_MAX", "--luma-max", "luma_max", "non-negative", "Mean luma ≤",
               "filter 6: mean luma at most (0–255)"),
    _threshold("COLOURFULNESS_MIN", "--colourfulness-min", "colourfulness_min", "non-negative", "Colourfulness ≥",
               "filter 6: colourfulness at least"),
    _threshold("ASPECT_MIN", "--aspect-min", "aspect_min", "positive", "Aspect ratio ≥",
               "filter 6: aspect ratio (width / height) at least"),
    _threshold("ASPECT_MAX", "--aspect-max", "aspect_max", "positive", "Aspect ratio ≤",
               "filter 6: aspect ratio (width / height) at most"),
    _threshold("PHASH_RADIUS", "--phash-radius", "phash_radius", "non-negative-count",
               "Perceptual-hash Hamming radius", "filter 7: perceptual-hash Hamming radius", kind="integer"),
    _threshold("THINNING_M", "--thinning", "thinning_m", "non-negative", "Spatial thinning per sequence (m)",
               "filter 7: spatial thinning along each sequence, m"),
)
