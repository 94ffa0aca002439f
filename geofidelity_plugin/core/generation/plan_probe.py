"""A short probe of this GPU, so that the plan time model (:mod:`.plan_time`) scales the recorded
H200 figures by what this device does rather than by its datasheet (docs/memory-plans.md, "Time
per panel"): dense matrix products in bf16 and fp16, and host-to-device copies from pinned and
from pageable memory — the two things a plan's time is made of. It takes a few seconds, so it is
run once and cached per device, driver, CUDA and torch version (a new driver can change both) in
the cache folder (``GEOFIDELITY_CACHE_DIR``).

A probe alone says nothing about a panel's time: it scales the H200's measured times by the
ratio of this device's figures to the same probe recorded on the H200 (``probe`` in
``resources/generation/plan_times.json``; the 2026-12-04 `make gpu-check` recorded it). Without
that reference the probe is not run (``--plan-probe auto``) or not used, and the published peaks
scale the compute as before.

torch is imported inside the functions that measure: the module loads without it.
"""
from __future__ import annotations

import datetime
import hashlib
import logging
import re
import statistics
import time
from pathlib import Path

from ..errors import InputError, OutputError
from .options import PLAN_PROBE_CHOICES
from .plan_time import PROBE_VERSION, DeviceSpeed, device_speed, probe_problem, reference_probe

log = logging.getLogger("geofidelity")

#: side of the square matrices multiplied (8192³: 1.1 TFLOP a product, ≈ 1.5 ms on an H200), and
#: the smaller side tried when the device has no room for three of them (384 MiB in bf16)
MATMUL_SIDES = (8192, 4096)
#: untimed products first (clocks up, cuBLAS picks its kernel), then timed ones for this long
MATMUL_WARMUP = 3
MATMUL_SECONDS = 0.25
#: bytes of one host-to-device copy (512 MiB: long enough that launch costs do not count)
COPY_BYTES = 512 * 1024 ** 2
COPY_REPEATS = 3
CACHE_FOLDER = "plan_probe"
#: what a probe is cached by: a probe of another of these is another device's
KEY_FIELDS = ("device", "driver", "cuda", "torch")


def check_mode(mode) -> str:
    """``--plan-probe``: ``auto`` (default), ``off`` or ``rerun``."""
    mode = "auto" if mode is None or str(mode).strip() == "" else str(mode).strip().lower()
    if mode not in PLAN_PROBE_CHOICES:
        raise InputError(f"unknown plan probe mode {mode!r} — use {', '.join(PLAN_PROBE_CHOICES)} "
                         "(docs/memory-plans.md, Time per panel)")
    return mode


# -- the cache ------------------------------------------------------------------------------------
def driver_version() -> str:
    """The NVIDIA driver's version (``/proc/driver/nvidia/version``), else the CUDA driver API
    version torch reports, else ``unknown``."""
    try:
        text = Path("/proc/driver/nvidia/version").read_text(encoding="utf-8", errors="replace")
        found = re.search(r"Kernel Module\s+(?:for \S+\s+)?([0-9][0-9.]+)", text)
        if found:
            return found.group(1)
    except OSError:
        pass
    try:
        import torch

        return f"CUDA driver API {torch._C._cuda_getDriverVersion()}"
    except (ImportError, AttributeError, RuntimeError):
        return "unknown"


def device_key(device=None) -> dict:
    """What a probe of ``device`` (a CUDA device) is cached by (:data:`KEY_FIELDS`)."""
    import torch

    return {"device": torch.cuda.get_device_name(device), "driver": driver_version(),
            "cuda": str(torch.version.cuda), "torch": torch.__version__}


def cache_path(key: dict) -> Path:
    """The probe's file in the cache folder: readable names, and a hash of the whole key."""
    from ..paths import cache_dir

    text = "|".join(str(key[k]) for k in KEY_FIELDS)
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", f"{key['device']}-{key['driver']}").strip("-")[:80]
    return cache_dir() / CACHE_FOLDER / f"{slug}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"


def read_cached(key: dict) -> dict | None:
    """The cached probe for ``key``, or None: a missing file silently, an unreadable, partial or
    foreign one with a log line (it is measured again rather than trusted)."""
    path = cache_path(key)
    if not path.is_file():
        return None
    from ..documents import read_json

    try:
        probe = read_json(path, "the plan probe cache", "it is ignored, and the probe is measured again")
    except InputError as exc:  # names the file and what is wrong with it
        log.warning("an unreadable plan probe cache: %s", exc)
        return None
    problem = probe_problem(probe)
    if problem is None and any(probe.get(k) != key[k] for k in KEY_FIELDS):
        problem = "it was measured on another device, driver or torch"
    if problem:
        log.warning("plan probe cache %s is ignored (%s): the probe is measured again", path, problem)
        return None
    return probe


def write_cached(probe: dict) -> Path:
    """Keep ``probe`` for later runs (an atomic write: a killed run leaves no half file)."""
    from ..atomic import write_json

    path = cache_path(probe)
    write_json(path, probe)
    return path


# -- the measurement ------------------------------------------------------------------------------
def run_probe(device="cuda") -> dict:
    """Measure ``device`` (a CUDA device): bf16 and fp16 matrix throughput (TFLOPS) and pinned and
    pageable host-to-device bandwidth (GB/s), with :data:`KEY_FIELDS` and the date. A few
    seconds. Anything but a CUDA device is refused: the figures scale CUDA measurements."""
    try:
        import torch
    except ImportError:
        raise InputError("the plan probe needs torch with CUDA — install it, or run with --plan-probe off") from None
    device = torch.device(device)
    if device.type != "cuda" or not torch.cuda.is_available():
        why = "no CUDA device is available" if device.type == "cuda" else f"{device} is not a CUDA device"
        raise InputError(f"the plan probe measures a CUDA GPU (matrix products and host-to-device copies), and "
                         f"{why} — run it on a machine with an NVIDIA GPU, or use --plan-probe off")
    if device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    start = time.perf_counter()
    probe = {"probe_version": PROBE_VERSION, **device_key(device),
             "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")}
    side, probe["bf16_tflops"] = matmul_tflops(torch, device, torch.bfloat16)
    probe["fp16_tflops"] = matmul_tflops(torch, device, torch.float16, (side,))[1]
    probe["pinned_gb_s"] = copy_gb_s(torch, device, pinned=True)
    probe["pageable_gb_s"] = copy_gb_s(torch, device, pinned=False)
    probe.update(matmul_side=side, copy_bytes=COPY_BYTES, seconds=round(time.perf_counter() - start, 2))
    torch.cuda.empty_cache()  # the probe's buffers go back to the device, not to the allocator's cache
    return probe


def _sync(torch, device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def matmul_tflops(torch, device, dtype, sides: tuple = MATMUL_SIDES,
                  seconds: float = MATMUL_SECONDS) -> tuple[int, float]:
    """(side, TFLOPS) of square products in ``dtype``: the first side of ``sides`` that fits,
    warmed up, then timed for about ``seconds`` (any device: the tests time a CPU's)."""
    for side in sides:
        try:
            a = torch.randn(side, side, device=device, dtype=dtype)
            b, out = torch.randn_like(a), torch.empty_like(a)
            break
        except torch.OutOfMemoryError:
            continue
    else:
        raise InputError(f"the plan probe found no room on {device} for three {sides[-1]}² matrices — free GPU "
                         "memory, or use --plan-probe off")
    def timed(repeats: int) -> float:
        _sync(torch, device)
        t0 = time.perf_counter()
        for _ in range(repeats):
            torch.mm(a, b, out=out)
        _sync(torch, device)
        return time.perf_counter() - t0

    timed(MATMUL_WARMUP)
    repeats, elapsed = 1, timed(1)
    while elapsed < seconds / 2 and repeats < 4096:  # one product sizes the batch that counts
        repeats = min(4096, max(2 * repeats, int(repeats * seconds / max(elapsed, 1e-9))))
        elapsed = timed(repeats)
    del a, b, out
    return side, 2.0 * side ** 3 * repeats / elapsed / 1e12


def copy_gb_s(torch, device, pinned: bool, nbytes: int = COPY_BYTES, repeats: int = COPY_REPEATS) -> float:
    """Host-to-device bandwidth (GB/s, median of ``repeats`` copies after one untimed) from pinned
    or pageable host memory, its pages touched first."""
    host = torch.empty(nbytes, dtype=torch.uint8, pin_memory=pinned)
    host.fill_(1)
    target = torch.empty(nbytes, dtype=torch.uint8, device=device)
    times = []
    for attempt in range(repeats + 1):
        _sync(torch, device)
        t0 = time.perf_counter()
        target.copy_(host, non_blocking=pinned)
        _sync(torch, device)
        if attempt:
            times.append(time.perf_counter() - t0)
    del host, target
    return nbytes / statistics.median(times) / 1e9


# -- what a run uses ------------------------------------------------------------------------------
def probe_for_run(device, mode: str = "auto") -> dict | None:
    """This CUDA device's probe as ``--plan-probe`` says: ``auto`` the cached one, measured (and
    cached) when there is none and the H200 reference exists; ``rerun`` measured again; ``off``
    none. A probe that fails or cannot be cached is logged, never the end of a run."""
    mode = check_mode(mode)
    if mode == "off" or getattr(device, "type", str(device)) != "cuda":
        return None
    try:
        if mode == "auto":
            cached = read_cached(device_key(device))
            if cached is not None or reference_probe() is None:
                return cached
        probe = run_probe(device)
    except (InputError, RuntimeError) as exc:
        log.warning("plan probe on %s failed (%s): the plan times use the published peaks", device, exc)
        return None
    log.info("plan probe on %s: bf16 %.0f / fp16 %.0f TFLOPS, pinned %.1f / pageable %.1f GB/s (%.1f s)",
             probe["device"], probe["bf16_tflops"], probe["fp16_tflops"], probe["pinned_gb_s"],
             probe["pageable_gb_s"], probe["seconds"])
    try:
        write_cached(probe)
    except (InputError, OutputError, OSError) as exc:  # a full or read-only cache: the run goes on
        log.warning("plan probe not cached (%s): it is measured again next run", exc)
    return probe


def speed_for_run(device, dtype: str, mode: str = "auto") -> tuple[DeviceSpeed, dict | None]:
    """The time model's scale for a run on ``device`` in ``dtype`` and the probe behind it (None
    on a CPU, with ``--plan-probe off``, or before the H200 reference exists)."""
    mode = check_mode(mode)
    if getattr(device, "type", str(device)) != "cuda":
        return device_speed(""), None
    import torch

    probe = probe_for_run(device, mode)
    speed = device_speed(torch.cuda.get_device_name(device), probe, dtype)
    if mode == "off":
        note = "no probe (--plan-probe off)"
    elif probe is None and reference_probe() is None:
        note = "no probe run: no H200 reference probe is recorded yet"
    else:
        return speed, probe
    return DeviceSpeed(speed.compute, speed.transfer, f"{speed.basis}; {note}", speed.pageable), probe
