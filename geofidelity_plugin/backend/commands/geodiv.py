"""``python -m geofidelity_plugin geodiv`` — GeoDiv (docs/method.md, GeoDiv): how diverse the
panels are per model / condition / city, beside the real reference panels: VDI and SEVI from a
VQA model's (or an answers CSV's) multiple-choice answers, and the Vendi score of the panels'
embeddings, which needs no VQA model."""
from __future__ import annotations

from pathlib import Path

from geofidelity_plugin.core.option_checks import argparse_number
from geofidelity_plugin.backend.commands.progress import progress_for


def register(sub) -> None:
    p = sub.add_parser("geodiv", help="GeoDiv: VDI, SEVI and Vendi diversity per model / condition / city, "
                                      "with the real panels as the baseline (docs/method.md, GeoDiv)")
    p.add_argument("--store", help="benchmark store: its generated panels and, as the baseline, the reference "
                                   "panels of the same segments")
    p.add_argument("--images", help="instead of a store: a folder of images (sub-folder name = city)")
    p.add_argument("--answers", help="answers CSV (image_id, question_id, answer + grouping columns), e.g. from a "
                                     "hosted model; scored exactly like local answers")
    p.add_argument("--questions", help="question-set JSON (default: the street-scene set)")
    p.add_argument("--group-by", default="model,condition,city",
                   help="grouping columns, comma-separated (default %(default)s)")
    p.add_argument("--vqa-model", default="none",
                   help="VQA model for local answers: a registered name (qwen2.5-vl-7b-instruct), hub id or folder; "
                        "none (default) asks no questions")
    p.add_argument("--feature-model", default="none",
                   help="embedding model for the Vendi score (e.g. facebook/dinov2-base or a folder); none skips it")
    p.add_argument("--cache", help="embedding cache file (default: the evaluation's cache)")
    p.add_argument("--device", help="cpu, cuda, cuda:N or mps (default: CUDA when present)")
    p.add_argument("--precision", default="fp32", help="fp32 (default), bf16 or fp16")
    p.add_argument("--batch-size", type=argparse_number("count"), default=8,
                   help="option texts per forward pass (default %(default)s)")
    p.add_argument("--per-group", type=argparse_number("non-negative-count"), default=0,
                   help="at most this many images per group, the same ones every run (default 0: all)")
    p.add_argument("--convergence", action="store_true",
                   help="also check how the ranking of the groups settles with the number of images (table + figure)")
    p.add_argument("--drop-zero-options", action="store_true",
                   help="normalise by the options chosen at least once instead of all K (not the method's)")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_geodiv)


def _none(value) -> str | None:
    return None if value in (None, "", "none") else str(value)


def _images(args) -> list[dict] | None:
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.geodiv.images import folder_images, store_images

    if args.store and args.images:
        raise InputError("give --store or --images, not both")
    if args.store:
        return store_images(args.store)
    if args.images:
        return folder_images(args.images)
    return None


def _city_layer(args, paths) -> Path | None:
    """Cities styled by model − real VDI, when a store gives their positions."""
    if not (args.store and "differences" in paths):
        return None
    import csv

    from geofidelity_plugin.core.geodiv.city_layer import city_points, write_city_layer

    with open(paths["differences"], newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        for key, value in row.items():
            if key.endswith(("_minus_real", "_paired", "_low", "_high")):
                row[key] = float(value) if value not in ("", None) else float("nan")
    return write_city_layer(rows, city_points(args.store), Path(args.out) / "geodiv_cities.gpkg")


def cmd_geodiv(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.geodiv import questions as qs
    from geofidelity_plugin.core.geodiv.answers import read_answers_csv
    from geofidelity_plugin.core.geodiv.workflow import GeoDivOptions, local_answers, score_run
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    group_by = tuple(c.strip() for c in args.group_by.split(",") if c.strip())
    vqa, features = _none(args.vqa_model), _none(args.feature_model)
    if args.answers and vqa:
        raise InputError("give --answers or --vqa-model, not both")
    images = _images(args)
    if images is not None:
        from geofidelity_plugin.core.geodiv.images import limit_per_group

        images = limit_per_group(images, group_by, args.per_group)
    if (vqa or features) and images is None:
        raise InputError("a VQA or feature model needs images — give --store or --images")
    if not (args.answers or vqa or features):
        raise InputError("nothing to compute — give --answers, --vqa-model or --feature-model")
    qset = qs.load(args.questions)
    options = GeoDivOptions(group_by, not args.drop_zero_options, vqa, features)
    progress = progress_for("geodiv", quiet=args.quiet)
    models, answers, embeddings = [], None, None
    try:
        if args.answers:
            answers = read_answers_csv(args.answers, group_by)
        elif vqa:
            from geofidelity_plugin.core.geodiv.vqa import OptionScorer

            events.announce_stage(progress, "loading the VQA model")
            scorer = OptionScorer(vqa, device=args.device, precision=args.precision, batch_size=args.batch_size,
                                  cache_dir=Path(args.out) / "vqa_cache")
            models.append(scorer.describe())
            events.announce_stage(progress, "answering the questions")
            answers = local_answers(images, qset, scorer, group_by, progress)
        if features:
            from geofidelity_plugin.core.vision.feature_cache import FeatureCache
            from geofidelity_plugin.core.vision.features import FeatureExtractor

            events.announce_stage(progress, "embedding the panels (Vendi score)")
            cache = FeatureCache(args.cache) if args.cache else FeatureCache()
            extractor = FeatureExtractor(features, device=args.device, cache=cache, precision=args.precision)
            result = extractor.embed_paths([i["path"] for i in images], progress)
            models.append(result.model)
            embeddings = result.embeddings
        paths, groups = score_run(answers, qset, args.out, options, images, embeddings)
        if args.convergence and answers:
            from geofidelity_plugin.core.geodiv.answers import write_table
            from geofidelity_plugin.core.geodiv.convergence import plot_convergence, ranking_convergence

            events.announce_stage(progress, "convergence check")
            rows = ranking_convergence(answers, qset, group_by)
            paths["convergence"] = write_table(rows, Path(args.out) / "geodiv_convergence.csv")
            if rows:
                plot_convergence(rows, Path(args.out) / "geodiv_convergence.png")
                paths["convergence_figure"] = Path(args.out) / "geodiv_convergence.png"
    finally:
        progress.close()
    inputs = {"store": args.store, "images": args.images, "answers": args.answers,
              "questions": str(args.questions or qs.default_path()), "question_set_digest": qset.digest}
    manifest = build_manifest("geodiv", options, inputs=inputs,
                              outputs={k: str(v) for k, v in paths.items()}, models=models)
    paths["manifest"] = write_manifest(Path(args.out) / "geodiv_manifest.json", manifest)
    layer = _city_layer(args, paths)
    for key, path in paths.items():
        events.output(key.upper(), path)
        print(f"{key}: {path}")
    if layer is not None:
        from geofidelity_plugin.core.geodiv.city_layer import LAYER, STYLE

        events.output("CITY_LAYER", layer, layer=f"{layer}|layername={LAYER}",
                      name="GeoDiv: model − real VDI per city", style=STYLE)
        print(f"city layer: {layer}")
    events.value("GROUP_COUNT", len(groups))
    return 0
