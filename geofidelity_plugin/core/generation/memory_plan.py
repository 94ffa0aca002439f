"""Which memory plan a generation run uses, chosen before any weight is loaded (method §4
Generators; docs/memory-plans.md has the table, the activation estimate and its sources).

The plans: ``gpu`` (the whole pipeline on the device), ``model-offload``
(diffusers' ``enable_model_cpu_offload``: one component on the device at a time), ``group-offload``
(diffusers' group offloading: the denoiser one block at a time, text encoders one layer at a time,
overlapped with CUDA streams) and ``sequential`` (``enable_sequential_cpu_offload``: one layer at a
time, no overlap). The chooser takes, among every plan and batch split whose predicted peak plus
a fixed headroom fits the budget, the one with the shortest predicted time per panel
(:mod:`.plan_time`): on an H200 a whole FLUX.1-dev panel under group offload took 22 s where model
offload, split to one image per call to fit 24 GiB, took 115 s. ``sequential`` is taken only when
nothing else fits. Layerwise fp8 storage of the denoiser is only ever an explicit choice: it
changes the images. None of the offload plans changes the numbers computed — the same kernels run
on the same tensors, only where the weights wait between uses differs — so only fp8 and VAE
tiling enter a generated image's resume key (:attr:`MemoryPlan.numerics`).

Estimate (stated plainly: an estimate, not a measurement of these models):
weights = parameters × bytes of the run dtype (fp8-stored denoiser layers 1 byte); denoiser
activations = ``alpha`` × images × cfg rows × tokens × width × bytes; VAE decode (sliced: one image
at a time) = ``VAE_BETA`` × side² × decoder channels × bytes. ``alpha`` and ``VAE_BETA`` were
measured on CPU (high-water mark of one forward pass at 1024², random weights; see the doc).
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field, replace

from ..errors import InputError
from .component_sizes import GeneratorSizes
from .options import CPU_PLANS, PLANS  # noqa: F401 (public here too)

GIB = 1024 ** 3
MIB = 1024 ** 2
#: kept free for the CUDA context, cuBLAS/cuDNN workspaces and allocator fragmentation
HEADROOM = 1 * GIB
#: live full-resolution tensors of a VAE decode, in units of side² × channels (measured 7.5 at 512²,
#: 7.8 at 768², SDXL-shaped decoder, fp32, CPU; rounded up)
VAE_BETA = 8.0
#: VAE tile side when tiling is needed at 1024² (the VAEs' own tile size is their 1024 px sample size)
VAE_TILE = 512
#: denoising steps the time model assumes when the caller gives none
DEFAULT_STEPS = 30
_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}
_BUDGET = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(gib|gb|g|mib|mb|m)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class MemoryPlan:
    """A chosen plan and why; ``batch`` is the images per pipeline call (a panel of ``samples``
    images takes ceil(samples / batch) calls)."""

    plan: str
    batch: int
    requested_batch: int
    dtype: str
    device_type: str
    fp8_denoiser: bool = False
    vae_slicing: bool = True
    vae_tiling: bool = False
    group_pinning: str | None = None  # "ahead" (faster) or "on the fly" (half the RAM)
    predicted_peak_bytes: int = 0
    phases: dict = field(default_factory=dict)
    budget_bytes: int | None = None
    budget_source: str = ""
    headroom_bytes: int = HEADROOM
    ram_needed_bytes: int = 0
    ram_free_bytes: int | None = None
    forced: bool = False
    fits: bool = True
    sizes_origin: str = ""
    reason: str = ""
    #: the time model's seconds per panel (:mod:`.plan_time`; None on the CPU or with no budget)
    predicted_s_per_panel: float | None = None
    time_basis: str = ""
    #: the best fitting choice of every other plan, or why it does not fit (what the choice beat)
    alternatives: tuple = ()

    @property
    def numerics(self) -> str:
        """What of the plan changes the images (a resume key field): ``standard`` otherwise."""
        parts = (["fp8-denoiser"] if self.fp8_denoiser else []) + ([f"vae-tiled-{VAE_TILE}"] if self.vae_tiling else [])
        return "+".join(parts) or "standard"

    def to_dict(self) -> dict:
        return {**asdict(self), "numerics": self.numerics,
                "predicted_peak_gib": round(self.predicted_peak_bytes / GIB, 2)}


def parse_budget(text) -> int | None:
    """``--vram-budget``: ``12GB``, ``12 GiB``, ``12000MB``, ``12`` (GiB) → bytes. GB means GiB
    here, as on a card's box: a "12 GB" card has 12 GiB."""
    if text is None or str(text).strip() == "":
        return None
    from ..sizes import parse_size  # the one size reader of every memory option

    value = parse_size(text, "VRAM budget (--vram-budget)", "12GB, 7.5GB or 8000MB", bare="G", units="MG")
    if value <= 0:
        raise InputError(f"VRAM budget {text!r} is not a size — write it like 12GB, 7.5GB or 8000MB")
    return value


def check_plan(plan: str | None, device_type: str) -> str | None:
    if plan is None or str(plan).strip() in ("", "auto"):
        return None
    plan = str(plan).strip().lower()
    if plan not in PLANS:
        raise InputError(f"unknown memory plan {plan!r} — use auto, {', '.join(PLANS)}")
    if device_type == "cpu" and plan not in CPU_PLANS:
        raise InputError(f"the plan {plan!r} needs a GPU (accelerate's sequential offload moves layers to an "
                         f"accelerator) — on the CPU use {', '.join(CPU_PLANS)}, or run on a CUDA device")
    return plan


# -- the estimate ---------------------------------------------------------------------------------
def _batches(n: int) -> list[int]:
    out = [n]
    while out[-1] > 1:
        out.append(math.ceil(out[-1] / 2))
    return out


def estimate(sizes: GeneratorSizes, plan: str, dtype: str, resolution: int, batch: int,
             fp8_denoiser: bool = False, vae_tiling: bool = False) -> dict:
    """Peak device bytes of one pipeline call of ``batch`` images under ``plan``, by phase
    (text encoding, denoising, VAE decoding), and the CPU RAM the plan parks weights in."""
    b = _BYTES[dtype]
    act = sizes.activation
    den = sizes.denoiser
    den_b = (den.fp8_params + (den.params - den.fp8_params) * b) / den.params if fp8_denoiser else b
    vae_b = 4 if act.vae_upcast and dtype == "fp16" else b
    w_den = den.params * den_b
    tes = sizes.role("text_encoder") + sizes.role("other")
    vaes = sizes.role("vae")
    w_tes = [(c.params - c.fp32_params) * b + c.fp32_params * (4 if dtype == "fp16" else b) for c in tes]
    w_vae = sum(c.params for c in vaes) * vae_b
    a_den = act.alpha * batch * act.cfg_batch * act.tokens_at(resolution) * act.width * b
    side = min(resolution, VAE_TILE) if vae_tiling else resolution
    a_vae = VAE_BETA * side * side * act.vae_channels * vae_b + resolution * resolution * 3 * vae_b
    if plan == "gpu":
        resident = sum(w_tes) + w_den + w_vae
        phases = {"text_encoders": resident, "denoiser": resident + a_den, "vae": resident + a_vae}
    elif plan == "model-offload":
        phases = {"text_encoders": max(w_tes, default=0), "denoiser": w_den + a_den, "vae": w_vae + a_vae}
    elif plan == "group-offload":  # streams prefetch the next group: two on the device at once
        groups = [min(c.params * b, 2 * c.largest_tensor * b) for c in tes]
        if den.offload_unit == "block":
            g_den = (den.params - den.block_params + 2 * den.largest_block) * den_b
        else:
            g_den = 2 * den.largest_tensor * den_b
        vae_resident = sum(c.params for c in vaes) * b  # the VAE stays on the device (see _group_offload)
        phases = {"text_encoders": max(groups, default=0) + vae_resident,
                  "denoiser": min(w_den, g_den) + a_den + vae_resident, "vae": w_vae + a_vae}
    elif plan == "sequential":
        phases = {"text_encoders": max((c.largest_tensor * b for c in tes), default=0),
                  "denoiser": den.largest_tensor * den_b + a_den,
                  "vae": max((c.largest_tensor for c in vaes), default=0) * vae_b + a_vae}
    else:
        raise InputError(f"unknown memory plan {plan!r} — use {', '.join(PLANS)}")
    ram = 0 if plan == "gpu" else sum(w_tes) + w_den + w_vae
    return {"phases": {k: int(v) for k, v in phases.items()}, "peak": int(max(phases.values())),
            "weights": int(sum(w_tes) + w_den + w_vae), "ram": int(ram)}


# -- the choice -----------------------------------------------------------------------------------
def choose_plan(sizes: GeneratorSizes, dtype: str, resolution: int, batch: int, device_type: str,
                budget_bytes: int | None = None, budget_source: str = "", ram_free_bytes: int | None = None,
                plan: str | None = None, fp8_denoiser: bool = False, steps: int | None = None,
                device_name: str = "", plans: tuple | None = None, speed=None) -> MemoryPlan:
    """The plan and images per call with the shortest predicted time per panel (:mod:`.plan_time`)
    whose predicted peak + :data:`HEADROOM` fits ``budget_bytes``: a whole panel under group
    offload can beat a split one under model offload. ``sequential`` only when nothing else fits.
    On the CPU, or with no budget known, the whole pipeline stays together (``gpu``) unless a
    plan is forced. ``plan`` forces a plan: its largest batch that fits is taken, or one image
    per call marked ``fits=False`` when none does. ``steps``: the run's denoising steps (30 when
    not given); ``device_name`` scales the recorded times (:func:`.plan_time.device_speed`), or
    ``speed`` does (a :class:`.plan_time.DeviceSpeed`, e.g. from the device's probe: :mod:`.plan_probe`);
    ``plans`` limits the candidates (default: every plan)."""
    if dtype not in _BYTES:
        raise InputError(f"unknown dtype {dtype!r}; use one of {', '.join(_BYTES)}")
    forced = check_plan(plan, device_type)
    base = MemoryPlan(plan=forced or "gpu", batch=batch, requested_batch=batch, dtype=dtype, device_type=device_type,
                      fp8_denoiser=bool(fp8_denoiser), vae_slicing=True, budget_bytes=budget_bytes,
                      budget_source=budget_source, ram_free_bytes=ram_free_bytes, forced=forced is not None,
                      sizes_origin=sizes.origin)
    if device_type == "cpu" or budget_bytes is None:
        why = ("the device is the CPU: no separate device memory to fit" if device_type == "cpu"
               else "no VRAM budget known: the whole pipeline goes on the device")
        return _finish(sizes, base, resolution, batch, f"{why}{'; plan forced' if forced else ''}")
    from .plan_time import device_speed, panel_seconds

    steps = int(steps) if steps else DEFAULT_STEPS
    speed = speed or device_speed(device_name)
    usable = budget_bytes - HEADROOM
    tiling = estimate(sizes, "model-offload", dtype, resolution, 1, fp8_denoiser)["phases"]["vae"] > usable
    base = replace(base, vae_tiling=tiling)
    fitting: dict[str, list] = {}
    needs: dict[str, int] = {}
    for candidate in ([forced] if forced else [p for p in PLANS if plans is None or p in plans]):
        for size in _batches(batch):
            guess = estimate(sizes, candidate, dtype, resolution, size, fp8_denoiser, tiling)
            needs.setdefault(candidate, guess["peak"])
            needs[candidate] = min(needs[candidate], guess["peak"])
            if guess["peak"] <= usable and _ram_ok(guess, ram_free_bytes, candidate):
                seconds = panel_seconds(sizes, candidate, dtype, resolution, batch, size, steps, speed, fp8_denoiser)
                fitting.setdefault(candidate, []).append((seconds, size, guess))
                if forced:
                    break  # a forced plan: its largest batch that fits
    ranked = sorted(((min(options, key=lambda o: (o[0], -o[1])), name) for name, options in fitting.items()
                     if forced or name != "sequential"), key=lambda item: (item[0][0], PLANS.index(item[1])))
    if not ranked and "sequential" in fitting:
        ranked = [(min(fitting["sequential"], key=lambda o: (o[0], -o[1])), "sequential")]
    if ranked:
        (seconds, size, guess), chosen = ranked[0]
        others = []
        for name in PLANS:
            if name == chosen or (plans is not None and name not in plans) or forced:
                continue
            if name in fitting:
                o_seconds, o_size, _ = min(fitting[name], key=lambda o: (o[0], -o[1]))
                split = (f" would split to {o_size} image(s) per call" if o_size < batch else f", {o_size} images per call")
                others.append({"plan": name, "batch": o_size, "predicted_s_per_panel": round(o_seconds, 1),
                               "fits": True, "text": f"{name}{split}: {o_seconds:.0f} s"})
            elif name in needs:
                others.append({"plan": name, "batch": None, "predicted_s_per_panel": None, "fits": False,
                               "text": f"{name} does not fit ({(needs[name] + HEADROOM) / GIB:.1f} GiB needed)"})
        split = "" if size == batch else f" (split from {batch})"
        why = (f"{chosen}, {size} image(s) per call{split}: predicted {seconds:.0f} s per panel of {batch} at "
               f"{steps} steps, peak {guess['peak'] / GIB:.1f} GiB + {HEADROOM / GIB:.0f} GiB headroom within the "
               f"{budget_bytes / GIB:.1f} GiB budget ({budget_source or 'given'})")
        if forced:
            why = f"plan {forced} forced; " + why
        elif others:
            why += "; " + "; ".join(o["text"] for o in others)
        if chosen == "sequential" and not forced:
            why += "; sequential because no other plan fits"
        if tiling:
            why += f"; the VAE decodes in {VAE_TILE}-px tiles (a whole 1024² decode does not fit)"
        timed = replace(base, plan=chosen, predicted_s_per_panel=round(seconds, 1), time_basis=speed.basis,
                        alternatives=tuple(others))
        return _finish(sizes, timed, resolution, size, why)
    if forced:
        return _finish(sizes, replace(base, fits=False), resolution, 1,
                       f"plan {forced} forced: predicted peak exceeds the {budget_bytes / GIB:.1f} GiB budget even "
                       "with one image per call — it may run out of memory")
    least = estimate(sizes, "sequential", dtype, resolution, 1, fp8_denoiser, True)
    raise InputError(
        f"{sizes.generator} does not fit {budget_bytes / GIB:.1f} GiB of GPU memory ({budget_source or 'budget'}): "
        f"even sequential offload, one image per call, with a tiled VAE, needs about "
        f"{(least['peak'] + HEADROOM) / GIB:.2f} GiB{_ram_note(least, ram_free_bytes)} — free GPU memory (close other "
        "programs using it), use a larger GPU or a larger --vram-budget"
        f"{'' if fp8_denoiser else ', or add --fp8-denoiser (fp8 weight storage; changes the images)'}")


def _ram_ok(guess: dict, ram_free: int | None, plan: str) -> bool:
    return ram_free is None or plan == "gpu" or guess["ram"] <= ram_free


def _ram_note(guess: dict, ram_free: int | None) -> str:
    if ram_free is not None and guess["ram"] > ram_free:
        return f" and {guess['ram'] / GIB:.1f} GiB of free RAM for the offloaded weights ({ram_free / GIB:.1f} GiB free)"
    return ""


def _finish(sizes: GeneratorSizes, plan: MemoryPlan, resolution: int, batch: int, reason: str) -> MemoryPlan:
    guess = estimate(sizes, plan.plan, plan.dtype, resolution, batch, plan.fp8_denoiser, plan.vae_tiling)
    pinning = None
    if plan.plan == "group-offload":  # pinned copies made ahead double the RAM the weights take
        pinning = "ahead" if plan.ram_free_bytes is None or 2 * guess["ram"] <= plan.ram_free_bytes else "on the fly"
    return replace(plan, batch=batch, predicted_peak_bytes=guess["peak"], phases=guess["phases"],
                   ram_needed_bytes=guess["ram"] * (2 if pinning == "ahead" else 1), group_pinning=pinning,
                   reason=reason)


# -- the machine ----------------------------------------------------------------------------------
def device_budget(device, vram_budget: int | None) -> tuple[int | None, str]:
    """The budget: ``--vram-budget`` when given, else the device's free memory now."""
    if vram_budget is not None:
        return vram_budget, "--vram-budget"
    import torch

    if device.type == "cuda":
        free, _total = torch.cuda.mem_get_info(device)
        return int(free), f"free memory of {torch.cuda.get_device_name(device)} now"
    if device.type == "mps" and hasattr(torch, "mps") and hasattr(torch.mps, "recommended_max_memory"):
        return int(torch.mps.recommended_max_memory() - torch.mps.driver_allocated_memory()), "Metal's recommended maximum"
    return None, ""


def free_ram() -> int | None:
    try:
        import psutil
    except ImportError:
        return None
    return int(psutil.virtual_memory().available)


def apply_plan(pipe, plan: MemoryPlan, device) -> None:
    """Place ``pipe`` as ``plan`` says, through diffusers' own APIs only."""
    import torch

    device = torch.device(device)
    denoiser = next((getattr(pipe, n) for n in ("transformer", "unet") if getattr(pipe, n, None) is not None), None)
    if plan.fp8_denoiser and denoiser is not None:
        denoiser.enable_layerwise_casting(storage_dtype=torch.float8_e4m3fn, compute_dtype=denoiser.dtype)
    if plan.plan == "gpu":
        pipe.to(device)
    elif plan.plan == "model-offload":
        pipe.enable_model_cpu_offload(device=device)
    elif plan.plan == "group-offload":
        _group_offload(pipe, device, low_cpu_mem_usage=plan.group_pinning == "on the fly")
    elif plan.plan == "sequential":
        refuse_known_failure(type(pipe).__name__, plan.plan)
        pipe.enable_sequential_cpu_offload(device=device)
    vae = getattr(pipe, "vae", None)
    if vae is not None and plan.vae_slicing and hasattr(vae, "enable_slicing"):
        vae.enable_slicing()
    if vae is not None and plan.vae_tiling:
        vae.enable_tiling()
        scale = 2 ** (len(vae.config.block_out_channels) - 1)
        vae.tile_sample_min_size, vae.tile_latent_min_size = VAE_TILE, VAE_TILE // scale


# Plans that fail for a pipeline class with the libraries of the lock, as `make gpu-check` measured them
# (docs/memory-plans.md "Measured on a GPU"): refused before any step, with the way out.
KNOWN_FAILURES = {
    ("HunyuanDiTPipeline", "sequential"): (
        "sequential offload does not run HunyuanDiT with diffusers 0.42 (measured on an NVIDIA H200: a parameter "
        "the transformer reads outside its layers is left on the meta device)",
        "use --plan group-offload (peak ≈ 3.3 GiB and faster) or model-offload"),
}


def refuse_known_failure(pipeline_class: str, plan: str) -> None:
    known = KNOWN_FAILURES.get((pipeline_class, plan))
    if known:
        raise InputError(f"{known[0]} — {known[1]}")


def _group_offload(pipe, device, low_cpu_mem_usage: bool) -> None:
    """Block-level groups for a denoiser with top-level block lists, leaf-level for the text
    encoders (transformers keep their layer list below the top level); CUDA streams overlap the
    next group's transfer with the current one's compute. The VAE (≈ 84 M parameters) goes to the
    device whole: Stable Diffusion XL's pipeline casts its fp16 VAE to float32 for decoding, which
    group offloading's pinned copies do not follow (measured on an H200: "mixed dtype (CPU)")."""
    import torch
    from diffusers.hooks import apply_group_offloading

    from .component_sizes import role_of

    stream = device.type == "cuda"
    common = {"onload_device": device, "offload_device": torch.device("cpu"), "use_stream": stream,
              "low_cpu_mem_usage": low_cpu_mem_usage and stream}
    for name, component in pipe.components.items():
        if not isinstance(component, torch.nn.Module):
            continue
        role = role_of(name)
        lists = any(isinstance(c, (torch.nn.ModuleList, torch.nn.Sequential)) for c in component.children())
        if role == "vae":
            component.to(device)
        elif role == "denoiser" and lists:
            apply_group_offloading(component, offload_type="block_level", num_blocks_per_group=1, **common)
        else:
            apply_group_offloading(component, offload_type="leaf_level", **common)
