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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import gpu_check  # noqa: E402

from geofidelity_plugin.core.generation.generators import GENERATORS  # noqa: E402

COMPONENTS = [(g, c) for g in GENERATORS for c in gpu_check.component_configs(g)]
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
    with pytest.raises(ValueError):
        gpu_check.steady_step_s([3.0])


def test_budget_plan_choice_takes_the_fastest_plan_that_fits():
    peaks = {"gpu": 30e9, "model-offload": 20e9, "group-offload": 6e9, "leaf-offload": 3e9}
    assert gpu_check.choose_budget_plans(peaks, budgets_gb=(48, 24, 16, 12, 8, 4)) == {
        48: "gpu", 24: "model-offload", 16: "group-offload", 12: "group-offload", 8: "group-offload",
        4: "leaf-offload"}  # 3e9 ≤ 0.92 × 4e9
    # a plan that did not run has no peak: the next one is taken; none fits: the slowest
    assert gpu_check.choose_budget_plans({"group-offload": 9e9}, budgets_gb=(12, 8)) == {
        12: "group-offload", 8: "leaf-offload"}


def test_table_row_from_fake_timings():
    generator = {"name": "flux.1-dev", "dtype": "bf16", "steps": 28}
    run = {"plan": "group-offload", "budget_gb": 16, "status": "ok", "call_s": 9.0,
           "step_ends_s": [4.0, 5.5], "peak_allocated": 7.25e9, "peak_reserved": 8.0e9, "vae": "sliced"}
    row = gpu_check.run_row(generator, run)
    assert row == ("| flux.1-dev | bf16 | 28 | group-offload | 16 GB | 48.0 | 1.50 | 9.00 | 7.2 | 8.0 "
                   "| sliced | ok |")  # 9 + 26 × 1.5
    failed = gpu_check.run_row(generator, {"plan": "gpu", "budget_gb": 8, "status": "out of memory",
                                           "error": "OutOfMemoryError: CUDA out of memory"})
    assert "| gpu | 8 GB | — | — | — |" in failed and failed.endswith("out of memory: OutOfMemoryError: "
                                                                      "CUDA out of memory |")


def test_generator_loop_runs_every_plan_then_each_budget_under_its_plan(monkeypatch):
    """check_generator's bookkeeping with the GPU calls faked: every plan once uncapped, each
    budget once under the fastest plan that fitted, out-of-memory recorded, none lost."""
    import argparse
    import types

    import torch

    peaks = {"gpu": 15e9, "model-offload": 9e9, "group-offload": 3e9, "leaf-offload": 2e9}
    state = {"plan": None, "fraction": 1.0}
    total = 141e9

    def fake_run(pipe, spec, steps):
        cap = state["fraction"] * total
        if state["plan"] == "model-offload" and cap < 0.99 * total and round(cap / 1e9) == 16:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return {"call_s": 3.0, "step_ends_s": [1.0, 2.0][:steps], "images": 4,
                "peak_allocated": peaks[state["plan"]], "peak_reserved": peaks[state["plan"]]}

    monkeypatch.setattr(gpu_check, "random_weights", lambda module, dtype: {"params": {}, "buffers": {}})
    monkeypatch.setattr(gpu_check, "build_pipeline", lambda *a: object())
    monkeypatch.setattr(gpu_check, "apply_plan", lambda pipe, plan: state.update(plan=plan) or "sliced")
    monkeypatch.setattr(gpu_check, "run_panel", fake_run)
    monkeypatch.setattr(gpu_check, "_free", lambda host=False: None)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: types.SimpleNamespace(total_memory=total))
    monkeypatch.setattr(torch.cuda, "set_per_process_memory_fraction", lambda f: state.update(fraction=f))
    out = gpu_check.check_generator("sdxl-base-1.0", argparse.Namespace(steps=2), deadline=float("inf"))
    runs = [(r["plan"], r["budget_gb"], r["status"]) for r in out["runs"]]
    assert runs == [("gpu", None, "ok"), ("gpu", 24, "ok"),  # 15 GB ≤ 0.92 × 24
                    ("model-offload", None, "ok"), ("model-offload", 16, "out of memory"),
                    ("model-offload", 12, "ok"),  # 9 GB ≤ 0.92 × 12
                    ("group-offload", None, "ok"), ("group-offload", 8, "ok"),
                    ("leaf-offload", None, "ok")]
    assert state["fraction"] == 1.0  # the cap is lifted after each budget
    assert out["components"]["denoiser"]["parameters"] == 2_567_463_684
    # past the deadline nothing is built, and the skipped plans are listed
    skipped = gpu_check.check_generator("sdxl-base-1.0", argparse.Namespace(steps=2), deadline=0.0)
    assert [(r["plan"], r["status"]) for r in skipped["runs"]] == [(p, "skipped") for p in gpu_check.PLANS]


def test_main_writes_the_table_and_json(monkeypatch, tmp_path):
    """main() with the GPU work faked: both files, every generator row, the notes, complete."""
    import types

    import torch

    def fake_generator(name, args, deadline):
        runs = [{"plan": "gpu", "budget_gb": None, "status": "ok", "call_s": 4.0, "step_ends_s": [2.0, 3.0],
                 "peak_allocated": 20e9, "peak_reserved": 22e9, "vae": "whole batch"},
                {"plan": "leaf-offload", "budget_gb": 8, "status": "skipped", "error": "time budget"}]
        comps = {"denoiser": {"parameters": 2e9, "published": 2e9, "untied_embedding": 0}}
        return {"name": name, "dtype": "bf16", "steps": 28, "components": comps, "runs": runs}

    feature = {"model": "dinov2-b14", "status": "ok", "weights": "random (from config)", "parameters": 86_580_480,
               "precision": "float32", "batch_size": 64, "images": 384, "end_to_end_ips": 900.0, "forward_ips": 2500.0}
    monkeypatch.setattr(gpu_check, "cuda_unavailable", lambda: None)
    monkeypatch.setattr(gpu_check, "check_features", lambda args, tmp: [feature])
    monkeypatch.setattr(gpu_check, "check_generator", fake_generator)
    monkeypatch.setattr(torch.cuda, "get_device_properties",
                        lambda i: types.SimpleNamespace(name="NVIDIA H200", total_memory=141e9))
    assert gpu_check.main(["--out", str(tmp_path), "--generators", "flux.1-dev", "sdxl-base-1.0"]) == 0
    page = (tmp_path / "gpu_check.md").read_text()
    data = json.loads((tmp_path / "gpu_check.json").read_text())
    assert data["complete"] is True and [g["name"] for g in data["generators"]] == ["sdxl-base-1.0", "flux.1-dev"]
    assert "on **NVIDIA H200** (141 GB)" in page and "partial" not in page
    assert "| flux.1-dev | bf16 | 28 | gpu | none | 30.0 | 1.00 | 4.00 | 20.0 | 22.0 | whole batch | ok |" in page
    assert "| dinov2-b14 | random (from config) | 86.6 M | float32 | 64 | 384 | 900 | 2500 |" in page
    assert "not measured within --budget-s 420: sdxl-base-1.0 leaf-offload, flux.1-dev leaf-offload" in page


def test_script_skips_without_cuda_and_writes_nothing(tmp_path):
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gpu_check.py"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("gpu-check: skipped — no CUDA device here"), proc.stdout
    assert not (tmp_path / "out").exists()


def test_feature_throughput_rows_on_cpu(tmp_path):
    """The feature part through FeatureExtractor, as on the GPU: both models, every image."""
    import argparse

    args = argparse.Namespace(images=4, feature_batch=2)
    rows = gpu_check.check_features(args, tmp_path, device="cpu")
    assert [r["model"] for r in rows] == list(gpu_check.FEATURE_MODELS)
    for row in rows:
        assert row["status"] == "ok", row
        assert row["computed"] == 4 and row["failed"] == 0 and row["precision"] == "float32"
        assert row["end_to_end_ips"] > 0 and row["forward_ips"] > 0
    assert rows[1]["parameters"] == 86_580_480 and rows[1]["weights"] == "random (from config)"
    assert rows[0]["parameters"] in (22_056_192, 22_056_576)  # offline weights (no mask token) or the config


def test_makefile_has_the_target():
    makefile = (ROOT / "Makefile").read_text()
    phony = next(line for line in makefile.splitlines() if line.startswith(".PHONY:"))
    assert "gpu-check" in phony.split()
    assert "\ngpu-check:" in makefile and "scripts/gpu_check.py" in makefile


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
    """build_pipeline + apply_plan + run_panel, as on the GPU, with shrunk sizes: the stand-in
    tokenizers, the pipeline class, its component names and call options all fit together."""
    import torch

    bodies = gpu_check.component_bodies(generator, SHRUNK[generator])
    masters = gpu_check.make_masters(bodies, torch.float32, "cpu")
    pipe = gpu_check.build_pipeline(generator, bodies, masters, torch.float32)
    assert gpu_check.apply_plan(pipe, "gpu", device="cpu") == "whole batch"
    extra = {"use_resolution_binning": False} if generator in ("pixart-sigma-xl-1024", "hunyuandit-v1.2") else {}
    run = gpu_check.run_panel(pipe, GENERATORS[generator], 2, device="cpu", resolution=64, **extra)
    assert run["images"] == gpu_check.PANEL
    assert len(run["step_ends_s"]) == 2 and 0 < run["step_ends_s"][0] < run["step_ends_s"][1] <= run["call_s"]
    assert run["peak_allocated"] is None  # peaks are read on CUDA only
    # the masters are shared, not copied, and a second pipeline gets the same weights
    again = gpu_check.build_pipeline(generator, bodies, masters, torch.float32)
    name = json.loads((gpu_check.CONFIGS / generator / "pipeline.json").read_text())["denoiser"]
    first = next(iter(getattr(again, name).parameters()))
    assert first.data_ptr() == next(iter(masters["denoiser"]["params"].values())).data_ptr()
