"""``generate`` and ``import-generated`` — stage 3 (method §4), in QGIS
``geofidelity:generate_panels`` and ``geofidelity:import_generated``.

The command line's ``--generator`` is free text (a registered name, a hub id, or the name of a
``--custom-folder`` model); the algorithm offers the registered generators and "custom folder" as
a list (:data:`GENERATOR_CHOICE`) with the custom model's name beside it (:data:`CUSTOM_NAME`),
and sends the custom settings only for a custom folder (:data:`CUSTOM_SETTINGS`; the command
refuses them for a registered generator). The ``--ray`` option is :mod:`..backend.commands.ray_options`'s
(and ``processing_algorithms/ray_option.py`` in QGIS).
"""
from __future__ import annotations

from dataclasses import replace

from geofidelity_plugin.core.generation.options import (BATCH_FORWARD_CHOICES, CONDITIONS, CPU_PLANS,
                                                        CUSTOM_DEFAULTS, CUSTOM_FOLDER_CHOICE,  # noqa: F401
                                                        DEFAULT_SAMPLES, DEFAULT_SEED, PLAN_CHOICES,
                                                        PLAN_PROBE_CHOICES, PRECISION_CHOICES, generator_choices)
from geofidelity_plugin.spec.options import CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import DEVICE as SHARED_DEVICE, STORE as SHARED_STORE

STORE = SHARED_STORE
GENERATOR = Option("GENERATOR", "--generator", "text", "Generator", required=True,
                   help="a registered name, or the name under which a --custom-folder model is recorded")
#: the algorithm's generator: a registered one, or the custom-folder choice
GENERATOR_CHOICE = replace(GENERATOR, kind="choice", choices=tuple(generator_choices()),
                           default=generator_choices()[0])
#: the algorithm's name of a custom-folder model (sent as --generator)
CUSTOM_NAME = Option("CUSTOM_NAME", "--generator", "text", "Custom generator name",
                     help="the name under which the custom folder's model is recorded")
CUSTOM_FOLDER = Option("CUSTOM_FOLDER", "--custom-folder", "folder", "Custom diffusers folder",
                       help="a local diffusers folder (model_index.json + component folders)", record=False)
STEPS = Option("STEPS", "--steps", "integer", "Steps (custom)", minimum=0, advanced=True,
               help=f"sampling steps of a --custom-folder model (default {CUSTOM_DEFAULTS['steps']})")
GUIDANCE = Option("GUIDANCE", "--guidance", "number", "Guidance (custom)", minimum=0, advanced=True,
                  help=f"guidance scale of a --custom-folder model (default {CUSTOM_DEFAULTS['guidance']})")
DTYPE = Option("DTYPE", "--dtype", "text", "dtype (custom): fp32, fp16 or bf16", advanced=True,
               help=f"fp32, fp16 or bf16 for a --custom-folder model (default {CUSTOM_DEFAULTS['dtype']})")
RESOLUTION = Option("RESOLUTION", "--resolution", "integer", "Resolution (custom)", minimum=0, advanced=True,
                    help=f"image side in pixels, a multiple of 8, for a --custom-folder model "
                         f"(default {CUSTOM_DEFAULTS['resolution']})")
#: sent only with a custom folder; on the command line without a default (a registered generator's
#: settings are the protocol's), in QGIS with the custom folder's defaults (:func:`algorithm_options`)
CUSTOM_SETTINGS = (CUSTOM_FOLDER, STEPS, GUIDANCE, DTYPE, RESOLUTION)
_CUSTOM_DEFAULT = {"STEPS": "steps", "GUIDANCE": "guidance", "DTYPE": "dtype", "RESOLUTION": "resolution"}

SAMPLES = Option("SAMPLES", "--samples", "integer", "Images per panel", help="images per panel",
                 default=DEFAULT_SAMPLES, rule="count")
SEED = Option("SEED", "--seed", "integer", "Base seed", help="random seed, ≥ 0", default=DEFAULT_SEED, rule="seed")
SHARED_NOISE = Option("SHARED_NOISE", "--shared-noise", "flag", "Shared noise across conditions (causal deltas)",
                      help="the same seed across conditions (causal deltas)", default=False)
CONDITIONS_OPTION = Option("CONDITIONS", "--conditions", "choice", "Prompt conditions",
                           help="prompt conditions to generate", choices=tuple(CONDITIONS),
                           default=tuple(CONDITIONS), multiple=True)
TEMPLATES = Option("TEMPLATES", "--templates", "text", "Prompt templates (JSON: L0, L1, L2, suffix)",
                   help="JSON object with L0, L1, L2 and/or suffix templates", advanced=True)
DEVICE = replace(SHARED_DEVICE, label="Device (cpu, cuda, cuda:N, mps; empty: the GPU when there is one)",
                 help="cpu, cuda, cuda:N or mps, checked before the generator loads (default: CUDA when present)")
PLAN = Option("PLAN", "--plan", "choice", "Memory plan (auto: the fastest that fits the GPU)",
              help="memory plan (docs/memory-plans.md): auto picks the fastest that fits the GPU's free memory "
                   "or --vram-budget — gpu (whole pipeline on the GPU), model-offload, group-offload, "
                   f"sequential; on the CPU only {', '.join(CPU_PLANS)} exist",
              choices=tuple(PLAN_CHOICES), default=PLAN_CHOICES[0])
VRAM_BUDGET = Option("VRAM_BUDGET", "--vram-budget", "text", "VRAM budget, e.g. 12GB (empty: the GPU's free memory)",
                     help="GPU memory the run may use, e.g. 12GB (GB = GiB; default: the GPU's free memory when "
                          "the run starts)")
PLAN_PROBE = Option("PLAN_PROBE", "--plan-probe", "choice",
                    "GPU probe for the plan times (auto: once per GPU and driver, cached)",
                    help="a few seconds' probe of the GPU (matrix products, host-to-device copies) that scales the "
                         "recorded H200 times the plan is chosen by (docs/memory-plans.md, Time per panel): auto uses "
                         "the cached probe, or runs it once when there is none; off uses the GPU's published peak "
                         "instead; rerun measures again; recorded",
                    choices=PLAN_PROBE_CHOICES, default=PLAN_PROBE_CHOICES[0], advanced=True)
FP8_DENOISER = Option("FP8_DENOISER", "--fp8-denoiser", "flag",
                      "Store the denoiser's weights in fp8 (less memory; changes the images)",
                      help="store the denoiser's weights in fp8 (computed in the run dtype): less memory, but it "
                           "changes the images; recorded with every image", default=False, advanced=True)
PRECISION = Option("PRECISION", "--precision", "choice", "Precision (auto: each generator's own dtype)",
                   help="auto keeps each generator's own dtype (the protocol's table, or a --custom-folder's "
                        "--dtype; float32 on the CPU); fp32, fp16 or bf16 overrides it on every device, recorded",
                   choices=tuple(PRECISION_CHOICES), default=PRECISION_CHOICES[0], advanced=True)
BATCH_FORWARD = Option("BATCH_FORWARD", "--batch-forward", "choice",
                       "Denoiser over a batch (auto: image by image on the CPU, one batch on a GPU)",
                       help="how a call of several images runs the denoiser: auto = image by image on the CPU "
                            "(the bytes of one call per image) and as one batch on a GPU; per-image or batched "
                            "force either; recorded (docs/memory-plans.md, Batched panels)",
                       choices=tuple(BATCH_FORWARD_CHOICES), default=BATCH_FORWARD_CHOICES[0], advanced=True)
FORCE = Option("FORCE", "--force", "flag", "Replace panels made with other settings",
               help="replace panels this store already holds that were made with other settings (model, "
                    "revision, scheduler, steps, guidance, resolution, dtype, device type, fp8/tiling, prompt, "
                    "seed); without it such a run is refused, so that no panel mixes two runs", default=False)
OUT = Option("GENERATIONS_FOLDER", "--out", "folder", "Generations folder (empty: 'generations' beside the store)",
             help="generations folder (default: <store folder>/generations)", advanced=True, field="out_dir",
             record=False)

# what ``generate`` reports (docs/backend-protocol.md)
GENERATED = Result("GENERATED", "Images generated")
KEPT = Result("KEPT", "Images already there (resumed)")
GENERATIONS = Result("GENERATIONS", "Folder of the generator's images", "folder")
MANIFEST = Result("MANIFEST", "Generation manifest", "file")
MODEL = Result("MODEL", "Generator")
REQUESTED = Result("REQUESTED", "Images requested")
SKIPPED_PROMPTS = Result("SKIPPED_PROMPTS", "Prompts skipped")
PLAN_USED = Result("PLAN", "Memory plan")
IMAGES_PER_CALL = Result("IMAGES_PER_CALL", "Images per pipeline call")
PREDICTED_PEAK_GIB = Result("PREDICTED_PEAK_GIB", "Predicted peak GPU memory (GiB)")

GENERATE = CommandSpec(
    command="generate",
    help="3a · prompts (L0/L1/L2 + controls) and panels with a diffusers generator",
    options=(STORE, GENERATOR, *CUSTOM_SETTINGS, SAMPLES, SEED, SHARED_NOISE, CONDITIONS_OPTION, TEMPLATES, DEVICE,
             PLAN, VRAM_BUDGET, PLAN_PROBE, FP8_DENOISER, PRECISION, BATCH_FORWARD, FORCE, OUT),
    #: the algorithm's outputs; the others below are reported too
    results=(GENERATED, KEPT, GENERATIONS, MANIFEST),
)
#: every value ``generate`` reports besides the outputs
REPORTED = (MODEL, REQUESTED, SKIPPED_PROMPTS, PLAN_USED, IMAGES_PER_CALL, PREDICTED_PEAK_GIB)

GENERATE_DESCRIPTION = (
    "Generators: a registered name — sdxl-base-1.0, sd3.5-large, flux.1-dev, flux.1-schnell, pixart-sigma-xl-1024, "
    "hunyuandit-v1.2 (or that model's own hub id), run with the protocol's settings — or a local diffusers folder "
    "with --custom-folder and a name of your choice. Any other hub model: download it (python -m geofidelity_plugin "
    "models download ID; `models list` shows its folder) and use --custom-folder FOLDER.")


def algorithm_options() -> tuple[Option, ...]:
    """The options of ``geofidelity:generate_panels`` in the order its dialog shows them: the
    generator as a list, the custom folder's name and settings (with their defaults), then the
    rest as on the command line."""
    custom = tuple(replace(o, default=CUSTOM_DEFAULTS[_CUSTOM_DEFAULT[o.name]]) if o.name in _CUSTOM_DEFAULT else o
                   for o in CUSTOM_SETTINGS)
    first = (STORE, GENERATOR_CHOICE, custom[0], CUSTOM_NAME, CONDITIONS_OPTION, SAMPLES, SEED, SHARED_NOISE,
             TEMPLATES, *custom[1:])
    shown = {o.name for o in first}
    return first + tuple(o for o in GENERATE.options if o.name not in shown)


# ``import-generated``
IMAGES = Result("IMAGES", "Images imported")
MODELS = Result("MODELS", "Models imported")
WITH_PROMPT = Result("WITH_PROMPT", "Images with their prompt")
WITH_SEED = Result("WITH_SEED", "Images with their seed")

IMPORT_GENERATED = CommandSpec(
    command="import-generated",
    help="3b · record a folder of images made by a generator outside the tool",
    options=(
        STORE,
        Option("FOLDER", "--folder", "folder", "Folder of generated images", required=True,
               help="{condition}/{segment_id}/{sample}.jpg (or {model}/… )", record=False),
        Option("MODEL_NAME", "--model", "text", "Model name (empty: first folder level)",
               help="model name (default: the folder's first level)"),
        Option("REPLACE", "--replace", "flag",
               "Replace existing panels (delete their earlier images first; otherwise an import over them is "
               "refused)",
               help="panels the store already holds with other images of this model are replaced whole (their "
                    "earlier images deleted first); without it such an import is refused, so that no panel mixes "
                    "two runs", default=False, advanced=True),
    ),
    results=(IMAGES,),
)
#: every value ``import-generated`` reports besides the outputs
IMPORT_REPORTED = (MODELS, WITH_PROMPT, WITH_SEED)
