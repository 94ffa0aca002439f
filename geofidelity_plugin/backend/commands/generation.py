"""``python -m geofidelity_plugin`` — 3 · generate panels with a diffusers model, or import a folder of generated images.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.backend.commands.store_lock import add_lock_timeout
from geofidelity_plugin.backend.commands.ray_options import add_ray_arguments, ray_address, report_generation
from geofidelity_plugin.spec import generation as spec
from geofidelity_plugin.spec.options import add_arguments


def register(sub) -> None:
    p = sub.add_parser(spec.GENERATE.command, help=spec.GENERATE.help, description=spec.GENERATE_DESCRIPTION)
    add_arguments(p, spec.GENERATE)
    add_ray_arguments(p, "generate the panels")
    add_lock_timeout(p)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser(spec.IMPORT_GENERATED.command, help=spec.IMPORT_GENERATED.help)
    add_arguments(p, spec.IMPORT_GENERATED)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_import_generated)


def generation_request(args):
    """The :class:`~geofidelity_plugin.core.generation.request.GenerationRequest` of a ``generate``
    command line (its templates read from their JSON)."""
    from geofidelity_plugin.core.generation.prompts import PromptTemplates
    from geofidelity_plugin.core.generation.request import GenerationRequest

    values = {opt.dest: getattr(args, opt.dest) for opt in spec.GENERATE.options if hasattr(args, opt.dest)}
    values["templates"] = PromptTemplates.from_json(args.templates)
    return GenerationRequest.from_options(values)


def cmd_generate(args) -> int:
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from geofidelity_plugin.core.generation.workflow import generate_store

    # settings given with a registered generator are refused by the request's checks, not ignored
    request = generation_request(args)
    executor = generation_executor(args)  # --ray: the same request on a Ray cluster
    progress = progress_for(f"generate {request.generator}", args.quiet)
    try:
        with BenchmarkStore(args.store, create=False, writer=True, lock_timeout_s=args.lock_timeout,
                            warn=progress.warning) as store:
            result, skipped = generate_store(store, request, progress, executor=executor)
            generations = store.root / "generations"
    finally:
        progress.close()
    print(f"{result.generated} images generated, {result.skipped_existing} kept from earlier runs, "
          f"{len(skipped)} prompts skipped")
    if result.memory_plan:
        plan = result.memory_plan
        print(f"memory plan {plan['plan']} ({plan['batch']} image(s) per call, predicted peak "
              f"{plan['predicted_peak_gib']} GiB, numerics {plan['numerics']}): {plan['reason']}")
    _generation_events(result, skipped, request.out_dir or generations)
    report_generation(result)
    return 0


def _generation_events(result, skipped, out_dir) -> None:
    """What a driver reports after ``generate``: the generator's folder, its manifest, the counts."""
    from pathlib import Path

    from geofidelity_plugin.core import events

    folder = Path(out_dir) / result.model
    events.output(spec.GENERATIONS.key, folder)
    if (folder / "generation_manifest.json").is_file():
        events.output(spec.MANIFEST.key, folder / "generation_manifest.json")
    events.value(spec.MODEL.key, result.model)
    events.value(spec.GENERATED.key, result.generated)
    events.value(spec.KEPT.key, result.skipped_existing)
    events.value(spec.REQUESTED.key, result.requested)
    events.value(spec.SKIPPED_PROMPTS.key, len(skipped))
    if result.memory_plan:
        events.value(spec.PLAN_USED.key, result.memory_plan["plan"])
        events.value(spec.IMAGES_PER_CALL.key, result.memory_plan["batch"])
        events.value(spec.PREDICTED_PEAK_GIB.key, result.memory_plan["predicted_peak_gib"])


def cmd_import_generated(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.generation.workflow import import_folder_into

    progress = progress_for("import-generated", args.quiet)
    try:
        result = import_folder_into(args.store, args.folder, args.model, progress, replace=args.replace)
    finally:
        progress.close()
    print(f"{result.images} images imported for {', '.join(result.models)}")
    events.value(spec.IMAGES.key, result.images)
    events.value(spec.MODELS.key, list(result.models))
    events.value(spec.WITH_PROMPT.key, result.with_prompt)
    events.value(spec.WITH_SEED.key, result.with_seed)
    return 0


def generation_executor(args):
    """The executor of ``generate``: ``None`` (one process, the default of ``generate_store``), or a
    :class:`~geofidelity_plugin.core.scaleout.generation.RayExecutor` on the cluster ``--ray``
    names, with ``--ray-workers``."""
    ray = ray_address(args)
    if not ray:
        return None
    from geofidelity_plugin.core.scaleout.generation import RayExecutor

    return RayExecutor(ray, workers=args.ray_workers)
