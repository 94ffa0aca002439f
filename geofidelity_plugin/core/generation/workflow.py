"""Stage 3 against the benchmark store: prompts for every retained segment (one with a curated
reference panel), panels from one generator (resumable), or a folder of images made elsewhere
(method §4)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from geofidelity_plugin.core.vision.devices import check_device
from ..errors import InputError
from ..events import announce_stage
from ..store.store import BenchmarkStore
from ..progress import NullProgress, Progress, SubProgress
from ..output_paths import check_output_folder
from .batch_forward import check_mode
from .generators import normalise_dtype, resolve_generator
from .memory_plan import check_plan, parse_budget
from .prompts import CONDITIONS, PromptTemplates, build_prompts


def generate_store(store: BenchmarkStore, generator: str, samples: int = 4, seed: int = 0,
                   shared_noise: bool = False, conditions=CONDITIONS, templates: dict | None = None,
                   custom: dict | None = None, device: str | None = None, out_dir: str | Path | None = None,
                   progress: Progress | None = None, plan: str | None = None, vram_budget=None,
                   fp8_denoiser: bool = False, precision: str | None = None, force: bool = False,
                   batch_forward: str | None = None):
    """Generate ``samples`` images per (segment, condition) with a registered generator (its
    registry name or hub id) or a custom local diffusers folder (``custom``: folder, steps,
    guidance, dtype[, resolution]). Returns the runner's result and the skipped prompts.

    Only what will be scored: the retained segments (:func:`scored_segments`), which are also
    the only sources of the controls' substitutes; the others are counted in one info line and
    in the generation manifest, and a store with none is refused.

    Every option (device, generator, settings, memory plan, VRAM budget, precision, templates,
    samples, output folder) is checked before the store is read and before any model is loaded;
    ``custom`` without a folder carries settings given for a registered generator, which are
    refused (see :func:`~.generators.resolve_generator`). ``device``: ``None`` (the GPU when there
    is one) or one this PyTorch can use (:func:`~..devices.check_device`). ``plan``, ``vram_budget``
    (``"12GB"`` or bytes), ``fp8_denoiser``: docs/memory-plans.md; ``precision``: ``None``/``auto``
    keeps the model's dtype; ``force``: replace panels made with other settings; ``batch_forward``
    (:data:`~.batch_forward.MODES`): how a batched call evaluates the denoiser."""
    progress = progress or NullProgress()
    device = check_device(device)
    batch_forward = check_mode(batch_forward)
    options = check_generation_options(generator, custom, templates, samples, plan, vram_budget, precision,
                                       "cpu" if device == "cpu" else "cuda")
    spec, plan, budget, precision = options.spec, options.plan, options.budget, options.precision
    prompts, scope = scored_prompts(store, options.templates, seed, conditions, out_dir, progress, 5)
    from .runner import GenerationRunner

    runner = GenerationRunner.from_spec(spec, device, plan=plan, vram_budget=budget, fp8_denoiser=fp8_denoiser,
                                        precision=precision, batch_forward=batch_forward)
    result = runner.generate(list(prompts), samples=samples, base_seed=seed, shared_noise=shared_noise,
                             out_dir=out_dir, store=store, progress=SubProgress(progress, 5, 100), force=force,
                             manifest_inputs={"segments": scope})
    store.set_meta(f"generation_spec:{spec.name}", json.loads(json.dumps(spec.to_dict(), default=str)))
    return result, prompts.skipped


@dataclass(frozen=True)
class GenerationOptions:
    spec: object  # GeneratorSpec
    templates: PromptTemplates
    plan: str | None
    budget: int | None
    precision: str | None


def check_generation_options(generator: str, custom: dict | None, templates, samples, plan, vram_budget,
                             precision, device_type: str) -> GenerationOptions:
    """Every generation option checked before the store is read or a model loaded (here and on
    Ray, :mod:`..scaleout.generation`)."""
    plan = check_plan(plan, device_type)
    budget = vram_budget if isinstance(vram_budget, int) or vram_budget is None else parse_budget(vram_budget)
    precision = None if precision in (None, "", "auto") else normalise_dtype(precision)
    custom = dict(custom or {})
    spec = resolve_generator(generator, custom.get("folder"), custom.get("steps"), custom.get("guidance"),
                             custom.get("dtype"), custom.get("resolution"))
    if not isinstance(templates, PromptTemplates):
        templates = PromptTemplates.from_mapping(templates)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InputError(f"samples must be a whole number ≥ 1, not {samples!r}")
    return GenerationOptions(spec, templates, plan, budget, precision)


def scored_prompts(store: BenchmarkStore, templates: PromptTemplates, seed: int, conditions, out_dir,
                   progress: Progress, share: float):
    """The output folder checked, then the prompts of the retained segments (the first ``share``
    percent of ``progress``) and the segments' scope for the manifest."""
    check_output_folder(out_dir if out_dir else store.root / "generations", "generations folder")
    segments = store.segments()
    if not segments:
        raise InputError(f"{store.path.name} has no segments — select segments or import a release first")
    segments, left_out = scored_segments(store, segments)
    scope = _report_scope(store, segments, left_out, progress)
    announce_stage(progress, "building the prompts")
    prompts = build_prompts(segments, templates, seed, conditions, SubProgress(progress, 0, share))
    for skipped in prompts.skipped:
        progress.warning(f"{skipped.segment_id} {skipped.condition}: no prompt ({skipped.reason})")
    return prompts, scope


#: why a segment has no curated reference panel, as the info line and the manifest say it
NO_REFERENCE_IMAGES = "no reference images"
ALL_REJECTED = "every reference image rejected in curation"


def scored_segments(store: BenchmarkStore, segments: list[dict] | None = None
                    ) -> tuple[list[dict], dict[str, list[str]]]:
    """The segments worth generating for: the retained ones, those with a curated reference
    panel (method §6 scores a generated panel only against its segment's reference panel), and
    ``{reason: [segment_id, …]}`` of the others.

    A segment has a curated panel when it holds at least one reference image not rejected:
    curation makes a segment's reference images exactly the images it kept (none when it kept
    none), and an audit ``reject`` takes one out. A reference image that carries no curation
    decision at all — as in an imported release, whose panels were curated before publication —
    counts as kept, so such a store counts every segment with ≥ 1 reference image."""
    segments = store.segments() if segments is None else segments
    kept = store.reference_panels()
    every = store.reference_panels(include_rejected=True)
    retained, left_out = [], {NO_REFERENCE_IMAGES: [], ALL_REJECTED: []}
    for segment in segments:
        sid = segment["segment_id"]
        if kept.get(sid):
            retained.append(segment)
        else:
            left_out[ALL_REJECTED if every.get(sid) else NO_REFERENCE_IMAGES].append(sid)
    return retained, {reason: ids for reason, ids in left_out.items() if ids}


def _report_scope(store: BenchmarkStore, retained: list[dict], left_out: dict[str, list[str]],
                  progress: Progress) -> dict:
    """One counted info line for the segments left out (an error when none is left); returns
    what the generation manifest records."""
    counts = "; ".join(f"{len(ids)} with {reason} ({_some(ids)})" for reason, ids in left_out.items())
    if not retained:
        raise InputError(f"no segment of {store.path.name} has a curated reference panel ({counts}), so no "
                         "generated panel could be scored — run curate first ('2b · Curate reference panels' in "
                         "QGIS), or import a release")
    if left_out:
        total = sum(len(ids) for ids in left_out.values())
        progress.info(f"generating for {len(retained)} of {len(retained) + total} segments: {total} left out "
                      f"because they have no curated reference panel and could not be scored ({counts})")
    return {"generated_for": len(retained), "left_out": left_out,
            "rule": "retained segments only: at least one reference image not rejected in curation"}


def _some(ids: list[str], shown: int = 5) -> str:
    return ", ".join(ids[:shown]) + (f" and {len(ids) - shown} more" if len(ids) > shown else "")


def import_folder_into(store_path: str | Path, folder: str | Path, model_name: str | None,
                       progress: Progress | None = None, replace: bool = False):
    """Import a folder of images made elsewhere; ``replace``: panels the store already holds
    with other images are replaced whole (see :func:`.import_folder.import_generated_folder`)."""
    from .import_folder import import_generated_folder

    with BenchmarkStore(store_path, create=False) as store:
        return import_generated_folder(folder, store, model_name, progress=progress, replace=replace)
