"""Curation of Mapillary reference panels (method §2 "Filters, in this order, each recording a
reject reason per image", then the cap per segment).

Tiers, in order; an image is reported at the *first* tier it fails: 1 buffer (metres from the
segment line, in a local azimuthal-equidistant frame); 2 not panoramic (``is_pano`` false and
``camera_type`` in ``perspective_camera_types``; fisheye, equirectangular, spherical and unknown
types fail); 3 daytime (:mod:`.solar`); 4 SigLIP urban scene (:mod:`.urban`); 5 Vistas ratio
rules over the method §5 attributes; 6 quality (:mod:`.quality`); 7 duplicates
(:mod:`.dedup`); 8 manual audit.

Decisions:

- Tiers 1–3 need no pixels (:mod:`.metadata`) and run on every image first; the fetch runs them
  too, before any download.
- Tiers 4 and 5 need a model (:mod:`.model_tiers`). When it cannot be loaded (or its option is
  empty) the tier is recorded as ``skipped`` on every image that reached it and a note says why;
  it never passes silently. An image whose file is missing or unreadable fails the first pixel
  tier that runs.
- Audit flags (``{image_id: 'accept'|'reject'}``): ``reject`` removes an image at tier 8.
  ``accept`` overrides failures of tiers 4–7 (model and quality judgements, which a person can
  overrule by looking) but not of tiers 1–3, which are facts of place, camera and time. An
  accepted image goes on through tiers 4–7 so that every measure is still recorded; its failed
  tiers read ``overridden``. Rejected-flagged images take no part in tier 7, so they never
  suppress a duplicate that would otherwise survive.
- Tier 7 keeps, per perceptual-hash cluster, the accepted image if any, else the sharpest
  (largest Laplacian variance), then the earliest, then the smallest id.
- Cap (``cap_per_segment``): accepted images first, then the ``cap_spread`` rule (:mod:`.cap`),
  seeded by ``seed`` and the segment id only. Under the ``along`` rule tiers 4–7 are scored
  lazily (:mod:`.lazy`): images that can no longer change which images are kept are not
  scored; ``score_all`` scores every image.
"""
from __future__ import annotations

import logging
import zlib
from pathlib import Path
from typing import Mapping, Optional

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.vision.images import ImageError, load_rgb
from geofidelity_plugin.core.progress import NullProgress, Progress, SubProgress, check_cancel
from geofidelity_plugin.core.reference_panels.curation import dedup, quality
from geofidelity_plugin.core.reference_panels.curation.cap import (ALONG, AlongPlan, longest_stretch, sequences_order)
from geofidelity_plugin.core.reference_panels.curation.lazy import Fingerprints, LazySegment, Tentative
from geofidelity_plugin.core.reference_panels.curation.metadata_tiers import SegmentGeometry, metadata_verdict
from geofidelity_plugin.core.reference_panels.curation.model_tiers import (ratio_tier, score_ratios, score_urban, urban_tier)
from geofidelity_plugin.core.reference_panels.options import DEFAULT_VISTAS_RATIOS, CurationOptions  # noqa: F401 (public here too)
from geofidelity_plugin.core.reference_panels.curation.outcomes import (MEASURES, TIER_NAMES, CurationResult, CurationRow)  # noqa: F401 (public here too)

log = logging.getLogger("geofidelity")

OVERRIDABLE_TIERS = (4, 5, 6, 7)
SCORED_TIERS = (4, 5, 6, 7)


def _get(record, name, default=None):  # records are objects (ImageRecord) or plain dicts
    return record.get(name, default) if isinstance(record, Mapping) else getattr(record, name, default)


class _Run:
    """State of one curation run (rows, notes, models, segment geometries)."""

    def __init__(self, records, segment_lines, image_paths, options, audit, progress):
        self.opt, self.progress = options, progress
        self.paths, self.notes = image_paths or {}, []
        self.models = {"siglip": None, "vistas": None}
        self.geometries = {sid: SegmentGeometry(line) for sid, line in segment_lines.items()}
        self.audit = {str(k): v for k, v in (audit or {}).items()}
        bad = {k: v for k, v in self.audit.items() if v not in ("accept", "reject")}
        if bad:
            raise InputError(f"audit flags must be 'accept' or 'reject'; got {bad}")
        self.records, self.rows = list(records), []
        for rec in self.records:
            image_id = str(_get(rec, "image_id"))
            fields = [_get(rec, k) for k in ("segment_id", "sequence", "captured_at_ms", "lon", "lat")]
            self.rows.append(CurationRow(image_id, *fields, audit=self.audit.get(image_id)))

    @staticmethod
    def tier_name(tier: int) -> str:
        return TIER_NAMES[tier]

    def alive(self, tier: int, only=None) -> list[int]:
        """Rows still in play before ``tier`` (accepted images survive tiers 4–7), among ``only``."""
        rows = range(len(self.rows)) if only is None else sorted(only)
        return [i for i in rows if self.rows[i].tier is None or (
            self.rows[i].audit == "accept" and self.rows[i].tier in OVERRIDABLE_TIERS and tier <= 7)]

    def verdict(self, i: int, tier: int, reason: Optional[str]) -> None:
        row = self.rows[i]
        if reason is None:
            row.tiers[tier] = "pass"
            return
        row.tiers[tier] = "overridden" if row.audit == "accept" and tier in OVERRIDABLE_TIERS else "fail"
        if row.tier is None:
            row.tier, row.reason = tier, reason

    def skip(self, tier: int, indices) -> None:
        for i in indices:  # never a silent pass: every row that reached it says so (and a note)
            self.rows[i].tiers[tier] = "skipped"

    def with_paths(self, tier: int, only=None) -> tuple[list[int], list[str]]:
        """Rows in play before ``tier`` that have an image file; the others fail ``tier``."""
        indices, paths = [], []
        for i in self.alive(tier, only):
            path = self.paths.get(self.rows[i].image_id)
            if path is None:
                self.verdict(i, tier, "no image file for this image id")
            else:
                indices.append(i)
                paths.append(str(path))
        return indices, paths


def _metadata_tiers(run: _Run) -> None:
    """Tiers 1–3 on every image (:func:`.metadata.metadata_verdict`)."""
    for i, (row, rec) in enumerate(zip(run.rows, run.records)):
        if i % 256 == 0:
            check_cancel(run.progress, "curation tiers 1–3")
        verdict = metadata_verdict(run.geometries.get(row.segment_id), row.lon, row.lat,
                                   _get(rec, "is_pano", False), _get(rec, "camera_type"),
                                   row.captured_at_ms, run.opt)
        row.measures.update(verdict.measures)
        if verdict.along_m is not None:
            row.measures["along_m"] = verdict.along_m
        for tier, reason in verdict.verdicts:
            run.verdict(i, tier, reason)


def _quality_tier(run: _Run, only, progress: Progress) -> None:
    """Tier 6 (:mod:`.quality`); the perceptual hash for tier 7 comes from the same decode."""
    thresholds, done = run.opt.quality_thresholds(), {}
    indices, paths = run.with_paths(6, only)
    for n, (i, path) in enumerate(zip(indices, paths)):
        if n % 16 == 0:
            check_cancel(progress, "image quality")
            progress.set_progress(100.0 * n / max(1, len(indices)))
        if path not in done:
            try:
                image = load_rgb(path)
                done[path] = (quality.measure(image), dedup.phash_hex(image), None)
            except (ImageError, ValueError) as exc:
                done[path] = (None, None, getattr(exc, "reason", str(exc)))
        measures, phash, error = done[path]
        if error is not None:
            run.verdict(i, 6, f"image unreadable: {error}")
            continue
        run.rows[i].measures.update(measures.as_dict(), phash=phash)
        run.verdict(i, 6, "; ".join(quality.failures(measures, thresholds)) or None)


def _in_play_at_7(row: CurationRow) -> bool:
    return row.tier is None or (row.audit == "accept" and row.tier in (4, 5, 6))


def _tier7(run: _Run, indices) -> dict:
    """Tier 7 per segment (:func:`.dedup.duplicate_outcomes`) over the rows ``indices`` in play;
    audit-rejected images stay out."""
    by_segment: dict = {}
    for i in indices:
        if run.rows[i].audit != "reject" and run.rows[i].measures.get("phash"):
            by_segment.setdefault(run.rows[i].segment_id, []).append(i)
    out = {}
    for members in by_segment.values():
        check_cancel(run.progress, "duplicate removal")
        items = []
        for i in members:
            r = run.rows[i]
            rank = (r.audit != "accept", -r.measures["laplacian_var"], r.captured_at_ms or 0, r.image_id)
            items.append(dedup.DedupItem(i, r.image_id, r.measures["phash"], rank, r.sequence,
                                         r.captured_at_ms or 0, r.lon, r.lat))
        out.update(dedup.duplicate_outcomes(items, run.opt.phash_radius, run.opt.thinning_m))
    return out


def _passes_7_and_8(row: CurationRow, outcome) -> bool:
    return row.audit != "reject" and (outcome is None or outcome.reason is None or row.audit == "accept")


class _Segment:
    """One segment's cap: its rows, its ``along`` plans (fixed on the tier 1–3 survivors)."""

    def __init__(self, run: _Run, segment_id, indices: list[int]):
        self.run, self.id, self.indices, self.members = run, segment_id, indices, set(indices)
        opt, rows = run.opt, run.rows
        passed = [i for i in indices if rows[i].tier is None]
        self.pool = [i for i in passed if rows[i].audit is None]
        self.accepted = [i for i in passed if rows[i].audit == "accept"]
        self.rejected = [i for i in passed if rows[i].audit == "reject"]
        self.rng = np.random.default_rng([int(opt.seed), zlib.crc32(str(segment_id).encode())])
        geometry = run.geometries.get(segment_id)
        self.length_m = geometry.length_m if geometry is not None else 0.0
        self.plan = self.plan_accepted = None
        if opt.cap_spread == ALONG and opt.cap_per_segment is not None:
            members = [(i, rows[i].image_id, rows[i].sequence, rows[i].captured_at_ms,
                        rows[i].measures["along_m"]) for i in self.pool]
            self.plan = AlongPlan(members, self.length_m, opt.cap_bin_m, self.rng)
            self.plan_accepted = AlongPlan(
                [(i, rows[i].image_id, rows[i].sequence, rows[i].captured_at_ms, rows[i].measures["along_m"])
                 for i in self.accepted], self.length_m, opt.cap_bin_m, self.rng)
            for plan in (self.plan, self.plan_accepted):
                for i, b in plan.bin.items():
                    rows[i].measures["cap_bin"] = b
        cap = opt.cap_per_segment
        self.lazy = (self.plan is not None and not opt.score_all
                     and len(self.pool) + len(self.accepted) > cap)

    def order(self, survivors: list[int]) -> list[int]:
        """The cap order of ``survivors``: audit-accepted first, then the ``cap_spread`` rule."""
        rows = self.run.rows
        accepted = [i for i in survivors if rows[i].audit == "accept"]
        others = [i for i in survivors if rows[i].audit != "accept"]
        if self.plan is not None:
            return self.plan_accepted.order(accepted) + self.plan.order(others)
        rng = np.random.default_rng([int(self.run.opt.seed), zlib.crc32(str(self.id).encode())])
        return [i for group in (accepted, others) for i in sequences_order(
            [(i, rows[i].image_id, rows[i].sequence, rows[i].captured_at_ms) for i in group], rng)]

    def tentative(self, scored) -> Tentative:
        rows = self.run.rows
        alive = [i for i in sorted(self.members & scored) if _in_play_at_7(rows[i])]
        outcomes = _tier7(self.run, alive)
        survivors = [i for i in alive if _passes_7_and_8(rows[i], outcomes.get(i))]
        return Tentative(alive, survivors, self.order(survivors)[:self.run.opt.cap_per_segment])


def _score(run: _Run, tiers, batch: set, progress: Progress) -> None:
    """Tiers 4–6 on the rows of ``batch``."""
    score_urban(run, tiers[0], batch, SubProgress(progress, 0, 45))
    score_ratios(run, tiers[1], batch, SubProgress(progress, 45, 85))
    _quality_tier(run, batch, SubProgress(progress, 85, 100))


def _score_segments(run: _Run, segments: list[_Segment], urban_scorer, ratio_model, progress) -> set:
    """Tiers 4–6 on every image that needs them, in rounds (:mod:`.lazy`); the scored rows."""
    tiers = (urban_tier(run, urban_scorer), ratio_tier(run, ratio_model))

    def path_of(i):
        path = run.paths.get(run.rows[i].image_id)
        return str(path) if path is not None else None

    fingerprint = Fingerprints(path_of, progress)
    schedules, scored, batch = {}, set(), set()
    for s in segments:
        if s.lazy:
            schedules[s.id] = LazySegment(run.rows, s.pool, s.accepted, s.plan, run.opt.cap_per_segment,
                                          run.opt.phash_radius, run.opt.thinning_m, fingerprint,
                                          {i for i in s.pool if path_of(i) is None})
        else:
            batch |= set(s.pool) | set(s.accepted) | set(s.rejected)
    total = max(1, sum(len(s.pool) + len(s.accepted) + len(s.rejected) for s in segments))
    by_id = {s.id: s for s in segments}
    while True:
        for sid, schedule in schedules.items():
            tentative = by_id[sid].tentative(scored) if schedule.started else None
            batch |= schedule.next_batch(tentative)
        if not batch:
            for schedule in schedules.values():  # measured for condition 2: worth keeping
                for i, phash in schedule.hashes.items():
                    if i in schedule.unscored and phash:
                        run.rows[i].measures["phash"] = phash
            return scored
        check_cancel(progress, "curation tiers 4–6")
        done = len(scored)
        _score(run, tiers, batch, SubProgress(progress, 100 * done / total,
                                              100 * min(1.0, (done + len(batch)) / total)))
        scored |= batch
        batch = set()


def _audit_tier(run: _Run) -> None:
    """Tier 8, and the final status of every row (see the module docstring on overrides)."""
    for row in run.rows:
        if row.tier is not None and not (row.audit == "accept" and row.tier in OVERRIDABLE_TIERS):
            row.status = "rejected"
            if row.audit == "accept":
                row.reason += f" (an audit 'accept' does not override tier {row.tier})"
            continue
        if row.audit == "reject":
            row.tiers[8], row.tier, row.status, row.reason = "fail", 8, "rejected", "rejected by manual audit"
            continue
        row.tiers[8] = "pass"
        if row.tier is not None:
            row.reason = f"kept by manual audit despite tier {row.tier}: {row.reason}"
            row.tier = None


def _apply_cap(run: _Run, segments: list[_Segment], unscored: set) -> dict:
    """method §2 cap per segment; the per-segment stretches before and after it."""
    cap, report = run.opt.cap_per_segment, {}
    for s in segments:
        rows = [i for i in s.indices if run.rows[i].status == "kept" and i not in unscored]
        order = s.order(rows) if cap is not None else rows
        for i in order[cap:] if cap is not None else ():
            run.rows[i].status = "capped"
            run.rows[i].reason = f"over the cap of {cap} images for segment {s.id}"
        skipped = [i for i in s.indices if i in unscored and run.rows[i].status == "kept"]
        for i in skipped:
            row = run.rows[i]
            row.status, row.scored = "capped", False
            row.reason = (f"not scored: the images ranked before it along the segment fill the cap of "
                          f"{cap} whatever its tiers 4–7 would say")
        for i in (i for i in s.indices if i in unscored):
            for tier in SCORED_TIERS:
                run.rows[i].tiers[tier] = "not_scored"
            run.rows[i].scored = False
        report[s.id] = _stretches(run, s, order[:cap] if cap is not None else order, rows, len(skipped))
    return report


def _stretches(run: _Run, s: _Segment, kept: list[int], passed: list[int], not_scored: int) -> dict:
    """Longest stretch without an image before the cap (the scored images that passed every
    tier) and after it (the kept images), :func:`.cap.longest_stretch`."""
    along = {i: run.rows[i].measures.get("along_m") for i in passed}
    out = {"length_m": round(s.length_m, 1),
           "stretch_before_cap_m": round(longest_stretch([along[i] for i in passed], s.length_m), 1),
           "stretch_after_cap_m": round(longest_stretch([along[i] for i in kept], s.length_m), 1),
           "passed": len(passed), "kept": len(kept), "not_scored": not_scored}
    if s.plan is not None:  # the condition of "after < before + one bin" (docs/method.md §2)
        firsts: dict = {}
        for i in passed:
            b = s.plan.bin_of(along[i])
            firsts[b] = min(firsts.get(b, (along[i], run.rows[i].image_id, i)),
                            (along[i], run.rows[i].image_id, i))
        out.update(cap_bin_m=run.opt.cap_bin_m, bins=s.plan.n_bins, covered_bins=len(firsts),
                   first_of_every_bin_kept=all(f[2] in set(kept) for f in firsts.values()))
    return out


def curate(records, segment_lines: Mapping, image_paths: Mapping[str, Path],
           options: Optional[CurationOptions] = None, audit: Optional[Mapping[str, str]] = None,
           urban_scorer=None, ratio_model=None, progress: Optional[Progress] = None
           ) -> CurationResult:
    """Apply method §2 filters 1–8 in order, then the cap per segment.

    ``records``: Mapillary image records (objects or dicts with ``image_id``, ``segment_id``,
    ``captured_at_ms``, ``lon``, ``lat``, ``is_pano``, ``camera_type``, ``sequence``);
    ``segment_lines``: segment id → lon/lat (Multi)LineString; ``image_paths``: image id → the
    downloaded thumbnail. ``urban_scorer`` / ``ratio_model`` are loaded from the options when
    first needed. Raises :class:`~..errors.Cancelled` when the progress asks to stop.
    """
    options = options or CurationOptions()
    options.validate()
    progress = progress or NullProgress()
    run = _Run(records, segment_lines, image_paths, options, audit, progress)
    _metadata_tiers(run)
    progress.set_progress(5.0)
    by_segment: dict = {}
    for i, row in enumerate(run.rows):
        by_segment.setdefault(row.segment_id, []).append(i)
    segments = [_Segment(run, sid, indices) for sid, indices in by_segment.items()]
    scored = _score_segments(run, segments, urban_scorer, ratio_model, SubProgress(progress, 5, 95))
    unscored = {i for s in segments for i in s.pool + s.accepted + s.rejected} - scored
    for i, outcome in _tier7(run, [i for i in sorted(scored) if _in_play_at_7(run.rows[i])]).items():
        run.rows[i].measures.update(outcome.measures)
        run.verdict(i, 7, outcome.reason)
    _audit_tier(run)
    report = _apply_cap(run, segments, unscored)
    progress.set_progress(100.0)
    state = {t: ("skipped" if any(r.tiers.get(t) == "skipped" for r in run.rows) else "ran")
             for t in TIER_NAMES}
    result = CurationResult(run.rows, run.notes, options.as_dict(), state, run.models, report)
    log.info("curation: %s", result.counts())
    return result
