"""The compute precisions of every model that looks at images (embeddings, curation, GeoDiv):
one table for all stages (method §5), with the feature model and batch size they share. Standard
library only."""
from __future__ import annotations

from ..errors import InputError
from .model_ids import DINOV2_BASE

#: compute precisions of the embedding and curation models (method §5): fp32 on every
#: device, so a CPU run and a GPU run agree to 1e-4 in cosine; bf16 and fp16 are faster on a GPU
#: but move the embeddings, so they are an explicit choice, kept apart in the cache and recorded
PRECISIONS = ("fp32", "bf16", "fp16")
DEFAULT_PRECISION = "fp32"
#: DINOv2 model the method names (method §5), written once for every stage (evaluation, the model
#: manager, the feature extractor); offline runs give a local folder instead
DEFAULT_FEATURE_MODEL = DINOV2_BASE
#: images per forward pass of the embedding and CLIP models (a GPU's share; results never depend on it)
DEFAULT_BATCH_SIZE = 16


def check_precision(precision, label: str = "precision (--precision; in QGIS \"Precision\")") -> str:
    """The precision's name, or a message that lists the choices."""
    if precision not in PRECISIONS:
        raise InputError(f"unknown {label} {precision!r} — use fp32 (the default: CPU and GPU runs agree), "
                         "bf16 or fp16")
    return precision
