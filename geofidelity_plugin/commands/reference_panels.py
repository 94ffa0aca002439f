"""``python -m geofidelity_plugin`` — 2 · fetch, curate and audit Mapillary reference panels (method §2).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from ..core.option_checks import argparse_number
from .progress import progress_for


def register(sub) -> None:
    p = sub.add_parser("fetch-mapillary", help="2a · Mapillary images along each segment (token: MAPILLARY_ACCESS_TOKEN)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load first")
    p.add_argument("--out", help="image points GeoPackage")
    p.add_argument("--buffer", type=float, default=30.0, help="road buffer, m (default %(default)s)")
    p.add_argument("--tile-step", type=float, default=200.0, help="box spacing along the segment, m")
    p.add_argument("--workers", type=int, default=16, help="parallel downloads (default %(default)s)")
    p.add_argument("--base-url", help="Graph API base URL (default https://graph.mapillary.com)")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds to wait for an answer before a request is retried (default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_fetch_mapillary)

    p = sub.add_parser("curate", help="2b · filter tiers 1–8 and the cap (method §2)")
    p.add_argument("--store", required=True)
    p.add_argument("--out", help="curated image points GeoPackage")
    p.add_argument("--audit-csv", help="manual audit: image_id,decision[,segment_id]")
    p.add_argument("--siglip-model", default="google/siglip-so400m-patch14-384", help="empty string: skip tier 4")
    p.add_argument("--vistas-model", default="facebook/mask2former-swin-large-mapillary-vistas-semantic",
                   help="empty string: skip tier 5")
    p.add_argument("--cap", type=int, default=65, help="images per segment at most")
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_curate)

    p = sub.add_parser("coverage", help="2c · coverage audit and gaps per segment")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True, help="coverage GeoPackage (layers coverage, coverage_gaps)")
    p.add_argument("--radius", type=float, default=30.0)
    p.set_defaults(func=cmd_coverage)


def cmd_fetch_mapillary(args) -> int:
    from ..core.store.store import BenchmarkStore
    from ..core.evaluation.workflow import load_segments_gpkg
    from ..core.reference_panels.layers import write_images_gpkg
    from ..core.output_paths import check_output_file
    from ..core.reference_panels.inputs import check_number, read_segments_checked
    from ..core.reference_panels.mapillary import DEFAULT_BASE_URL, MapillaryClient, token_from_env
    from ..core.reference_panels.workflow import check_store_has_a_source, fetch_store

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
    progress = progress_for("fetch Mapillary", args.quiet)
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
    from ..core.store.store import BenchmarkStore
    from ..core.reference_panels.curate import CurationOptions
    from ..core.reference_panels.layers import write_images_gpkg
    from ..core.output_paths import check_output_file
    from ..core.reference_panels.inputs import check_number
    from ..core.reference_panels.workflow import curate_store, read_audit_csv

    check_number(args.cap, "--cap (images per segment at most)", minimum=1, inclusive=True, integer=True,
                 example="--cap 65")
    inputs = {"the benchmark store (--store)": args.store, "the audit CSV (--audit-csv)": args.audit_csv}
    out = check_output_file(args.out, "curated image points GeoPackage", inputs=inputs) if args.out else None
    if args.audit_csv:
        read_audit_csv(args.audit_csv)  # a bad audit CSV fails before the store is touched
    options = CurationOptions(siglip_model=args.siglip_model or None, vistas_model=args.vistas_model or None,
                              cap_per_segment=args.cap, seed=args.seed)
    progress = progress_for("curate", args.quiet)
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
    from ..core.store.store import BenchmarkStore
    from ..core.reference_panels.layers import write_coverage_gpkg
    from ..core.output_paths import check_output_file
    from ..core.reference_panels.inputs import check_number
    from ..core.reference_panels.workflow import coverage_store

    check_number(args.radius, "--radius (covered within, m)", example="--radius 30")
    check_output_file(args.out, "coverage GeoPackage", inputs={"the benchmark store (--store)": args.store})
    with BenchmarkStore(args.store, create=False) as store:
        coverage = coverage_store(store, args.radius)
        write_coverage_gpkg(args.out, coverage, store.segments())
    for c in coverage:
        print(f"{c.segment_id}: {c.images_kept} kept, {c.sequences} sequences, longest gap {c.longest_gap_m:.0f} m")
    print(f"coverage layers → {args.out}")
    return 0
