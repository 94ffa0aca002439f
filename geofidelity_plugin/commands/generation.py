"""``python -m geofidelity_plugin`` — 3 · generate panels with a diffusers model, or import a folder of generated images.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from ..core.option_checks import argparse_number
from .progress import progress_for


def register(sub) -> None:
    from ..core.generation.prompts import CONDITIONS
    p = sub.add_parser("generate", help="3a · prompts (L0/L1/L2 + controls) and panels with a diffusers generator",
                       description="Generators: a registered name — sdxl-base-1.0, sd3.5-large, flux.1-dev, "
                                   "flux.1-schnell, pixart-sigma-xl-1024, hunyuandit-v1.2 (or that model's own hub "
                                   "id), run with the protocol's settings — or a local diffusers folder with "
                                   "--custom-folder and a name of your choice. Any other hub model: download it to "
                                   "a folder (huggingface-cli download ID --local-dir FOLDER) and use "
                                   "--custom-folder FOLDER.")
    p.add_argument("--store", required=True)
    p.add_argument("--generator", required=True,
                   help="a registered name, or the name under which a --custom-folder model is recorded")
    p.add_argument("--custom-folder", help="a local diffusers folder (model_index.json + component folders)")
    p.add_argument("--steps", type=int, help="sampling steps of a --custom-folder model (default 30)")
    p.add_argument("--guidance", type=float, help="guidance scale of a --custom-folder model (default 5.0)")
    p.add_argument("--dtype", help="fp32, fp16 or bf16 for a --custom-folder model (default fp16)")
    p.add_argument("--resolution", type=int, help="image side in pixels, a multiple of 8, for a --custom-folder "
                                                  "model (default 1024)")
    p.add_argument("--samples", type=argparse_number("count"), default=4, help="images per panel (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--shared-noise", action="store_true", help="the same seed across conditions (causal deltas)")
    p.add_argument("--conditions", nargs="+", default=list(CONDITIONS), choices=list(CONDITIONS))
    p.add_argument("--templates", help="JSON object with L0, L1, L2 and/or suffix templates")
    p.add_argument("--device", help="cpu, cuda, cuda:N or mps, checked before the generator loads (default: CUDA "
                                    "when present)")
    p.add_argument("--out", help="generations folder (default: <store folder>/generations)")
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
    p.set_defaults(func=cmd_import_generated)


def cmd_generate(args) -> int:
    from ..core.store.store import BenchmarkStore
    from ..core.generation.prompts import PromptTemplates
    from ..core.generation.workflow import generate_store

    # settings given with a registered generator are refused in generate_store, not ignored
    custom = {"folder": args.custom_folder, "steps": args.steps, "guidance": args.guidance,
              "dtype": args.dtype, "resolution": args.resolution}
    templates = PromptTemplates.from_json(args.templates)
    progress = progress_for(f"generate {args.generator}", args.quiet)
    try:
        with BenchmarkStore(args.store, create=False) as store:
            result, skipped = generate_store(store, args.generator, args.samples, args.seed, args.shared_noise,
                                             args.conditions, templates, custom, args.device, args.out, progress)
    finally:
        progress.close()
    print(f"{result.generated} images generated, {result.skipped_existing} kept from earlier runs, "
          f"{len(skipped)} prompts skipped")
    return 0


def cmd_import_generated(args) -> int:
    from ..core.generation.workflow import import_folder_into

    result = import_folder_into(args.store, args.folder, args.model, replace=args.replace)
    print(f"{result.images} images imported for {', '.join(result.models)}")
    return 0
