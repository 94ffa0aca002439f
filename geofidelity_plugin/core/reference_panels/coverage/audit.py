"""The coverage audit of a whole store (method §2, "coverage audit"): every segment's coverage
(:mod:`.coverage`), every image with its curation status, and the city summary.

Images come from the store's candidates (Mapillary images, with their curation status: kept,
rejected, capped — or fetched when curation has not run) and from its imported reference images
that have no candidate (status ``reference``; ``rejected`` when the manual audit rejected
them). The creator is the Mapillary API's ``creator`` field when the fetch asked for it
(:func:`..attribution.creator_name`).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from shapely import wkt

from geofidelity_plugin.core.attribution import creator_name
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.store.store import BenchmarkStore
from geofidelity_plugin.core.reference_panels.coverage.segment_coverage import (GAP_RADIUS_M, SegmentCoverage, segment_coverage)
from geofidelity_plugin.core.reference_panels.coverage.dates import iso_day
from geofidelity_plugin.core.reference_panels.curation.metadata_tiers import valid_position

#: a gap longer than this (m) is flagged in the city summary
LONG_GAP_M = 100.0
LOAD_SEGMENTS = ("give the segments GeoPackage of select-segments to fetch-mapillary (--segments) or to "
                 "'Fetch Mapillary images' in QGIS first")


@dataclass
class CoverageAudit:
    """What the coverage audit writes: per segment, per image, per city."""

    coverage: list[SegmentCoverage]
    images: list[dict]
    cities: list[dict]
    segments: list[dict]
    radius_m: float
    gap_radius_m: float
    stand_in: str | None = None
    without_position: int = 0
    notes: list[str] = field(default_factory=list)


def image_rows(store: BenchmarkStore) -> list[dict]:
    """One row per (segment, image): candidates, then reference images without a candidate."""
    rows = []
    seen = set()
    for c in store.candidates():
        seen.add((c["segment_id"], str(c["image_id"])))
        rows.append({"segment_id": c["segment_id"], "image_id": str(c["image_id"]), "status": c.get("status"),
                     "reason": c.get("reason"), "tier": c.get("tier"), "sequence": c.get("sequence"),
                     "captured_at_ms": c.get("captured_at_ms"), "captured_at": iso_day(c.get("captured_at_ms")),
                     "creator": creator_name((c.get("record") or {}).get("creator")),
                     "lon": c.get("lon"), "lat": c.get("lat"), "measures": c.get("measures") or {}})
    for sid, refs in store.reference_panels(include_rejected=True).items():
        for r in refs:
            image_id = str(r.get("image_id") or r["reference_id"])
            if (sid, image_id) in seen:
                continue
            rejected = r.get("audit") == "reject"
            rows.append({"segment_id": sid, "image_id": image_id,
                         "status": "rejected" if rejected else "reference",
                         "reason": "manual audit: reject" if rejected else "imported reference image",
                         "tier": 8 if rejected else None, "sequence": None,
                         "captured_at_ms": r.get("captured_at_ms"), "captured_at": iso_day(r.get("captured_at_ms")),
                         "creator": None, "lon": r.get("lon"), "lat": r.get("lat"), "measures": {}})
    return rows


def city_summary(coverage: list[SegmentCoverage], segments: list[dict]) -> list[dict]:
    """One row per city: segments, km, images, images per km, the median share uncovered
    within the gap radius, segments with a gap over :data:`LONG_GAP_M`, and the date span."""
    city_of = {s["segment_id"]: s.get("city") or "" for s in segments}
    by_city: dict[str, list[SegmentCoverage]] = {}
    for c in coverage:
        by_city.setdefault(city_of.get(c.segment_id, ""), []).append(c)
    out = []
    for city, items in sorted(by_city.items()):
        km = sum(c.length_m for c in items) / 1000.0
        images = sum(c.images for c in items)
        firsts = [c.date_first for c in items if c.date_first]
        lasts = [c.date_last for c in items if c.date_last]
        first, last = (min(firsts), max(lasts)) if firsts else (None, None)
        span = 0
        if first:
            from datetime import date

            span = (date.fromisoformat(last) - date.fromisoformat(first)).days
        out.append({"city": city, "segments": len(items), "km": round(km, 3), "images": images,
                    "images_per_km": round(images / km, 2) if km else 0.0,
                    "median_share_uncovered_20m": round(statistics.median(c.share_uncovered_20m for c in items), 4),
                    "segments_gap_over_100m": sum(1 for c in items if c.longest_gap_m > LONG_GAP_M),
                    "date_first": first, "date_last": last, "date_span_days": span})
    return out


def audit_store(store: BenchmarkStore, radius_m: float = 30.0, gap_radius_m: float = GAP_RADIUS_M,
                progress: Progress | None = None) -> CoverageAudit:
    """Coverage of every segment of the store, its image rows and its city summary."""
    segments = [s for s in store.segments() if s.get("geometry_wkt")]
    if not segments:
        raise InputError(f"the benchmark store {store.path} has no segments with a geometry — {LOAD_SEGMENTS}")
    images = image_rows(store)
    by_segment: dict[str, list[dict]] = {}
    for row in images:
        by_segment.setdefault(row["segment_id"], []).append(row)
    coverage = []
    for i, s in enumerate(segments):
        check_cancel(progress, "coverage audit")
        coverage.append(segment_coverage(s["segment_id"], wkt.loads(s["geometry_wkt"]),
                                         by_segment.get(s["segment_id"], []), radius_m, gap_radius_m))
        if progress is not None:
            progress.set_progress(100.0 * (i + 1) / len(segments))
    known = {s["segment_id"] for s in segments}
    without = sum(1 for r in images if not valid_position(r.get("lon"), r.get("lat")))
    notes = []
    if without:
        notes.append(f"{without} image(s) have no position: counted, but not drawn and covering nothing")
    orphans = sum(1 for r in images if r["segment_id"] not in known)
    if orphans:
        notes.append(f"{orphans} image(s) belong to segments without a geometry: left out")
    return CoverageAudit(coverage, [r for r in images if r["segment_id"] in known], city_summary(coverage, segments),
                         segments, radius_m, gap_radius_m, store.meta("stand_in"), without, notes)
