"""Coverage audit of reference panels along each segment (issue: audit coverage on the map):
images kept and rejected per tier, distinct sequences, capture-year span, and the stretches of
the segment with no kept image within ``radius_m`` (default 30 m, the road buffer) — returned
as lines so they can be drawn in red.

The line is sampled every ``step_m`` metres in a local metric frame; a sample is covered when a
kept image lies within ``radius_m`` of it (a k-d tree query); gaps are maximal runs of
uncovered samples.

What the cap cost: the longest stretch of the segment without an image (images projected onto
the line, :func:`.cap.longest_stretch`) among the images that passed every tier — before the
cap — and among the kept ones — after it. Images whose tiers 4–7 were not scored (lazy
curation) count in neither, so "before" is then an upper bound; ``images_not_scored`` says how
many there were.
"""
from __future__ import annotations

import datetime as _dt
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from scipy.spatial import cKDTree
from shapely.geometry import LineString
from shapely.ops import substring

from ..selection.geodesy import LocalFrame
from .cap import longest_stretch
from .metadata import SegmentGeometry, valid_position


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
    gaps: list[LineString] = field(default_factory=list)  # lon/lat
    stretch_before_cap_m: float = 0.0
    stretch_after_cap_m: float = 0.0
    images_not_scored: int = 0

    def attributes(self) -> dict:
        out = {"segment_id": self.segment_id, "length_m": round(self.length_m, 1),
               "images_kept": self.images_kept, "images_rejected": self.images_rejected,
               "images_capped": self.images_capped, "sequences": self.sequences,
               "year_min": self.year_min, "year_max": self.year_max,
               "year_span": (self.year_max - self.year_min + 1) if self.year_min is not None else 0,
               "longest_gap_m": round(float(self.longest_gap_m), 1),
               "uncovered_fraction": round(float(self.uncovered_fraction), 4),
               "stretch_before_cap_m": round(float(self.stretch_before_cap_m), 1),
               "stretch_after_cap_m": round(float(self.stretch_after_cap_m), 1),
               "images_not_scored": self.images_not_scored}
        for tier in range(1, 9):
            out[f"rejected_tier{tier}"] = self.rejected_by_tier.get(tier, 0)
        return out


def _year(ms) -> int | None:
    if ms is None:
        return None
    return _dt.datetime.fromtimestamp(int(ms) / 1000, tz=_dt.timezone.utc).year


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


def segment_coverage(segment_id: str, line_lonlat: LineString, rows: list[dict], radius_m: float = 30.0,
                     step_m: float = 1.0) -> SegmentCoverage:
    """``rows``: curation rows of this segment with ``status``, ``tier``, ``lon``, ``lat``,
    ``sequence``, ``captured_at_ms`` and (from curation) ``measures``."""
    c = line_lonlat.centroid
    frame = LocalFrame(c.x, c.y)
    line = frame.line_to_metric(list(line_lonlat.coords))
    kept = [r for r in rows if r.get("status") == "kept"]
    rejected = [r for r in rows if r.get("status") == "rejected"]
    n = max(2, int(np.ceil(line.length / step_m)) + 1)
    distances = np.linspace(0.0, line.length, n)
    samples = np.array([line.interpolate(d).coords[0] for d in distances])
    if kept:
        xy = np.column_stack(frame.to_metric(np.array([r["lon"] for r in kept]), np.array([r["lat"] for r in kept])))
        nearest, _ = cKDTree(xy).query(samples, k=1)
        covered = nearest <= radius_m
    else:
        covered = np.zeros(n, dtype=bool)
    gaps, longest, uncovered = [], 0.0, 0.0
    i = 0
    while i < n:
        if covered[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and not covered[j + 1]:
            j += 1
        start, end = distances[max(i - 1, 0)] if i > 0 else 0.0, distances[min(j + 1, n - 1)] if j < n - 1 else line.length
        gap_len = end - start
        uncovered += gap_len
        longest = max(longest, gap_len)
        if gap_len > 0:
            gaps.append(frame.geometry_to_lonlat(substring(line, start, end)))
        i = j + 1
    years = [y for y in (_year(r.get("captured_at_ms")) for r in kept) if y is not None]
    before, after = cap_stretches(line_lonlat, rows)
    return SegmentCoverage(
        segment_id, line.length, len(kept), len(rejected),
        dict(Counter(int(r["tier"]) for r in rejected if r.get("tier") is not None)),
        sum(1 for r in rows if r.get("status") == "capped"),
        len({r.get("sequence") for r in kept if r.get("sequence")}),
        min(years) if years else None, max(years) if years else None, longest,
        min(1.0, uncovered / line.length) if line.length else 1.0, gaps, before, after,
        sum(1 for r in rows if not _scored(r)))
