"""What each ``python -m geofidelity_plugin`` sub-command does: read its options, call the core,
print where the results went. The parser and the error policy live in :mod:`.cli`."""
from __future__ import annotations

import sys


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

    inputs = {"the city table (--cities)": args.cities, "the OSM file (--osm)": args.osm}
    check_selection_outputs(args.out, inputs)  # before any reading or download
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
                                 progress=progress, inputs=inputs)
    finally:
        progress.close()
    print(f"{len(result.segments)} segments → {result.gpkg_path}")
    print(f"manifest: {result.manifest_path}\nsummary:  {result.summary_path}")
    return 0


def cmd_fetch_mapillary(args) -> int:
    from .core.store.store import BenchmarkStore
    from .core.evaluation.workflow import load_segments_gpkg
    from .core.reference_panels.layers import write_images_gpkg
    from .core.output_paths import check_output_file
    from .core.reference_panels.inputs import check_number, read_segments_checked
    from .core.reference_panels.mapillary import DEFAULT_BASE_URL, MapillaryClient, token_from_env
    from .core.reference_panels.workflow import check_store_has_a_source, fetch_store

    # every input and the output first: before the store is opened or a request is sent
    check_number(args.buffer, "--buffer (the road buffer, m)", example="--buffer 30")
    check_number(args.tile_step, "--tile-step (the box spacing, m)", minimum=10, inclusive=True,
                 example="--tile-step 200")
    check_number(args.workers, "--workers (parallel downloads)", minimum=1, inclusive=True, maximum=64,
                 integer=True, example="--workers 16")
    check_number(args.timeout, "--timeout (seconds to wait for an answer)", example="--timeout 30")
    inputs = {"the benchmark store (--store)": args.store, "the segments GeoPackage (--segments)": args.segments}
    out = check_output_file(args.out, "image points GeoPackage", inputs=inputs) if args.out else None
    token = token_from_env()
    check_store_has_a_source(args.store, args.segments)
    segments = read_segments_checked(args.segments) if args.segments else None
    client = MapillaryClient(token, base_url=args.base_url or DEFAULT_BASE_URL, max_workers=args.workers,
                             timeout_s=args.timeout)
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
    from .core.store.store import BenchmarkStore
    from .core.reference_panels.curate import CurationOptions
    from .core.reference_panels.layers import write_images_gpkg
    from .core.output_paths import check_output_file
    from .core.reference_panels.inputs import check_number
    from .core.reference_panels.workflow import curate_store, read_audit_csv

    check_number(args.cap, "--cap (images per segment at most)", minimum=1, inclusive=True, integer=True,
                 example="--cap 65")
    inputs = {"the benchmark store (--store)": args.store, "the audit CSV (--audit-csv)": args.audit_csv}
    out = check_output_file(args.out, "curated image points GeoPackage", inputs=inputs) if args.out else None
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
    from .core.store.store import BenchmarkStore
    from .core.reference_panels.layers import write_coverage_gpkg
    from .core.output_paths import check_output_file
    from .core.reference_panels.inputs import check_number
    from .core.reference_panels.workflow import coverage_store

    check_number(args.radius, "--radius (covered within, m)", example="--radius 30")
    check_output_file(args.out, "coverage GeoPackage", inputs={"the benchmark store (--store)": args.store})
    with BenchmarkStore(args.store, create=False) as store:
        coverage = coverage_store(store, args.radius)
        write_coverage_gpkg(args.out, coverage, store.segments())
    for c in coverage:
        print(f"{c.segment_id}: {c.images_kept} kept, {c.sequences} sequences, longest gap {c.longest_gap_m:.0f} m")
    print(f"coverage layers → {args.out}")
    return 0


def cmd_generate(args) -> int:
    from .core.store.store import BenchmarkStore
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

    result = import_folder_into(args.store, args.folder, args.model, replace=args.replace)
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
    from .core.store.store import BenchmarkStore
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
                             fast_jpeg_decode=not args.exact_decode, progress=progress,
                             lock_timeout_s=args.lock_timeout)
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

    path = write_report(args.evaluation, args.out, args.title,
                        warn=lambda message: print(f"warning: {message}", file=sys.stderr))
    print(f"report: {path}")
    return 0


def cmd_demo(args) -> int:
    from .demo import run_demo

    paths = run_demo(args.out)
    print("\nGeoFidelity demo finished. Outputs:")
    for label, path in paths.items():
        print(f"  {label:<10} {path}")
    return 0
