"""One panel as ``make gpu-check`` times it (:mod:`gpu_check`; docs/gpu-check.md): four images of
1024² from one prompt, in as many pipeline calls as the memory plan's images per call, each call
running a few denoising steps with the end of every step timed; and the arithmetic that turns those
times into seconds per panel at the model's own step count. Torch is imported inside the functions
that need it, so the script still skips cleanly where it is missing.
"""
from __future__ import annotations

import inspect
import time
import warnings

PANEL = 4
RESOLUTION = 1024
PROMPT = "a street-level photograph of a residential street with parked cars and trees"


# -- arithmetic of the table ----------------------------------------------------------------
def steady_step_s(step_ends: list[float]) -> float:
    """Mean duration of the steps after the first, from the times at which steps ended (the
    first step also carries the call's start-up: latents, onloading, first kernels)."""
    if len(step_ends) < 2:
        raise ValueError("at least 2 timed steps are needed for a steady step time")
    gaps = [b - a for a, b in zip(step_ends, step_ends[1:])]
    return sum(gaps) / len(gaps)


def panel_seconds(call_s: float, step_ends: list[float], model_steps: int, calls: int = 1) -> float:
    """Seconds for one panel at the model's own step count, from ``calls`` pipeline calls that
    took ``call_s`` in all and each ran ``len(step_ends)`` steps."""
    return call_s + calls * (model_steps - len(step_ends)) * steady_step_s(step_ends)


def _sync(device: str) -> None:
    import torch

    if str(device).startswith("cuda"):
        torch.cuda.synchronize()


def run_panel(pipe, spec, steps: int, device: str = "cuda", resolution: int = RESOLUTION, batch: int = PANEL,
              **extra) -> dict:
    """One panel of ``PANEL`` images in calls of ``batch`` images (the plan's images per call),
    each with ``steps`` denoising steps: the calls' wall time in all, the step end times of the
    first call (s after its start) and, on CUDA, the peak memory over the panel."""
    import torch

    marks: list[float] = []

    def mark(*args):
        _sync(device)
        marks.append(time.perf_counter())
        return args[-1] if len(args) == 4 else None  # callback_on_step_end returns its kwargs

    params = inspect.signature(pipe.__call__).parameters
    generators = [torch.Generator("cpu").manual_seed(i) for i in range(PANEL)]
    kwargs = {"prompt": PROMPT, "num_inference_steps": steps, "guidance_scale": spec.guidance,
              "height": resolution, "width": resolution, "output_type": "np", **extra}
    if "callback_on_step_end" in params:
        kwargs["callback_on_step_end"] = lambda p, i, t, kw: mark(p, i, t, kw)
    else:  # PixArt-Σ: the older per-step callback
        kwargs.update(callback=lambda i, t, latents: mark(i, t, latents), callback_steps=1)
    if "clean_caption" in params:
        kwargs["clean_caption"] = False
    cuda = str(device).startswith("cuda")
    _sync(device)
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    calls, images = [], 0
    for first in range(0, PANEL, batch):
        chunk = generators[first:first + batch]
        marks = []
        start = time.perf_counter()
        with torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # random weights: overflow warnings in the image conversion
            images += len(pipe(**kwargs, num_images_per_prompt=len(chunk), generator=chunk).images)
        _sync(device)
        calls.append((time.perf_counter() - start, [m - start for m in marks]))
    return {"call_s": sum(c for c, _ in calls), "step_ends_s": calls[0][1], "calls": len(calls),
            "batch": batch, "images": images,
            "peak_allocated": torch.cuda.max_memory_allocated() if cuda else None,
            "peak_reserved": torch.cuda.max_memory_reserved() if cuda else None}
