"""Which torch device a run uses, checked before any model is loaded (docs/method.md, "Errors
and exit codes"): a typo or a GPU this PyTorch cannot use is a message, not a crash after a
long model load."""
from __future__ import annotations

import contextlib
import re
from typing import Any

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.vision.precision import check_precision

_FORM = re.compile(r"^(cpu|mps|cuda(:\d+)?)$")


def check_device(device: str | None) -> str | None:
    """``None`` (automatic: CUDA when present) or a device this machine's PyTorch can use."""
    if device is None or not str(device).strip():
        return None
    device = str(device).strip().lower()
    if not _FORM.match(device):
        raise InputError(f"unknown device {device!r} — use cpu, cuda, cuda:N (N = GPU number) or mps, "
                         "or leave it empty to use the GPU when there is one")
    if device == "cpu":
        return device
    import torch

    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            build = "a CPU-only build" if torch.version.cuda is None else f"built for CUDA {torch.version.cuda}"
            raise InputError(f"device {device!r}: this PyTorch ({torch.__version__}, {build}) sees no CUDA GPU — "
                             "use the device cpu, or install a CUDA build of PyTorch and an NVIDIA driver")
        index = int(device.split(":")[1]) if ":" in device else 0
        count = torch.cuda.device_count()
        if index >= count:
            raise InputError(f"device {device!r}: this machine has {count} CUDA GPU(s), numbered 0 to "
                             f"{count - 1} — choose one of them")
    if device == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise InputError("device 'mps': Apple's Metal backend is not available here — use cpu")
    return device


_TORCH_DTYPES = {"fp32": "float32", "tf32": "float32", "bf16": "bfloat16", "fp16": "float16"}


def torch_dtype(torch, precision: str, device) -> Any:
    """The torch dtype of a precision name (method §5): the same on every device — fp32 unless
    bf16 or fp16 is asked for; a GPU without bf16 is told so rather than silently given fp16."""
    precision = check_precision(precision, "precision")
    if precision == "bf16" and torch.device(device).type == "cuda" and not torch.cuda.is_bf16_supported():
        raise InputError(f"the GPU {device} ({torch.cuda.get_device_name(device)}) cannot compute in bf16 — "
                         "use the precision fp32 (the default) or fp16")
    return getattr(torch, _TORCH_DTYPES[precision])


@contextlib.contextmanager
def exact_fp32(torch, device, tf32: bool = False):
    """fp32 that stays fp32 on a GPU: TF32 (10-bit mantissa inputs) off for cuDNN convolutions —
    on by default on Ampere and newer — and for cuBLAS matmuls, inside this block only; with
    ``tf32`` (the precision tf32, an explicit choice) both are switched on instead. The
    operator-level settings of recent PyTorch are used where they exist (mixing them with the
    older ``allow_tf32`` flags is an error there)."""
    if torch.device(device).type != "cuda":
        yield
        return
    cudnn, matmul = torch.backends.cudnn, torch.backends.cuda.matmul
    if hasattr(getattr(cudnn, "conv", None), "fp32_precision"):
        targets, name, exact = (cudnn.conv, matmul), "fp32_precision", "tf32" if tf32 else "ieee"
    else:
        targets, name, exact = (cudnn, matmul), "allow_tf32", bool(tf32)
    saved = [getattr(target, name) for target in targets]
    try:
        for target in targets:
            setattr(target, name, exact)
        yield
    finally:
        for target, value in zip(targets, saved):
            setattr(target, name, value)
