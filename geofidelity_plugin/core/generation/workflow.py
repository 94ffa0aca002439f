"""Stage 3 against the benchmark store: prompts for every retained segment (one with a curated
reference panel), panels from one generator (resumable), or a folder of images made elsewhere
(method §4)."""
from __future__ import annotations

import json
from pathlib import Path

from geofidelity_plugin.core.vision.devices import check_device
from ..errors import InputError
from ..events import announce_stage
from ..store.store import BenchmarkStore
from ..progress import NullProgress, Progress, SubProgress
from ..output_paths import check_output_folder
from .prompts import PromptTemplates, build_prompts
from .request import Executor, GenerationRequest


def generate_store(store: BenchmarkStore, request: GenerationRequest, progress: Progress | None = None,
                   executor: Executor | None = None):
    """Generate the panels ``request`` asks for (:class:`~.request.GenerationRequest`) into
    ``store``: ``request.samples`` images per (retained segment, condition), with a registered
    generator or a custom local diffusers folder. ``executor`` runs it — :class:`LocalExecutor`
    (the default: this process) or :class:`~..scaleout.generation.RayExecutor`. Returns the
    runner's result and the skipped prompts.

    Only what will be scored: the retained segments (:func:`scored_segments`), which are also
    the only sources of the controls' substitutes; the others are counted in one info line and
    in the generation manifest, and a store with none is refused. Every option is checked
    (:meth:`~.request.GenerationRequest.validate`) before the store is read and before any model
    is loaded."""
    if not isinstance(request, GenerationRequest):
        raise TypeError(f"generate_store takes a GenerationRequest, not {type(request).__name__}")
    return (executor or LocalExecutor()).run(store, request, progress)


class LocalExecutor:
    """The whole run in this process, on this machine's device."""

    def run(self, store: BenchmarkStore, request: GenerationRequest, progress: Progress | None = None):
        return run_locally(store, request, progress)


def run_locally(store: BenchmarkStore, request: GenerationRequest, progress: Progress | None = None):
    """:class:`LocalExecutor`: the device checked here, one runner in this process."""
    progress = progress or NullProgress()
    device = check_device(request.device)
    checked = request.validate("cpu" if device == "cpu" else "cuda")
    spec = checked.spec
    prompts, scope = scored_prompts(store, checked.templates, request.seed, request.conditions, request.out_dir,
                                    progress, 5)
    from .runner import GenerationRunner

    runner = GenerationRunner.from_spec(spec, device, **checked.runner_options())
    result = runner.generate(list(prompts), samples=request.samples, base_seed=request.seed,
                             shared_noise=request.shared_noise, out_dir=request.out_dir, store=store,
                             progress=SubProgress(progress, 5, 100), force=request.force,
                             manifest_inputs={"segments": scope}, request=request.to_dict())
    store.set_meta(f"generation_spec:{spec.name}", json.loads(json.dumps(spec.to_dict(), default=str)))
    return result, prompts.skipped


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

    with BenchmarkStore(store_path, create=False, writer=True, warn=progress.warning if progress else None) as store:
        return import_generated_folder(folder, store, model_name, progress=progress, replace=replace)
