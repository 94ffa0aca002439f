"""How long a panel takes under each memory plan, predicted before any weight is loaded
(docs/memory-plans.md, "Time per panel"). Stdlib only: the plan table reads it without torch.

A pipeline call of *b* images runs the text encoders, *s* denoiser steps and one VAE decode per
image. With ``step`` one denoiser step of one image with the whole denoiser on the device
(compute-bound at 1024², so a call of *b* images takes *b* × ``step`` per step) and ``call`` the
text encoding and decode of one image, a call takes, in seconds:

- ``gpu``: *b* × ``call`` + *s* × *b* × ``step``
- ``model-offload``: the same + every weight moved onto the device once per call, at the
  bandwidth offloading reached (``model_offload``; pageable copies through accelerate's hooks)
- ``group-offload``: *b* × ``call`` + the text encoders' weights at ``group_call`` + *s* ×
  max(``group_factor`` × *b* × ``step``, the denoiser's weights at the link's bandwidth ``link``):
  the next block is fetched on a CUDA stream while the current one computes, so a step costs the
  larger of the two, with the hooks' own overhead in ``group_factor``. That overhead depends on
  the denoiser: SDXL's UNet (many small blocks, each paying the hooks' cost) ran a step 3.4–5.8×
  slower than on the ``gpu`` plan where the transformers ran 1.06–1.47× slower, so a generator
  whose group offloading was measured keeps its own factor and the others take the median
- ``sequential``: *b* × ``call`` + the text encoders' weights at ``sequential`` + *s* × (*b* ×
  ``step`` + the denoiser's weights at ``sequential``): one layer at a time, no overlap

A panel of *n* images takes ceil(*n* / *b*) calls. ``step`` and ``call`` are measured per
generator on an H200 by ``make gpu-check`` (the ``gpu`` plan's runs; random weights, real shapes);
the bandwidths and the fallback ``group_factor`` are the medians of what the offload runs of all
generators imply, a generator's own ``group_factor`` the median of its group-offload runs
(``core/generation/plan_calibration.py`` derives them; ``resources/generation/plan_times.json``
holds them). A generator without a measurement (a custom folder) takes 2 × denoiser parameters ×
tokens × guidance rows FLOPs per image and step at the H200's median measured throughput.

Another GPU is scaled from the H200 figures. With a probe of it (:mod:`.plan_probe`: matrix
products and host-to-device copies, a few seconds, cached) and the same probe recorded on the H200
(``probe`` in the data file), compute scales by the ratio of the two probes' matrix throughput in
the run's dtype, group offloading's transfers by their pinned-copy bandwidths and model and
sequential offloading's by their pageable-copy bandwidths. Without either, compute scales by the
ratio of the published peaks (:data:`PEAK_TFLOPS`) and transfers keep the H200 host's figures.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from ..resources import resource
from .component_sizes import GeneratorSizes

DATA_FILE = ("generation", "plan_times.json")
#: published dense fp16/bf16 tensor peaks (TFLOPS, fp32 accumulate) from the vendors' datasheets:
#: a device's compute time is the H200's × (H200 peak / its peak). Longest names first.
PEAK_TFLOPS = {
    "H100 PCIe": 756.0, "H200": 989.0, "H100": 989.0, "A100": 312.0, "L40S": 362.0, "L4": 121.0,
    "RTX 4090": 165.2, "V100": 125.0, "T4": 65.0,
}
REFERENCE_DEVICE = "H200"
#: float32 runs without tensor cores (TF32 off): the H200's 67 TFLOPS of fp32 against 989 of bf16
FP32_SLOWER = 989.0 / 67.0


@lru_cache(maxsize=1)
def calibration() -> dict:
    """The recorded figures (``resources/generation/plan_times.json``)."""
    from ..documents import read_json

    return read_json(resource(*DATA_FILE), "the plan time data file", "reinstall the plugin")


@dataclass(frozen=True)
class DeviceSpeed:
    """How this device's compute and transfers compare with the recorded H200's (multipliers of
    seconds), and where the figures come from: ``transfer`` for pinned copies (group
    offloading's prefetch), ``pageable`` for pageable ones (model and sequential offloading)."""

    compute: float = 1.0
    transfer: float = 1.0
    basis: str = ""
    pageable: float = 1.0


#: a probe's figures (:mod:`.plan_probe`), each a positive number; its layout's version
PROBE_FIGURES = ("bf16_tflops", "fp16_tflops", "pinned_gb_s", "pageable_gb_s")
PROBE_VERSION = 1


def probe_problem(probe) -> str | None:
    """Why ``probe`` (a device's or the H200 reference's) cannot scale the figures, or None."""
    if not isinstance(probe, dict):
        return "it is not a JSON object"
    if probe.get("probe_version") != PROBE_VERSION:
        return f"its layout is version {probe.get('probe_version')!r}, not {PROBE_VERSION}"
    for key in PROBE_FIGURES:
        value = probe.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
            return f"its {key} is {value!r}, not a positive number"
    return None


def reference_probe(cal: dict | None = None) -> dict | None:
    """The probe recorded on the H200 with the time figures (None until `make gpu-check` has
    recorded one and ``scripts/plan_calibration.py`` has written it)."""
    probe = (cal or calibration()).get("probe")
    return probe if probe is not None and probe_problem(probe) is None else None


def probe_multipliers(probe: dict, reference: dict, dtype: str) -> tuple[float, float, float]:
    """(compute, pinned, pageable) multipliers of the H200's seconds: the reference's throughput
    over this device's. float32 runs take the fp16 ratio (the probe times no float32 products)."""
    tflops = "bf16_tflops" if dtype == "bf16" else "fp16_tflops"
    return (reference[tflops] / probe[tflops], reference["pinned_gb_s"] / probe["pinned_gb_s"],
            reference["pageable_gb_s"] / probe["pageable_gb_s"])


def device_speed(device_name: str = "", probe: dict | None = None, dtype: str = "bf16") -> DeviceSpeed:
    """The scale for a CUDA device named ``device_name`` (``torch.cuda.get_device_name``): from
    ``probe`` (this device's, :mod:`.plan_probe`) when the H200 reference probe is recorded too,
    else from the published peaks."""
    cal = calibration()
    recorded = f"the H200 figures of `make gpu-check` ({cal['measured']})"
    if probe is not None and probe_problem(probe) is None:
        reference = reference_probe(cal)
        if reference is not None:
            return _probed(recorded, probe, reference, dtype)
        speed = _published(recorded, device_name)
        return replace(speed, basis=f"{speed.basis}; the probe on {probe.get('device', device_name)} "
                                    f"({probe.get('date', '?')}) is not used: no H200 reference probe is recorded yet")
    return _published(recorded, device_name)


def _probed(recorded: str, probe: dict, reference: dict, dtype: str) -> DeviceSpeed:
    compute, pinned, pageable = probe_multipliers(probe, reference, dtype)
    tflops = "bf16_tflops" if dtype == "bf16" else "fp16_tflops"
    basis = (f"{recorded}; scaled by a probe on {probe.get('device', '?')} ({probe.get('date', '?')}): "
             f"{tflops[:4]} matrix products {probe[tflops]:.0f} vs {reference[tflops]:.0f} TFLOPS on the H200"
             f"{' (fp32 takes the fp16 ratio)' if dtype == 'fp32' else ''}, pinned copies "
             f"{probe['pinned_gb_s']:.1f} vs {reference['pinned_gb_s']:.1f} GB/s, pageable copies "
             f"{probe['pageable_gb_s']:.1f} vs {reference['pageable_gb_s']:.1f} GB/s")
    return DeviceSpeed(compute, pinned, basis, pageable)


def _published(recorded: str, device_name: str) -> DeviceSpeed:
    name = str(device_name or "")
    for key in sorted(PEAK_TFLOPS, key=len, reverse=True):
        if key.lower() in name.lower():
            if key == REFERENCE_DEVICE:
                return DeviceSpeed(1.0, 1.0, f"{recorded}, on an H200")
            ratio = PEAK_TFLOPS[REFERENCE_DEVICE] / PEAK_TFLOPS[key]
            return DeviceSpeed(ratio, 1.0, f"{recorded}; compute scaled by published peaks ({name}: "
                                           f"{PEAK_TFLOPS[key]:g} vs {PEAK_TFLOPS[REFERENCE_DEVICE]:g} TFLOPS), "
                                           "transfers as on the H200 host")
    shown = f"{name}: " if name else ""
    return DeviceSpeed(1.0, 1.0, f"{recorded}, unscaled ({shown}no published peak known for this device)")


def _bytes(dtype: str) -> int:
    return {"fp32": 4, "fp16": 2, "bf16": 2}[dtype]


def per_image(sizes: GeneratorSizes, dtype: str, resolution: int, cal: dict | None = None) -> tuple[float, float, str]:
    """(``step``, ``call``) seconds for one image on the H200 at ``resolution``, and their origin."""
    cal = cal or calibration()
    act = sizes.activation
    rows = act.cfg_batch
    tokens = act.tokens_at(resolution)
    scale = tokens / max(1, act.tokens_at(1024))
    pixels = (resolution / 1024) ** 2
    measured = cal["generators"].get(sizes.generator)
    if measured is not None:
        step = measured["step_s_per_image"] * scale * (FP32_SLOWER if dtype == "fp32" else 1.0)
        return step, measured["call_s_per_image"] * pixels, f"measured for {sizes.generator}"
    flops = 2.0 * sizes.denoiser.params * tokens * rows
    step = flops / cal["flops_per_s"] * (FP32_SLOWER if dtype == "fp32" else 1.0)
    return step, cal["call_s_per_image"] * pixels, "from the denoiser's size at the median measured throughput"


def group_factor(generator: str, cal: dict | None = None) -> float:
    """How much slower a denoiser step runs under group offloading than on the ``gpu`` plan: the
    generator's own measured factor, else the median over the measured generators' runs."""
    cal = cal or calibration()
    return cal["generators"].get(generator, {}).get("group_factor", cal["group_factor"])


def weight_bytes(sizes: GeneratorSizes, dtype: str, fp8_denoiser: bool = False) -> dict:
    """Bytes each kind of weight takes in ``dtype`` (what an offload plan moves)."""
    b = _bytes(dtype)
    den = sizes.denoiser
    den_b = den.params * b
    if fp8_denoiser:
        den_b = den.fp8_params + (den.params - den.fp8_params) * b
    tes = sum(c.params for c in sizes.role("text_encoder") + sizes.role("other")) * b
    vae = sum(c.params for c in sizes.role("vae")) * b
    return {"denoiser": den_b, "text_encoders": tes, "vae": vae, "all": den_b + tes + vae}


def call_seconds(sizes: GeneratorSizes, plan: str, dtype: str, resolution: int, images: int, steps: int,
                 speed: DeviceSpeed = DeviceSpeed(), fp8_denoiser: bool = False, cal: dict | None = None) -> float:
    """Predicted seconds of one pipeline call of ``images`` images under ``plan`` (``cal``: other
    figures than the recorded ones, as the calibration's own checks use)."""
    cal = cal or calibration()
    bw = cal["bandwidth"]
    step, call, _ = per_image(sizes, dtype, resolution, cal)
    step, call = step * speed.compute, call * speed.compute
    w = weight_bytes(sizes, dtype, fp8_denoiser)
    base = images * call
    if plan == "gpu":
        return base + steps * images * step
    if plan == "model-offload":
        return base + steps * images * step + w["all"] / bw["model_offload"] * speed.pageable
    if plan == "group-offload":
        fetch = w["denoiser"] / bw["link"] * speed.transfer
        return (base + w["text_encoders"] / bw["group_call"] * speed.transfer
                + steps * max(group_factor(sizes.generator, cal) * images * step, fetch))
    if plan == "sequential":
        move = w["denoiser"] / bw["sequential"] * speed.pageable
        return base + w["text_encoders"] / bw["sequential"] * speed.pageable + steps * (images * step + move)
    raise ValueError(f"unknown plan {plan!r}")


def panel_seconds(sizes: GeneratorSizes, plan: str, dtype: str, resolution: int, samples: int, batch: int,
                  steps: int, speed: DeviceSpeed = DeviceSpeed(), fp8_denoiser: bool = False,
                  cal: dict | None = None) -> float:
    """Predicted seconds of a panel of ``samples`` images made ``batch`` at a time."""
    calls = math.ceil(samples / batch)
    last = samples - (calls - 1) * batch
    full = call_seconds(sizes, plan, dtype, resolution, batch, steps, speed, fp8_denoiser, cal)
    return (calls - 1) * full + call_seconds(sizes, plan, dtype, resolution, last, steps, speed, fp8_denoiser, cal)
