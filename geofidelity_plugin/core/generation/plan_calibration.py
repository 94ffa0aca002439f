"""The figures of the plan time model (:mod:`.plan_time`) derived from `make gpu-check` results
(``docs/gpu-check/*.json``), and the model's error on them (docs/memory-plans.md, "Time per
panel"). ``python scripts/plan_calibration.py`` writes ``resources/generation/plan_times.json``
from here; the tests check that file is what these results give.

A generator's own group factor is kept where its group-offload runs were measured (SDXL's UNet
runs several times slower under group offloading than the transformers do); the leave-one-out
check takes it away with the generator's other offload runs.

A run's seconds per panel are those of the check itself: the measured calls + calls × (the
model's steps − the measured steps) × the steady step (the mean of the steps after the first).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from ..documents import read_json
from .component_sizes import published_sizes
from .plan_time import PROBE_FIGURES, REFERENCE_DEVICE, panel_seconds, probe_problem, weight_bytes

#: the H200 host's link: PCIe Gen5 x16, ≈ 55 GB/s host to device for pinned copies (what group
#: offloading's prefetch streams use); the offload runs do not measure it, the 2026-12-04 probe's
#: pinned copies did (54.9 GB/s)
LINK_BYTES_PER_S = 55e9
#: figures kept in the data file only to this many significant digits (stable across machines)
DIGITS = 4


@dataclass(frozen=True)
class MeasuredRun:
    generator: str
    dtype: str
    steps: int
    plan: str
    budget_gb: float | None
    batch: int
    calls: int
    images: int
    call_s: float
    steady_s: float
    measured_steps: int
    peak_allocated: int

    @property
    def panel_s(self) -> float:
        return self.call_s + self.calls * (self.steps - self.measured_steps) * self.steady_s

    @property
    def key(self) -> tuple[str, int]:
        return self.plan, self.batch


def _steady(step_ends: list[float]) -> float:
    gaps = [b - a for a, b in zip(step_ends, step_ends[1:])]
    return sum(gaps) / len(gaps)


#: what to do about a result file that cannot be read
RESULT_FIX = "restore it from the repository (docs/gpu-check/), or run `make gpu-check` again"


def measured_runs(paths) -> list[MeasuredRun]:
    """Every run that finished (``status`` ok, two timed steps or more) in the result files."""
    runs = []
    for path in paths:
        result = read_json(path, "the gpu-check result file", RESULT_FIX)
        for gen in result["generators"]:
            for run in gen["runs"]:
                ends = run.get("step_ends_s") or []
                if run.get("status") != "ok" or len(ends) < 2:
                    continue
                runs.append(MeasuredRun(gen["name"], gen["dtype"], int(gen["steps"]), run["plan"], run.get("budget_gb"),
                                        int(run["batch"]), int(run.get("calls", 1)), int(run["images"]),
                                        float(run["call_s"]), _steady(ends), len(ends), int(run["peak_allocated"])))
    return runs


def _round(x: float) -> float:
    return float(f"{x:.{DIGITS}g}")


def recorded_probe(paths) -> dict | None:
    """The H200's probe (:mod:`.plan_probe`) of the last result file that recorded one, its
    figures rounded, with the file's name: the reference another GPU's probe is compared with.
    None before any check recorded one."""
    found = None
    for path in paths:
        probe = read_json(path, "the gpu-check result file", RESULT_FIX).get("probe")
        if probe_problem(probe) is None and REFERENCE_DEVICE in str(probe.get("device", "")):
            found = {**probe, **{k: _round(probe[k]) for k in PROBE_FIGURES}, "from": Path(path).name}
    return found


def derive(runs: list[MeasuredRun], measured: str, leave_out: str | None = None, probe: dict | None = None) -> dict:
    """The data file's content from ``runs``: per generator its ``step`` and ``call`` seconds per
    image (gpu plan) and, where its group-offload runs were measured, its own group factor (the
    median of those runs'); the plans' bandwidths and the group factor of the others (medians over
    all generators' runs), all without ``leave_out``'s offload runs when given: the
    leave-one-generator-out check; ``probe``: the H200's probe (:func:`recorded_probe`), kept as
    the reference for other GPUs' probes."""
    generators = {}
    for name in sorted({r.generator for r in runs}):
        gpu = [r for r in runs if r.generator == name and r.plan == "gpu"]
        if not gpu:
            continue
        step = statistics.median(r.steady_s / r.batch for r in gpu)
        call = statistics.median((r.call_s - r.calls * r.measured_steps * r.steady_s) / r.images for r in gpu)
        generators[name] = {"dtype": gpu[0].dtype, "step_s_per_image": _round(step), "call_s_per_image": _round(call),
                            "runs": len(gpu)}
    model, group_call, group_factor, sequential, flops = [], [], [], [], []
    own_factor: dict[str, list[float]] = {}
    for r in runs:
        g = generators.get(r.generator)
        if g is None or r.generator == leave_out:
            continue
        sizes = published_sizes(r.generator)
        w = weight_bytes(sizes, r.dtype)
        step, call = g["step_s_per_image"], g["call_s_per_image"]
        residual = (r.call_s - r.calls * r.measured_steps * r.steady_s - r.images * call) / r.calls
        if r.plan == "model-offload" and residual > 0:
            model.append(w["all"] / residual)
        elif r.plan == "group-offload":
            group_factor.append(r.steady_s / (r.batch * step))
            own_factor.setdefault(r.generator, []).append(group_factor[-1])
            if residual > 0:
                group_call.append(w["text_encoders"] / residual)
        elif r.plan == "sequential" and r.steady_s > r.batch * step:
            sequential.append(w["denoiser"] / (r.steady_s - r.batch * step))
        elif r.plan == "gpu":
            act = sizes.activation
            flops.append(2.0 * sizes.denoiser.params * act.tokens_at(1024) * act.cfg_batch / step)
    for name, factors in own_factor.items():
        generators[name]["group_factor"] = _round(statistics.median(factors))
    out = {
        "about": "figures of the plan time model (core/generation/plan_time.py), written by "
                 "scripts/plan_calibration.py from make gpu-check's results; bytes per second, seconds",
        "measured": measured,
        "generators": generators,
        "call_s_per_image": _round(statistics.median(g["call_s_per_image"] for g in generators.values())),
        "flops_per_s": _round(statistics.median(flops)),
        "bandwidth": {"model_offload": _round(statistics.median(model)),
                      "group_call": _round(statistics.median(group_call)),
                      "link": LINK_BYTES_PER_S,
                      "sequential": _round(statistics.median(sequential))},
        "group_factor": _round(statistics.median(group_factor)),
        "from_runs": {"model_offload": len(model), "group_call": len(group_call), "group_factor": len(group_factor),
                      "sequential": len(sequential), "flops": len(flops)},
    }
    if probe is not None:
        out["probe"] = probe
    return out


def predicted(run: MeasuredRun, cal: dict) -> float:
    """The model's seconds per panel for ``run``'s plan and batch, with the figures ``cal``."""
    sizes = published_sizes(run.generator)
    return panel_seconds(sizes, run.plan, run.dtype, 1024, run.images, run.batch, run.steps, cal=cal)


def errors(runs: list[MeasuredRun], cal: dict, leave_one_out: bool = False, measured: str = "") -> list[dict]:
    """Predicted against measured seconds per panel for every run (``leave_one_out``: each
    generator's runs predicted from the other generators' plan figures)."""
    out = []
    for r in runs:
        figures = derive(runs, measured, leave_out=r.generator) if leave_one_out else cal
        guess = predicted(r, figures)
        out.append({"generator": r.generator, "plan": r.plan, "budget_gb": r.budget_gb, "batch": r.batch,
                    "measured_s": r.panel_s, "predicted_s": guess, "error": guess / r.panel_s - 1.0})
    return out


def median_abs_error(rows: list[dict]) -> float:
    return statistics.median(abs(r["error"]) for r in rows)


__all__ = ["MeasuredRun", "measured_runs", "recorded_probe", "derive", "predicted", "errors", "median_abs_error"]


def fits_measured(run: MeasuredRun, budget_gb: float, headroom_gib: float = 1.0) -> bool:
    """Whether a measured run shows its plan and batch fit ``budget_gb``: it ran under a cap no
    larger, or its measured peak plus the headroom is within the budget."""
    if run.budget_gb is not None and run.budget_gb <= budget_gb:
        return True
    return run.peak_allocated + headroom_gib * 1024 ** 3 <= budget_gb * 1024 ** 3


def measured_choices(runs: list[MeasuredRun], generator: str, budget_gb: float) -> dict:
    """``{(plan, batch): fastest measured seconds per panel}`` of the runs of ``generator`` that
    fit ``budget_gb`` (see :func:`fits_measured`)."""
    out: dict[tuple[str, int], float] = {}
    for r in runs:
        if r.generator == generator and fits_measured(r, budget_gb):
            out[r.key] = min(out.get(r.key, float("inf")), r.panel_s)
    return out


def measured_plans(runs: list[MeasuredRun], generator: str) -> tuple[str, ...]:
    """The plans that ran for ``generator`` (a plan that failed on the check is not a choice to
    judge against the measurements)."""
    return tuple(sorted({r.plan for r in runs if r.generator == generator}))
