"""Which torch device a run uses, checked before any model is loaded (docs/method.md, "Errors
and exit codes"): a typo or a GPU this PyTorch cannot use is a message, not a crash after a
long model load."""
from __future__ import annotations

import re

from .errors import InputError

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
