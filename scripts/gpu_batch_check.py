"""Batched panels against one call per image, on a CUDA device (issue 10, item 2; see
docs/memory-plans.md "Batched panels").

For every generator family, the tiny twin of ``tests/tiny_models.py`` (random weights, saved as a
diffusers folder and loaded by the product's :class:`GenerationRunner`, as a full model is) makes
two panels of four images twice: one pipeline call per panel (``images_per_call=4``) and one call
per image (``images_per_call=1``), with the same seeds. The noise each image starts from is the
same bit for bit (tests/test_generation_batching.py); on CUDA the batched matrix products may
round differently, so the JPEG pixels are compared and the largest difference is reported against
the stated tolerance (``--tolerance``, 8-bit levels).

Writes ``gpu_batch_check.md`` and ``.json`` to ``--out``. Without CUDA (and no ``--device cpu``)
it prints one line and exits 0. Run: ``python scripts/gpu_batch_check.py --out bench_output``.
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

FAMILIES = {  # family: (tiny builder in tests/tiny_models.py, generator whose settings it runs with)
    "sd": ("make_tiny_sd", "sdxl-base-1.0"),
    "sdxl": ("make_tiny_sdxl", "sdxl-base-1.0"),
    "sd3": ("make_tiny_sd3", "sd3.5-large"),
    "flux": ("make_tiny_flux", "flux.1-dev"),
    "pixart-sigma": ("make_tiny_pixart_sigma", "pixart-sigma-xl-1024"),
    "hunyuandit": ("make_tiny_hunyuandit", "hunyuandit-v1.2"),
}
ROWS = (("hel-001", "L1", "A street-level photo taken on Unioninkatu in the Kluuvi district of Helsinki."),
        ("hel-002", "L0", "A street-level photo taken in Helsinki, Finland."))


def compare(paths_a, paths_b) -> dict:
    """Pixel differences between two lists of images (8-bit RGB)."""
    import numpy as np
    from PIL import Image

    a = np.stack([np.asarray(Image.open(p).convert("RGB"), dtype=np.int16) for p in paths_a])
    b = np.stack([np.asarray(Image.open(p).convert("RGB"), dtype=np.int16) for p in paths_b])
    diff = np.abs(a - b)
    return {"max_level_diff": int(diff.max()), "mean_level_diff": float(diff.mean()),
            "share_differing": float((diff > 0).mean()),
            "identical_bytes": all(Path(x).read_bytes() == Path(y).read_bytes() for x, y in zip(paths_a, paths_b)),
            "images": int(len(a))}


def check_family(family: str, device: str, resolution: int, steps: int, tmp: Path) -> dict:
    import tiny_models

    from geofidelity_plugin.core.generation.generators import GENERATORS
    from geofidelity_plugin.core.generation.prompts import PromptRow
    from geofidelity_plugin.core.generation.runner import GenerationRunner

    builder, generator = FAMILIES[family]
    spec = GENERATORS[generator]
    folder = getattr(tiny_models, builder)(tmp / family)
    rows = [PromptRow(*row) for row in ROWS]
    made, seconds = {}, {}
    for per_call in (4, 1):
        runner = GenerationRunner(folder, steps=steps, guidance=spec.guidance, resolution=resolution,
                                  dtype=spec.dtype, device=device, name=f"tiny-{family}", images_per_call=per_call)
        start = time.perf_counter()
        made[per_call] = runner.generate(rows, samples=4, base_seed=5, out_dir=tmp / f"{family}-{per_call}").paths
        seconds[per_call] = time.perf_counter() - start
        plan = runner.plan_for(4)
    return {"family": family, "generator_settings": generator, "dtype": spec.dtype, "plan": plan.plan,
            "seconds_batched": seconds[4], "seconds_per_image": seconds[1], **compare(made[4], made[1])}


def markdown(result: dict) -> str:
    lines = ["# Batched panels against one call per image", "",
             f"Measured {result['date']} on **{result['device_name']}**, torch {result['torch']}, diffusers "
             f"{result['diffusers']}; tiny twins of each family (random weights, tests/tiny_models.py) at "
             f"{result['resolution']}², {result['steps']} steps, two panels of 4 images; stated tolerance "
             f"{result['tolerance']} 8-bit level(s).", "",
             "| family | settings of | dtype | plan | max level diff | mean level diff | pixels differing "
             "| identical bytes | within tolerance |", "|---|---|---|---|---|---|---|---|---|"]
    for r in result["families"]:
        if r.get("status") == "error":
            lines.append(f"| {r['family']} | — | — | — | error: {r['error']} | | | | no |")
            continue
        lines.append(f"| {r['family']} | {r['generator_settings']} | {r['dtype']} | {r['plan']} | "
                     f"{r['max_level_diff']} | {r['mean_level_diff']:.4f} | {100 * r['share_differing']:.3f} % | "
                     f"{'yes' if r['identical_bytes'] else 'no'} | "
                     f"{'yes' if r['max_level_diff'] <= result['tolerance'] else 'no'} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "bench_output"))
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--resolution", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--tolerance", type=int, default=8, help="largest pixel difference allowed (8-bit levels)")
    parser.add_argument("--families", nargs="*", default=list(FAMILIES))
    args = parser.parse_args(argv)
    import torch

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("gpu-batch-check: skipped — no CUDA device here; nothing measured, nothing written.")
        return 0
    import diffusers

    name = torch.cuda.get_device_name(0) if args.device.startswith("cuda") else "CPU"
    result = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "device": args.device, "device_name": name, "torch": torch.__version__,
              "diffusers": diffusers.__version__, "resolution": args.resolution, "steps": args.steps,
              "tolerance": args.tolerance, "families": []}
    with tempfile.TemporaryDirectory(prefix="gpu-batch-") as tmp:
        for family in args.families:
            try:
                row = check_family(family, args.device, args.resolution, args.steps, Path(tmp))
            except Exception as exc:  # one family's failure must not hide the others
                row = {"family": family, "status": "error", "error": f"{type(exc).__name__}: {str(exc)[:160]}"}
            result["families"].append(row)
            print(f"gpu-batch-check: {row}", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "gpu_batch_check.json").write_text(json.dumps(result, indent=2) + "\n")
    page = markdown(result)
    (out / "gpu_batch_check.md").write_text(page)
    print(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
