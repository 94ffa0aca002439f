"""Stage 2 against the benchmark store (method §2): fetch Mapillary images along every
segment, curate them through tiers 1–8 and the cap, audit coverage. Each segment's results are
committed as soon as they are done, so a cancelled run keeps what finished and a re-run resumes.
The fetch runs the metadata tiers 1–3 (:mod:`.metadata`) on the search results and downloads only
the images that pass them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from shapely import wkt

from ..errors import InputError, RemoteServiceError
from ..store.store import BenchmarkStore
from ..progress import NullProgress, Progress, SubProgress, check_cancel
from geofidelity_plugin.core.reference_panels.mapillary.breaker import advice
from geofidelity_plugin.core.reference_panels.coverage.segment_coverage import (SegmentCoverage, segment_coverage)
from .inputs import LOAD_SEGMENTS, check_store_has_a_source  # noqa: F401 (public here too)
from .inputs import check_coverage_numbers, check_search_numbers
from geofidelity_plugin.core.reference_panels.curation.audit_csv import read_audit_csv
from geofidelity_plugin.core.reference_panels.curation.metadata_tiers import SegmentGeometry, metadata_verdict
from .options import (COVERAGE_GAP_RADIUS_M, COVERAGE_RADIUS_M, FETCH_BUFFER_M, FETCH_REFRESH_BATCH,
                      FETCH_REQUESTS_PER_SECOND, FETCH_SEARCH_PAD_M, FETCH_TILE_STEP_M, FETCH_TIMEOUT_S,
                      FETCH_WORKERS, CurationOptions)
from geofidelity_plugin.core.reference_panels.mapillary.thumbnails import image_path

#: What a user does about a fetch that did not get every image.
RERUN = ("run the fetch again once this is fixed: it resumes, and images already downloaded stay "
         "in the cache")


def _segment_lines(store: BenchmarkStore, only: frozenset[str] | None = None) -> dict:
    from ..segment_subset import check_known

    segments = store.segments()
    check_known(only, (s["segment_id"] for s in segments), store.path.name)
    lines = {}
    for s in segments:
        if s.get("geometry_wkt") and (only is None or s["segment_id"] in only):
            lines[s["segment_id"]] = wkt.loads(s["geometry_wkt"])
    if not lines:
        raise InputError(f"the benchmark store {store.path} has no segments — {LOAD_SEGMENTS}")
    return lines


def fetch_store(store: BenchmarkStore, client, buffer_m: float = FETCH_BUFFER_M,
                step_m: float = FETCH_TILE_STEP_M, progress: Progress | None = None,
                search_pad_m: float = FETCH_SEARCH_PAD_M, prefilter: bool = True,
                solar_min_deg: float = CurationOptions.solar_min_deg, only: frozenset[str] | None = None) -> dict:
    """Search and download the images along every segment (or the segments ``only``) into the
    store's candidates.

    The search boxes reach ``search_pad_m`` past the buffer (GPS and computed positions can lie
    that far apart, and Mapillary does not say which one a box search matches). With
    ``prefilter``, curation tiers 1–3 (buffer ``buffer_m``, camera, solar elevation ≥
    ``solar_min_deg``) run on the search results first: an image they reject is stored as a
    rejected candidate and never downloaded. Each segment's candidates are stored as soon as it
    is done, failed downloads included (with their reason), so a re-run resumes. The fetch fails
    with :class:`RemoteServiceError` — naming the segments and the likely cause — when the
    client's failure budget stopped the downloads (:mod:`.breaker`) or a segment with images to
    download got none; some failed images are only a warning."""
    progress = progress or NullProgress()
    check_search_numbers(buffer_m, step_m, search_pad_m, solar_min_deg)
    lines = _segment_lines(store, only)
    rules = CurationOptions(buffer_m=buffer_m, solar_min_deg=solar_min_deg) if prefilter else None
    store.set_meta("fetch_options", {"buffer_m": buffer_m, "tile_step_m": step_m, "search_pad_m": search_pad_m,
                                     "prefilter": prefilter, "solar_min_deg": solar_min_deg,
                                     "perspective_camera_types": list(CurationOptions.perspective_camera_types)})
    skipped = getattr(client, "skipped", None)
    try:
        totals = _fetch_segments(store, client, lines, buffer_m + search_pad_m, step_m, rules, progress)
        unusable = skipped.total() if skipped is not None else 0
    finally:  # the skipped API items are reported even when the fetch fails
        for message in skipped.drain() if skipped is not None else ():
            progress.warning(message)
    if unusable and not totals["images"]:
        raise RemoteServiceError(f"none of the {unusable} images the Mapillary API listed is usable (see the "
                                 f"warnings) — check the API URL {getattr(client, 'base_url', '')}: its "
                                 "answers do not look like the Mapillary Graph API's")
    return totals


def _candidate(sid: str, record, path=None, status="fetched", tier=None, reason=None, measures=None) -> dict:
    return {"segment_id": sid, "image_id": record.image_id, "lon": record.lon, "lat": record.lat,
            "captured_at_ms": record.captured_at_ms, "compass_angle": record.compass_angle,
            "sequence": record.sequence, "image_path": str(path) if path else None, "status": status,
            "tier": tier, "reason": reason, "record": asdict(record), "measures": measures or {}}


def _ruled_out(line, records, rules) -> dict:
    """Curation tiers 1–3 of ``records`` (:func:`.metadata.metadata_verdict`): the failures,
    by image id; nothing when ``rules`` is None."""
    if rules is None:
        return {}
    geometry, out = SegmentGeometry(line), {}
    for r in records:
        verdict = metadata_verdict(geometry, r.lon, r.lat, r.is_pano, r.camera_type, r.captured_at_ms, rules)
        if verdict.tier is not None:
            out[r.image_id] = verdict
    return out


def _fetch_segments(store: BenchmarkStore, client, lines: dict, reach_m: float, step_m: float,
                    rules, progress: Progress) -> dict:
    folder = store.root / "mapillary" / "images"
    totals = {"segments": 0, "images": 0, "downloaded": 0, "from_cache": 0, "failed": 0, "not_downloaded": 0}
    kinds: Counter = Counter()
    empty, repaired, examples = [], [], {}
    ordered = sorted(lines.items())
    for i, (sid, line) in enumerate(ordered):
        check_cancel(progress, "fetching Mapillary images")
        part = SubProgress(progress, 100.0 * i / len(lines), 100.0 * (i + 1) / len(lines))
        records = client.images_along(line, buffer_m=reach_m, step_m=step_m,
                                      progress=SubProgress(part, 0, 30), segment_id=sid)
        ruled_out = _ruled_out(line, records, rules)
        wanted = [r for r in records if r.image_id not in ruled_out]
        result = client.download(wanted, folder, progress=SubProgress(part, 30, 100))
        rows = []
        for r in records:
            path, verdict = result.paths.get(r.image_id), ruled_out.get(r.image_id)
            if verdict is not None:
                rows.append(_candidate(sid, r, status="rejected", tier=verdict.tier,
                                       reason=f"{verdict.reason} (tier {verdict.tier}: not downloaded)",
                                       measures=dict(verdict.measures, along_m=verdict.along_m)))
            else:
                rows.append(_candidate(sid, r, path, "fetched" if path else "download_failed",
                                       reason=result.failed.get(r.image_id)))
        store.put_candidates(rows)
        progress.info(f"{sid}: {len(records)} images ({len(ruled_out)} ruled out by tiers 1–3 before any "
                      f"download, {result.downloaded} downloaded, {result.from_cache} cached, "
                      f"{len(result.failed)} failed)")
        totals["segments"] += 1
        totals["images"] += len(records)
        totals["not_downloaded"] += len(ruled_out)
        totals["downloaded"] += result.downloaded
        totals["from_cache"] += result.from_cache
        totals["failed"] += len(result.failed)
        repaired += [str(image_path(folder, image_id)) for image_id in getattr(result, "repaired", ())]
        for image_id, kind in getattr(result, "failed_kinds", {}).items():
            if kind != "skipped":
                kinds[kind] += 1
                examples.setdefault(kind, f"image {image_id}: {result.failed[image_id]}")
        if wanted and not result.paths:
            empty.append(f"{sid} ({len(wanted)} candidates)")
        stopped = getattr(result, "stopped", None)
        if stopped:
            raise RemoteServiceError(_stopped_message(stopped, empty, [s for s, _ in ordered[i + 1:]]))
    if repaired:
        progress.warning(f"{len(repaired)} damaged or incomplete image file(s) in the cache were "
                         f"deleted and downloaded again: {', '.join(repaired[:5])}"
                         f"{' …' if len(repaired) > 5 else ''}")
    cause = kinds.most_common(1)[0][0] if kinds else None
    if empty:
        raise RemoteServiceError(f"no image could be downloaded for {_names(empty)}: {advice(cause)} "
                                 f"(e.g. {examples.get(cause, 'no reason recorded')}) — {RERUN}")
    if totals["failed"]:
        progress.warning(f"{totals['failed']} of {totals['images']} images could not be downloaded: "
                         f"{advice(cause)} (e.g. {examples.get(cause, 'no reason recorded')}). The "
                         "curation uses the images that were downloaded; run the fetch again to "
                         "retry the others")
    return totals


def _names(items: list[str], most: int = 8) -> str:
    shown = ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")
    return f"{len(items)} segment(s): {shown}"


def _stopped_message(stopped: str, empty: list[str], not_fetched: list[str]) -> str:
    parts = [f"Mapillary image downloads stopped — {stopped}."]
    if empty:
        parts.append(f"No image could be downloaded for {_names(empty)}.")
    if not_fetched:
        parts.append(f"Not fetched yet: {_names(not_fetched)}.")
    parts.append(RERUN[0].upper() + RERUN[1:] + ".")
    return " ".join(parts)


def curate_store(store: BenchmarkStore, options=None, audit_csv: str | Path | None = None,
                 urban_scorer=None, ratio_model=None, progress: Progress | None = None):
    """Curate every fetched candidate; kept images become the segments' reference panels."""
    from geofidelity_plugin.core.reference_panels.curation.curate import CurationOptions, curate

    options = options or CurationOptions()
    options.validate()  # every check before the audit CSV changes the store
    progress = progress or NullProgress()
    audit_rows = read_audit_csv(audit_csv) if audit_csv else []
    lines = _segment_lines(store)
    fetched = [c for c in store.candidates() if c["status"] != "download_failed"]
    if not fetched:
        raise InputError(f"the benchmark store {store.path} has no fetched images — run "
                         "fetch-mapillary ('Fetch Mapillary images' in QGIS) first")
    check_thumbnails(store, [c for c in fetched if c["image_path"]], progress)
    unknown = [image_id for image_id, decision, segment_id in audit_rows
               if store.set_candidate_audit(image_id, decision, segment_id) == 0]
    if unknown:
        progress.warning(f"audit CSV {audit_csv}: {len(unknown)} image(s) are not fetched candidates of "
                         f"this store: {', '.join(unknown[:5])}{' …' if len(unknown) > 5 else ''}")
    candidates = [c for c in store.candidates() if c["status"] != "download_failed"]
    records = [dict(c["record"], image_id=c["image_id"], segment_id=c["segment_id"]) for c in candidates]
    paths = {c["image_id"]: Path(c["abs_path"]) for c in candidates if c["abs_path"]}
    audit = {c["image_id"]: c["audit"] for c in candidates if c["audit"]}
    result = curate(records, lines, paths, options, audit, urban_scorer, ratio_model, progress)
    _warn_not_downloaded(store, result, paths, progress)
    by_key = {(c["segment_id"], c["image_id"]): c for c in candidates}
    updates, kept = [], {}
    for row in result.rows:
        c = by_key[(row.segment_id, row.image_id)]
        updates.append({**c, "status": row.status, "tier": row.tier, "reason": row.reason,
                        "measures": row.as_dict(), "audit": c["audit"]})
        if row.status == "kept":
            kept.setdefault(row.segment_id, []).append(
                {"reference_id": f"{row.segment_id}:{row.image_id}", "segment_id": row.segment_id,
                 "image_id": row.image_id, "image_path": c["abs_path"], "lon": c["lon"], "lat": c["lat"],
                 "captured_at_ms": c["captured_at_ms"], "audit": c["audit"], "note": "mapillary"})
    from geofidelity_plugin.core.reference_panels.curation.panels_update import write_panels

    write_panels(store, result, kept, updates, lines, getattr(options, "allow_removal", False), progress)
    return result


def _warn_not_downloaded(store: BenchmarkStore, result, paths: dict, progress: Progress) -> None:
    """Images that pass tiers 1–3 under the curation's options but that the fetch, with
    stricter ones, ruled out and never downloaded: they fail the first pixel tier, so say how
    to get them."""
    missed = [r for r in result.rows if all(r.tiers.get(t) == "pass" for t in (1, 2, 3))
              and r.image_id not in paths]
    fetch = store.meta("fetch_options") or {}
    if not missed or not fetch.get("prefilter"):
        return
    o = result.options
    progress.warning(f"{len(missed)} image(s) pass tiers 1–3 with these options but were not downloaded: the fetch "
                     f"ruled them out with its own (buffer {fetch.get('buffer_m')} m, solar elevation ≥ "
                     f"{fetch.get('solar_min_deg')}°), e.g. {missed[0].image_id} — run fetch-mapillary again with "
                     f"--buffer {o['buffer_m']:g} --solar-min {o['solar_min_deg']:g} (it downloads only those), "
                     "then curate again")


def check_thumbnails(store: BenchmarkStore, fetched: list[dict], progress: Progress) -> None:
    """The fetched images must still be in the image cache: when none is (the cache was deleted,
    the store was moved without its ``mapillary`` folder) curation would reject every image as
    unreadable, so it stops; when some are missing, one warning says how many."""
    missing = [c for c in fetched if not c["abs_path"] or not Path(c["abs_path"]).is_file()]
    if not missing:
        return
    folder = store.root / "mapillary" / "images"
    again = "run fetch-mapillary ('Fetch Mapillary images' in QGIS) again: it downloads them again"
    if len(missing) == len(fetched):
        raise InputError(f"none of the {len(fetched)} fetched images of the benchmark store {store.path} "
                         f"is in its image cache {folder} (e.g. {missing[0]['abs_path']}) — the cache was "
                         f"deleted or the store was moved without its 'mapillary' folder; {again}")
    progress.warning(f"{len(missing)} of {len(fetched)} fetched images are missing from the image cache "
                     f"{folder} (e.g. {missing[0]['abs_path']}); they are rejected as unreadable — "
                     f"{again}")


def coverage_store(store: BenchmarkStore, radius_m: float = 30.0, progress: Progress | None = None
                   ) -> list[SegmentCoverage]:
    """Coverage of every segment from its curated (or, for stand-ins, stored) candidates."""
    check_coverage_numbers(radius_m)
    lines = _segment_lines(store)
    rows_by_segment: dict[str, list[dict]] = {}
    for c in store.candidates():
        rows_by_segment.setdefault(c["segment_id"], []).append(c)
    out = []
    for i, (sid, line) in enumerate(sorted(lines.items())):
        check_cancel(progress, "coverage audit")
        out.append(segment_coverage(sid, line, rows_by_segment.get(sid, []), radius_m))
        if progress is not None:
            progress.set_progress(100.0 * (i + 1) / len(lines))
    return out


# -- one run of each step, as the command line, QGIS and a notebook make it --------------------
# Each checks every input and output path before the store is opened or a request is sent,
# writes its layers and its run manifest (manifests.py), and returns what the caller reports.
# ``recorded``: the options as the command's specification records them (spec.options.recorded).

@dataclass
class FetchRun:
    totals: dict
    out: Path | None
    manifest: Path | None
    api_requests: int
    image_requests: int


def run_fetch(store_path, segments=None, out=None, *, buffer_m: float = FETCH_BUFFER_M,
              tile_step_m: float = FETCH_TILE_STEP_M, workers: int = FETCH_WORKERS,
              requests_per_second: float = FETCH_REQUESTS_PER_SECOND, timeout_s: float = FETCH_TIMEOUT_S,
              search_pad_m: float = FETCH_SEARCH_PAD_M, prefilter: bool = True,
              solar_min_deg: float = CurationOptions.solar_min_deg, refresh_batch: int = FETCH_REFRESH_BATCH,
              base_url: str | None = None, progress: Progress | None = None, recorded: dict | None = None,
              only_segments=None) -> FetchRun:
    """Fetch the images along every segment of the store at ``store_path`` (created from
    ``segments`` when given; ``only_segments``: those segments only, :mod:`..segment_subset`), write
    the image points ``out`` (of those segments) and its run manifest. The token comes from
    ``MAPILLARY_ACCESS_TOKEN``."""
    from ..segment_subset import parse_only_segments, recorded as recorded_subset
    from ..evaluation.store_steps import load_segments_gpkg
    from ..output_paths import check_output_file
    from .curation.layers import write_images_gpkg
    from .inputs import check_client_numbers, read_segments_checked
    from .manifests import manifest_path, write_fetch_manifest
    from .mapillary.client import DEFAULT_BASE_URL, MapillaryClient, token_from_env

    check_search_numbers(buffer_m, tile_step_m, search_pad_m, solar_min_deg)
    check_client_numbers(workers, requests_per_second, timeout_s, refresh_batch)
    only = parse_only_segments(only_segments)
    inputs = {"the benchmark store (--store)": store_path, "the segments GeoPackage (--segments)": segments}
    out = check_output_file(out, "image points GeoPackage", inputs=inputs, writes="image_points") if out else None
    manifest = check_output_file(manifest_path(out), "fetch run manifest", inputs=inputs) if out else None
    token = token_from_env()
    check_store_has_a_source(store_path, segments)
    rows = read_segments_checked(segments) if segments else None
    options = {**(recorded or {}), "buffer_m": buffer_m, "tile_step_m": tile_step_m, "search_pad_m": search_pad_m,
               "prefilter_tiers_1_to_3": prefilter, "solar_min_deg": solar_min_deg, "refresh_batch": refresh_batch,
               "workers": workers, "requests_per_second": requests_per_second, "timeout_s": timeout_s,
               "only_segments": recorded_subset(only)}
    client = MapillaryClient(token, base_url=base_url or DEFAULT_BASE_URL, max_workers=workers,
                             requests_per_second=requests_per_second, timeout_s=timeout_s,
                             refresh_batch=int(refresh_batch))
    with client, BenchmarkStore(store_path, writer=True, warn=progress.warning if progress else None) as store:
        if rows:
            load_segments_gpkg(store, rows)
        client.cache_dir = store.root / "mapillary"
        totals = fetch_store(store, client, buffer_m, tile_step_m, progress, search_pad_m=search_pad_m,
                             prefilter=prefilter, solar_min_deg=solar_min_deg, only=only)
        if out:
            write_images_gpkg(out, [c for c in store.candidates() if only is None or c["segment_id"] in only])
            write_fetch_manifest(manifest, store, options, totals, client, out)
    return FetchRun(totals, out, manifest, client.api_requests, client.image_requests)


@dataclass
class CurationRun:
    result: object  # curate_store's result
    out: Path | None
    manifest: Path | None


def run_curation(store_path, options: CurationOptions, audit_csv=None, out=None, progress: Progress | None = None,
                 recorded: dict | None = None) -> CurationRun:
    """Curate the store at ``store_path`` (tiers 1–8 and the cap), write the curated image points
    ``out`` and its run manifest."""
    from dataclasses import replace

    from ..output_paths import check_output_file
    from ..vision.devices import check_device
    from .curation.layers import write_images_gpkg
    from .manifests import manifest_path, write_curation_manifest

    options = replace(options, device=check_device(options.device))
    options.validate()
    inputs = {"the benchmark store (--store)": store_path, "the audit CSV (--audit-csv)": audit_csv}
    out = check_output_file(out, "curated image points GeoPackage", inputs=inputs,
                            writes="image_points") if out else None
    manifest = check_output_file(manifest_path(out), "curation run manifest", inputs=inputs) if out else None
    if audit_csv:
        read_audit_csv(audit_csv)  # a bad audit CSV fails before the store is touched
    with BenchmarkStore(store_path, create=False, writer=True, warn=progress.warning if progress else None) as store:
        result = curate_store(store, options, audit_csv, progress=progress)
        if out:
            write_images_gpkg(out, store.candidates())
            write_curation_manifest(manifest, store, {**(recorded or {}), **options.as_dict()}, result, out,
                                    audit_csv)
    return CurationRun(result, out, manifest)


@dataclass
class CoverageRun:
    audit: object  # coverage.audit.CoverageAudit
    out: Path
    cities_csv: Path
    manifest: Path


def run_coverage(store_path, out, radius_m: float = COVERAGE_RADIUS_M, gap_radius_m: float = COVERAGE_GAP_RADIUS_M,
                 progress: Progress | None = None, recorded: dict | None = None) -> CoverageRun:
    """Audit the coverage of every segment of the store at ``store_path``: the coverage
    GeoPackage ``out``, the city summary CSV and the run manifest beside it."""
    from ..output_paths import check_output_file
    from .coverage.audit import audit_store
    from .coverage.layers import cities_csv_path, write_coverage_outputs
    from .manifests import manifest_path, write_coverage_manifest

    check_coverage_numbers(radius_m, gap_radius_m)
    inputs = {"the benchmark store (--store)": store_path}
    out = check_output_file(out, "coverage GeoPackage", inputs=inputs, writes="coverage")
    check_output_file(cities_csv_path(out), "coverage city summary CSV", inputs=inputs)
    manifest = check_output_file(manifest_path(out), "coverage run manifest", inputs=inputs)
    progress = progress or NullProgress()
    with BenchmarkStore(store_path, create=False) as store:
        audit = audit_store(store, radius_m, gap_radius_m, progress)
        _, csv_path = write_coverage_outputs(out, audit)
        write_coverage_manifest(manifest, store, {**(recorded or {}), "radius_m": radius_m,
                                                  "gap_radius_m": gap_radius_m}, audit, out, csv_path)
    for note in audit.notes:
        progress.warning(note)
    return CoverageRun(audit, out, csv_path, manifest)
