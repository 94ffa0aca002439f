"""The compute precisions of every model that looks at images (embeddings, curation, GeoDiv):
one table for all stages (method §5), with the feature model and batch size they share. Standard
library only."""
from __future__ import annotations

from ..errors import InputError
from .model_ids import DINOV2_BASE

#: compute precisions of the embedding and curation models (method §5): fp32 on every
#: device, so a CPU run and a GPU run agree to 1e-4 in cosine; tf32 (fp32 weights, TensorFloat-32
#: matrix products on a CUDA GPU; the same as fp32 elsewhere), bf16 and fp16 are faster on a GPU
#: but move the embeddings, so they are an explicit choice, kept apart in the cache and recorded.
#: New choices go at the end: QGIS stores a choice by its position.
PRECISIONS = ("fp32", "bf16", "fp16", "tf32")
DEFAULT_PRECISION = "fp32"
#: DINOv2 model the method names (method §5), written once for every stage (evaluation, the model
#: manager, the feature extractor); offline runs give a local folder instead
DEFAULT_FEATURE_MODEL = DINOV2_BASE
#: where the feature stage decodes JPEGs (method §5 "Decoding"): auto takes the GPU's decoder on a
#: CUDA device that has one, else the CPU (worker processes); cpu and device force one
DECODE_CHOICES = ("auto", "cpu", "device")
DEFAULT_DECODE = "auto"
#: images per forward pass of the embedding and CLIP models (a GPU's share; results never depend on it)
DEFAULT_BATCH_SIZE = 16


def check_precision(precision, label: str = "precision (--precision; in QGIS \"Precision\")") -> str:
    """The precision's name, or a message that lists the choices."""
    if precision not in PRECISIONS:
        raise InputError(f"unknown {label} {precision!r} — use fp32 (the default: CPU and GPU runs agree), "
                         "tf32, bf16 or fp16")
    return precision
