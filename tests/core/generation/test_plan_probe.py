"""The GPU probe that scales the plan time model (core/generation/plan_probe.py; docs/memory-plans.md,
Time per panel), on a machine without a GPU: the cache and its key, a damaged cache file ignored
with a log line, the multipliers against a hand computation, the basis each case states, when a run
measures, and the probe refusing anything but a CUDA device."""
from __future__ import annotations

import json
import logging
import types

import pytest

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.generation import plan_probe, plan_time
from geofidelity_plugin.core.generation.component_sizes import published_sizes
from geofidelity_plugin.core.generation.generators import GENERATORS
from geofidelity_plugin.core.generation.memory_plan import GIB, choose_plan

KEY = {"device": "NVIDIA GeForce RTX 4090", "driver": "580.159.04", "cuda": "13.0", "torch": "2.11.0+cu130"}
#: made-up figures, round so that the expected ratios are plain
REFERENCE = {"probe_version": 1, "device": "NVIDIA H200", "date": "2026-12-01", "bf16_tflops": 700.0,
             "fp16_tflops": 720.0, "pinned_gb_s": 50.0, "pageable_gb_s": 10.0}
PROBE = {"probe_version": 1, **KEY, "date": "2026-12-02", "bf16_tflops": 175.0, "fp16_tflops": 180.0,
         "pinned_gb_s": 25.0, "pageable_gb_s": 8.0, "seconds": 2.1}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def with_reference(monkeypatch):
    """The data file as it will be once the H200's probe is recorded."""
    monkeypatch.setattr(plan_time, "calibration", lambda: {**_recorded(), "probe": REFERENCE})


_RECORDED = plan_time.calibration


def _recorded() -> dict:
    """The data file's figures without an H200 probe (as before `make gpu-check` recorded one)."""
    return {k: v for k, v in _RECORDED().items() if k != "probe"}


@pytest.fixture
def without_reference(monkeypatch):
    monkeypatch.setattr(plan_time, "calibration", _recorded)


# -- the cache --------------------------------------------------------------------------------
def test_a_cached_probe_is_read_back_under_its_key_only(cache):
    path = plan_probe.write_cached(PROBE)
    assert path.parent == cache / plan_probe.CACHE_FOLDER
    assert path.name.startswith("NVIDIA-GeForce-RTX-4090-580.159.04-")
    assert plan_probe.read_cached(KEY) == PROBE
    for field, other in (("driver", "590.10"), ("cuda", "12.8"), ("torch", "2.12.0"), ("device", "NVIDIA L4")):
        changed = {**KEY, field: other}
        assert plan_probe.cache_path(changed) != path and plan_probe.read_cached(changed) is None, field
    assert not list(path.parent.glob(".*"))  # no temporary file left by the atomic write


@pytest.mark.parametrize("text,why", [
    ('{"probe_version": 1, "device": "NVIDIA GeForce RT', "unreadable"),  # a write cut short
    (json.dumps({**PROBE, "pinned_gb_s": None}), "pinned_gb_s is None"),
    (json.dumps({**PROBE, "fp16_tflops": -3.0}), "fp16_tflops is -3.0"),
    (json.dumps({**PROBE, "probe_version": 0}), "version 0"),
    (json.dumps([1, 2]), "not a JSON object"),
    (json.dumps({**PROBE, "driver": "470.1"}), "another device, driver or torch"),
])
def test_a_damaged_or_foreign_cache_file_is_ignored_with_a_log_line(cache, caplog, text, why):
    path = plan_probe.cache_path(KEY)
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="geofidelity"):
        assert plan_probe.read_cached(KEY) is None
    assert why in caplog.text and str(path) in caplog.text and "measured again" in caplog.text


# -- the multipliers and the basis ------------------------------------------------------------
def test_the_multipliers_are_the_reference_over_the_device(with_reference):
    bf16 = plan_time.device_speed(KEY["device"], PROBE, "bf16")
    assert (bf16.compute, bf16.transfer, bf16.pageable) == pytest.approx((700 / 175, 50 / 25, 10 / 8))
    fp16 = plan_time.device_speed(KEY["device"], PROBE, "fp16")
    assert (fp16.compute, fp16.transfer, fp16.pageable) == pytest.approx((4.0, 2.0, 1.25))
    assert plan_time.device_speed(KEY["device"], PROBE, "fp32").compute == pytest.approx(4.0)  # fp16's ratio
    # what they do to a call: compute ×4, group offload's prefetch ×2, model offload's copies ×1.25
    sizes, cal = published_sizes("flux.1-dev"), plan_time.calibration()
    step, call, _ = plan_time.per_image(sizes, "bf16", 1024)
    weights = plan_time.weight_bytes(sizes, "bf16")
    gpu = plan_time.call_seconds(sizes, "gpu", "bf16", 1024, 4, 28, bf16)
    assert gpu == pytest.approx(4 * (4 * call + 28 * 4 * step))
    model = plan_time.call_seconds(sizes, "model-offload", "bf16", 1024, 4, 28, bf16)
    assert model == pytest.approx(gpu + weights["all"] / cal["bandwidth"]["model_offload"] * 1.25)
    group = plan_time.call_seconds(sizes, "group-offload", "bf16", 1024, 4, 28, bf16)
    fetch = weights["denoiser"] / cal["bandwidth"]["link"] * 2.0
    assert group == pytest.approx(4 * 4 * call + weights["text_encoders"] / cal["bandwidth"]["group_call"] * 2.0
                                  + 28 * max(cal["generators"]["flux.1-dev"]["group_factor"] * 4 * step * 4, fetch))


def test_the_basis_says_where_the_scale_comes_from(without_reference, monkeypatch):
    recorded = f"the H200 figures of `make gpu-check` ({_recorded()['measured']})"
    assert plan_time.device_speed("NVIDIA H200").basis == f"{recorded}, on an H200"
    peak = plan_time.device_speed(KEY["device"])
    assert peak.compute == pytest.approx(989 / 165.2) and "compute scaled by published peaks" in peak.basis
    assert "no published peak known" in plan_time.device_speed("Radeon Pro W7900").basis
    unused = plan_time.device_speed(KEY["device"], PROBE, "bf16")  # no reference recorded yet
    assert (unused.compute, unused.transfer) == (peak.compute, 1.0)
    assert unused.basis == (f"{peak.basis}; the probe on NVIDIA GeForce RTX 4090 (2026-12-02) is not used: "
                            "no H200 reference probe is recorded yet")
    monkeypatch.setattr(plan_time, "calibration", lambda: {**_recorded(), "probe": REFERENCE})
    probed = plan_time.device_speed(KEY["device"], PROBE, "bf16").basis
    assert probed.startswith(f"{recorded}; scaled by a probe on NVIDIA GeForce RTX 4090 (2026-12-02): ")
    assert "bf16 matrix products 175 vs 700 TFLOPS on the H200" in probed
    assert "pinned copies 25.0 vs 50.0 GB/s, pageable copies 8.0 vs 10.0 GB/s" in probed
    broken = plan_time.device_speed(KEY["device"], {**PROBE, "bf16_tflops": 0}, "bf16")
    assert broken.basis == peak.basis  # a damaged probe is not used


def test_a_probe_equal_to_the_reference_keeps_the_h200_choices(monkeypatch):
    same = {**REFERENCE, "device": "NVIDIA H200"}
    monkeypatch.setattr(plan_time, "calibration", lambda: {**_recorded(), "probe": REFERENCE})
    for name, spec in GENERATORS.items():
        for budget in (8, 12, 16, 24, 48, 80):
            args = (published_sizes(name), spec.dtype, 1024, 4, "cuda", budget * GIB, "cap")
            plain = choose_plan(*args, steps=spec.steps, device_name="NVIDIA H200")
            probed = choose_plan(*args, steps=spec.steps, speed=plan_time.device_speed("NVIDIA H200", same, spec.dtype))
            assert (probed.plan, probed.batch, probed.predicted_s_per_panel) == (
                plain.plan, plain.batch, plain.predicted_s_per_panel), (name, budget)
            assert "scaled by a probe on NVIDIA H200" in probed.time_basis


# -- when a run measures ----------------------------------------------------------------------
@pytest.fixture
def fake_gpu(monkeypatch, cache):
    """A CUDA device as far as the run's probe logic sees one; ``runs`` counts the probes."""
    import torch

    state = {"runs": 0, "fail": False}

    def run_probe(device):
        state["runs"] += 1
        if state["fail"]:
            raise RuntimeError("CUDA error: an illegal memory access was encountered")
        return dict(PROBE)

    monkeypatch.setattr(plan_probe, "device_key", lambda device=None: dict(KEY))
    monkeypatch.setattr(plan_probe, "run_probe", run_probe)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda device=None: KEY["device"])
    return types.SimpleNamespace(device=types.SimpleNamespace(type="cuda"), state=state)


def test_auto_does_not_probe_before_the_reference_exists(fake_gpu, without_reference):
    speed, probe = plan_probe.speed_for_run(fake_gpu.device, "bf16", "auto")
    assert probe is None and fake_gpu.state["runs"] == 0
    assert speed.basis.endswith("; no probe run: no H200 reference probe is recorded yet")
    assert "published peaks" in speed.basis


def test_auto_probes_once_then_reads_the_cache_and_rerun_measures_again(fake_gpu, with_reference):
    speed, probe = plan_probe.speed_for_run(fake_gpu.device, "bf16", "auto")
    assert probe == PROBE and fake_gpu.state["runs"] == 1 and speed.compute == pytest.approx(4.0)
    assert plan_probe.read_cached(KEY) == PROBE
    again, probe = plan_probe.speed_for_run(fake_gpu.device, "bf16", "auto")
    assert probe == PROBE and fake_gpu.state["runs"] == 1 and again == speed
    plan_probe.speed_for_run(fake_gpu.device, "bf16", "rerun")
    assert fake_gpu.state["runs"] == 2
    off, probe = plan_probe.speed_for_run(fake_gpu.device, "bf16", "off")
    assert probe is None and fake_gpu.state["runs"] == 2 and off.basis.endswith("; no probe (--plan-probe off)")


def test_a_failed_probe_is_logged_and_the_run_goes_on(fake_gpu, with_reference, caplog):
    fake_gpu.state["fail"] = True
    with caplog.at_level(logging.WARNING, logger="geofidelity"):
        speed, probe = plan_probe.speed_for_run(fake_gpu.device, "fp16", "rerun")
    assert probe is None and "plan probe on" in caplog.text and "published peaks" in caplog.text
    assert "compute scaled by published peaks" in speed.basis


def test_the_cpu_takes_no_probe_and_unknown_modes_are_refused():
    import torch

    assert plan_probe.speed_for_run(torch.device("cpu"), "fp32", "rerun") == (plan_time.device_speed(""), None)
    with pytest.raises(InputError, match="unknown plan probe mode 'sometimes' — use auto, off, rerun"):
        plan_probe.check_mode("sometimes")
    assert plan_probe.check_mode(None) == plan_probe.check_mode(" AUTO ") == "auto"


# -- the measurement --------------------------------------------------------------------------
@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_the_probe_refuses_anything_but_a_cuda_device(device):
    import torch

    if device == "cuda" and torch.cuda.is_available():
        pytest.skip("this machine has a CUDA device")
    with pytest.raises(InputError, match="the plan probe measures a CUDA GPU") as refused:
        plan_probe.run_probe(device)
    assert "--plan-probe off" in str(refused.value)


def test_a_probe_is_a_valid_cache_entry_for_its_device(cache, monkeypatch):
    """run_probe's record with the CUDA calls faked: every figure, the key it is cached by, and
    the largest matrix side that fits."""
    import torch

    sides = []

    def matmul(torch_, device, dtype, sides_=plan_probe.MATMUL_SIDES, seconds=0.25):
        sides.append((dtype, sides_))
        return sides_[0], {torch.bfloat16: 650.0, torch.float16: 660.0}[dtype]

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
    monkeypatch.setattr(plan_probe, "device_key", lambda device=None: dict(KEY))
    monkeypatch.setattr(plan_probe, "matmul_tflops", matmul)
    monkeypatch.setattr(plan_probe, "copy_gb_s", lambda torch_, device, pinned: 40.0 if pinned else 9.0)
    probe = plan_probe.run_probe("cuda")
    assert plan_time.probe_problem(probe) is None and {k: probe[k] for k in KEY} == KEY
    assert (probe["bf16_tflops"], probe["fp16_tflops"], probe["pinned_gb_s"], probe["pageable_gb_s"]) == (
        650.0, 660.0, 40.0, 9.0)
    assert sides == [(torch.bfloat16, (8192, 4096)), (torch.float16, (8192,))]  # fp16 on bf16's side
    plan_probe.write_cached(probe)
    assert plan_probe.read_cached(KEY) == probe


def test_the_timing_helpers_measure_on_any_device():
    """The helpers the probe runs on a GPU, timed on the CPU with small sizes (no pinned memory
    without CUDA)."""
    import torch

    cpu = torch.device("cpu")
    side, tflops = plan_probe.matmul_tflops(torch, cpu, torch.float32, sides=(64,), seconds=0.02)
    assert side == 64 and 0 < tflops < 1e4
    assert 0 < plan_probe.copy_gb_s(torch, cpu, pinned=False, nbytes=1 << 20, repeats=2) < 1e4


def test_the_manifest_records_the_probe_option(tmp_path):
    """A CPU run has no budget, so no probe; the manifest says which mode it ran with."""
    from tiny_models import make_tiny_sd

    from geofidelity_plugin.core.generation.prompts import PromptRow
    from geofidelity_plugin.core.generation.runner import GenerationRunner

    folder = make_tiny_sd(tmp_path / "tiny-sd")
    runner = GenerationRunner(folder, steps=2, guidance=5.0, resolution=32, dtype="fp16", device="cpu", name="tiny",
                              plan_probe="off")
    runner.generate([PromptRow("hel-001", "L0", "A street in Helsinki.")], samples=1, out_dir=tmp_path / "g")
    plan = json.loads((tmp_path / "g" / "tiny" / "generation_manifest.json").read_text())["memory_plan"]
    assert (plan["plan_probe"], plan["probe"], plan["predicted_s_per_panel"]) == ("off", None, None)
    with pytest.raises(InputError, match="unknown plan probe mode"):
        GenerationRunner(folder, steps=2, guidance=5.0, resolution=32, device="cpu", plan_probe="never")
