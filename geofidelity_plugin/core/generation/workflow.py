"""Stage 3 against the benchmark store: prompts for every segment, panels from one generator
(resumable), or a folder of images made elsewhere (method §4)."""
from __future__ import annotations

import json
from pathlib import Path

from ..devices import check_device
from ..errors import InputError
from ..events import announce_stage
from ..store.store import BenchmarkStore
from ..progress import NullProgress, Progress, SubProgress
from ..output_paths import check_output_folder
from .generators import normalise_dtype, resolve_generator
from .memory_plan import check_plan, parse_budget
from .prompts import CONDITIONS, PromptTemplates, build_prompts


def generate_store(store: BenchmarkStore, generator: str, samples: int = 4, seed: int = 0,
                   shared_noise: bool = False, conditions=CONDITIONS, templates: dict | None = None,
                   custom: dict | None = None, device: str | None = None, out_dir: str | Path | None = None,
                   progress: Progress | None = None, plan: str | None = None, vram_budget=None,
                   fp8_denoiser: bool = False, precision: str | None = None, force: bool = False):
    """Generate ``samples`` images per (segment, condition) with a registered generator (its
    registry name or hub id) or a custom local diffusers folder (``custom``: folder, steps,
    guidance, dtype[, resolution]). Returns the runner's result and the skipped prompts.

    Every option (device, generator, settings, memory plan, VRAM budget, precision, templates,
    samples, output folder) is checked before the store is read and before any model is loaded;
    ``custom`` without a folder carries settings given for a registered generator, which are
    refused (see :func:`~.generators.resolve_generator`). ``device``: ``None`` (the GPU when there
    is one) or one this PyTorch can use (:func:`~..devices.check_device`). ``plan``, ``vram_budget``
    (``"12GB"`` or bytes), ``fp8_denoiser``: docs/memory-plans.md; ``precision``: ``None``/``auto``
    keeps the model's dtype; ``force``: replace panels made with other settings."""
    progress = progress or NullProgress()
    device = check_device(device)
    plan = check_plan(plan, "cpu" if device == "cpu" else "cuda")
    budget = vram_budget if isinstance(vram_budget, int) or vram_budget is None else parse_budget(vram_budget)
    precision = None if precision in (None, "", "auto") else normalise_dtype(precision)
    custom = dict(custom or {})
    spec = resolve_generator(generator, custom.get("folder"), custom.get("steps"), custom.get("guidance"),
                             custom.get("dtype"), custom.get("resolution"))
    if not isinstance(templates, PromptTemplates):
        templates = PromptTemplates.from_mapping(templates)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InputError(f"samples must be a whole number ≥ 1, not {samples!r}")
    check_output_folder(out_dir if out_dir else store.root / "generations", "generations folder")
    segments = store.segments()
    if not segments:
        raise InputError(f"{store.path.name} has no segments — select segments or import a release first")
    announce_stage(progress, "building the prompts")
    prompts = build_prompts(segments, templates, seed, conditions, SubProgress(progress, 0, 5))
    for skipped in prompts.skipped:
        progress.warning(f"{skipped.segment_id} {skipped.condition}: no prompt ({skipped.reason})")
    from .runner import GenerationRunner

    runner = GenerationRunner.from_spec(spec, device, plan=plan, vram_budget=budget, fp8_denoiser=fp8_denoiser,
                                        precision=precision)
    result = runner.generate(list(prompts), samples=samples, base_seed=seed, shared_noise=shared_noise,
                             out_dir=out_dir, store=store, progress=SubProgress(progress, 5, 100), force=force)
    store.set_meta(f"generation_spec:{spec.name}", json.loads(json.dumps(spec.to_dict(), default=str)))
    return result, prompts.skipped


def import_folder_into(store_path: str | Path, folder: str | Path, model_name: str | None,
                       progress: Progress | None = None, replace: bool = False):
    """Import a folder of images made elsewhere; ``replace``: panels the store already holds
    with other images are replaced whole (see :func:`.import_folder.import_generated_folder`)."""
    from .import_folder import import_generated_folder

    with BenchmarkStore(store_path, create=False) as store:
        return import_generated_folder(folder, store, model_name, progress=progress, replace=replace)
