"""``python -m geofidelity_plugin`` — 4 · score generated panels and anchors (method §5–§7).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.backend.commands.store_lock import add_lock_timeout
from geofidelity_plugin.backend.commands.ray_options import add_ray_arguments, ray_address
from geofidelity_plugin.spec import evaluation as spec
from geofidelity_plugin.spec.options import add_arguments, recorded


def register(sub) -> None:
    p = sub.add_parser(spec.EVALUATE.command, help=spec.EVALUATE.help,
                       description="Embed with DINOv2 (cached), score every panel, write tables, layer and manifest.")
    add_arguments(p, spec.EVALUATE)
    add_lock_timeout(p)
    add_ray_arguments(p, "embed the images")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_evaluate)


def cmd_evaluate(args) -> int:
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.workflow import run_evaluation

    options = EvaluationOptions(seed=args.seed, l2_normalise=args.l2_normalise, mmd_unbiased=args.mmd_unbiased,
                                retrieval_mode=args.retrieval_mode, holdout_size=args.holdout_size,
                                n_bootstrap=args.bootstrap, bootstrap_unit=args.bootstrap_unit, pairing=args.pairing,
                                anchors_only=args.anchors_only,
                                precision=args.precision, protocol=args.protocol, max_memory=args.max_memory)
    progress = progress_for("evaluate", args.quiet)
    try:
        run = run_evaluation(args.store, args.out, feature_model=args.feature_model, options=options,
                             semantic_model=args.semantic_model, layer_model=args.model,
                             layer_condition=args.condition, batch_size=args.batch_size, device=args.device,
                             fast_jpeg_decode=not args.exact_decode, decode=args.decode, progress=progress,
                             lock_timeout_s=args.lock_timeout, clip_model=args.clip_model,
                             ray=ray_address(args), ray_workers=args.ray_workers,
                             recorded_options=recorded(args, spec.EVALUATE), only_segments=args.only_segments,
                             export_features=args.export_features)
    finally:
        progress.close()
    r = run.result
    gamma = "fitted per pair (release protocol)" if args.protocol == "release" else f"{r.gamma:.6g}"
    print(f"{len(r.rows)} panels scored (γ = {gamma}); features computed {r.feature_stats['computed']}, "
          f"cached {r.feature_stats['cached']}, failed {r.feature_stats['failed']}")
    for key in ("tables_md", "per_panel_csv", "raw_results", "gpkg", "manifest"):
        if key in run.paths:
            print(f"  {key:<14} {run.paths[key]}")
    _evaluation_events(args, run)
    return 0


def _evaluation_events(args, run) -> None:
    """What a driver loads after ``evaluate``: the per-segment layer, styled, and the files."""
    from pathlib import Path

    from geofidelity_plugin.core import events

    r = run.result
    if "gpkg" not in run.paths:  # the release protocol: tables, no map layer
        for res, path_key in ((spec.RAW_RESULTS, "raw_results"), (spec.TABLES, "tables_md"),
                              (spec.MANIFEST, "manifest")):
            events.output(res.key, run.paths[path_key])
        events.value(spec.PANELS.key, len(r.rows))
        return
    label = f"GeoFidelity scores — {run.model} {run.condition}" + (" (STAND-IN DATA)" if run.stand_in_note else "")
    events.output(spec.SEGMENT_SCORES.key, run.paths["gpkg"], layer=f"{run.paths['gpkg']}|layername=segment_scores",
                  name=label, style="segment_margin_hard.qml",
                  properties={"geofidelity/store": str(Path(args.store).resolve()),
                              "geofidelity/evaluation": str(Path(args.out).resolve())})
    for res, path_key in ((spec.PER_PANEL_CSV, "per_panel_csv"), (spec.TABLES, "tables_md"),
                          (spec.MANIFEST, "manifest")):
        events.output(res.key, run.paths[path_key])
    events.value(spec.PANELS.key, len(r.rows))
    events.value(spec.GAMMA.key, r.gamma)
    events.value(spec.MODEL.key, run.model)
    events.value(spec.CONDITION.key, run.condition)
    for key, count in r.feature_stats.items():
        events.value(spec.FEATURE_COUNTS[key].key, count)
