"""Batched panels and resumes that cannot mix (method §4 Generators, Seeds; docs/memory-plans.md),
with the tiny real Stable Diffusion pipeline on the CPU: one pipeline call per panel with one
generator per image, the bytes of one call per image (the CPU denoiser runs image by image inside
the batched call), every CPU plan giving the same bytes, the plan in the manifest, and a resume
with other settings refused by field."""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image

from geofidelity_plugin.core.errors import Cancelled, InputError
from geofidelity_plugin.core.generation import batch_forward
from geofidelity_plugin.core.generation.component_sizes import folder_sizes
from geofidelity_plugin.core.generation.memory_plan import estimate
from geofidelity_plugin.core.generation.prompts import PromptRow
from geofidelity_plugin.core.generation.runner import GenerationRunner
from geofidelity_plugin.core.generation.seeds import seed_for
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.store.store import BenchmarkStore

REPO = Path(__file__).resolve().parents[3]
SEGMENTS = [{"segment_id": sid, "city": "Helsinki", "country": "Finland", "country_code": "FI", "street_name": street,
             "neighbourhood": hood, "centroid_lon": 24.95, "centroid_lat": 60.17}
            for sid, street, hood in (("hel-001", "Unioninkatu", "Kluuvi"), ("hel-002", "Hämeentie", "Sörnäinen"))]
ROWS = [PromptRow("hel-001", "L1", "A street-level photo taken on Unioninkatu in the Kluuvi district of Helsinki."),
        PromptRow("hel-002", "L0", "A street-level photo taken in Helsinki, Finland.")]


@pytest.fixture(scope="module")
def tiny_sd(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_sd

    return make_tiny_sd(tmp_path_factory.mktemp("tiny-sd"))


def _runner(folder, **options) -> GenerationRunner:
    steps, resolution = options.pop("steps", 2), options.pop("resolution", 32)
    return GenerationRunner(folder, steps=steps, guidance=5.0, resolution=resolution, dtype="fp16", device="cpu",
                            name="tiny", **options)


def _store(tmp_path) -> BenchmarkStore:
    store = BenchmarkStore(tmp_path / "benchmark.sqlite")
    store.put_segments(SEGMENTS)  # generation covers segments with a reference panel only
    store.put_reference_images([{"reference_id": f"{s['segment_id']}:0", "segment_id": s["segment_id"],
                                 "image_path": f"reference/{s['segment_id']}/00.jpg"} for s in SEGMENTS])
    return store


def _pixels(paths) -> np.ndarray:
    return np.stack([np.asarray(Image.open(p).convert("RGB"), dtype=np.int16) for p in paths])


def _spy(runner: GenerationRunner) -> list[dict]:
    """Record every pipeline call's arguments and the initial noise it drew."""
    pipe = runner.load()
    calls, call, prepare = [], pipe.__call__, pipe.prepare_latents

    @functools.wraps(call)
    def spied_call(*args, **kwargs):
        calls.append({**kwargs, "latents": []})
        return call(*args, **kwargs)

    def spied_prepare(*args, **kwargs):
        latents = prepare(*args, **kwargs)
        calls[-1]["latents"].append(latents.clone())
        return latents

    pipe.prepare_latents = spied_prepare
    runner._pipe = type("Spied", (), {"__call__": staticmethod(spied_call), "__getattr__":
                                      lambda self, name: getattr(pipe, name)})()
    return calls


def test_one_call_per_panel_with_a_generator_per_image(tiny_sd, tmp_path):
    runner = _runner(tiny_sd)
    calls = _spy(runner)
    result = runner.generate(ROWS, samples=4, base_seed=5, out_dir=tmp_path)
    assert result.generated == 8 and len(calls) == 2  # two panels, two calls
    for call, row in zip(calls, ROWS):
        assert call["num_images_per_prompt"] == 4 and call["prompt"] == row.prompt
        seeds = [seed_for(5, "tiny", row.segment_id, row.condition, k) for k in range(4)]
        assert [g.initial_seed() for g in call["generator"]] == seeds  # the seeds stay per image
        assert call["latents"][0].shape[0] == 4


def test_batched_panels_have_the_bytes_of_one_call_per_image(tiny_sd, tmp_path):
    """Each image starts from exactly its own seed's noise, batched or not, and on the CPU the
    denoiser sees per image what a one-image call gives it: the same JPEG bytes (at 64², where
    one forward of the whole batch differed by up to 5 levels)."""
    batched, single = _runner(tiny_sd, resolution=64), _runner(tiny_sd, resolution=64, images_per_call=1)
    batched_calls, single_calls = _spy(batched), _spy(single)
    a = batched.generate(ROWS, samples=4, base_seed=5, out_dir=tmp_path / "batched")
    b = single.generate(ROWS, samples=4, base_seed=5, out_dir=tmp_path / "single")
    assert (len(batched_calls), len(single_calls)) == (2, 8)
    noise_batched = [n for call in batched_calls for n in call["latents"][0]]
    noise_single = [call["latents"][0][0] for call in single_calls]
    assert all(x.equal(y) for x, y in zip(noise_batched, noise_single))  # bit for bit
    assert [p.relative_to(tmp_path / "batched") for p in a.paths] == [p.relative_to(tmp_path / "single")
                                                                     for p in b.paths]
    assert [p.read_bytes() for p in a.paths] == [p.read_bytes() for p in b.paths]
    pa = _pixels(a.paths)
    assert np.abs(pa[0] - pa[1]).mean() > 2.0  # four seeds, four images
    options = json.loads((tmp_path / "batched" / "tiny" / "generation_manifest.json").read_text())["options"]
    assert (options["images_per_call"], options["batch_forward"]) == (4, batch_forward.PER_IMAGE)
    options = json.loads((tmp_path / "single" / "tiny" / "generation_manifest.json").read_text())["options"]
    assert (options["images_per_call"], options["batch_forward"]) == (1, batch_forward.ONE_PER_CALL)


def _spy_denoiser(runner: GenerationRunner) -> list[int]:
    """The batch (rows) of every denoiser forward."""
    unet = runner.load().unet
    rows, forward = [], unet.forward

    def spied(sample, *args, **kwargs):
        rows.append(sample.shape[0])
        return forward(sample, *args, **kwargs)

    unet.forward = spied
    return rows


def test_the_cpu_denoiser_runs_image_by_image_unless_batched_is_asked(tiny_sd, tmp_path):
    split, joint = _runner(tiny_sd), _runner(tiny_sd, batch_forward="batched")
    split_rows, joint_rows = _spy_denoiser(split), _spy_denoiser(joint)
    a = split.generate(ROWS[:1], samples=4, base_seed=5, out_dir=tmp_path / "split")
    b = joint.generate(ROWS[:1], samples=4, base_seed=5, out_dir=tmp_path / "joint")
    assert split_rows == [2] * 4 * 2  # [uncond_i, cond_i] per image, 4 images, 2 steps
    assert joint_rows == [8] * 2  # the whole batch with guidance, once per step
    assert json.loads((tmp_path / "joint" / "tiny" / "generation_manifest.json").read_text())["options"][
        "batch_forward"] == "batched"
    pa, pb = _pixels(a.paths), _pixels(b.paths)
    assert np.abs(pa - pb).max() <= 8  # the same images up to rounding
    with pytest.raises(InputError, match="unknown batch forward 'sometimes' — use auto, per-image, batched"):
        _runner(tiny_sd, batch_forward="sometimes")


class _Denoiser(torch.nn.Module):
    """Denoiser-shaped: records what each forward got; output row r depends only on row r of the
    batched inputs, so a forward split by image must give the joint forward's output exactly."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def forward(self, hidden_states, timestep=None, encoder_hidden_states=None, added_cond_kwargs=None,
                image_rotary_emb=None, txt_ids=None, return_dict=True):
        from diffusers.models.modeling_outputs import Transformer2DModelOutput

        self.seen.append({"rows": hidden_states[:, 0].tolist(), "timestep": timestep,
                          "text": encoder_hidden_states[:, 0].tolist(),
                          "time_ids": added_cond_kwargs["time_ids"][:, 0].tolist(),
                          "rotary": image_rotary_emb[0].shape, "txt_ids": txt_ids.shape})
        out = hidden_states * 10 + encoder_hidden_states[:, :1] + added_cond_kwargs["time_ids"] + timestep[:, None]
        return Transformer2DModelOutput(sample=out) if return_dict else (out, "not batched")


def _toy_inputs(rows: int, return_dict: bool) -> dict:
    return dict(hidden_states=torch.arange(rows, dtype=torch.float32)[:, None].repeat(1, 4),
                timestep=torch.tensor(0.5).expand(rows),
                encoder_hidden_states=torch.arange(100, 100 + rows, dtype=torch.float32)[:, None].repeat(1, 2),
                added_cond_kwargs={"time_ids": torch.arange(200, 200 + rows, dtype=torch.float32)[:, None]},
                image_rotary_emb=(torch.zeros(6, 8), torch.zeros(6, 8)),  # one row per token, not per image
                txt_ids=torch.zeros(6, 3), return_dict=return_dict)


@pytest.mark.parametrize("return_dict", [True, False])
def test_per_image_forward_takes_each_images_rows_and_puts_them_back(return_dict):
    images, rows = 3, 6  # with guidance the batch is [uncond_0, uncond_1, uncond_2, cond_0, cond_1, cond_2]
    toy = _Denoiser()
    hooked = toy.forward
    toy.forward = hooked  # offload hooks install an instance attribute: it must be back in place after
    pipe = type("Pipe", (), {"transformer": toy})()
    args = _toy_inputs(rows, return_dict)
    joint = toy(**args)
    with batch_forward.per_image_forward(pipe, images):
        split = toy(**args)
        toy(**_toy_inputs(4, return_dict))  # 4 rows, not 3 × r: runs as it is
    assert toy.__dict__["forward"] is hooked
    if return_dict:
        assert type(split).__name__ == "Transformer2DModelOutput" and split.sample.equal(joint.sample)
    else:
        assert split[0].equal(joint[0]) and split[1] == "not batched"
    per_image = toy.seen[1:4]
    assert [s["rows"] for s in per_image] == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]  # [uncond_i, cond_i]
    assert [s["text"] for s in per_image] == [[100.0, 103.0], [101.0, 104.0], [102.0, 105.0]]
    assert [s["time_ids"] for s in per_image] == [[200.0, 203.0], [201.0, 204.0], [202.0, 205.0]]
    for seen in per_image:
        assert seen["timestep"].shape == (2,) and seen["timestep"].stride() == (0,)  # still an expanded scalar
        assert seen["rotary"] == (rows, 8) and seen["txt_ids"] == (rows, 3)  # never split, though 6 rows
    assert toy.seen[4]["rows"] == [0.0, 1.0, 2.0, 3.0] and len(toy.seen) == 5
    # without guidance (r = 1) each image's forward gets its own row
    with batch_forward.per_image_forward(pipe, rows):
        toy(**args)
    assert [s["rows"] for s in toy.seen[5:]] == [[float(i)] for i in range(rows)]


def test_the_batch_forward_mode_recorded():
    assert [batch_forward.forward_label("auto", device, n) for device, n in (("cpu", 4), ("cuda", 4), ("cpu", 1))] \
        == [batch_forward.PER_IMAGE, "batched", "one image per call"]
    assert batch_forward.forward_label("per-image", "cuda", 4).startswith("per image (forced")
    assert batch_forward.forward_label("batched", "cpu", 4) == "batched"
    assert batch_forward.splits("auto", "cpu") and not batch_forward.splits("auto", "cuda")


def test_every_cpu_plan_gives_the_same_bytes_and_fp8_does_not(tiny_sd, tmp_path):
    made = {}
    for plan, fp8 in (("gpu", False), ("model-offload", False), ("group-offload", False), ("gpu", True)):
        store = BenchmarkStore(tmp_path / f"{plan}-{fp8}.sqlite")
        store.put_segments(SEGMENTS)
        result = _runner(tiny_sd, plan=plan, fp8_denoiser=fp8).generate(
            ROWS[:1], samples=2, base_seed=1, out_dir=tmp_path / f"{plan}-{fp8}", store=store)
        made[(plan, fp8)] = [p.read_bytes() for p in result.paths]
        meta = json.loads(store.generated_panels()[("tiny", "L1", "hel-001")][0]["prompt_meta"])["generation"]
        assert (meta["plan"], meta["numerics"]) == (plan, "fp8-denoiser" if fp8 else "standard")
    assert made[("gpu", False)] == made[("model-offload", False)] == made[("group-offload", False)]
    assert made[("gpu", True)] != made[("gpu", False)]
    with pytest.raises(InputError, match="needs a GPU"):
        _runner(tiny_sd, plan="sequential").generate(ROWS, samples=1, out_dir=tmp_path / "seq")
    assert not (tmp_path / "seq").exists()


def test_the_manifest_and_the_store_record_the_plan(tiny_sd, tmp_path):
    store = _store(tmp_path)
    _runner(tiny_sd).generate(ROWS, samples=2, out_dir=tmp_path / "g", store=store)
    manifest = json.loads((tmp_path / "g" / "tiny" / "generation_manifest.json").read_text())
    plan = manifest["memory_plan"]
    expected = estimate(folder_sizes(tiny_sd), "gpu", "fp32", 32, 2)
    assert (plan["plan"], plan["batch"], plan["device_type"], plan["numerics"]) == ("gpu", 2, "cpu", "standard")
    assert plan["predicted_peak_bytes"] == expected["peak"] > 0 and plan["phases"] == expected["phases"]
    assert plan["measured_peak_bytes"] is None and "CPU" in plan["reason"]  # measured on CUDA only
    assert "safetensors headers" in plan["sizes_origin"]
    assert store.meta("generation:tiny")["memory_plan"]["predicted_peak_bytes"] == expected["peak"]
    info = manifest["models"][0]
    assert (info["scheduler"], info["device_type"], info["torch_dtype"]) == ("DDIMScheduler", "cpu", "float32")


def test_a_resume_with_other_settings_is_refused_by_field_and_force_replaces(tiny_sd, tmp_path):
    store, out = _store(tmp_path), tmp_path / "g"
    _runner(tiny_sd).generate(ROWS, samples=2, out_dir=out, store=store)
    files = sorted(out.rglob("*.jpg"))
    stamps = [p.stat().st_mtime_ns for p in files]
    with pytest.raises(InputError) as err:
        _runner(tiny_sd, precision="bf16").generate(ROWS, samples=2, out_dir=out, store=store)
    assert "4 image(s) of tiny" in str(err.value) and "dtype float32 → bfloat16 (4 images)" in str(err.value)
    assert "--force" in str(err.value)
    with pytest.raises(InputError, match=r"steps 2 → 3 \(4 images\)"):
        _runner(tiny_sd, steps=3).generate(ROWS, samples=2, out_dir=out, store=store)
    assert [p.stat().st_mtime_ns for p in files] == stamps  # nothing was touched

    # a panel made on a GPU (its record says so) is never completed on the CPU
    record = store.generated_panels()[("tiny", "L1", "hel-001")][1]
    meta = json.loads(record["prompt_meta"])
    meta["generation"].update(device_type="cuda", torch_dtype="bfloat16")
    store.db.execute("UPDATE generated_images SET prompt_meta = ? WHERE model = 'tiny' AND segment_id = 'hel-001' "
                     "AND sample_index = 1", (json.dumps(meta),))
    store.db.commit()
    with pytest.raises(InputError) as err:
        _runner(tiny_sd).generate(ROWS, samples=2, out_dir=out, store=store)
    assert "1 image(s)" in str(err.value) and "device type cuda → cpu" in str(err.value)
    assert "dtype bfloat16 → float32" in str(err.value)

    forced = _runner(tiny_sd, precision="bf16").generate(ROWS, samples=2, out_dir=out, store=store, force=True)
    assert (forced.generated, forced.skipped_existing) == (4, 0)
    for images in store.generated_panels().values():  # every panel now the work of the bf16 run alone
        assert {json.loads(i["prompt_meta"])["generation"]["torch_dtype"] for i in images} == {"bfloat16"}
    again = _runner(tiny_sd, precision="bf16").generate(ROWS, samples=2, out_dir=out, store=store)
    assert (again.generated, again.skipped_existing) == (0, 4)


def test_a_folder_without_a_store_refuses_other_settings(tiny_sd, tmp_path):
    _runner(tiny_sd).generate(ROWS[:1], samples=1, out_dir=tmp_path)
    with pytest.raises(InputError, match=r"already in the folder .*steps 2 → 3.*--force"):
        _runner(tiny_sd, steps=3).generate(ROWS[:1], samples=1, out_dir=tmp_path)
    assert _runner(tiny_sd, steps=3).generate(ROWS[:1], samples=1, out_dir=tmp_path, force=True).generated == 1


def test_cancel_stops_inside_a_pipeline_call(tiny_sd, tmp_path):
    progress = RecordingProgress(cancel_after=2)  # the check before the call, then the first step's
    with pytest.raises(Cancelled) as err:
        _runner(tiny_sd).generate(ROWS, samples=4, out_dir=tmp_path, progress=progress)
    assert err.value.result.generated == 0 and not list(tmp_path.rglob("*.jpg"))


def test_the_command_line_refuses_a_mixing_resume_and_forces(tiny_sd, tmp_path):
    _store(tmp_path).close()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    base = [sys.executable, "-m", "geofidelity_plugin", "generate", "--store", str(tmp_path / "benchmark.sqlite"),
            "--generator", "tiny", "--custom-folder", str(tiny_sd), "--resolution", "32", "--samples", "2",
            "--conditions", "L1", "--device", "cpu", "--plan", "group-offload", "--vram-budget", "8GB", "-q"]

    def run(*extra):
        return subprocess.run(base + list(extra), cwd=REPO, env=env, capture_output=True, text=True, timeout=600)

    first = run("--steps", "2")
    assert first.returncode == 0, first.stderr
    assert "memory plan group-offload (2 image(s) per call" in first.stdout
    refused = run("--steps", "3")
    assert refused.returncode != 0 and "steps 2 → 3 (4 images)" in refused.stderr and "--force" in refused.stderr
    forced = run("--steps", "3", "--force")
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.startswith("4 images generated, 0 kept")


def test_a_panel_of_imported_images_is_not_completed_by_generation(tiny_sd, tmp_path):
    from geofidelity_plugin.core.generation.import_folder import import_generated_folder

    store = _store(tmp_path)
    folder = tmp_path / "elsewhere" / "L1" / "hel-001"
    folder.mkdir(parents=True)
    Image.new("RGB", (32, 32), "grey").save(folder / "00.jpg")
    import_generated_folder(tmp_path / "elsewhere", store, "tiny")
    with pytest.raises(InputError, match=r"1 image\(s\) of tiny .* origin imported → generated \(1 image\) — "):
        _runner(tiny_sd).generate(ROWS[:1], samples=2, out_dir=tmp_path / "g", store=store)
    assert _runner(tiny_sd).generate(ROWS[:1], samples=2, out_dir=tmp_path / "g", store=store,
                                     force=True).generated == 2
    assert (folder / "00.jpg").is_file()  # an imported file outside the generator's folder is left alone


def test_the_command_line_chooses_the_batch_forward_and_records_it(tiny_sd, tmp_path):
    _store(tmp_path).close()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    base = [sys.executable, "-m", "geofidelity_plugin", "generate", "--store", str(tmp_path / "benchmark.sqlite"),
            "--generator", "tiny", "--custom-folder", str(tiny_sd), "--resolution", "32", "--samples", "2",
            "--steps", "2", "--conditions", "L1", "--device", "cpu", "-q"]
    out = tmp_path / "generations"

    def run(*extra):
        return subprocess.run(base + list(extra), cwd=REPO, env=env, capture_output=True, text=True, timeout=600)

    wrong = run("--batch-forward", "sometimes")
    assert wrong.returncode == 2 and "--batch-forward: invalid choice: 'sometimes'" in wrong.stderr
    assert not out.exists()
    joint = run("--batch-forward", "batched", "--out", str(out))
    assert joint.returncode == 0, joint.stderr
    manifest = json.loads((out / "tiny" / "generation_manifest.json").read_text())
    assert manifest["options"]["batch_forward"] == batch_forward.BATCHED
    split = run("--out", str(tmp_path / "split"), "--force")  # the default on the CPU: image by image
    assert split.returncode == 0, split.stderr
    manifest = json.loads((tmp_path / "split" / "tiny" / "generation_manifest.json").read_text())
    assert manifest["options"]["batch_forward"] == batch_forward.PER_IMAGE
