"""What ``make gpu-check`` writes (:mod:`gpu_check`; docs/gpu-check.md): ``gpu_check.json`` with
every number, and ``gpu_check.md`` made from it — how the runs were made, the GPU probe, one table
row per run with the measured seconds per panel beside the plan time model's prediction, the
parameter counts, the feature rows and the notes. Both are rewritten after each generator, so a run
stopped from outside keeps what it measured, marked partial.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from geofidelity_plugin.core.generation.memory_plan import GIB
from gpu_check_panel import panel_seconds, steady_step_s


def _gb(n) -> str:
    return "—" if n is None else f"{n / GIB:.1f}"


def _s(x) -> str:
    return "—" if x is None else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def plan_cell(run: dict) -> str:
    """The plan, marked where it is not what the column usually means (uncapped: forced; under a
    cap: the chooser's)."""
    capped, chosen_by = run.get("budget_gb") is not None, run.get("chosen_by")
    if chosen_by == "chooser" and not capped:
        return f"{run['plan']} (chooser's)"
    return f"{run['plan']} (forced)" if chosen_by == "forced" and capped else run["plan"]


def basis_of(result: dict) -> str:
    """Where the predictions' figures come from (the first row that says)."""
    bases = [r["time_basis"] for g in result["generators"] for r in g["runs"] if r.get("time_basis")]
    return bases[0] if bases else "the H200 figures of `make gpu-check`"


def probe_lines(probe: dict | None) -> list[str]:
    """The probe's paragraph of the Markdown page."""
    if not probe:
        return []
    if "bf16_tflops" not in probe:
        return ["", f"GPU probe (core/generation/plan_probe.py): failed — {probe.get('error', '?')}."]
    return ["", f"GPU probe (core/generation/plan_probe.py; the figures the plan time model scales another GPU by, "
                f"docs/memory-plans.md): matrix products {probe['bf16_tflops']:.0f} TFLOPS in bf16, "
                f"{probe['fp16_tflops']:.0f} in fp16 ({probe['matmul_side']}² matrices); host-to-device copies "
                f"{probe['pinned_gb_s']:.1f} GB/s pinned, {probe['pageable_gb_s']:.1f} GB/s pageable "
                f"({probe['copy_bytes'] / 1024 ** 2:.0f} MiB); {probe['seconds']:.1f} s "
                f"(driver {probe['driver']}, CUDA {probe['cuda']}, torch {probe['torch']})."]


def run_row(generator: dict, run: dict) -> str:
    """One Markdown table row of a run (see :func:`markdown_report`)."""
    budget = "none" if run.get("budget_gb") is None else f"{run['budget_gb']} GiB"
    ok = run.get("status") == "ok"
    panel = panel_seconds(run["call_s"], run["step_ends_s"], generator["steps"], run.get("calls", 1)) if ok else None
    predicted = run.get("predicted_s_per_panel")
    error = f"{predicted / panel - 1:+.0%}" if panel and predicted else "—"
    step = steady_step_s(run["step_ends_s"]) if ok else None
    status = "ok" if ok else run.get("status", "?") + (f": {run['error']}" if run.get("error") else "")
    status = status.replace("|", "\\|")
    return (f"| {generator['name']} | {generator['dtype']} | {generator['steps']} | {plan_cell(run)} | {budget} "
            f"| {run.get('batch', '—')} | {_s(panel)} | {_s(predicted)} | {error} | {_s(step)} "
            f"| {_s(run.get('call_s') if ok else None)} "
            f"| {_gb(run.get('predicted_peak'))} | {_gb(run.get('peak_allocated'))} | {_gb(run.get('peak_reserved'))} "
            f"| {run.get('vae', '')} | {status} |")


def markdown_report(result: dict) -> str:
    """The Markdown page of a result (the JSON written beside it holds every number)."""
    s = result["settings"]
    lines = [
        "# GPU check", "",
        f"Measured {result['date']} on **{result['gpu']}** ({result['gpu_memory_gb']:.0f} GB), "
        f"torch {result['versions'].get('torch')}, diffusers {result['versions'].get('diffusers')}, "
        f"transformers {result['versions'].get('transformers')}; {result['wall_s']:.0f} s in all"
        + ("." if result.get("complete", True) else " — **partial: the run did not finish**."), "",
        f"Full-size pipelines built from `resources/generation/configs/` with **random weights** (no download); "
        f"a panel of {s['panel']} images of {s['resolution']}² takes one call per {s['panel']} images or per part "
        "of them (images / call) with per-image generators, text encoding and VAE decode included. Each call ran "
        f"**{s['measured_steps']} denoising steps**; seconds per panel = measured calls + calls × (model steps − "
        "measured steps) × steady step (the steps after the first). Budgets (GiB, as `--vram-budget` reads them) "
        "cap PyTorch's allocator (`torch.cuda.set_per_process_memory_fraction`; CUDA context not included); "
        f"under a budget runs {s['plan_source']}.", "",
        "Plans (docs/memory-plans.md): **gpu** the whole pipeline on the GPU; **model-offload** diffusers' model "
        "CPU offload (one component on the GPU at a time); **group-offload** group offloading with CUDA streams "
        "(the denoiser one block at a time, text encoders one layer at a time); **sequential** diffusers' "
        "sequential CPU offload (one layer at a time, no overlap). Every plan decodes the VAE one image at a "
        "time, tiled where the plan says. Predicted peak: the plan chooser's estimate for that call. Plans "
        f"chosen and applied by {s.get('plans_by', 'scripts/gpu_check.py')}.", "",
        "Predicted s / panel: the plan time model's (geofidelity_plugin/core/generation/plan_time.py; "
        "docs/memory-plans.md) for that plan and images per call, as a generation run predicts it; error = "
        f"predicted / measured − 1. Scaled from {basis_of(result)}.",
        *probe_lines(result.get("probe")), "",
        "| generator | dtype | steps | plan | budget | images / call | s / panel | predicted s / panel | error "
        "| s / step | measured calls s | predicted peak GiB | peak alloc GiB | peak reserved GiB | VAE | result |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for g in result["generators"]:
        lines += [run_row(g, run) for run in g["runs"]]
    lines += ["", "Parameters as built from the configs (published count in brackets):", ""]
    for g in result["generators"]:
        parts = [f"{name} {c['parameters'] / 1e9:.3f} B ({c['published'] / 1e9:.3f} B)"
                 for name, c in g["components"].items()]
        lines.append(f"- {g['name']}: " + "; ".join(parts))
    if result.get("features"):
        from gpu_features import markdown as feature_table

        lines += ["", "Feature extraction, end to end from JPEG files (hash, decode, preprocess, forward, cache "
                  "write) against the forward pass alone, per decode path and precision (method §5 Decoding):", "",
                  feature_table(result["features"])]
    if result.get("notes"):
        lines += ["", *[f"- {n}" for n in result["notes"]]]
    return "\n".join(lines) + "\n"


def write_result(result: dict, out: Path, started: float, final: bool) -> str:
    """Write gpu_check.json and .md (after each generator too, marked partial until the end)."""
    result["wall_s"] = time.monotonic() - started
    result["complete"] = final
    out.mkdir(parents=True, exist_ok=True)
    page = markdown_report(result)
    (out / "gpu_check.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / "gpu_check.md").write_text(page)
    return page
