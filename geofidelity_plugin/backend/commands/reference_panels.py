"""``python -m geofidelity_plugin`` — 2 · fetch, curate and audit Mapillary reference panels (method §2).

Each module registers its sub-commands (:func:`register`) and holds what they do: parse, call the
core (:mod:`geofidelity_plugin.core.reference_panels.workflow`, which checks the inputs and writes
the run manifests) and report."""
from __future__ import annotations

from pathlib import Path

from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import coverage as spec_coverage
from geofidelity_plugin.spec import curation as spec_curation
from geofidelity_plugin.spec import fetch as spec_fetch
from geofidelity_plugin.spec.options import add_arguments, recorded


def register(sub) -> None:
    for spec, func in ((spec_fetch.FETCH, cmd_fetch_mapillary), (spec_curation.CURATE, cmd_curate),
                       (spec_coverage.COVERAGE, cmd_coverage)):
        p = sub.add_parser(spec.command, help=spec.help)
        add_arguments(p, spec)
        p.add_argument("-q", "--quiet", action="store_true")
        p.set_defaults(func=func)


def cmd_fetch_mapillary(args) -> int:
    from geofidelity_plugin.core.reference_panels.workflow import run_fetch

    progress = progress_for("fetch Mapillary", args.quiet)
    try:
        run = run_fetch(args.store, args.segments, args.out, buffer_m=args.buffer, tile_step_m=args.tile_step,
                        workers=args.workers, requests_per_second=args.requests_per_second, timeout_s=args.timeout,
                        search_pad_m=args.search_pad, prefilter=not args.download_all, solar_min_deg=args.solar_min,
                        refresh_batch=args.refresh_batch, base_url=args.base_url, progress=progress,
                        recorded=recorded(args, spec_fetch.FETCH), only_segments=args.only_segments)
    finally:
        progress.close()
    print(", ".join(f"{k}: {v}" for k, v in run.totals.items()))
    _fetch_events(args, run)
    return 0


def _store_property(store) -> dict:
    """The custom layer property the segment inspector reads to find the benchmark store."""
    return {"geofidelity/store": str(Path(store).expanduser().resolve())}


def _fetch_events(args, run) -> None:
    from geofidelity_plugin.core import events

    s, totals = spec_fetch, run.totals
    if run.out:
        events.output(s.OUTPUT.name, run.out, layer=f"{run.out}|layername=reference_images",
                      name="GeoFidelity Mapillary images", style="reference_images_status.qml",
                      properties=_store_property(args.store))
    for result, value in ((s.IMAGES, totals["images"]), (s.DOWNLOADED, totals["downloaded"]),
                          (s.SEGMENTS_FETCHED, totals["segments"]), (s.FROM_CACHE, totals["from_cache"]),
                          (s.FAILED, totals["failed"]), (s.NOT_DOWNLOADED, totals.get("not_downloaded", 0)),
                          (s.API_REQUESTS, run.api_requests), (s.IMAGE_REQUESTS, run.image_requests)):
        events.value(result.key, value)


def _curation_options(args):
    """The ``CurationOptions`` of the command line (an empty model id skips its tier)."""
    from geofidelity_plugin.core.reference_panels.options import CurationOptions

    return CurationOptions(siglip_model=args.siglip_model or None, vistas_model=args.vistas_model or None,
                           cap_per_segment=args.cap, cap_spread=args.cap_spread, cap_bin_m=args.cap_bin,
                           score_all=args.score_all, seed=args.seed, device=args.device, precision=args.precision,
                           allow_removal=args.allow_removal,
                           **{opt.dest: getattr(args, opt.dest) for opt in spec_curation.THRESHOLDS})


def cmd_curate(args) -> int:
    from geofidelity_plugin.core.reference_panels.workflow import run_curation

    options = _curation_options(args)
    progress = progress_for("curate", args.quiet)
    try:
        run = run_curation(args.store, options, args.audit_csv, args.out, progress=progress,
                           recorded=recorded(args, spec_curation.CURATE))
    finally:
        progress.close()
    result = run.result
    _report_notes(result.notes)
    print(f"curation: {result.counts()}")
    _report_stretches(result)
    _curation_events(args, run)
    return 0


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


def _curation_events(args, run) -> None:
    from geofidelity_plugin.core import events

    s = spec_curation
    if run.out:
        events.output(s.OUTPUT.name, run.out, layer=f"{run.out}|layername=reference_images",
                      name="GeoFidelity curated images", style="reference_images_status.qml",
                      properties=_store_property(args.store))
        events.output(s.MANIFEST.key, run.manifest)
    counts = run.result.counts()
    events.value(s.KEPT.key, counts.get("kept", 0))
    events.value(s.COUNTS.key, counts)
    events.value(s.NOT_SCORED.key, run.result.not_scored())


def cmd_coverage(args) -> int:
    from geofidelity_plugin.core.reference_panels.workflow import run_coverage

    progress = progress_for("coverage", args.quiet)
    try:
        run = run_coverage(args.store, args.out, args.radius, args.gap_radius, progress,
                           recorded=recorded(args, spec_coverage.COVERAGE))
    finally:
        progress.close()
    for c in run.audit.coverage:
        print(f"{c.segment_id}: {c.images_kept} kept, {c.images_per_km:.0f} images/km, {c.sequences} sequences, "
              f"{c.date_first or '—'} … {c.date_last or '—'}, {100 * c.share_uncovered_20m:.0f} % with no image "
              f"within {args.gap_radius:g} m, longest gap {c.longest_gap_m:.0f} m; longest stretch without an "
              f"image {c.stretch_before_cap_m:.0f} m before the cap, {c.stretch_after_cap_m:.0f} m after")
    for row in run.audit.cities:
        print(f"{row['city'] or '(no city)'}: {row['segments']} segments, {row['km']:.2f} km, {row['images']} images "
              f"({row['images_per_km']:.0f}/km), median {100 * row['median_share_uncovered_20m']:.0f} % uncovered, "
              f"{row['segments_gap_over_100m']} segment(s) with a gap over 100 m")
    print(f"coverage layers → {run.out}\ncity summary → {run.cities_csv}")
    _coverage_events(args, run)
    return 0


def _coverage_events(args, run) -> None:
    from geofidelity_plugin.core import events

    s, out, store = spec_coverage, run.out, _store_property(args.store)
    for key, layer, name, style in ((s.OUTPUT, "coverage", "coverage", "coverage_by_images.qml"),
                                    (s.GAPS_LAYER, "coverage_gaps", "coverage gaps", "coverage_gaps.qml"),
                                    (s.IMAGES_LAYER, "coverage_images", "coverage images",
                                     "coverage_images_status.qml"),
                                    (s.BUFFERS_LAYER, "coverage_buffers", "coverage buffers", "coverage_buffers.qml")):
        events.output(key, out, layer=f"{out}|layername={layer}", name=f"GeoFidelity {name}", style=style,
                      properties=store)
    events.output(s.CITIES_CSV.key, run.cities_csv)
    events.output(s.MANIFEST.key, run.manifest)
    events.value(s.GAPS.key, sum(len(c.gaps) for c in run.audit.coverage))
    events.value(s.SEGMENTS.key, len(run.audit.coverage))
