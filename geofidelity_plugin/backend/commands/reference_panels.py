"""``python -m geofidelity_plugin`` — 2 · fetch, curate and audit Mapillary reference panels (method §2).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations

from pathlib import Path

from geofidelity_plugin.core.option_checks import argparse_number
from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import coverage as spec_coverage
from geofidelity_plugin.spec.curation import THRESHOLDS
from geofidelity_plugin.spec.options import add_arguments, add_options, recorded

def register(sub) -> None:
    from geofidelity_plugin.core.reference_panels import options as o

    d = o.CurationOptions()
    p = sub.add_parser("fetch-mapillary", help="2a · Mapillary images along each segment (token: MAPILLARY_ACCESS_TOKEN)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load first")
    p.add_argument("--out", help="image points GeoPackage")
    p.add_argument("--buffer", type=float, default=o.FETCH_BUFFER_M, help="road buffer, m (default %(default)s)")
    p.add_argument("--tile-step", type=float, default=o.FETCH_TILE_STEP_M,
                   help="box spacing along the segment, m (default %(default)s)")
    p.add_argument("--workers", type=int, default=o.FETCH_WORKERS, help="parallel downloads (default %(default)s)")
    p.add_argument("--requests-per-second", type=float, default=o.FETCH_REQUESTS_PER_SECOND,
                   help="Graph API requests per second at most (default %(default)s)")
    p.add_argument("--base-url", help=f"Graph API base URL (default {o.DEFAULT_BASE_URL})")
    p.add_argument("--timeout", type=float, default=o.FETCH_TIMEOUT_S,
                   help="seconds to wait for an answer before a request is retried (default %(default)s)")
    p.add_argument("--search-pad", type=float, default=o.FETCH_SEARCH_PAD_M,
                   help="the search boxes reach this far past the buffer, m, so that an image whose computed "
                        "position is in the buffer is found even when its GPS position lies that far out "
                        "(default %(default)s)")
    p.add_argument("--solar-min", type=float, default=d.solar_min_deg,
                   help="curation tier 3 before download: images taken with the sun lower than this (degrees) "
                        "are not downloaded (default %(default)s)")
    p.add_argument("--download-all", action="store_true",
                   help="download every image found, without running curation tiers 1–3 (buffer, camera, "
                        "daytime) on the search results first")
    p.add_argument("--refresh-batch", type=int, default=o.FETCH_REFRESH_BATCH,
                   help="image ids per request renewing expired thumbnail URLs; 1: one image at a time "
                        "(default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_fetch_mapillary)

    p = sub.add_parser("curate", help="2b · filter tiers 1–8 and the cap (method §2)")
    p.add_argument("--store", required=True)
    p.add_argument("--out", help="curated image points GeoPackage (its run manifest is written beside it)")
    p.add_argument("--audit-csv", help="manual audit: image_id,decision[,segment_id]")
    p.add_argument("--siglip-model", default=d.siglip_model, help="empty string: skip tier 4 (default %(default)s)")
    p.add_argument("--vistas-model", default=d.vistas_model, help="empty string: skip tier 5 (default %(default)s)")
    add_options(p, THRESHOLDS)
    p.add_argument("--cap", type=int, default=d.cap_per_segment, help="images per segment at most (default %(default)s)")
    p.add_argument("--cap-spread", choices=o.CAP_SPREADS, default=d.cap_spread,
                   help="how the cap spreads a segment's images: 'along' — bins along the segment first, then "
                        "sequences and dates within a bin; 'sequences' — over sequences and dates (the paper's "
                        "rule) (default %(default)s)")
    p.add_argument("--cap-bin", type=argparse_number("positive"), default=d.cap_bin_m,
                   help="length of the position bins of the 'along' cap, m (default %(default)s)")
    p.add_argument("--score-all", action="store_true",
                   help="score tiers 4–7 on every image, also those that cannot change which images the 'along' "
                        "cap keeps (same kept images; every measure, and the exact stretch before the cap)")
    p.add_argument("--seed", type=argparse_number("seed"), default=d.seed, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--device", help="device of the SigLIP and Mask2Former tiers: cpu, cuda, cuda:N or mps "
                                    "(default: CUDA when present)")
    p.add_argument("--precision", choices=o.PRECISIONS, default=d.precision,
                   help="compute precision of the SigLIP and Mask2Former tiers; fp32 on every device keeps CPU "
                        "and GPU runs alike, bf16/fp16 are faster on a GPU and are cached apart "
                        "(default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_curate)

    p = sub.add_parser(spec_coverage.COVERAGE.command, help=spec_coverage.COVERAGE.help)
    add_arguments(p, spec_coverage.COVERAGE)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_coverage)


def cmd_fetch_mapillary(args) -> int:
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from geofidelity_plugin.core.evaluation.store_steps import load_segments_gpkg
    from geofidelity_plugin.core.reference_panels.curation.layers import write_images_gpkg
    from geofidelity_plugin.core.output_paths import check_output_file
    from geofidelity_plugin.core.reference_panels.inputs import check_number, read_segments_checked
    from geofidelity_plugin.core.reference_panels.mapillary.client import (DEFAULT_BASE_URL, MapillaryClient, token_from_env)
    from geofidelity_plugin.core.reference_panels.inputs import check_store_has_a_source
    from geofidelity_plugin.core.reference_panels.workflow import fetch_store

    # every input and the output first: before the store is opened or a request is sent
    check_number(args.buffer, "--buffer (the road buffer, m)", example="--buffer 30")
    check_number(args.tile_step, "--tile-step (the box spacing, m)", minimum=10, inclusive=True,
                 example="--tile-step 200")
    check_number(args.workers, "--workers (parallel downloads)", minimum=1, inclusive=True, maximum=64,
                 integer=True, example="--workers 16")
    check_number(args.requests_per_second, "--requests-per-second (Graph API requests per second)",
                 example="--requests-per-second 10")
    check_number(args.timeout, "--timeout (seconds to wait for an answer)", example="--timeout 30")
    check_number(args.search_pad, "--search-pad (m past the buffer)", inclusive=True, example="--search-pad 50")
    check_number(args.solar_min, "--solar-min (degrees)", minimum=-90, inclusive=True, maximum=90,
                 example="--solar-min 20")
    check_number(args.refresh_batch, "--refresh-batch (image ids per URL renewal request)", minimum=1,
                 inclusive=True, maximum=100, integer=True, example="--refresh-batch 50")
    inputs = {"the benchmark store (--store)": args.store, "the segments GeoPackage (--segments)": args.segments}
    out = check_output_file(args.out, "image points GeoPackage", inputs=inputs) if args.out else None
    manifest = check_output_file(_manifest_path(out), "fetch run manifest", inputs=inputs) if out else None
    token = token_from_env()
    check_store_has_a_source(args.store, args.segments)
    segments = read_segments_checked(args.segments) if args.segments else None
    client = MapillaryClient(token, base_url=args.base_url or DEFAULT_BASE_URL, max_workers=args.workers,
                             requests_per_second=args.requests_per_second, timeout_s=args.timeout,
                             refresh_batch=int(args.refresh_batch))
    progress = progress_for("fetch Mapillary", args.quiet)
    try:
        with client, BenchmarkStore(args.store) as store:
            if segments:
                load_segments_gpkg(store, segments)
            client.cache_dir = store.root / "mapillary"
            totals = fetch_store(store, client, args.buffer, args.tile_step, progress, search_pad_m=args.search_pad,
                                 prefilter=not args.download_all, solar_min_deg=args.solar_min)
            if out:
                write_images_gpkg(out, store.candidates())
                _write_fetch_manifest(manifest, store, args, totals, client, out)
    finally:
        progress.close()
    print(", ".join(f"{k}: {v}" for k, v in totals.items()))
    _fetch_events(args, out, totals, client)
    return 0


def _write_fetch_manifest(path, store, args, totals: dict, client, out) -> None:
    """The run manifest beside the image points: the options (search padding, the tiers run before
    download), the totals and the requests sent."""
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    options = {"buffer_m": args.buffer, "tile_step_m": args.tile_step, "search_pad_m": args.search_pad,
               "prefilter_tiers_1_to_3": not args.download_all, "solar_min_deg": args.solar_min,
               "refresh_batch": args.refresh_batch, "workers": args.workers,
               "requests_per_second": args.requests_per_second, "timeout_s": args.timeout,
               "base_url": client.base_url}
    requests = {"api": client.api_requests, "image": client.image_requests}
    write_manifest(path, build_manifest("fetch_mapillary", options, inputs={"store": str(store.path)},
                                        outputs={"totals": totals, "gpkg": str(out)}, requests=requests))


def _store_property(store) -> dict:
    """The custom layer property the segment inspector reads to find the benchmark store."""
    return {"geofidelity/store": str(Path(store).expanduser().resolve())}


def _fetch_events(args, out, totals: dict, client) -> None:
    from geofidelity_plugin.core import events

    if out:
        events.output("OUTPUT", out, layer=f"{out}|layername=reference_images", name="GeoFidelity Mapillary images",
                      style="reference_images_status.qml", properties=_store_property(args.store))
    events.value("IMAGES", totals["images"])
    events.value("DOWNLOADED", totals["downloaded"])
    for key in ("segments", "from_cache", "failed"):
        events.value(key.upper(), totals[key])
    events.value("NOT_DOWNLOADED", totals.get("not_downloaded", 0))
    events.value("API_REQUESTS", client.api_requests)
    events.value("IMAGE_REQUESTS", client.image_requests)


def cmd_curate(args) -> int:
    from geofidelity_plugin.core.vision.devices import check_device
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from geofidelity_plugin.core.reference_panels.options import CurationOptions
    from geofidelity_plugin.core.reference_panels.curation.layers import write_images_gpkg
    from geofidelity_plugin.core.output_paths import check_output_file
    from geofidelity_plugin.core.reference_panels.inputs import check_number
    from geofidelity_plugin.core.reference_panels.workflow import curate_store, read_audit_csv

    check_number(args.cap, "--cap (images per segment at most)", minimum=1, inclusive=True, integer=True,
                 example="--cap 65")
    options = CurationOptions(siglip_model=args.siglip_model or None, vistas_model=args.vistas_model or None,
                              cap_per_segment=args.cap, cap_spread=args.cap_spread, cap_bin_m=args.cap_bin,
                              score_all=args.score_all, seed=args.seed, device=check_device(args.device),
                              precision=args.precision,
                              **{opt.dest: getattr(args, opt.dest) for opt in THRESHOLDS})
    options.validate()
    inputs = {"the benchmark store (--store)": args.store, "the audit CSV (--audit-csv)": args.audit_csv}
    out = check_output_file(args.out, "curated image points GeoPackage", inputs=inputs) if args.out else None
    manifest = check_output_file(_manifest_path(out), "curation run manifest", inputs=inputs) if out else None
    if args.audit_csv:
        read_audit_csv(args.audit_csv)  # a bad audit CSV fails before the store is touched
    progress = progress_for("curate", args.quiet)
    try:
        with BenchmarkStore(args.store, create=False) as store:
            result = curate_store(store, options, args.audit_csv, progress=progress)
            if out:
                write_images_gpkg(out, store.candidates())
                _write_curation_manifest(manifest, store, options, result, out)
    finally:
        progress.close()
    _report_notes(result.notes)
    print(f"curation: {result.counts()}")
    _report_stretches(result)
    _curation_events(args, out, manifest, result)
    return 0


def _manifest_path(out) -> Path:
    return Path(str(out).rsplit(".", 1)[0] + ".manifest.json")


def _write_curation_manifest(path, store, options, result, out) -> None:
    """The run manifest beside the curated layer: options, counts, models and tier states."""
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    manifest = build_manifest("curate_panels", options.as_dict(), inputs={"store": str(store.path)},
                              outputs={"counts": result.counts(), "not_scored": result.not_scored(),
                                       "segments": result.segments, "gpkg": str(out)},
                              models=[result.models], notes=result.notes, tier_state=result.tier_state)
    write_manifest(path, manifest)


def _report_stretches(result) -> None:
    """Per segment whose cap dropped images, the longest stretch without an image before and
    after the cap (an upper bound before it when some images were not scored)."""
    for sid, s in sorted(result.segments.items(), key=lambda item: str(item[0])):
        if s["passed"] <= s["kept"] and not s["not_scored"]:
            continue
        before = f"{'≤ ' if s['not_scored'] else ''}{s['stretch_before_cap_m']:.0f} m"
        unscored = f", {s['not_scored']} not scored" if s["not_scored"] else ""
        print(f"{sid}: longest stretch without an image {before} before the cap, {s['stretch_after_cap_m']:.0f} m "
              f"after ({s['kept']} kept of {s['passed']} that passed every tier{unscored})")


def _report_notes(notes: list[str]) -> None:
    """Skipped tiers and other notes: ``note:`` lines for people, warnings for a driver."""
    from geofidelity_plugin.core import events

    for note in notes:
        if events.active() is not None:
            events.emit("warning", message=note)
        else:
            print(f"note: {note}")


def _curation_events(args, out, manifest, result) -> None:
    from geofidelity_plugin.core import events

    if out:
        events.output("OUTPUT", out, layer=f"{out}|layername=reference_images", name="GeoFidelity curated images",
                      style="reference_images_status.qml", properties=_store_property(args.store))
        events.output("MANIFEST", manifest)
    counts = result.counts()
    events.value("KEPT", counts.get("kept", 0))
    events.value("COUNTS", counts)
    events.value("NOT_SCORED", result.not_scored())


def cmd_coverage(args) -> int:
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from geofidelity_plugin.core.output_paths import check_output_file
    from geofidelity_plugin.core.reference_panels.coverage.layers import (cities_csv_path, write_coverage_outputs)
    from geofidelity_plugin.core.reference_panels.coverage.audit import audit_store
    from geofidelity_plugin.core.reference_panels.inputs import check_number

    check_number(args.radius, "--radius (covered within, m)", example="--radius 30")
    check_number(args.gap_radius, "--gap-radius (a gap: no image within, m)", example="--gap-radius 20")
    inputs = {"the benchmark store (--store)": args.store}
    out = check_output_file(args.out, "coverage GeoPackage", inputs=inputs)
    check_output_file(cities_csv_path(out), "coverage city summary CSV", inputs=inputs)
    manifest = check_output_file(_manifest_path(out), "coverage run manifest", inputs=inputs)
    progress = progress_for("coverage", args.quiet)
    try:
        with BenchmarkStore(args.store, create=False) as store:
            audit = audit_store(store, args.radius, args.gap_radius, progress)
            _, csv_path = write_coverage_outputs(out, audit)
            _write_coverage_manifest(manifest, store, args, audit, out, csv_path)
        for note in audit.notes:
            progress.warning(note)
    finally:
        progress.close()
    for c in audit.coverage:
        print(f"{c.segment_id}: {c.images_kept} kept, {c.images_per_km:.0f} images/km, {c.sequences} sequences, "
              f"{c.date_first or '—'} … {c.date_last or '—'}, {100 * c.share_uncovered_20m:.0f} % with no image "
              f"within {args.gap_radius:g} m, longest gap {c.longest_gap_m:.0f} m; longest stretch without an "
              f"image {c.stretch_before_cap_m:.0f} m before the cap, {c.stretch_after_cap_m:.0f} m after")
    for row in audit.cities:
        print(f"{row['city'] or '(no city)'}: {row['segments']} segments, {row['km']:.2f} km, {row['images']} images "
              f"({row['images_per_km']:.0f}/km), median {100 * row['median_share_uncovered_20m']:.0f} % uncovered, "
              f"{row['segments_gap_over_100m']} segment(s) with a gap over 100 m")
    print(f"coverage layers → {out}\ncity summary → {csv_path}")
    _coverage_events(args, out, audit.coverage, csv_path, manifest)
    return 0


def _write_coverage_manifest(path, store, args, audit, out, csv_path) -> None:
    """The run manifest beside the coverage GeoPackage: both radii, the store, the outputs."""
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    options = {**recorded(args, spec_coverage.COVERAGE), "radius_m": args.radius, "gap_radius_m": args.gap_radius,
               "date_histogram": "per year; per month when the dates span under 2 years"}
    notes = list(audit.notes) + ([audit.stand_in] if audit.stand_in else [])
    write_manifest(path, build_manifest("coverage", options, inputs={"store": str(Path(store.path).resolve())},
                                        outputs={"gpkg": str(out), "cities_csv": str(csv_path),
                                                 "segments": len(audit.coverage), "images": len(audit.images)},
                                        notes=notes, stand_in=audit.stand_in))


def _coverage_events(args, out, coverage, csv_path, manifest) -> None:
    from geofidelity_plugin.core import events

    store = _store_property(args.store)
    events.output("OUTPUT", out, layer=f"{out}|layername=coverage", name="GeoFidelity coverage",
                  style="coverage_by_images.qml", properties=store)
    events.output("GAPS_LAYER", out, layer=f"{out}|layername=coverage_gaps", name="GeoFidelity coverage gaps",
                  style="coverage_gaps.qml", properties=store)
    events.output("IMAGES_LAYER", out, layer=f"{out}|layername=coverage_images", name="GeoFidelity coverage images",
                  style="coverage_images_status.qml", properties=store)
    events.output("BUFFERS_LAYER", out, layer=f"{out}|layername=coverage_buffers",
                  name="GeoFidelity coverage buffers", style="coverage_buffers.qml", properties=store)
    events.output("CITIES_CSV", csv_path)
    events.output("MANIFEST", manifest)
    events.value("GAPS", sum(len(c.gaps) for c in coverage))
    events.value("SEGMENTS", len(coverage))
