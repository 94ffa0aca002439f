"""Benchmark of batched panels on the CPU (docs/memory-plans.md "Batched panels"): what the
per-image denoiser forward (the CPU default, bytes equal to one call per image) costs against
one forward of the whole batch.

Both runners load the same tiny random pipeline (tests/tiny_models.py) once; then, alternately,
each makes the same panel of 4 images in one pipeline call (``images_per_call=4``) —
``batch_forward="auto"`` (image by image on the CPU) and ``batch_forward="batched"`` (one
forward) — and the best of ``--rounds`` is kept. Prints seconds per panel (wall and CPU time of
this process) and the ratio split / joint, measured in one run. A tiny model is overhead-bound,
so the ratio here is an upper bound of what a full model pays (a 1024² denoising step is
compute-bound; see the doc). No goal is asserted; the figure is reported.
Run: ``python benchmarks/bench_batch_forward.py [--family sd] [--resolution 64] [--rounds 5]``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

BUILDERS = {"sd": ("make_tiny_sd", "sdxl-base-1.0"), "sdxl": ("make_tiny_sdxl", "sdxl-base-1.0"),
            "sd3": ("make_tiny_sd3", "sd3.5-large"), "flux": ("make_tiny_flux", "flux.1-dev"),
            "pixart-sigma": ("make_tiny_pixart_sigma", "pixart-sigma-xl-1024"),
            "hunyuandit": ("make_tiny_hunyuandit", "hunyuandit-v1.2")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--family", choices=list(BUILDERS), default="sd")
    parser.add_argument("--resolution", type=int, default=64)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)

    import tiny_models

    from geofidelity_plugin.core.generation.generators import GENERATORS
    from geofidelity_plugin.core.generation.prompts import PromptRow
    from geofidelity_plugin.core.generation.runner import GenerationRunner

    builder, generator = BUILDERS[args.family]
    spec = GENERATORS[generator]
    row = PromptRow("hel-001", "L1", "A street-level photo taken on Unioninkatu in the Kluuvi district of Helsinki.")
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        tmp = Path(tmp)
        folder = getattr(tiny_models, builder)(tmp / "model")
        runners = {mode: GenerationRunner(folder, steps=args.steps, guidance=spec.guidance,
                                          resolution=args.resolution, dtype=spec.dtype, device="cpu",
                                          name=f"tiny-{args.family}", images_per_call=4, batch_forward=mode)
                   for mode in ("auto", "batched")}
        for runner in runners.values():
            runner.load()
            runner.generate([row], samples=4, out_dir=tmp / "warm-up")  # first calls allocate and pick kernels
        best = {mode: (float("inf"), float("inf")) for mode in runners}
        for k in range(args.rounds):
            for mode, runner in runners.items():
                wall, cpu = time.perf_counter(), time.process_time()
                runner.generate([row], samples=4, out_dir=tmp / f"{mode}-{k}")
                took = (time.perf_counter() - wall, time.process_time() - cpu)
                best[mode] = min(best[mode], took)
    split, joint = best["auto"], best["batched"]
    print(f"tiny {args.family} ({spec.name} settings), {args.resolution}², {args.steps} steps, panel of 4 images, "
          f"best of {args.rounds}")
    print(f"  joint forward (batched):           {joint[0]:.3f} s wall, {joint[1]:.3f} s CPU per panel")
    print(f"  per-image forward (CPU default):   {split[0]:.3f} s wall, {split[1]:.3f} s CPU per panel")
    print(f"  ratio split / joint: {split[0] / joint[0]:.2f} (wall), {split[1] / joint[1]:.2f} (CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
