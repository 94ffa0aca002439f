"""The memory-plan tables of docs/memory-plans.md, computed by the plan chooser itself.

    python scripts/plan_table.py            # rewrite the generated part of the doc
    python scripts/plan_table.py --check    # exit 1 when the doc is not what the code computes
    python scripts/plan_table.py --measure  # re-measure the activation constants on this CPU (minutes)

The tables sit between ``<!-- plan-table:start -->`` and ``<!-- plan-table:end -->``; the rest of
the doc is written by hand. Component sizes are the data file's (published configs), so the
tables hold on a machine with no weights.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from geofidelity_plugin.core.errors import InputError  # noqa: E402
from geofidelity_plugin.core.generation.component_sizes import data_file, published_sizes  # noqa: E402
from geofidelity_plugin.core.generation.generators import GENERATORS  # noqa: E402
from geofidelity_plugin.core.generation.memory_plan import GIB, HEADROOM, VAE_BETA, choose_plan  # noqa: E402

DOC = REPO / "docs" / "memory-plans.md"
START, END = "<!-- plan-table:start -->", "<!-- plan-table:end -->"
BUDGETS = (8, 12, 16, 24, 48, 80)
BATCH, RESOLUTION = 4, 1024


def _cell(generator: str, gb: int, fp8: bool) -> str:
    spec = GENERATORS[generator]
    try:
        plan = choose_plan(published_sizes(generator), spec.dtype, RESOLUTION, BATCH, "cuda", gb * GIB,
                           f"{gb} GB budget", fp8_denoiser=fp8, steps=spec.steps, device_name="NVIDIA H200")
    except InputError:
        return "does not fit"
    split = "" if plan.batch == BATCH else f" · split {BATCH}→{plan.batch}"
    tiled = " · VAE tiled" if plan.vae_tiling else ""
    return f"{plan.plan} · {plan.predicted_peak_bytes / GIB:.1f} GiB{split}{tiled} · {plan.predicted_s_per_panel:.0f} s"


def _plan_table(fp8: bool) -> list[str]:
    head = "| Generator (dtype) | " + " | ".join(f"{gb} GB" for gb in BUDGETS) + " |"
    lines = [head, "|" + " --- |" * (len(BUDGETS) + 1)]
    for name, spec in GENERATORS.items():
        lines.append(f"| {spec.label} | " + " | ".join(_cell(name, gb, fp8) for gb in BUDGETS) + " |")
    return lines


def _sizes_table() -> list[str]:
    lines = ["| Generator | Component | Role | Parameters | Source |", "| --- | --- | --- | ---: | --- |"]
    for name, entry in data_file()["generators"].items():
        for component, c in entry["components"].items():
            lines.append(f"| {GENERATORS[name].label} | {component} | {c['role']} | {c['params']:,} | {c['source']} |")
    return lines


def _time_tables() -> list[str]:
    from geofidelity_plugin.core.generation.component_sizes import published_sizes as sizes_of
    from geofidelity_plugin.core.generation.plan_calibration import (errors, measured_choices, measured_plans,
                                                                     measured_runs, median_abs_error)
    from geofidelity_plugin.core.generation.plan_time import calibration

    results = sorted((REPO / "docs" / "gpu-check").glob("*-h200-run*.json"))
    runs = measured_runs(results)
    cal = calibration()
    rows = errors(runs, cal)
    loo = errors(runs, cal, leave_one_out=True, measured=cal["measured"])
    offload = [r for r in rows if r["plan"] != "gpu"]
    offload_loo = [r for r in loo if r["plan"] != "gpu"]
    lines = ["Predicted against measured seconds per panel, every run of `make gpu-check` that finished "
             f"({cal['measured']}; random weights, 1024², the generator's own steps). The `gpu` rows fit the "
             "per-generator figures they are measured from, and the step of a group-offload row is its generator's "
             "own group factor (the median of its group-offload runs); the rest of the offload rows test the plan "
             "figures, which are medians over all generators. The last column predicts each generator's offload "
             "rows from the other generators' figures only (the median group factor included).",
             "", "| Generator | Plan | Cap (GiB) | Images / call | Measured s | Predicted s | Error | Leave one out |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row, other in zip(rows, loo):
        cap = "—" if row["budget_gb"] is None else f"{row['budget_gb']:g}"
        lines.append(f"| {row['generator']} | {row['plan']} | {cap} | {row['batch']} | {row['measured_s']:.1f} | "
                     f"{row['predicted_s']:.1f} | {row['error']:+.0%} | {other['error']:+.0%} |")
    lines += ["", f"Median |error|: **{median_abs_error(rows):.1%}** over all {len(rows)} runs; "
              f"{median_abs_error(offload):.1%} over the {len(offload)} offload runs "
              f"({median_abs_error(offload_loo):.1%} leaving each generator out).", "",
              "The choice at each budget against the measurements: the fastest measured plan and images per call "
              "that fit (ran under a cap no larger, or measured peak + 1 GiB within the budget), and the measured "
              "time of what the chooser takes (among the plans that ran for that generator):", "",
              "| Generator | Budget | Chosen | Its measured s | Fastest measured fit | s | Ratio |",
              "| --- | ---: | --- | ---: | --- | ---: | ---: |"]
    for name in sorted({r.generator for r in runs}):
        spec = GENERATORS[name]
        for gb in BUDGETS:
            fits = measured_choices(runs, name, gb)
            if not fits:
                continue
            plan = choose_plan(sizes_of(name), spec.dtype, RESOLUTION, BATCH, "cuda", gb * GIB, f"{gb} GB",
                               steps=spec.steps, device_name="NVIDIA H200", plans=measured_plans(runs, name))
            best = min(fits, key=fits.get)
            mine = fits.get((plan.plan, plan.batch))
            shown = "not measured" if mine is None else f"{mine:.1f}"
            ratio = "—" if mine is None else f"{mine / fits[best]:.2f}"
            lines.append(f"| {spec.label} | {gb} GB | {plan.plan} · {plan.batch} | {shown} | {best[0]} · {best[1]} | "
                         f"{fits[best]:.1f} | {ratio} |")
    return lines


def generated() -> str:
    dtypes = ", ".join(f"{s.label} {s.dtype}" for s in GENERATORS.values())
    parts = [START, "",
             f"Plan chosen for a panel of {BATCH} images at {RESOLUTION}², each generator in its own dtype "
             f"({dtypes}); the cell gives the plan, its predicted peak, and the batch split when the "
             f"{BATCH} images do not fit one call, and the predicted seconds per panel at the generator's own steps on "
             "an H200 (the time model below). The budget is what the run may use (GB = GiB, as on a card's "
             f"box); {HEADROOM / GIB:.0f} GiB of it stays free as headroom. RAM is assumed large enough for "
             "the offloaded weights (the chooser checks it on the real machine).", "",
             *_plan_table(False), "",
             "With `--fp8-denoiser` (an explicit opt-in: it changes the images, and is recorded with each):", "",
             *_plan_table(True), "",
             "Component sizes (parameters, persistent buffers included) from "
             "`resources/generation/component_sizes.json`; the chooser reads the safetensors headers instead "
             "whenever the weights are on the machine:", "",
             *_sizes_table(), "", "### Time per panel: predicted and measured", "", *_time_tables(), "", END]
    return "\n".join(parts)


def rewritten(text: str) -> str:
    if START not in text or END not in text:
        raise SystemExit(f"{DOC} has no {START} … {END} markers — add them where the tables belong")
    before, rest = text.split(START, 1)
    return before + generated() + rest.split(END, 1)[1]


# -- measuring the activation constants -------------------------------------------------------------------
_PROBE = r'''
import sys, torch, diffusers
kind, side = sys.argv[1], int(sys.argv[2])
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
torch.manual_seed(0)
B = 2
if kind == "vae":
    m = diffusers.AutoencoderKL(down_block_types=["DownEncoderBlock2D"] * 4, up_block_types=["UpDecoderBlock2D"] * 4,
                                block_out_channels=[128, 256, 512, 512], layers_per_block=2, latent_channels=4)
    run, unit = (lambda: m.decode(torch.randn(1, 4, side, side))), (side * 8) ** 2 * 128 * 4
elif kind == "flux":
    m = diffusers.FluxTransformer2DModel(num_layers=1, num_single_layers=1, guidance_embeds=True)
    t = (side // 2) ** 2
    a = dict(hidden_states=torch.randn(B, t, 64), encoder_hidden_states=torch.randn(B, 128, 4096),
             pooled_projections=torch.randn(B, 768), timestep=torch.ones(B), guidance=torch.ones(B),
             img_ids=torch.zeros(t, 3), txt_ids=torch.zeros(128, 3))
    run, unit = (lambda: m(**a)), B * (t + 128) * 3072 * 4
elif kind == "sd3":
    m = diffusers.SD3Transformer2DModel(num_layers=2, attention_head_dim=64, num_attention_heads=38,
                                        caption_projection_dim=2432, pos_embed_max_size=192, qk_norm="rms_norm")
    a = dict(hidden_states=torch.randn(B, 16, side, side), encoder_hidden_states=torch.randn(B, 154, 4096),
             pooled_projections=torch.randn(B, 2048), timestep=torch.ones(B))
    run, unit = (lambda: m(**a)), B * ((side // 2) ** 2 + 154) * 2432 * 4
elif kind == "pixart":
    m = diffusers.PixArtTransformer2DModel(num_layers=2, out_channels=8, norm_type="ada_norm_single",
                                           caption_channels=4096, sample_size=128, use_additional_conditions=False)
    a = dict(hidden_states=torch.randn(B, 4, side, side), encoder_hidden_states=torch.randn(B, 300, 4096),
             timestep=torch.ones(B), added_cond_kwargs={"resolution": None, "aspect_ratio": None})
    run, unit = (lambda: m(**a)), B * (side // 2) ** 2 * 1152 * 4
elif kind == "hunyuandit":
    from diffusers.models.embeddings import get_2d_rotary_pos_embed
    m = diffusers.HunyuanDiT2DModel(num_attention_heads=16, attention_head_dim=88, in_channels=4, patch_size=2,
                                    activation_fn="gelu-approximate", sample_size=128, hidden_size=1408,
                                    num_layers=2, mlp_ratio=4.3637, learn_sigma=True, cross_attention_dim=1024,
                                    norm_type="layer_norm", cross_attention_dim_t5=2048, pooled_projection_dim=1024,
                                    text_len=77, text_len_t5=256, use_style_cond_and_image_meta_size=False)
    rope = get_2d_rotary_pos_embed(88, ((0, 0), (side // 2, side // 2)), (side // 2, side // 2))
    a = dict(hidden_states=torch.randn(B, 4, side, side), timestep=torch.ones(B),
             encoder_hidden_states=torch.randn(B, 77, 1024), text_embedding_mask=torch.ones(B, 77),
             encoder_hidden_states_t5=torch.randn(B, 256, 2048), text_embedding_mask_t5=torch.ones(B, 256),
             image_meta_size=None, style=None, image_rotary_emb=rope)
    run, unit = (lambda: m(**a)), B * (side // 2) ** 2 * 1408 * 4
else:  # SDXL's UNet, transformer depth 1 per level: the highest-resolution level dominates
    m = diffusers.UNet2DConditionModel(block_out_channels=(320, 640, 1280), layers_per_block=2,
        down_block_types=("DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"),
        up_block_types=("CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"), attention_head_dim=(5, 10, 20),
        cross_attention_dim=2048, use_linear_projection=True, addition_embed_type="text_time",
        addition_time_embed_dim=256, projection_class_embeddings_input_dim=2816)
    a = dict(sample=torch.randn(B, 4, side, side), timestep=torch.ones(B), encoder_hidden_states=torch.randn(B, 77, 2048),
             added_cond_kwargs={"text_embeds": torch.randn(B, 1280), "time_ids": torch.randn(B, 6)})
    run, unit = (lambda: m(**a)), B * side * side * 320 * 4
m.eval()
torch.set_num_threads(1)
with torch.inference_mode():
    run()  # a first pass: one-time allocations (kernel caches) are not activations
    open("/proc/self/clear_refs", "w").write("5")  # reset the high-water mark
    base = status("VmRSS")
    run()
print((status("VmHWM") - base) / unit)
'''


def measure() -> int:
    """alpha per denoiser family and the VAE's beta: the high-water mark of a second forward pass
    (the first one's one-time allocations excluded) in float32 on one CPU thread (random weights,
    one or two blocks at full width, two rows), in units of the feature map the estimate
    multiplies. Linux only (/proc/self/status)."""
    for kind, side in (("unet", 128), ("sd3", 128), ("flux", 128), ("pixart", 128), ("hunyuandit", 128),
                       ("vae", 64), ("vae", 96)):
        out = subprocess.run([sys.executable, "-c", _PROBE, kind, str(side)], capture_output=True, text=True)
        value = out.stdout.strip().splitlines()[-1] if out.returncode == 0 else f"failed: {out.stderr[-300:]}"
        print(f"{kind:11s} latent {side}²: {value}")
    print(f"in use: VAE_BETA = {VAE_BETA}; alpha per generator in the data file")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when the doc is out of date")
    parser.add_argument("--measure", action="store_true", help="re-measure the activation constants (CPU, minutes)")
    args = parser.parse_args()
    if args.measure:
        return measure()
    text = DOC.read_text(encoding="utf-8")
    new = rewritten(text)
    if args.check:
        if new != text:
            print(f"{DOC.relative_to(REPO)} is out of date — run python scripts/plan_table.py")
            return 1
        print(f"{DOC.relative_to(REPO)} is current")
        return 0
    DOC.write_text(new, encoding="utf-8")
    print(f"wrote {DOC.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
