"""Coverage audit of reference panels along each segment (method §2, "coverage audit"): images
kept and rejected per tier, images per km, distinct sequences, capture dates (first, last, span,
histogram — :mod:`.coverage_dates`), and the stretches of the segment with no image near it.

Two radii, both in metres from the line:

- ``radius_m`` (default 30 m, the road buffer): ``uncovered_fraction``, the share of the
  segment with no kept image within it — the figure of earlier runs, kept as it was;
- ``gap_radius_m`` (default 20 m, ``--gap-radius``): the **gaps** — ``coverage_gaps`` lines,
  their ``gap_length_m``, ``longest_gap_m`` and ``share_uncovered_20m`` (the field keeps its
  name whatever the radius; the run manifest records the radius used).

Coverage is computed exactly, not by sampling: in the segment's local metric frame each image
covers, on each straight leg of the line, the interval of positions within the radius of it
(where the leg crosses the image's disc); the union of these intervals is the covered part and
its complement the gaps, as arc-length intervals ``[start_m, end_m]`` along the line.

The images that cover are the kept candidates, plus the imported reference images of the store
that have no candidate (``status = "reference"``) and were not rejected in the audit.

What the cap cost: the longest stretch of the segment without an image (images projected onto
the line, :func:`.cap.longest_stretch`) among the images that passed every tier — before the
cap — and among the kept ones — after it. Images whose tiers 4–7 were not scored (lazy
curation) count in neither, so "before" is then an upper bound; ``images_not_scored`` says how
many there were.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import LineString
from shapely.ops import substring

from geofidelity_plugin.core.selection.geodesy import LocalFrame
from geofidelity_plugin.core.reference_panels.curation.cap import longest_stretch
from geofidelity_plugin.core.reference_panels.coverage.dates import (date_span, day_of, histogram, histogram_text, histogram_unit)
from geofidelity_plugin.core.reference_panels.curation.metadata_tiers import SegmentGeometry, valid_position
from geofidelity_plugin.core.reference_panels.options import COVERAGE_GAP_RADIUS_M as GAP_RADIUS_M

#: statuses whose images cover the segment
COVERING = ("kept", "reference")


@dataclass
class SegmentCoverage:
    segment_id: str
    length_m: float
    images_kept: int
    images_rejected: int
    rejected_by_tier: dict[int, int]
    images_capped: int
    sequences: int
    year_min: int | None
    year_max: int | None
    longest_gap_m: float
    uncovered_fraction: float
    gaps: list[LineString] = field(default_factory=list)  # lon/lat, at gap_radius_m
    stretch_before_cap_m: float = 0.0
    stretch_after_cap_m: float = 0.0
    images_not_scored: int = 0
    images_reference: int = 0
    gap_lengths_m: list[float] = field(default_factory=list)  # one per gap, same order
    share_uncovered_20m: float = 1.0
    gap_radius_m: float = GAP_RADIUS_M
    date_first: str | None = None
    date_last: str | None = None
    date_span_days: int = 0
    date_unit: str = "year"
    date_histogram: dict[str, int] = field(default_factory=dict)

    @property
    def images(self) -> int:
        """Images covering the segment: kept candidates and reference-only images."""
        return self.images_kept + self.images_reference

    @property
    def images_per_km(self) -> float:
        return self.images / (self.length_m / 1000.0) if self.length_m > 0 else 0.0

    def attributes(self) -> dict:
        out = {"segment_id": self.segment_id, "length_m": round(self.length_m, 1),
               "images_kept": self.images_kept, "images_reference": self.images_reference,
               "images_rejected": self.images_rejected, "images_capped": self.images_capped,
               "images_per_km": round(self.images_per_km, 2), "sequences": self.sequences,
               "year_min": self.year_min, "year_max": self.year_max,
               "year_span": (self.year_max - self.year_min + 1) if self.year_min is not None else 0,
               "date_first": self.date_first, "date_last": self.date_last,
               "date_span_days": self.date_span_days, "date_unit": self.date_unit,
               "date_histogram": histogram_text(self.date_histogram),
               "longest_gap_m": round(float(self.longest_gap_m), 1),
               "share_uncovered_20m": round(float(self.share_uncovered_20m), 4),
               "gaps": len(self.gaps),
               "uncovered_fraction": round(float(self.uncovered_fraction), 4),
               "stretch_before_cap_m": round(float(self.stretch_before_cap_m), 1),
               "stretch_after_cap_m": round(float(self.stretch_after_cap_m), 1),
               "images_not_scored": self.images_not_scored}
        for tier in range(1, 9):
            out[f"rejected_tier{tier}"] = self.rejected_by_tier.get(tier, 0)
        return out


def _scored(row: dict) -> bool:
    return bool((row.get("measures") or {}).get("scored", True))


def cap_stretches(line_lonlat, rows: list[dict]) -> tuple[float, float]:
    """Longest stretch without an image before the cap (kept, or capped after scoring) and
    after it (kept)."""
    geometry = SegmentGeometry(line_lonlat)
    along = {id(r): geometry.locate(r["lon"], r["lat"])[1] for r in rows
             if valid_position(r.get("lon"), r.get("lat"))}
    before = [along[id(r)] for r in rows if id(r) in along and (
        r.get("status") == "kept" or (r.get("status") == "capped" and _scored(r)))]
    after = [along[id(r)] for r in rows if id(r) in along and r.get("status") == "kept"]
    return longest_stretch(before, geometry.length_m), longest_stretch(after, geometry.length_m)


def covered_intervals(line: LineString, points: np.ndarray, radius_m: float) -> list[tuple[float, float]]:
    """Merged ``[start, end]`` arc-length intervals of a metric ``line`` lying within
    ``radius_m`` of any of ``points`` (an ``(n, 2)`` array in the same frame)."""
    coords = np.asarray(line.coords, dtype=float)[:, :2]
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    pieces: list[tuple[float, float]] = []
    offset = 0.0
    for a, b in zip(coords[:-1], coords[1:]):
        leg = float(np.hypot(*(b - a)))
        if leg > 0 and len(points):
            d = points - a
            t = d @ ((b - a) / leg)  # position of each image's foot along the leg
            half2 = radius_m ** 2 - (np.einsum("ij,ij->i", d, d) - t ** 2)  # half chord², where the disc crosses
            hit = half2 > 0
            half = np.sqrt(half2[hit])
            lo, hi = np.clip(t[hit] - half, 0.0, leg), np.clip(t[hit] + half, 0.0, leg)
            pieces += [(offset + s, offset + e) for s, e in zip(lo, hi) if e > s]
        offset += leg
    merged: list[list[float]] = []
    for s, e in sorted(pieces):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [(s, e) for s, e in merged]


def uncovered_intervals(length_m: float, covered: list[tuple[float, float]],
                        min_length_m: float = 1e-6) -> list[tuple[float, float]]:
    """The complement of ``covered`` in ``[0, length_m]``, leaving out slivers."""
    out, at = [], 0.0
    for s, e in covered:
        if s - at > min_length_m:
            out.append((at, s))
        at = max(at, e)
    if length_m - at > min_length_m:
        out.append((at, length_m))
    return out


def _covering_xy(frame: LocalFrame, rows: list[dict]) -> np.ndarray:
    usable = [r for r in rows if valid_position(r.get("lon"), r.get("lat"))]
    if not usable:
        return np.zeros((0, 2))
    x, y = frame.to_metric(np.array([r["lon"] for r in usable], dtype=float),
                           np.array([r["lat"] for r in usable], dtype=float))
    return np.column_stack([x, y])


def segment_coverage(segment_id: str, line_lonlat: LineString, rows: list[dict], radius_m: float = 30.0,
                     gap_radius_m: float = GAP_RADIUS_M) -> SegmentCoverage:
    """``rows``: the segment's images with ``status`` (kept / rejected / capped / fetched from
    curation, or ``reference``), ``tier``, ``lon``, ``lat``, ``sequence``, ``captured_at_ms``
    and (from curation) ``measures``."""
    c = line_lonlat.centroid
    frame = LocalFrame(c.x, c.y)
    line = frame.line_to_metric(list(line_lonlat.coords))
    length = float(line.length)
    covering = [r for r in rows if r.get("status") in COVERING]
    rejected = [r for r in rows if r.get("status") == "rejected"]
    xy = _covering_xy(frame, covering)
    wide = uncovered_intervals(length, covered_intervals(line, xy, radius_m))
    narrow = uncovered_intervals(length, covered_intervals(line, xy, gap_radius_m))
    gap_lengths = [e - s for s, e in narrow]
    days = [d for d in (day_of(r.get("captured_at_ms")) for r in covering) if d is not None]
    first, last, span = date_span(days)
    unit = histogram_unit(days)
    before, after = cap_stretches(line_lonlat, rows)
    share = (lambda gaps: min(1.0, sum(e - s for s, e in gaps) / length) if length else 1.0)
    return SegmentCoverage(
        segment_id, length, sum(1 for r in covering if r.get("status") == "kept"), len(rejected),
        dict(Counter(int(r["tier"]) for r in rejected if r.get("tier") is not None)),
        sum(1 for r in rows if r.get("status") == "capped"),
        len({r.get("sequence") for r in covering if r.get("sequence")}),
        min(days).year if days else None, max(days).year if days else None,
        max(gap_lengths, default=0.0), share(wide),
        [frame.geometry_to_lonlat(substring(line, s, e)) for s, e in narrow], before, after,
        sum(1 for r in rows if not _scored(r)),
        images_reference=sum(1 for r in covering if r.get("status") == "reference"),
        gap_lengths_m=gap_lengths, share_uncovered_20m=share(narrow), gap_radius_m=gap_radius_m,
        date_first=first, date_last=last, date_span_days=span, date_unit=unit,
        date_histogram=histogram(days, unit))
