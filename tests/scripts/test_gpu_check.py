"""scripts/gpu_check.py on a machine without a GPU (issue 10 item 7): the published configs
build the right classes with the published parameter counts, the script skips cleanly, the
table's arithmetic is right, and the pipelines it builds from configs run end to end (shrunk,
on the CPU, through the same functions as on a GPU)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import gpu_check  # noqa: E402
import gpu_random_pipelines  # noqa: E402

from geofidelity_plugin.core.generation.generators import GENERATORS  # noqa: E402

COMPONENTS = [(g, c) for g in GENERATORS for c in gpu_check.component_configs(g)]
#: a probe as core/generation/plan_probe.py records one (made-up figures)
PROBE = {"probe_version": 1, "device": "NVIDIA H200", "driver": "580.159.04", "cuda": "13.0", "torch": "2.11.0+cu130",
         "date": "2026-12-02", "bf16_tflops": 700.0, "fp16_tflops": 720.0, "pinned_gb_s": 50.0, "pageable_gb_s": 10.0,
         "matmul_side": 8192, "copy_bytes": 512 * 1024 ** 2, "seconds": 2.4}
# class each published config must build (method §4 Generators)
DENOISER_CLASS = {"sdxl-base-1.0": "UNet2DConditionModel", "sd3.5-large": "SD3Transformer2DModel",
                  "flux.1-dev": "FluxTransformer2DModel", "flux.1-schnell": "FluxTransformer2DModel",
                  "pixart-sigma-xl-1024": "PixArtTransformer2DModel", "hunyuandit-v1.2": "HunyuanDiT2DModel"}


def test_every_generator_has_its_configs():
    for name in GENERATORS:
        folder = gpu_check.CONFIGS / name
        assert {"pipeline.json", "scheduler.json", "denoiser.json", "vae.json"} <= {p.name for p in folder.iterdir()}
        assert (folder / "text_encoder.json").is_file()
        for path in folder.glob("*.json"):
            meta, _ = gpu_check.read_config(path)
            assert meta["_source"].startswith("https://huggingface.co/"), path


@pytest.mark.parametrize("generator,component", COMPONENTS, ids=[f"{g}/{c}" for g, c in COMPONENTS])
def test_config_builds_its_class_with_the_published_parameter_count(generator, component):
    meta, body = gpu_check.read_config(gpu_check.CONFIGS / generator / f"{component}.json")
    module = gpu_check.build_module(meta, body)
    assert {p.device.type for p in module.parameters()} == {"meta"}  # nothing allocated
    expected = meta.get("_class_name") or body["architectures"][0]
    assert type(module).__name__ == expected
    if component == "denoiser":
        assert expected == DENOISER_CLASS[generator]
    built = gpu_check.parameter_count(module)
    # published checkpoints count a T5 encoder's token embedding once (see untied_embedding)
    published_equivalent = built - gpu_check.untied_embedding(module)
    assert published_equivalent == pytest.approx(meta["_published_parameters"], rel=0.01)
    if not meta.get("_published_parameters_rounded"):
        assert published_equivalent == meta["_published_parameters"]  # an exact published count


def test_denoiser_counts_are_the_published_ones():
    counts = {g: gpu_check.parameter_count(gpu_check.build_module(*gpu_check.read_config(
        gpu_check.CONFIGS / g / "denoiser.json"))) for g in GENERATORS}
    assert counts["sdxl-base-1.0"] == 2_567_463_684
    assert counts["flux.1-dev"] == 11_901_408_320
    assert counts["flux.1-dev"] - counts["flux.1-schnell"] == 10_229_760  # the guidance embedder
    assert counts["pixart-sigma-xl-1024"] == 610_856_096
    assert counts["sd3.5-large"] == pytest.approx(8.1e9, rel=0.01)
    assert counts["hunyuandit-v1.2"] == pytest.approx(1.5e9, rel=0.01)


def test_feature_model_configs():
    for name, published in (("dinov2-s14", 22_056_576), ("dinov2-b14", 86_580_480)):
        meta, body = gpu_check.read_config(gpu_check.CONFIGS / name / "config.json")
        assert gpu_check.parameter_count(gpu_check.build_module(meta, body)) == published == \
            meta["_published_parameters"]


def test_steady_step_and_panel_seconds():
    # a call of 10 s whose 3 steps ended at 3.0, 4.5 and 6.0 s: 1.5 s a step once running
    assert gpu_check.steady_step_s([3.0, 4.5, 6.0]) == pytest.approx(1.5)
    assert gpu_check.panel_seconds(10.0, [3.0, 4.5, 6.0], 28) == pytest.approx(10.0 + 25 * 1.5)
    assert gpu_check.panel_seconds(8.0, [5.0, 6.0], 2) == pytest.approx(8.0)  # measured = model steps
    assert gpu_check.panel_seconds(8.0, [5.0, 6.0], 1) == pytest.approx(7.0)
    # a panel split into 2 calls of 3 measured steps each, 10 s in all: 25 more steps per call
    assert gpu_check.panel_seconds(10.0, [3.0, 4.5, 6.0], 28, calls=2) == pytest.approx(10.0 + 2 * 25 * 1.5)
    with pytest.raises(ValueError):
        gpu_check.steady_step_s([3.0])


def test_plans_are_the_products_own(monkeypatch):
    """The script measures the product's code: its plans, placement and chooser are those of
    memory_plan, fed the published sizes, the generator's dtype, 1024² and a 4-image panel."""
    from geofidelity_plugin.core.generation import memory_plan
    from geofidelity_plugin.core.generation.component_sizes import published_sizes

    assert gpu_check.PLANS == memory_plan.PLANS and gpu_check.apply_plan is memory_plan.apply_plan
    monkeypatch.setattr(gpu_check, "free_ram", lambda: 64 * memory_plan.GIB)
    plans = set()
    for name, spec in GENERATORS.items():
        for budget in (80, 24, 16, 12, 8):
            got = gpu_check.plan_for(name, budget * memory_plan.GIB, "cap")
            want = memory_plan.choose_plan(published_sizes(name), spec.dtype, 1024, 4, "cuda",
                                           budget * memory_plan.GIB, "cap", 64 * memory_plan.GIB, steps=spec.steps,
                                           device_name=gpu_check.device_name())
            assert got == want, (name, budget)
            plans.add(got.plan)
        assert gpu_check.plan_for(name, 141 * memory_plan.GIB, "card", plan="sequential").plan == "sequential"
    assert len(plans) >= 2  # the budgets do send the generators through different plans


def test_table_row_from_fake_timings():
    generator = {"name": "flux.1-dev", "dtype": "bf16", "steps": 28}
    gib = gpu_check.GIB
    run = {"plan": "model-offload", "budget_gb": 16, "status": "ok", "call_s": 9.0, "calls": 2, "batch": 2,
           "step_ends_s": [4.0, 5.5], "predicted_peak": 6.5 * gib, "peak_allocated": 7.3 * gib,
           "peak_reserved": 8.0 * gib, "vae": "sliced"}
    row = gpu_check.run_row(generator, run)
    assert row == ("| flux.1-dev | bf16 | 28 | model-offload | 16 GiB | 2 | 87.0 | — | — | 1.50 | 9.00 | 6.5 | 7.3 "
                   "| 8.0 | sliced | ok |")  # 9 + 2 calls × 26 × 1.5
    predicted = gpu_check.run_row(generator, {**run, "predicted_s_per_panel": 100.05, "chosen_by": "forced"})
    assert "| model-offload (forced) | 16 GiB | 2 | 87.0 | 100.0 | +15% | 1.50 |" in predicted  # 100.05 / 87 − 1
    chosen = gpu_check.run_row(generator, {**run, "budget_gb": None, "chosen_by": "chooser"})
    assert "| model-offload (chooser's) | none |" in chosen
    failed = gpu_check.run_row(generator, {"plan": "gpu", "budget_gb": 8, "status": "out of memory", "batch": 4,
                                           "error": "OutOfMemoryError: CUDA out of memory"})
    assert "| gpu | 8 GiB | 4 | — | — | — | — |" in failed and failed.endswith(
        "out of memory: OutOfMemoryError: CUDA out of memory |")


def test_generator_loop_runs_every_plan_then_each_budget_under_the_products_plan(monkeypatch):
    """check_generator's bookkeeping with the GPU calls faked: every plan once uncapped, each
    budget once under the plan and images per call the product's chooser takes for it (a plan
    that places the pipeline otherwise gets a pipeline of its own), out-of-memory and a budget
    nothing fits recorded, none lost."""
    import argparse
    import dataclasses
    import types

    import torch

    from geofidelity_plugin.core.generation.component_sizes import published_sizes
    from geofidelity_plugin.core.generation.memory_plan import GIB, PLANS, choose_plan

    total = 141 * GIB
    state = {"plan": None, "fraction": 1.0, "builds": 0}
    products_plan = gpu_check.plan_for

    def plan_for(name, budget, source, plan=None):  # the product's plan, but a tiled VAE at 12 GiB
        chosen = products_plan(name, budget, source, plan)
        return dataclasses.replace(chosen, vae_tiling=True) if budget == 12 * GIB else chosen

    def fake_run(pipe, spec, steps, batch=4):
        state["warm-ups"] = state.get("warm-ups", 0) + (steps == 1)
        if state["plan"].plan == "model-offload" and state["fraction"] < 1.0:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return {"call_s": 3.0, "step_ends_s": [1.0, 2.0][:steps], "calls": -(-4 // batch), "batch": batch,
                "images": 4, "peak_allocated": 1e9, "peak_reserved": 1e9}

    monkeypatch.setattr(gpu_check, "free_ram", lambda: 128 * GIB)
    monkeypatch.setattr(gpu_check, "BUDGETS_GB", (24, 16, 12, 8, 1))
    monkeypatch.setattr(gpu_check, "plan_for", plan_for)
    monkeypatch.setattr(gpu_check, "random_weights", lambda module, dtype: {"params": {}, "buffers": {}})
    monkeypatch.setattr(gpu_check, "build_pipeline", lambda *a: state.update(builds=state["builds"] + 1) or object())
    monkeypatch.setattr(gpu_check, "apply_plan", lambda pipe, plan, device: state.update(plan=plan))
    monkeypatch.setattr(gpu_check, "run_panel", fake_run)
    monkeypatch.setattr(gpu_check, "_free", lambda host=False: None)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: types.SimpleNamespace(total_memory=total))
    monkeypatch.setattr(torch.cuda, "set_per_process_memory_fraction", lambda f: state.update(fraction=f))
    out = gpu_check.check_generator("sdxl-base-1.0", argparse.Namespace(steps=2), deadline=float("inf"))

    sizes = published_sizes("sdxl-base-1.0")
    product = {b: choose_plan(sizes, "fp16", 1024, 4, "cuda", b * GIB, "cap", 128 * GIB) for b in (24, 16, 12, 8)}
    assert len({p.plan for p in product.values()}) >= 2  # the budgets do take more than one plan
    expected = []
    for plan in PLANS:
        expected.append((plan, None, "ok"))
        expected += [(plan, b, "out of memory" if plan == "model-offload" else "ok")
                     for b, p in product.items() if p.plan == plan]
    runs = [(r["plan"], r["budget_gb"], r["status"]) for r in out["runs"]]
    assert runs == expected + [("—", 1, "does not fit")]
    for run in out["runs"]:
        if run["budget_gb"] in product:
            want = product[run["budget_gb"]]
            assert (run["batch"], run["predicted_peak"]) == (want.batch, want.predicted_peak_bytes)
    assert [r["vae"] for r in out["runs"] if r["budget_gb"] == 12] == ["sliced + tiled"]
    assert state["builds"] == len(PLANS) + 1  # one pipeline per plan, one more for the tiled VAE
    assert state["warm-ups"] == 1  # one warm-up call, before the generator's first row
    for run in out["runs"]:  # the prediction beside the measurement, as a generation run predicts it
        if run["status"] == "ok":
            assert run["predicted_s_per_panel"] > 0 and run["time_basis"].startswith("the H200 figures")
            assert run["measured_s_per_panel"] == pytest.approx(
                gpu_check.panel_seconds(run["call_s"], run["step_ends_s"], 30, run["calls"]))
    assert "does not fit 1.0 GiB" in out["runs"][-1]["error"]
    assert state["fraction"] == 1.0  # the cap is lifted after each budget
    assert out["components"]["denoiser"]["parameters"] == 2_567_463_684
    # past the deadline nothing is built, and the skipped plans are listed
    skipped = gpu_check.check_generator("sdxl-base-1.0", argparse.Namespace(steps=2), deadline=0.0)
    assert [(r["plan"], r["budget_gb"], r["status"]) for r in skipped["runs"]] == (
        [(p, None, "skipped") for p in gpu_check.PLANS] + [("auto", b, "skipped") for b in (24, 16, 12, 8, 1)])


def test_main_writes_the_table_and_json(monkeypatch, tmp_path):
    """main() with the GPU work faked: both files, every generator row, the notes, complete."""
    import types

    import torch

    def fake_generator(name, args, deadline, rows=None):
        runs = [{"plan": "gpu", "budget_gb": None, "status": "ok", "call_s": 4.0, "step_ends_s": [2.0, 3.0],
                 "calls": 1, "batch": 4, "predicted_peak": 18 * gpu_check.GIB, "peak_allocated": 20 * gpu_check.GIB,
                 "predicted_s_per_panel": 27.0,
                 "peak_reserved": 22 * gpu_check.GIB, "vae": "sliced"},
                {"plan": "sequential", "budget_gb": 8, "status": "skipped", "error": "time budget"}]
        comps = {"denoiser": {"parameters": 2e9, "published": 2e9, "untied_embedding": 0}}
        return {"name": name, "dtype": "bf16", "steps": 28, "components": comps, "runs": runs}

    feature = {"model": "dinov2-b14", "weights": "random (from config)", "parameters": 86_580_480,
               "precision": "fp32", "decode": "device", "batch_size": 64, "images": 384, "end_to_end_ips": 900.0,
               "forward_ips": 2500.0, "ratio": 0.36, "cosine_to_cpu_min": 0.9995, "cosine_to_cpu_mean": 0.99991,
               "decode_run": {"path": "nvjpeg-device", "last_run": {"cpu_fallback": 0}}}
    monkeypatch.setattr(gpu_check, "cuda_unavailable", lambda: None)
    monkeypatch.setattr(gpu_check, "check_features", lambda args, tmp: [feature])
    monkeypatch.setattr(gpu_check, "check_generator", fake_generator)
    monkeypatch.setattr(gpu_check, "measure_probe", lambda: dict(PROBE))
    monkeypatch.setattr(torch.cuda, "get_device_properties",
                        lambda i: types.SimpleNamespace(name="NVIDIA H200", total_memory=141e9))
    assert gpu_check.main(["--out", str(tmp_path), "--generators", "flux.1-dev", "sdxl-base-1.0"]) == 0
    page = (tmp_path / "gpu_check.md").read_text()
    data = json.loads((tmp_path / "gpu_check.json").read_text())
    assert data["complete"] is True and [g["name"] for g in data["generators"]] == ["sdxl-base-1.0", "flux.1-dev"]
    assert "on **NVIDIA H200** (141 GB)" in page and "partial" not in page
    assert ("| flux.1-dev | bf16 | 28 | gpu | none | 4 | 30.0 | 27.0 | -10% | 1.00 | 4.00 | 18.0 | 20.0 | 22.0 "
            "| sliced | ok |") in page
    assert data["probe"] == PROBE and "matrix products 700 TFLOPS in bf16, 720 in fp16 (8192² matrices)" in page
    assert "host-to-device copies 50.0 GB/s pinned, 10.0 GB/s pageable (512 MiB)" in page
    assert "memory_plan.py (choose_plan, apply_plan" in page
    assert ("| dinov2-b14 | random (from config) | fp32 | device | 64 | 384 | 900 | 2500 | 0.36 | 0.99950 / 0.999910 "
            "to the CPU path | 0 |") in page
    assert "not measured within --budget-s 420: sdxl-base-1.0 sequential, flux.1-dev sequential" in page
    # --runs: its generators in its order, each with its rows; --skip-features: no feature models
    asked = []

    def named_rows(name, args, deadline, rows=None):
        asked.append((name, rows))
        return fake_generator(name, args, deadline)

    monkeypatch.setattr(gpu_check, "check_generator", named_rows)
    monkeypatch.setattr(gpu_check, "check_features", lambda args, tmp: pytest.fail("features with --skip-features"))
    assert gpu_check.main(["--out", str(tmp_path), "--runs", "flux.1-dev@24,sdxl-base-1.0:group-offload",
                           "flux.1-schnell@none", "--skip-features", "--budget-s", "240"]) == 0
    assert [(name, [r.label for r in rows]) for name, rows in asked] == [
        ("flux.1-dev", ["flux.1-dev@24"]), ("sdxl-base-1.0", ["sdxl-base-1.0:group-offload@none"]),
        ("flux.1-schnell", ["flux.1-schnell@none"])]
    data = json.loads((tmp_path / "gpu_check.json").read_text())
    assert data["settings"]["runs"] == ["flux.1-dev@24", "sdxl-base-1.0:group-offload@none", "flux.1-schnell@none"]
    assert data["features"] == [] and data["probe"] == PROBE


# -- the rows --runs names -------------------------------------------------------------------
def test_runs_name_rows_by_generator_in_the_order_given():
    from gpu_check_rows import RowSpec, parse_runs

    rows = parse_runs(["flux.1-dev@24,flux.1-schnell@none", "sdxl-base-1.0:group-offload flux.1-schnell@24GB",
                       "flux.1-dev@24", "sd3.5-large:sequential@12.5"], GENERATORS, gpu_check.PLANS)
    assert list(rows) == ["flux.1-dev", "flux.1-schnell", "sdxl-base-1.0", "sd3.5-large"]
    assert rows["flux.1-dev"] == [RowSpec("flux.1-dev", None, 24)]  # named twice, measured once
    assert rows["flux.1-schnell"] == [RowSpec("flux.1-schnell"), RowSpec("flux.1-schnell", None, 24)]
    assert rows["sdxl-base-1.0"] == [RowSpec("sdxl-base-1.0", "group-offload")]
    assert rows["sd3.5-large"] == [RowSpec("sd3.5-large", "sequential", 12.5)]
    assert [r.label for r in rows["flux.1-schnell"]] == ["flux.1-schnell@none", "flux.1-schnell@24"]


@pytest.mark.parametrize("entry,problem,fix", [
    ("flux.1-dev", "names no row", "--generators flux.1-dev measures every row"),
    ("flux-dev@24", "unknown generator 'flux-dev'", "use one of sdxl-base-1.0"),
    ("flux.1-dev:offload", "unknown plan 'offload'", "use one of gpu, model-offload, group-offload, sequential"),
    ("flux.1-dev@lots", "the cap 'lots' is not a size in GiB", "write it like flux.1-dev@24"),
    ("flux.1-dev@0", "the cap '0' is not a size in GiB", "flux.1-dev@none (uncapped)"),
    (" , ", "--runs names no row", "several separated by commas"),
])
def test_bad_runs_are_refused_with_the_fix_before_any_gpu_work(entry, problem, fix, capsys):
    from gpu_check_rows import parse_runs

    with pytest.raises(ValueError) as refused:
        parse_runs(entry, GENERATORS, gpu_check.PLANS)
    assert problem in str(refused.value) and fix in str(refused.value)
    with pytest.raises(SystemExit) as stopped:  # the script says it and stops, CUDA or not
        gpu_check.main(["--runs", entry])
    assert stopped.value.code == 2 and problem in capsys.readouterr().err
    with pytest.raises(SystemExit):
        gpu_check.main(["--runs", "flux.1-dev@24", "--generators", "flux.1-dev"])
    assert "give one of them" in capsys.readouterr().err


def test_named_rows_share_one_build_and_run_under_the_products_plan(monkeypatch):
    """--runs rows of one generator: one set of weights, one pipeline per placement (a forced
    group offload and the chooser's group offload at 8 GiB share one), the chooser's plan under
    each cap and on the whole card, and the prediction beside each measurement."""
    import argparse
    import types

    import torch
    from gpu_check_rows import parse_runs

    total = 141 * gpu_check.GIB
    state = {"builds": 0, "calls": [], "fraction": []}
    monkeypatch.setattr(gpu_check, "free_ram", lambda: 128 * gpu_check.GIB)
    monkeypatch.setattr(gpu_check, "random_weights", lambda module, dtype: {"params": {}, "buffers": {}})
    monkeypatch.setattr(gpu_check, "build_pipeline", lambda *a: state.update(builds=state["builds"] + 1) or object())
    monkeypatch.setattr(gpu_check, "apply_plan", lambda pipe, plan, device: state.update(plan=plan))
    monkeypatch.setattr(gpu_check, "_free", lambda host=False: None)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: types.SimpleNamespace(total_memory=total))
    monkeypatch.setattr(torch.cuda, "set_per_process_memory_fraction", lambda f: state["fraction"].append(f))

    def fake_run(pipe, spec, steps, batch=4):
        state["calls"].append((state["plan"].plan, steps))
        return {"call_s": 2.0, "step_ends_s": [1.0, 1.5][:steps], "calls": 1, "batch": batch, "images": 4,
                "peak_allocated": 1e9, "peak_reserved": 1e9}

    monkeypatch.setattr(gpu_check, "run_panel", fake_run)
    name = "pixart-sigma-xl-1024"  # group offload at 8 GiB, the whole pipeline on the card
    rows = parse_runs(f"{name}@8,{name}:group-offload,{name}@none", GENERATORS, gpu_check.PLANS)
    out = gpu_check.check_generator(name, argparse.Namespace(steps=2), float("inf"), rows[name])
    at_8 = gpu_check.plan_for(name, 8 * gpu_check.GIB, "cap")
    whole = gpu_check.plan_for(name, total, "card")
    assert (at_8.plan, whole.plan) == ("group-offload", "gpu")  # the chooser's, as docs/memory-plans.md's table
    runs = [(r["plan"], r["budget_gb"], r["chosen_by"], r["status"]) for r in out["runs"]]
    assert runs == [("gpu", None, "chooser", "ok"), ("group-offload", None, "forced", "ok"),
                    ("group-offload", 8, "chooser", "ok")]
    assert state["builds"] == 2 and state["calls"][0] == ("gpu", 1)  # one warm-up, before the first row
    assert [c for c in state["calls"] if c[1] == 1] == [("gpu", 1)]
    assert out["runs"][2]["predicted_s_per_panel"] == at_8.predicted_s_per_panel
    assert out["runs"][2]["measured_s_per_panel"] == pytest.approx(2.0 + 18 * 0.5)  # 20 steps, 2 measured
    assert 8 * gpu_check.GIB / total in state["fraction"] and state["fraction"][-1] == 1.0
    page = gpu_check.markdown_report({"date": "d", "gpu": "NVIDIA H200", "gpu_memory_gb": 141, "versions": {},
                                      "wall_s": 1, "settings": {"panel": 4, "resolution": 1024, "measured_steps": 2,
                                                                "plan_source": "the chooser's"},
                                      "generators": [out], "probe": {"status": "error", "error": "InputError: no"}})
    assert "| pixart-sigma-xl-1024 | fp16 | 20 | gpu (chooser's) | none | 4 | 11.0 |" in page
    assert "GPU probe (core/generation/plan_probe.py): failed — InputError: no." in page


def test_script_skips_without_cuda_and_writes_nothing(tmp_path):
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gpu_check.py"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("gpu-check: skipped — no CUDA device here"), proc.stdout
    assert not (tmp_path / "out").exists()


def test_feature_throughput_rows_on_cpu(tmp_path, monkeypatch):
    """The feature part through FeatureExtractor, as on the GPU: both models, every image, each
    decode path and precision (PIL in nvJPEG's place: tests/scripts/test_gpu_features.py)."""
    import argparse

    from test_gpu_features import pil_stand_in

    from geofidelity_plugin.core.vision import batch_sources, decode_device

    monkeypatch.setattr(batch_sources, "nvjpeg_unavailable", lambda device: None)
    monkeypatch.setattr(decode_device, "nvjpeg_decode", pil_stand_in)
    args = argparse.Namespace(images=4, feature_batch=2)
    rows = gpu_check.check_features(args, tmp_path, device="cpu")
    speed = [r for r in rows if r.get("kind") != "fallbacks"]
    assert [r["model"] for r in rows if r.get("kind") == "fallbacks"] == list(gpu_check.FEATURE_MODELS)
    assert [r["model"] for r in speed] == [m for m in gpu_check.FEATURE_MODELS for _ in range(4)]
    for row in speed:
        assert "error" not in row, row
        assert row["computed"] == 4 and row["failed"] == 0 and row["precision"] in ("fp32", "tf32", "bf16")
        assert row["end_to_end_ips"] > 0 and row["forward_ips"] > 0
    assert speed[4]["parameters"] == 86_580_480 and speed[4]["weights"] == "random (from config)"
    assert speed[0]["parameters"] in (22_056_192, 22_056_576)  # offline weights (no mask token) or the config


def test_makefile_has_the_target():
    makefile = (ROOT / "Makefile").read_text()
    phony = next(line for line in makefile.splitlines() if line.startswith(".PHONY:"))
    assert "gpu-check" in phony.split()
    assert "\ngpu-check:" in makefile and "scripts/gpu_check.py" in makefile


def test_gpu_py_runs_the_check_without_the_venv(tmp_path):
    """``make gpu-check GPU_PY=python3`` on a GPU machine without the project's venv: that
    Python runs both scripts and nothing sets up the venv (with no stamps, it would)."""
    env = {**os.environ, "MAKEFLAGS": ""}
    stamps = f"STAMPS={tmp_path / 'stamps'}"
    dry = subprocess.run(["make", "--no-print-directory", "-n", "gpu-check", "GPU_PY=python3", stamps, "GPU_CHECK_ARGS=--skip-features"],
                         cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.splitlines() == ["python3 scripts/gpu_check.py --out bench_output --skip-features",
                                       "python3 scripts/gpu_batch_check.py --out bench_output"]
    usual = subprocess.run(["make", "--no-print-directory", "-n", "gpu-check", stamps], cwd=ROOT, capture_output=True, text=True, env=env,
                           timeout=60)
    assert "venv" in usual.stdout and ".venv/bin/python scripts/gpu_check.py" in usual.stdout


# -- the same building and calling code, on shrunk configs on the CPU -------------------------
_VAE = {"block_out_channels": [8, 8, 8, 8], "layers_per_block": 1, "norm_num_groups": 4}
_CLIP = {"hidden_size": 32, "intermediate_size": 37, "num_attention_heads": 4, "num_hidden_layers": 2,
         "projection_dim": 32, "vocab_size": 1000}
_T5 = {"d_model": 64, "d_ff": 37, "d_kv": 16, "num_heads": 4, "num_layers": 2, "num_decoder_layers": 2,
       "vocab_size": 1000}
SHRUNK = {
    "sdxl-base-1.0": {"denoiser": {"block_out_channels": [32, 64], "down_block_types": ["DownBlock2D", "CrossAttnDownBlock2D"],
                                   "up_block_types": ["CrossAttnUpBlock2D", "UpBlock2D"], "layers_per_block": 1,
                                   "attention_head_dim": [2, 4], "transformer_layers_per_block": [1, 1],
                                   "cross_attention_dim": 64, "addition_time_embed_dim": 8,
                                   "projection_class_embeddings_input_dim": 80, "sample_size": 8},
                      "vae": _VAE, "text_encoder": _CLIP, "text_encoder_2": _CLIP},
    "sd3.5-large": {"denoiser": {"num_layers": 2, "attention_head_dim": 8, "num_attention_heads": 4,
                                 "caption_projection_dim": 32, "joint_attention_dim": 64, "pooled_projection_dim": 64,
                                 "sample_size": 8, "pos_embed_max_size": 16},
                    "vae": _VAE, "text_encoder": _CLIP, "text_encoder_2": _CLIP, "text_encoder_3": _T5},
    "flux.1-dev": {"denoiser": {"num_layers": 1, "num_single_layers": 1, "attention_head_dim": 16,
                                "num_attention_heads": 2, "joint_attention_dim": 64, "pooled_projection_dim": 32,
                                "axes_dims_rope": [4, 4, 8]},
                   "vae": _VAE, "text_encoder": _CLIP, "text_encoder_2": _T5},
    "pixart-sigma-xl-1024": {"denoiser": {"num_layers": 1, "attention_head_dim": 8, "num_attention_heads": 4,
                                          "cross_attention_dim": 32, "caption_channels": 64, "sample_size": 8},
                             "vae": _VAE, "text_encoder": _T5},
    "hunyuandit-v1.2": {"denoiser": {"num_layers": 2, "attention_head_dim": 8, "num_attention_heads": 2,
                                     "hidden_size": 16, "cross_attention_dim": 32, "cross_attention_dim_t5": 64,
                                     "pooled_projection_dim": 16, "sample_size": 8},
                        "vae": _VAE, "text_encoder": {**_CLIP, "max_position_embeddings": 77},
                        "text_encoder_2": _T5},
}
SHRUNK["flux.1-schnell"] = SHRUNK["flux.1-dev"]


@pytest.mark.parametrize("generator", list(GENERATORS))
def test_pipeline_from_configs_makes_a_panel(generator):
    """build_pipeline + the product's plan and placement + run_panel, as on the GPU, with shrunk
    sizes: the stand-in tokenizers, the pipeline class, its component names and call options all
    fit together, and a panel split into calls makes every image."""
    import torch

    bodies = gpu_check.component_bodies(generator, SHRUNK[generator])
    masters = gpu_random_pipelines.make_masters(bodies, torch.float32, "cpu")
    pipe = gpu_check.build_pipeline(generator, bodies, masters, torch.float32)
    plan = gpu_check.plan_for(generator, None, "", device_type="cpu")
    assert (plan.plan, plan.batch) == ("gpu", gpu_check.PANEL)
    assert gpu_check.place(pipe, plan, device="cpu") == "sliced" and pipe.vae.use_slicing
    extra = {"use_resolution_binning": False} if generator in ("pixart-sigma-xl-1024", "hunyuandit-v1.2") else {}
    split = gpu_check.run_panel(pipe, GENERATORS[generator], 2, device="cpu", resolution=64, batch=2, **extra)
    assert (split["images"], split["calls"], split["batch"]) == (gpu_check.PANEL, 2, 2)
    run = gpu_check.run_panel(pipe, GENERATORS[generator], 2, device="cpu", resolution=64, **extra)
    assert (run["images"], run["calls"]) == (gpu_check.PANEL, 1)
    assert len(run["step_ends_s"]) == 2 and 0 < run["step_ends_s"][0] < run["step_ends_s"][1] <= run["call_s"]
    assert run["peak_allocated"] is None  # peaks are read on CUDA only
    # the masters are shared, not copied, and a second pipeline gets the same weights
    again = gpu_check.build_pipeline(generator, bodies, masters, torch.float32)
    name = json.loads((gpu_check.CONFIGS / generator / "pipeline.json").read_text())["denoiser"]
    first = next(iter(getattr(again, name).parameters()))
    assert first.data_ptr() == next(iter(masters["denoiser"]["params"].values())).data_ptr()
