"""Batched panels that give the bytes of one call per image on the CPU (method §4 Seeds;
docs/memory-plans.md "Batched panels").

A panel is made in one pipeline call with one seeded generator per image, so every image starts
from its own seed's noise bit for bit. The denoiser's forward on a batch of 2 × 4 rows is another
computation than on 2 rows, though: the CPU's matrix-product, convolution and attention kernels
split their work by the row count and round differently, and a few pixels end up a level or more
apart from one call per image (up to 5 levels measured with the tiny test models). Everything else
in the call is the same per image in both: the prompt is encoded once and repeated, the scheduler
step and the guidance combination are element-wise, and the VAE decodes one image at a time.

So on the CPU the runner evaluates the denoiser image by image inside the batched call
(:func:`per_image_forward`): for image *i* it passes the rows a one-image call would pass —
with classifier-free guidance the pair ``[uncond_i, cond_i]`` — and puts the outputs back in the
pipeline's order. The step loop, the text encoders and the VAE still run once per panel. On CUDA
the batch stays one forward (that is where batching pays); ``scripts/gpu_batch_check.py``
measures its tolerance there.
"""
from __future__ import annotations

import contextlib
from typing import Any

from ..errors import InputError
from .options import BATCH_FORWARD_CHOICES

#: ``batch_forward`` values: ``auto`` splits on the CPU only
MODES = BATCH_FORWARD_CHOICES
#: what a run records (manifest options ``batch_forward``)
PER_IMAGE = "per image (CPU: bytes equal to one call per image)"
PER_IMAGE_FORCED = "per image (forced: the denoiser sees what one call per image gives it)"
BATCHED = "batched"
ONE_PER_CALL = "one image per call"
#: denoiser arguments that never carry the batch, though their first dimension may equal it
#: (FLUX's text and image position ids, HunyuanDiT's rotary tables: one row per token)
NOT_BATCHED = frozenset({"txt_ids", "img_ids", "image_rotary_emb", "rotary_emb", "freqs_cis", "position_ids"})
_SAMPLE_NAMES = ("sample", "hidden_states", "x")


def check_mode(mode: str | None) -> str:
    mode = "auto" if mode in (None, "") else str(mode).strip().lower().replace("_", "-")
    if mode not in MODES:
        raise InputError(f"unknown batch forward {mode!r} — use {', '.join(MODES)}")
    return mode


def splits(mode: str, device_type: str) -> bool:
    """Whether a call of several images evaluates the denoiser image by image."""
    return mode == "per-image" or (mode == "auto" and device_type == "cpu")


def forward_label(mode: str, device_type: str, images_per_call: int) -> str:
    """The manifest's ``batch_forward`` for a run of ``images_per_call`` images per call."""
    if images_per_call <= 1:
        return ONE_PER_CALL
    if not splits(mode, device_type):
        return BATCHED
    return PER_IMAGE if device_type == "cpu" else PER_IMAGE_FORCED


def denoiser_of(pipe):
    """The pipeline's denoiser (``transformer`` or ``unet``), or None."""
    return next((getattr(pipe, n) for n in ("transformer", "unet") if getattr(pipe, n, None) is not None), None)


@contextlib.contextmanager
def per_image_forward(pipe, images: int):
    """Within the block, every denoiser forward of ``pipe`` on a batch of ``images`` × *r* rows
    (*r* = 2 with classifier-free guidance: the pipelines stack ``[uncond_0..uncond_n, cond_0..
    cond_n]``) runs as ``images`` forwards of the rows ``[i, n + i, …]``, and the outputs are put
    back in the pipeline's order. A forward whose batch is not a multiple of ``images`` runs as it
    is. The module's own ``forward`` (with any offload hooks on it) is restored on leaving."""
    denoiser = denoiser_of(pipe)
    if denoiser is None or images <= 1:
        yield
        return
    own = denoiser.__dict__.get("forward")  # offload hooks install an instance attribute
    inner = denoiser.forward

    def forward(*args, **kwargs):
        rows = _batch_rows(args, kwargs)
        if rows is None or rows % images:
            return inner(*args, **kwargs)
        return _split_call(inner, args, kwargs, rows, images)

    denoiser.forward = forward
    try:
        yield
    finally:
        if own is None:
            del denoiser.forward
        else:
            denoiser.forward = own


def _batch_rows(args: tuple, kwargs: dict) -> int | None:
    import torch

    sample = args[0] if args else next((kwargs[n] for n in _SAMPLE_NAMES if n in kwargs), None)
    return int(sample.shape[0]) if isinstance(sample, torch.Tensor) and sample.dim() > 0 else None


def _split_call(inner, args: tuple, kwargs: dict, rows: int, images: int):
    import torch

    per_image = rows // images
    index = [[i + k * images for k in range(per_image)] for i in range(images)]
    outputs = []
    for picked in index:
        take = torch.tensor(picked)
        outputs.append(inner(*(_take(a, take, rows) for a in args),
                             **{k: _take(v, take, rows, k) for k, v in kwargs.items()}))
    order = torch.tensor([r for picked in index for r in picked])
    back = torch.empty_like(order)
    back[order] = torch.arange(rows)
    return _merge(outputs, back, per_image)


def _take(value: Any, picked, rows: int, name: str | None = None):
    """``value`` with only the ``picked`` rows of every tensor that carries the batch."""
    import torch

    if name in NOT_BATCHED:
        return value
    if isinstance(value, torch.Tensor):
        if value.dim() == 0 or value.shape[0] != rows:
            return value
        if value.stride(0) == 0:  # an expanded scalar (timesteps, FLUX's guidance): stays expanded
            return value[:len(picked)]
        return value.index_select(0, picked.to(value.device))
    if isinstance(value, dict):
        return type(value)((k, _take(v, picked, rows, k)) for k, v in value.items())
    if type(value) in (list, tuple):
        return type(value)(_take(v, picked, rows) for v in value)
    return value


def _merge(outputs: list, back, per_image: int):
    """The per-image outputs as one output of the whole batch, rows in the pipeline's order."""
    import torch

    first = outputs[0]
    if isinstance(first, torch.Tensor):
        if first.dim() == 0 or first.shape[0] != per_image:
            return first
        return torch.cat(outputs).index_select(0, back.to(first.device))
    if isinstance(first, dict):  # diffusers' BaseOutput is an OrderedDict dataclass
        return type(first)(**{k: _merge([o[k] for o in outputs], back, per_image) for k in first.keys()})
    if type(first) in (list, tuple):
        return type(first)(_merge(list(parts), back, per_image) for parts in zip(*outputs))
    return first
