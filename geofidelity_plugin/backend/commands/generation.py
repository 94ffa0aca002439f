"""``python -m geofidelity_plugin`` — 3 · generate panels with a diffusers model, or import a folder of generated images.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.core.option_checks import argparse_number
from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.backend.commands.ray_options import (add_ray_arguments, generation_call, report_generation)


def register(sub) -> None:
    from geofidelity_plugin.core.generation.options import (BATCH_FORWARD_CHOICES, CONDITIONS, CPU_PLANS, CUSTOM_DEFAULTS, DEFAULT_SAMPLES, DEFAULT_SEED, PLAN_CHOICES, PRECISION_CHOICES)

    p = sub.add_parser("generate", help="3a · prompts (L0/L1/L2 + controls) and panels with a diffusers generator",
                       description="Generators: a registered name — sdxl-base-1.0, sd3.5-large, flux.1-dev, "
                                   "flux.1-schnell, pixart-sigma-xl-1024, hunyuandit-v1.2 (or that model's own hub "
                                   "id), run with the protocol's settings — or a local diffusers folder with "
                                   "--custom-folder and a name of your choice. Any other hub model: download it "
                                   "(python -m geofidelity_plugin models download ID; `models list` shows its "
                                   "folder) and use --custom-folder FOLDER.")
    p.add_argument("--store", required=True)
    p.add_argument("--generator", required=True,
                   help="a registered name, or the name under which a --custom-folder model is recorded")
    p.add_argument("--custom-folder", help="a local diffusers folder (model_index.json + component folders)")
    p.add_argument("--steps", type=int, help=f"sampling steps of a --custom-folder model "
                                             f"(default {CUSTOM_DEFAULTS['steps']})")
    p.add_argument("--guidance", type=float, help=f"guidance scale of a --custom-folder model "
                                                  f"(default {CUSTOM_DEFAULTS['guidance']})")
    p.add_argument("--dtype", help=f"fp32, fp16 or bf16 for a --custom-folder model "
                                   f"(default {CUSTOM_DEFAULTS['dtype']})")
    p.add_argument("--resolution", type=int, help=f"image side in pixels, a multiple of 8, for a --custom-folder "
                                                  f"model (default {CUSTOM_DEFAULTS['resolution']})")
    p.add_argument("--samples", type=argparse_number("count"), default=DEFAULT_SAMPLES,
                   help="images per panel (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=DEFAULT_SEED,
                   help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--shared-noise", action="store_true", help="the same seed across conditions (causal deltas)")
    p.add_argument("--conditions", nargs="+", default=list(CONDITIONS), choices=list(CONDITIONS))
    p.add_argument("--templates", help="JSON object with L0, L1, L2 and/or suffix templates")
    p.add_argument("--device", help="cpu, cuda, cuda:N or mps, checked before the generator loads (default: CUDA "
                                    "when present)")
    p.add_argument("--plan", choices=PLAN_CHOICES, default="auto",
                   help="memory plan (docs/memory-plans.md): auto picks the fastest that fits the GPU's free memory "
                        "or --vram-budget — gpu (whole pipeline on the GPU), model-offload, group-offload, "
                        f"sequential; on the CPU only {', '.join(CPU_PLANS)} exist (default %(default)s)")
    p.add_argument("--vram-budget", help="GPU memory the run may use, e.g. 12GB (GB = GiB; default: the GPU's free "
                                         "memory when the run starts)")
    p.add_argument("--fp8-denoiser", action="store_true",
                   help="store the denoiser's weights in fp8 (computed in the run dtype): less memory, but it "
                        "changes the images; recorded with every image")
    p.add_argument("--precision", choices=PRECISION_CHOICES, default="auto",
                   help="auto keeps each generator's own dtype (the protocol's table, or a --custom-folder's "
                        "--dtype; float32 on the CPU); fp32, fp16 or bf16 overrides it on every device, recorded "
                        "(default %(default)s)")
    p.add_argument("--batch-forward", choices=BATCH_FORWARD_CHOICES, default="auto",
                   help="how a call of several images runs the denoiser: auto = image by image on the CPU (the "
                        "bytes of one call per image) and as one batch on a GPU; per-image or batched force "
                        "either; recorded (docs/memory-plans.md, Batched panels; default %(default)s)")
    p.add_argument("--force", action="store_true",
                   help="replace panels this store already holds that were made with other settings (model, "
                        "revision, scheduler, steps, guidance, resolution, dtype, device type, fp8/tiling, prompt, "
                        "seed); without it such a run is refused, so that no panel mixes two runs")
    p.add_argument("--out", help="generations folder (default: <store folder>/generations)")
    add_ray_arguments(p, "generate the panels")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("import-generated", help="3b · record a folder of images made by a generator outside the tool")
    p.add_argument("--store", required=True)
    p.add_argument("--folder", required=True, help="{condition}/{segment_id}/{sample}.jpg (or {model}/… )")
    p.add_argument("--model", help="model name (default: the folder's first level)")
    p.add_argument("--replace", action="store_true",
                   help="panels the store already holds with other images of this model are replaced whole "
                        "(their earlier images deleted first); without it such an import is refused, so that "
                        "no panel mixes two runs")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_import_generated)


def cmd_generate(args) -> int:
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from geofidelity_plugin.core.generation.prompts import PromptTemplates
    from geofidelity_plugin.core.generation.workflow import generate_store

    # settings given with a registered generator are refused in generate_store, not ignored
    custom = {"folder": args.custom_folder, "steps": args.steps, "guidance": args.guidance,
              "dtype": args.dtype, "resolution": args.resolution}
    templates = PromptTemplates.from_json(args.templates)
    progress = progress_for(f"generate {args.generator}", args.quiet)
    try:
        with BenchmarkStore(args.store, create=False) as store:
            generate, on_ray = generation_call(args, generate_store)  # --ray: the same run on a Ray cluster
            result, skipped = generate(store, args.generator, args.samples, args.seed, args.shared_noise,
                                       args.conditions, templates, custom, args.device, args.out, progress,
                                       plan=args.plan, vram_budget=args.vram_budget,
                                       fp8_denoiser=args.fp8_denoiser, precision=args.precision,
                                       force=args.force, batch_forward=args.batch_forward, **on_ray)
            generations = store.root / "generations"
    finally:
        progress.close()
    print(f"{result.generated} images generated, {result.skipped_existing} kept from earlier runs, "
          f"{len(skipped)} prompts skipped")
    if result.memory_plan:
        plan = result.memory_plan
        print(f"memory plan {plan['plan']} ({plan['batch']} image(s) per call, predicted peak "
              f"{plan['predicted_peak_gib']} GiB, numerics {plan['numerics']}): {plan['reason']}")
    _generation_events(result, skipped, args.out or generations)
    report_generation(result)
    return 0


def _generation_events(result, skipped, out_dir) -> None:
    """What a driver reports after ``generate``: the generator's folder, its manifest, the counts."""
    from pathlib import Path

    from geofidelity_plugin.core import events

    folder = Path(out_dir) / result.model
    events.output("GENERATIONS", folder)
    if (folder / "generation_manifest.json").is_file():
        events.output("MANIFEST", folder / "generation_manifest.json")
    events.value("MODEL", result.model)
    events.value("GENERATED", result.generated)
    events.value("KEPT", result.skipped_existing)
    events.value("REQUESTED", result.requested)
    events.value("SKIPPED_PROMPTS", len(skipped))
    if result.memory_plan:
        events.value("PLAN", result.memory_plan["plan"])
        events.value("IMAGES_PER_CALL", result.memory_plan["batch"])
        events.value("PREDICTED_PEAK_GIB", result.memory_plan["predicted_peak_gib"])


def cmd_import_generated(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.generation.workflow import import_folder_into

    progress = progress_for("import-generated", args.quiet)
    try:
        result = import_folder_into(args.store, args.folder, args.model, progress, replace=args.replace)
    finally:
        progress.close()
    print(f"{result.images} images imported for {', '.join(result.models)}")
    events.value("IMAGES", result.images)
    events.value("MODELS", list(result.models))
    events.value("WITH_PROMPT", result.with_prompt)
    events.value("WITH_SEED", result.with_seed)
    return 0
