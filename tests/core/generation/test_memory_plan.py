"""The memory plan of a generation run (method §4 Generators; docs/memory-plans.md): component
sizes from safetensors headers and from the published-config data file, the plan chosen for each
registered generator under budgets of 8–80 GB checked against arithmetic written out here, and
the plans applied to a tiny real pipeline on the CPU."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.generation.component_sizes import (FP8_DEFAULT_SKIP, data_file, folder_sizes,
                                                                published_sizes, read_header, summarise,
                                                                tensors_of_module)
from geofidelity_plugin.core.generation.generators import GENERATORS
from geofidelity_plugin.core.generation.memory_plan import (GIB, MemoryPlan, apply_plan, check_plan, choose_plan, estimate,
                                                            parse_budget)

REPO = Path(__file__).resolve().parents[3]
BUDGETS = (8, 12, 16, 24, 48, 80)
H = 1 * GIB  # the headroom every plan keeps free
V16 = 8 * 1024 ** 2 * 128 * 2 + 1024 ** 2 * 3 * 2  # VAE decode of one 1024² image, 2-byte dtype
V32 = 8 * 1024 ** 2 * 128 * 4 + 1024 ** 2 * 3 * 4  # … with the VAE upcast to float32 (SDXL in fp16)


# -- the data file: published configs, recounted -------------------------------------------------------
def test_the_data_file_covers_the_six_generators_with_sources():
    data = data_file()["generators"]
    assert set(data) == set(GENERATORS)
    for name, entry in data.items():
        roles = [c["role"] for c in entry["components"].values()]
        assert roles.count("denoiser") == 1 and roles.count("vae") == 1 and "text_encoder" in roles, name
        for component, c in entry["components"].items():
            assert c["source"].startswith("config") and "config.json" in c["source"], (name, component)
        denoiser = next(c for c in entry["components"].values() if c["role"] == "denoiser")
        assert any(w in denoiser["source"] for w in ("model card", "paper")), name


# the figure each model card or paper states, and the counted parameters (persistent buffers included)
STATED = {("flux.1-dev", "transformer"): 12e9, ("flux.1-schnell", "transformer"): 12e9,
          ("sd3.5-large", "transformer"): 8.1e9, ("pixart-sigma-xl-1024", "transformer"): 0.6e9,
          ("hunyuandit-v1.2", "transformer"): 1.5e9, ("sdxl-base-1.0", "unet"): 2.6e9,
          ("sd3.5-large", "text_encoder_3"): 4.7e9}


@pytest.mark.parametrize("generator, component", sorted(STATED))
def test_counts_agree_with_the_stated_figures(generator, component):
    params = data_file()["generators"][generator]["components"][component]["params"]
    assert abs(params - STATED[(generator, component)]) / STATED[(generator, component)] < 0.035


def _meta_model(spec: dict):
    import torch

    library = importlib.import_module(spec["library"])
    cls = getattr(library, spec["class"])
    with torch.device("meta"):
        if spec["library"] == "transformers":
            return cls(getattr(library, spec["config_class"])(**spec["config"]))
        return cls(**spec["config"])


def test_every_count_is_its_config_counted_on_the_meta_device():
    """No number in the data file is typed by hand: each is its stored config, instantiated
    without memory and counted the way ``save_pretrained`` writes it."""
    built = {}
    for generator, entry in data_file()["generators"].items():
        for name, c in entry["components"].items():
            key = json.dumps(c["config"], sort_keys=True)
            module = built.get(key) or built.setdefault(key, _meta_model(c["config"]))
            skip = (FP8_DEFAULT_SKIP + tuple(getattr(type(module), "_skip_layerwise_casting_patterns", None) or ())
                    if c["role"] == "denoiser" else ())
            recount = summarise(name, c["role"], tensors_of_module(module), skip).to_dict()
            for field in ("params", "block_params", "largest_block", "largest_tensor", "fp8_params", "offload_unit"):
                assert recount[field] == c[field], (generator, name, field)


# -- safetensors headers of a real saved model --------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_sd(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_sd

    return make_tiny_sd(tmp_path_factory.mktemp("tiny-sd"))


def _loaded_numel(folder: Path, name: str) -> int:
    import diffusers
    import transformers

    cls_library, cls_name = json.loads((folder / "model_index.json").read_text())[name]
    cls = getattr(diffusers if cls_library == "diffusers" else transformers, cls_name)
    module = cls.from_pretrained(folder / name)
    return sum(t.numel() for t in module.state_dict().values())


def test_header_counts_equal_the_loaded_modules(tiny_sd):
    sizes = folder_sizes(tiny_sd, "tiny")
    by_name = {c.name: c for c in sizes.components}
    assert set(by_name) == {"unet", "text_encoder", "vae"}
    assert {c.name: c.role for c in sizes.components} == {"unet": "denoiser", "text_encoder": "text_encoder",
                                                          "vae": "vae"}
    for name, component in by_name.items():
        assert component.params == _loaded_numel(tiny_sd, name), name
    unet = by_name["unet"]
    assert unet.offload_unit == "block" and 0 < unet.largest_block < unet.block_params < unet.params
    header = read_header(tiny_sd / "unet" / "diffusion_pytorch_model.safetensors")
    assert all(set(info) >= {"dtype", "shape"} for info in header.values())


def test_sharded_weights_are_read_through_their_index_and_variants_ignored(tiny_sd, tmp_path):
    import shutil

    import diffusers

    folder = tmp_path / "sharded"
    shutil.copytree(tiny_sd, folder)
    shutil.rmtree(folder / "unet")
    unet = diffusers.UNet2DConditionModel.from_pretrained(tiny_sd / "unet")
    unet.save_pretrained(folder / "unet", max_shard_size="20KB")
    assert (folder / "unet" / "diffusion_pytorch_model.safetensors.index.json").is_file()
    assert len(list((folder / "unet").glob("*.safetensors"))) > 1
    unet.half().save_pretrained(folder / "unet", variant="fp16")  # a variant beside the plain weights
    plain = {c.name: c.params for c in folder_sizes(tiny_sd).components}
    assert {c.name: c.params for c in folder_sizes(folder).components} == plain
    next((folder / "unet").glob("*-00001-of-*.safetensors")).unlink()  # a partial download
    assert folder_sizes(folder) is None


def test_a_bad_header_is_a_message(tmp_path):
    bad = tmp_path / "model.safetensors"
    bad.write_bytes((2 ** 40).to_bytes(8, "little") + b"{}")
    with pytest.raises(InputError, match="not a readable safetensors file.*download it again"):
        read_header(bad)


# -- options ------------------------------------------------------------------------------------------
def test_budgets_and_plan_names():
    assert parse_budget("12GB") == parse_budget("12 GiB") == parse_budget("12") == 12 * GIB
    assert parse_budget("7.5gb") == int(7.5 * GIB) and parse_budget("8000MB") == 8000 * 1024 ** 2
    assert parse_budget(None) is None and parse_budget("") is None
    for bad in ("twelve", "12TB", "-3GB", "0"):
        with pytest.raises(InputError, match="12GB"):
            parse_budget(bad)
    assert check_plan("auto", "cuda") is None and check_plan("Group-Offload", "cuda") == "group-offload"
    with pytest.raises(InputError, match="unknown memory plan 'cpu-offload'"):
        check_plan("cpu-offload", "cuda")
    with pytest.raises(InputError, match="needs a GPU.*gpu, model-offload, group-offload"):
        check_plan("sequential", "cpu")


# -- decisions for the six generators, against the arithmetic -------------------------------------------
# Run dtype: 2 bytes for all six (fp16 or bf16). Weights W = parameters × 2; denoiser activations
# A(k) = alpha × k images × cfg rows × tokens × width × 2; VAE decode V16 (V32 for SDXL's VAE, which
# the SDXL pipeline upcasts to float32). Group offloading keeps the denoiser's non-block parameters
# plus two blocks (streams prefetch the next), and two text-encoder layers (the largest tensor, twice).
def _sdxl():
    unet, te, te2, vae = 2_567_463_684 * 2, 123_060_480 * 2, 694_659_840 * 2, 83_653_863 * 4
    a = {k: 21 * k * 2 * 16384 * 320 * 2 for k in (4, 2, 1)}
    return {**{("gpu", k): unet + te + te2 + vae + max(a[k], V32) for k in a},
            **{("model-offload", k): max(te2, unet + a[k], vae + V32) for k in a}}


def _sd35():
    tr, te, te2, te3, vae = 8_146_280_768 * 2, 123_650_304 * 2, 694_659_840 * 2, 4_762_310_656 * 2, 83_819_683 * 2
    a = {k: 14 * k * 2 * 4429 * 2432 * 2 for k in (4, 2, 1)}
    group_tr = (8_146_280_768 - 8_017_073_408 + 2 * 212_999_680) * 2
    group_te = 2 * 131_596_288 * 2  # T5's embedding, the largest layer of any text encoder
    return {**{("gpu", k): tr + te + te2 + te3 + vae + max(a[k], V16) for k in a},
            **{("model-offload", k): max(te3, tr + a[k], vae + V16) for k in a},
            **{("group-offload", k): max(group_te + vae, group_tr + a[k] + vae, vae + V16) for k in a}}


def _flux(transformer_params: int):
    tr, te, te2, vae = transformer_params * 2, 123_060_480 * 2, 4_762_310_656 * 2, 83_819_683 * 2
    a = {k: 16 * k * 1 * 4608 * 3072 * 2 for k in (4, 2, 1)}  # distilled guidance: one row per image
    group_tr = (transformer_params - 11_837_283_328 + 2 * 339_831_296) * 2
    return {**{("gpu", k): tr + te + te2 + vae + max(a[k], V16) for k in a},
            **{("model-offload", k): max(te2, tr + a[k], vae + V16) for k in a},
            **{("group-offload", k): max(2 * 131_596_288 * 2 + vae, group_tr + a[k] + vae, vae + V16) for k in a}}


def _pixart():
    wo = 24 * 4096 * 10240  # T5's wo layers stay float32 under fp16 (transformers' _keep_in_fp32_modules)
    tr, te, vae = 610_856_096 * 2, (4_762_310_656 - wo) * 2 + wo * 4, 83_653_863 * 2
    a = {k: 14 * k * 2 * 4096 * 1152 * 2 for k in (4, 2, 1)}
    group_tr = min(tr, (610_856_096 - 595_155_456 + 2 * 21_255_552) * 2)
    return {**{("gpu", k): tr + te + vae + max(a[k], V16) for k in a},
            **{("model-offload", k): max(te, tr + a[k], vae + V16) for k in a},
            **{("group-offload", k): max(2 * 131_596_288 * 2 + vae, group_tr + a[k] + vae, vae + V16) for k in a}}


def _hunyuan():
    wo = 24 * 2048 * 5120  # the mT5 encoder's wo layers stay float32 under fp16
    tr, te, te2, vae = 1_499_952_032 * 2, 352_035_840 * 2, (1_669_958_656 - wo) * 2 + wo * 4, 83_653_863 * 2
    a = {k: 35 * k * 2 * 4096 * 1408 * 2 for k in (4, 2, 1)}  # alpha 15 + 20 long skips
    return {**{("gpu", k): tr + te + te2 + vae + max(a[k], V16) for k in a},
            **{("model-offload", k): max(te2, tr + a[k], vae + V16) for k in a}}


HAND = {"sdxl-base-1.0": _sdxl(), "sd3.5-large": _sd35(), "flux.1-dev": _flux(11_901_408_320),
        "flux.1-schnell": _flux(11_891_178_560), "pixart-sigma-xl-1024": _pixart(), "hunyuandit-v1.2": _hunyuan()}
# budget (GB = GiB) → (plan, images per call): among the choices whose peak (the arithmetic above) fits,
# the one the time model (core/generation/plan_time.py) predicts fastest; e.g. FLUX.1-dev at 24: gpu 4 =
# 33.4 GiB does not fit, model-offload fits only split to 1 per call (22.60 GiB; 4 calls moving all weights),
# group-offload 4 fits at 3.2 GiB and is predicted 5× faster (measured on an H200: 22 s against 115 s);
# SDXL at 8: group offload fits too, but its UNet's own group factor (measured 15.6 s against model
# offload's 8.3 s on an H200) makes model offload faster
EXPECTED = {
    "sdxl-base-1.0": {8: ("model-offload", 4), 12: ("gpu", 4), 16: ("gpu", 4), 24: ("gpu", 4), 48: ("gpu", 4),
                      80: ("gpu", 4)},
    "sd3.5-large": {8: ("group-offload", 4), 12: ("group-offload", 4), 16: ("group-offload", 4),
                    24: ("group-offload", 4), 48: ("gpu", 4), 80: ("gpu", 4)},
    "flux.1-dev": {8: ("group-offload", 4), 12: ("group-offload", 4), 16: ("group-offload", 4),
                   24: ("group-offload", 4), 48: ("gpu", 4), 80: ("gpu", 4)},
    "flux.1-schnell": {8: ("group-offload", 4), 12: ("group-offload", 4), 16: ("group-offload", 4),
                       24: ("group-offload", 4), 48: ("gpu", 4), 80: ("gpu", 4)},
    "pixart-sigma-xl-1024": {8: ("group-offload", 4), 12: ("group-offload", 4), 16: ("gpu", 4), 24: ("gpu", 4),
                             48: ("gpu", 4), 80: ("gpu", 4)},
    "hunyuandit-v1.2": {8: ("group-offload", 4), 12: ("gpu", 4), 16: ("gpu", 4), 24: ("gpu", 4), 48: ("gpu", 4),
                        80: ("gpu", 4)},
}


@pytest.mark.parametrize("generator", sorted(EXPECTED))
def test_plan_for_each_budget_is_the_fastest_predicted_that_fits(generator):
    from geofidelity_plugin.core.generation.plan_time import panel_seconds

    sizes, spec, hand = published_sizes(generator), GENERATORS[generator], HAND[generator]
    for gb in BUDGETS:
        plan = choose_plan(sizes, spec.dtype, 1024, 4, "cuda", gb * GIB, "test budget", steps=spec.steps)
        assert (plan.plan, plan.batch) == EXPECTED[generator][gb], (generator, gb, plan.reason)
        if (plan.plan, plan.batch) in hand:  # the peak, where the arithmetic above is written out
            assert plan.predicted_peak_bytes == pytest.approx(hand[(plan.plan, plan.batch)], abs=2), (generator, gb)
            assert hand[(plan.plan, plan.batch)] + H <= gb * GIB
        chosen = panel_seconds(sizes, plan.plan, spec.dtype, 1024, 4, plan.batch, spec.steps)
        assert plan.predicted_s_per_panel == pytest.approx(chosen, abs=0.05)
        for (other, k), peak in hand.items():  # every choice that fits is predicted no faster
            if peak + H <= gb * GIB and other != "sequential":
                assert panel_seconds(sizes, other, spec.dtype, 1024, 4, k, spec.steps) >= chosen - 1e-9, \
                    (generator, gb, other, k)
        assert not plan.vae_tiling and plan.numerics == "standard" and plan.fits
        assert f"predicted {plan.predicted_s_per_panel:.0f} s per panel" in plan.reason


def test_the_reason_names_what_the_choice_beat():
    """FLUX.1-dev at 24 GiB, the example of docs/memory-plans.md: the log line says the prediction
    of the choice and of the split model offload it beat."""
    plan = choose_plan(published_sizes("flux.1-dev"), "bf16", 1024, 4, "cuda", 24 * GIB, "24 GB budget", steps=28,
                       device_name="NVIDIA H200")
    assert plan.plan == "group-offload" and plan.batch == 4
    assert plan.reason.startswith("group-offload, 4 image(s) per call: predicted 22 s per panel")
    assert "model-offload would split to 1 image(s) per call: 137 s" in plan.reason
    assert "gpu does not fit" in plan.reason
    alternatives = {a["plan"]: a for a in plan.alternatives}
    assert alternatives["model-offload"]["batch"] == 1 and not alternatives["gpu"]["fits"]
    assert "H200" in plan.time_basis and plan.to_dict()["predicted_s_per_panel"] == 22.5


def test_sequential_only_when_nothing_else_fits():
    sizes = published_sizes("flux.1-dev")
    # 1.8 GiB usable: sequential needs 1.79, group offload 1.96 even at one image per call (tiled VAE)
    tight = choose_plan(sizes, "bf16", 1024, 4, "cuda", int(2.8 * GIB), "test", steps=28)
    assert tight.plan == "sequential" and "no other plan fits" in tight.reason
    roomy = choose_plan(sizes, "bf16", 1024, 4, "cuda", 80 * GIB, "test", steps=28, plans=("model-offload", "sequential"))
    assert roomy.plan == "model-offload"  # sequential, though it fits, is not ranked while another plan fits


def test_a_slower_device_scales_the_compute_not_the_choice_rule():
    from geofidelity_plugin.core.generation.plan_time import device_speed

    h200, t4, unknown = device_speed("NVIDIA H200"), device_speed("Tesla T4"), device_speed("Some GPU 9000")
    assert h200.compute == 1.0 and t4.compute == pytest.approx(989 / 65)
    assert unknown.compute == 1.0 and "no published peak" in unknown.basis and "Some GPU 9000" in unknown.basis
    sizes = published_sizes("pixart-sigma-xl-1024")
    fast = choose_plan(sizes, "fp16", 1024, 4, "cuda", 12 * GIB, "t", steps=20, device_name="NVIDIA H200")
    slow = choose_plan(sizes, "fp16", 1024, 4, "cuda", 12 * GIB, "t", steps=20, device_name="Tesla T4")
    assert slow.predicted_s_per_panel > 10 * fast.predicted_s_per_panel
    assert "T4" in slow.time_basis


def test_fp8_is_opt_in_and_recorded():
    sizes = published_sizes("flux.1-dev")
    # fp8 storage: 8_653_744_128 castable parameters at 1 byte, the rest (norms, embeddings) at 2
    fp8_transformer = 8_653_744_128 + (11_901_408_320 - 8_653_744_128) * 2
    plan = choose_plan(sizes, "bf16", 1024, 4, "cuda", 24 * GIB, "test", fp8_denoiser=True,
                       plans=("gpu", "model-offload"))  # where fp8 lets the whole panel fit one call
    assert (plan.plan, plan.batch, plan.numerics) == ("model-offload", 4, "fp8-denoiser")
    assert plan.predicted_peak_bytes == pytest.approx(fp8_transformer + 16 * 4 * 4608 * 3072 * 2, abs=2)
    assert choose_plan(sizes, "bf16", 1024, 4, "cuda", 24 * GIB, "test").numerics == "standard"


def test_tiling_when_the_decode_alone_does_not_fit():
    sizes = published_sizes("sdxl-base-1.0")
    # 4 GiB: the untiled decode 83_653_863×4 + V32 = 4.32 GiB > 3 usable; tiles of 512 px:
    tiled = 8 * 512 ** 2 * 128 * 4 + 1024 ** 2 * 3 * 4
    # group offload still holds the whole UNet (two up-blocks of 1.2 B exceed it); sequential holds one layer
    sequential = 29_491_200 * 2 + 21 * 4 * 2 * 16384 * 320 * 2
    plan = choose_plan(sizes, "fp16", 1024, 4, "cuda", 4 * GIB, "test")
    assert (plan.plan, plan.batch, plan.vae_tiling, plan.numerics) == ("sequential", 4, True, "vae-tiled-512")
    assert plan.phases["vae"] == pytest.approx(2_359_296 * 4 + tiled, abs=2)
    assert plan.predicted_peak_bytes == pytest.approx(sequential, abs=2)


def test_nothing_fits_and_ram_limits_are_messages():
    sizes = published_sizes("flux.1-dev")
    with pytest.raises(InputError) as err:
        choose_plan(sizes, "bf16", 1024, 4, "cuda", int(1.5 * GIB), "test")  # 0.5 GiB after the headroom
    # least: sequential, one image: 56_623_104 × 2 (one layer) + 16 × 1 × 4608 × 3072 × 2 = 0.53 GiB
    assert "does not fit 1.5 GiB" in str(err.value) and "needs about 1.53 GiB" in str(err.value)
    assert "--fp8-denoiser" in str(err.value)
    weights = (11_901_408_320 + 123_060_480 + 4_762_310_656 + 83_819_683) * 2  # parked in RAM when offloading
    with pytest.raises(InputError, match=r"GiB of free RAM for the offloaded weights \(20.0 GiB free\)"):
        choose_plan(sizes, "bf16", 1024, 4, "cuda", 24 * GIB, "test", ram_free_bytes=20 * GIB)
    roomy = choose_plan(sizes, "bf16", 1024, 4, "cuda", 24 * GIB, "test", ram_free_bytes=40 * GIB)
    assert (roomy.plan, roomy.group_pinning) == ("group-offload", "on the fly")  # 2 × 31.4 GiB > 40
    assert roomy.ram_needed_bytes == pytest.approx(weights, abs=2)
    grouped = choose_plan(sizes, "bf16", 1024, 4, "cuda", 12 * GIB, "test", ram_free_bytes=40 * GIB)
    assert (grouped.plan, grouped.group_pinning) == ("group-offload", "on the fly")  # 2 × 31.4 GiB > 40
    assert choose_plan(sizes, "bf16", 1024, 4, "cuda", 12 * GIB, "t", ram_free_bytes=80 * GIB).group_pinning == "ahead"


def test_forced_plans_and_the_cpu():
    sizes = published_sizes("flux.1-dev")
    forced = choose_plan(sizes, "bf16", 1024, 4, "cuda", 80 * GIB, "test", plan="sequential")
    assert (forced.plan, forced.batch, forced.forced, forced.fits) == ("sequential", 4, True, True)
    too_big = choose_plan(sizes, "bf16", 1024, 4, "cuda", 16 * GIB, "test", plan="gpu")
    assert (too_big.plan, too_big.batch, too_big.fits) == ("gpu", 1, False) and "may run out" in too_big.reason
    cpu = choose_plan(sizes, "fp32", 1024, 4, "cpu", None, "", plan=None)
    assert (cpu.plan, cpu.batch, cpu.budget_bytes) == ("gpu", 4, None) and "CPU" in cpu.reason
    assert cpu.predicted_peak_bytes == estimate(sizes, "gpu", "fp32", 1024, 4)["peak"]
    assert choose_plan(sizes, "fp32", 1024, 4, "cpu", None, "", plan="group-offload").plan == "group-offload"
    with pytest.raises(InputError, match="needs a GPU"):
        choose_plan(sizes, "fp32", 1024, 4, "cpu", None, "", plan="sequential")


# -- applied to a real pipeline ------------------------------------------------------------------------
def test_fp8_estimate_counts_what_diffusers_casts(tiny_sd):
    """The header-based fp8 count is exactly the parameters layerwise casting stores in fp8."""
    import diffusers
    import torch

    pipe = diffusers.DiffusionPipeline.from_pretrained(tiny_sd, torch_dtype=torch.float32)
    plan = choose_plan(folder_sizes(tiny_sd), "fp32", 32, 2, "cpu", None, "", fp8_denoiser=True)
    apply_plan(pipe, plan, "cpu")
    stored = sum(p.numel() for p in pipe.unet.parameters() if p.dtype == torch.float8_e4m3fn)
    assert stored == folder_sizes(tiny_sd).denoiser.fp8_params > 0
    assert pipe.vae.use_slicing and not pipe.vae.use_tiling


# -- the documentation table ------------------------------------------------------------------------------
def test_the_plan_table_in_the_docs_is_current():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "plan_table.py"), "--check"], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    doc = (REPO / "docs" / "memory-plans.md").read_text(encoding="utf-8")
    for generator, row in EXPECTED.items():
        line = next(line for line in doc.splitlines() if line.startswith(f"| {GENERATORS[generator].label} |"))
        assert [cell.split()[0] for cell in line.strip("|").split("|")[1:]] == [row[gb][0] for gb in BUDGETS]


# -- every architecture family, through every plan the CPU has -----------------------------------------------
FAMILY_BUILDERS = {"sdxl": ("make_tiny_sdxl", {}), "sd3": ("make_tiny_sd3", {}), "flux": ("make_tiny_flux", {}),
                   "pixart-sigma": ("make_tiny_pixart_sigma", {}), "hunyuandit": ("make_tiny_hunyuandit", {})}


@pytest.mark.parametrize("family", sorted(FAMILY_BUILDERS))
def test_each_family_runs_through_each_cpu_plan(family, tmp_path):
    """The tiny twin of each registered architecture, loaded by the runner: the headers count
    what the loaded modules hold, every CPU plan makes the same bytes, and fp8 storage runs."""
    import diffusers

    import tiny_models
    from geofidelity_plugin.core.generation.prompts import PromptRow
    from geofidelity_plugin.core.generation.runner import GenerationRunner

    builder, kwargs = FAMILY_BUILDERS[family]
    folder = getattr(tiny_models, builder)(tmp_path / "model", **kwargs)
    sizes = folder_sizes(folder)
    pipe = diffusers.DiffusionPipeline.from_pretrained(folder)
    for component in sizes.components:
        module = getattr(pipe, component.name)
        assert component.params == sum(n for _, n, _ in tensors_of_module(module)), (family, component.name)
    row = PromptRow("hel-001", "L1", "A street-level photo taken on Unioninkatu in Helsinki, Finland.")
    made = {}
    for plan, fp8 in (("gpu", False), ("model-offload", False), ("group-offload", False), ("gpu", True)):
        runner = GenerationRunner(folder, steps=2, guidance=4.0, resolution=32, dtype="fp32", device="cpu",
                                  name=family, plan=plan, fp8_denoiser=fp8)  # one name: the same seeds
        result = runner.generate([row], samples=2, base_seed=3, out_dir=tmp_path / f"{plan}-{fp8}")
        assert runner.plan_for(2).plan == plan and result.generated == 2
        made[(plan, fp8)] = [p.read_bytes() for p in result.paths]
    assert made[("gpu", False)] == made[("model-offload", False)] == made[("group-offload", False)], family
    assert made[("gpu", True)] != made[("gpu", False)], family


def test_known_failures_are_refused_before_loading():
    """`make gpu-check` on an H200 found that sequential offload leaves a HunyuanDiT parameter on
    the meta device: the plan is refused with the way out, before diffusers is asked."""
    from geofidelity_plugin.core.generation.memory_plan import refuse_known_failure

    with pytest.raises(InputError, match="HunyuanDiT.*— use --plan group-offload"):
        refuse_known_failure("HunyuanDiTPipeline", "sequential")
    refuse_known_failure("HunyuanDiTPipeline", "group-offload")  # no error
    refuse_known_failure("FluxPipeline", "sequential")

    asked = []
    HunyuanDiTPipeline = type("HunyuanDiTPipeline", (), {
        "enable_sequential_cpu_offload": lambda self, device=None: asked.append(device)})
    plan = MemoryPlan(plan="sequential", batch=1, requested_batch=1, dtype="fp16", device_type="cuda")
    with pytest.raises(InputError, match="group-offload"):
        apply_plan(HunyuanDiTPipeline(), plan, "cpu")
    assert asked == []


def test_group_offload_keeps_the_vae_whole(tmp_path):
    """SDXL's pipeline casts an fp16 VAE to float32 for decoding, which group offloading's copies
    do not follow (measured on an H200): the VAE goes to the device whole, the rest is grouped."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))
    import diffusers
    from tiny_models import make_tiny_sd

    pipe = diffusers.DiffusionPipeline.from_pretrained(make_tiny_sd(tmp_path / "sd"))
    plan = MemoryPlan(plan="group-offload", batch=1, requested_batch=1, dtype="fp32", device_type="cpu")
    apply_plan(pipe, plan, "cpu")
    hooked = lambda module: any(hasattr(m, "_diffusers_hook") for m in module.modules())  # noqa: E731
    assert not hooked(pipe.vae)
    assert hooked(pipe.unet) and hooked(pipe.text_encoder)


def test_t5_wo_layers_count_in_float32_under_fp16(tmp_path):
    """transformers keeps T5's ``wo`` layers in float32 in a float16 run (measured on an H200:
    PixArt-Σ 2.2 GiB above an all-fp16 estimate): from a folder's headers and from the data file."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))
    from safetensors import safe_open
    from tiny_models import make_tiny_pixart_sigma

    folder = make_tiny_pixart_sigma(tmp_path / "pixart")
    sizes = folder_sizes(folder)
    te = next(c for c in sizes.components if c.name == "text_encoder")
    wo = 0
    for file in sorted((folder / "text_encoder").glob("*.safetensors")):
        with safe_open(str(file), "pt") as f:
            wo += sum(f.get_slice(k).get_shape()[0] * f.get_slice(k).get_shape()[1]
                      for k in f.keys() if ".wo." in k)
    assert te.fp32_params == wo > 0
    fp16 = estimate(sizes, "model-offload", "fp16", 64, 1)["phases"]["text_encoders"]
    bf16 = estimate(sizes, "model-offload", "bf16", 64, 1)["phases"]["text_encoders"]
    assert fp16 - bf16 == 2 * wo  # 4 bytes instead of 2 for each wo parameter, fp16 only
    published = next(c for c in published_sizes("pixart-sigma-xl-1024").components if c.name == "text_encoder")
    assert published.fp32_params == 24 * 4096 * 10240
