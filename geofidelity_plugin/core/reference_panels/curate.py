"""Curation of Mapillary reference panels (method §2 "Filters, in this order, each recording a
reject reason per image", then the cap per segment).

Tiers, in order; an image is reported at the *first* tier it fails: 1 buffer (metres from the
segment line, in a local azimuthal-equidistant frame); 2 not panoramic (``is_pano`` false and
``camera_type`` in ``perspective_camera_types``; fisheye, equirectangular, spherical and unknown
types fail); 3 daytime (:mod:`.solar`); 4 SigLIP urban scene (:mod:`.urban`); 5 Vistas ratio
rules over the method §5 attributes; 6 quality (:mod:`.quality`); 7 duplicates
(:mod:`.dedup`); 8 manual audit.

Decisions:

- Tiers 4 and 5 need a model. When it cannot be loaded (or its option is empty) the tier is
  recorded as ``skipped`` on every image that reached it and a note says why; it never passes
  silently. An image whose file is missing or unreadable fails the first pixel tier that runs.
- Audit flags (``{image_id: 'accept'|'reject'}``): ``reject`` removes an image at tier 8.
  ``accept`` overrides failures of tiers 4–7 (model and quality judgements, which a person can
  overrule by looking) but not of tiers 1–3, which are facts of place, camera and time. An
  accepted image goes on through tiers 4–7 so that every measure is still recorded; its failed
  tiers read ``overridden``. Rejected-flagged images take no part in tier 7, so they never
  suppress a duplicate that would otherwise survive.
- Tier 7 keeps, per perceptual-hash cluster, the accepted image if any, else the sharpest
  (largest Laplacian variance), then the earliest, then the smallest id.
- Cap (``cap_per_segment``): accepted images first, then the order of
  :func:`.dedup.spread_over_sequences`, seeded by ``seed`` and the segment id only.
"""
from __future__ import annotations

import logging
import math
import numbers
import zlib
from pathlib import Path
from typing import Mapping, Optional

import numpy as np
from shapely.geometry import Point
from shapely.ops import transform

from ..errors import InputError
from ..events import announce_stage
from ..evaluation.images import ImageError, load_rgb
from ..evaluation.semantics import SemanticRatioModel
from ..progress import NullProgress, Progress, SubProgress, check_cancel
from ..selection.geodesy import LocalFrame
from . import dedup, quality
from .options import DEFAULT_VISTAS_RATIOS, CurationOptions  # noqa: F401 (public here too)
from .outcomes import MEASURES, TIER_NAMES, CurationResult, CurationRow  # noqa: F401 (public here too)
from .solar import solar_elevation
from .urban import TierUnavailable, UrbanSceneScorer

log = logging.getLogger("geofidelity")

OVERRIDABLE_TIERS = (4, 5, 6, 7)


def _get(record, name, default=None):  # records are objects (ImageRecord) or plain dicts
    return record.get(name, default) if isinstance(record, Mapping) else getattr(record, name, default)


class _Run:
    """State of one curation run (rows, notes, lazily loaded models)."""

    def __init__(self, records, segment_lines, image_paths, options, audit, progress):
        self.opt, self.progress = options, progress
        self.lines, self.paths, self.notes = segment_lines, image_paths or {}, []
        self.audit = {str(k): v for k, v in (audit or {}).items()}
        bad = {k: v for k, v in self.audit.items() if v not in ("accept", "reject")}
        if bad:
            raise InputError(f"audit flags must be 'accept' or 'reject'; got {bad}")
        self.records, self.rows = list(records), []
        for rec in self.records:
            image_id = str(_get(rec, "image_id"))
            fields = [_get(rec, k) for k in ("segment_id", "sequence", "captured_at_ms", "lon", "lat")]
            self.rows.append(CurationRow(image_id, *fields, audit=self.audit.get(image_id)))

    def alive(self, tier: int) -> list[int]:
        """Rows still in play before ``tier`` (accepted images survive tiers 4–7)."""
        return [i for i, r in enumerate(self.rows) if r.tier is None
                or (r.audit == "accept" and r.tier in OVERRIDABLE_TIERS and tier <= 7)]

    def verdict(self, i: int, tier: int, reason: Optional[str]) -> None:
        row = self.rows[i]
        if reason is None:
            row.tiers[tier] = "pass"
            return
        row.tiers[tier] = "overridden" if row.audit == "accept" and tier in OVERRIDABLE_TIERS else "fail"
        if row.tier is None:
            row.tier, row.reason = tier, reason

    def skip(self, tier: int, indices, note: str) -> None:
        for i in indices:  # never a silent pass: every row that reached it says so, plus a note
            self.rows[i].tiers[tier] = "skipped"
        self.notes.append(f"tier {tier} ({TIER_NAMES[tier]}) skipped: {note}")
        self.progress.warning(self.notes[-1])


def _valid_position(lon, lat) -> bool:
    return (isinstance(lon, numbers.Real) and isinstance(lat, numbers.Real)
            and math.isfinite(lon) and -180 <= lon <= 180 and math.isfinite(lat) and -90 <= lat <= 90)


def _metadata_tiers(run: _Run) -> None:
    """Tiers 1–3: buffer distance, camera, solar elevation (no pixels needed)."""
    opt, frames = run.opt, {}
    for n, i in enumerate(run.alive(1)):
        if n % 256 == 0:
            check_cancel(run.progress, "curation tiers 1–3")
        row, rec = run.rows[i], run.records[i]
        line = run.lines.get(row.segment_id)
        if line is None or not _valid_position(row.lon, row.lat):
            run.verdict(i, 1, "no segment line for this segment id" if line is None
                        else f"image has no valid position ({row.lon}, {row.lat})")
            continue
        if row.segment_id not in frames:
            frame = LocalFrame(line.centroid.x, line.centroid.y)
            frames[row.segment_id] = (frame, transform(lambda x, y, z=None: frame.to_metric(x, y), line))
        frame, metric_line = frames[row.segment_id]
        distance = float(metric_line.distance(Point(*frame.to_metric(row.lon, row.lat))))
        row.measures["buffer_distance_m"] = distance
        run.verdict(i, 1, None if distance <= opt.buffer_m else
                    f"{distance:.1f} m from the segment, outside the {opt.buffer_m:g} m buffer")
        if row.tier is not None:
            continue
        is_pano, camera = bool(_get(rec, "is_pano", False)), _get(rec, "camera_type")
        row.measures.update(is_pano=is_pano, camera_type=camera)
        perspective = str(camera or "").lower() in {t.lower() for t in opt.perspective_camera_types}
        run.verdict(i, 2, "panoramic image (is_pano)" if is_pano else None if perspective
                    else f"camera type {camera!r} is not perspective")
        if row.tier is not None:
            continue
        if row.captured_at_ms is None:
            run.verdict(i, 3, "no capture time")
            continue
        elevation = solar_elevation(row.lon, row.lat, row.captured_at_ms)
        row.measures["solar_elevation_deg"] = elevation
        run.verdict(i, 3, None if elevation >= opt.solar_min_deg else
                    f"solar elevation {elevation:.1f}° < {opt.solar_min_deg:g}°")


def _with_paths(run: _Run, tier: int) -> tuple[list[int], list[str]]:
    """Alive rows before ``tier`` that have an image file; the others fail ``tier``."""
    indices, paths = [], []
    for i in run.alive(tier):
        path = run.paths.get(run.rows[i].image_id)
        if path is None:
            run.verdict(i, tier, "no image file for this image id")
        else:
            indices.append(i)
            paths.append(str(path))
    return indices, paths


def _model_or_skip(run: _Run, tier: int, given, model_id, load):
    """The model of a model tier: the one given, else loaded from the options; ``None`` (tier
    recorded as skipped with a note) when disabled or unavailable, or when no image reaches it."""
    if given is not None or not run.alive(tier):
        return given
    if not model_id:
        run.skip(tier, run.alive(tier), "disabled (no model given in the options)")
        return None
    try:
        return load()
    except (TierUnavailable, InputError) as exc:
        run.skip(tier, run.alive(tier), str(exc))
        return None


def _shared_cache(options):
    """The evaluation engine's on-disk cache (model outputs keyed by image content + model +
    settings), so re-curation after an audit and the later GADS step reuse the model tiers."""
    if not options.use_cache:
        return None
    from ..evaluation.feature_cache import FeatureCache

    return FeatureCache()


def _urban_tier(run: _Run, scorer, progress: Progress) -> Optional[dict]:
    """Tier 4: SigLIP street prompt top-1 with p ≥ threshold (:mod:`.urban`)."""
    def load():
        o = run.opt
        announce_stage(run.progress, "loading the SigLIP model (filter 4)", o.siglip_model)
        return UrbanSceneScorer(o.siglip_model, o.siglip_street_prompt, o.siglip_distractor_prompts,
                                o.siglip_threshold, device=o.device, batch_size=o.batch_size,
                                cache=_shared_cache(o), precision=o.precision)

    scorer = _model_or_skip(run, 4, scorer, run.opt.siglip_model, load)
    if scorer is None:
        return None
    indices, paths = _with_paths(run, 4)
    scores, failed = scorer.score_paths(paths, progress=progress)
    for i, path, score in zip(indices, paths, scores):
        if score is None:
            run.verdict(i, 4, f"image unreadable: {failed.get(path, 'unknown error')}")
            continue
        run.rows[i].measures.update(siglip_p_street=score.p_street, siglip_top1=score.top1)
        run.verdict(i, 4, None if scorer.passes(score) else
                    f"not a street scene: top-1 prompt {score.top1!r}, p(street) "
                    f"{score.p_street:.3f} (threshold {scorer.threshold:g})")
    return scorer.model_info()


def _ratio_failures(ratios: dict, rules: dict) -> list[str]:
    """Tier 5 rules missed: each rule sums the attributes named in it ("road+sidewalk")."""
    problems = []
    for rule, (low, high) in rules.items():
        value = sum(ratios[a] for a in str(rule).split("+"))
        if low is not None and value < low:
            problems.append(f"{rule} ratio {value:.3f} < {low:g}")
        elif high is not None and value > high:
            problems.append(f"{rule} ratio {value:.3f} > {high:g}")
    return problems


def _ratio_tier(run: _Run, model, progress: Progress) -> Optional[dict]:
    """Tier 5: Mapillary-Vistas attribute ratios (method §5 model) against the rules."""
    def load():
        announce_stage(run.progress, "loading the Mask2Former (Vistas) model (filter 5)", run.opt.vistas_model)
        return SemanticRatioModel(run.opt.vistas_model, device=run.opt.device,
                                  exclude_recording_car=run.opt.vistas_exclude_recording_car,
                                  cache=_shared_cache(run.opt), precision=run.opt.precision)

    model = _model_or_skip(run, 5, model, run.opt.vistas_model, load)
    if model is None:
        return None
    indices, paths = _with_paths(run, 5)
    unique = list(dict.fromkeys(paths))
    result = model.ratios_for_paths(unique, progress=progress)
    position = {p: k for k, p in enumerate(unique)}
    for i, path in zip(indices, paths):
        ratios = dict(zip(result.attributes, result.ratios[position[path]].tolist()))
        if path in result.failed or not np.all(np.isfinite(list(ratios.values()))):
            run.verdict(i, 5, f"image unreadable: {result.failed.get(path, 'no ratios')}")
            continue
        run.rows[i].measures.update({f"ratio_{a}": v for a, v in ratios.items()})
        run.verdict(i, 5, "; ".join(_ratio_failures(ratios, run.opt.vistas_ratios)) or None)
    return model.model_info() if hasattr(model, "model_info") else {"model": repr(model)}


def _quality_tier(run: _Run, progress: Progress) -> None:
    """Tier 6 (:mod:`.quality`); the perceptual hash for tier 7 comes from the same decode."""
    thresholds, done = run.opt.quality_thresholds(), {}
    indices, paths = _with_paths(run, 6)
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


def _duplicate_tier(run: _Run) -> None:
    """Tier 7 per segment (:func:`.dedup.duplicate_outcomes`); audit-rejected images stay out."""
    by_segment: dict = {}
    for i in run.alive(7):
        if run.rows[i].audit != "reject" and run.rows[i].measures.get("phash"):
            by_segment.setdefault(run.rows[i].segment_id, []).append(i)
    for members in by_segment.values():
        check_cancel(run.progress, "duplicate removal")
        items = []
        for i in members:
            r = run.rows[i]
            rank = (r.audit != "accept", -r.measures["laplacian_var"], r.captured_at_ms or 0, r.image_id)
            items.append(dedup.DedupItem(i, r.image_id, r.measures["phash"], rank, r.sequence,
                                         r.captured_at_ms or 0, r.lon, r.lat))
        for i, outcome in dedup.duplicate_outcomes(items, run.opt.phash_radius,
                                                   run.opt.thinning_m).items():
            run.rows[i].measures.update(outcome.measures)
            run.verdict(i, 7, outcome.reason)


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


def _apply_cap(run: _Run) -> None:
    """method §2 cap per segment: the rows past ``cap`` in the spread order are 'capped'."""
    cap = run.opt.cap_per_segment
    if cap is None:
        return
    by_segment: dict = {}
    for row in (r for r in run.rows if r.status == "kept"):
        by_segment.setdefault(row.segment_id, []).append(row)
    for segment_id, rows in ((s, r) for s, r in by_segment.items() if len(r) > cap):
        rng = np.random.default_rng([int(run.opt.seed), zlib.crc32(str(segment_id).encode())])
        order = []
        for group in ([r for r in rows if r.audit == "accept"], [r for r in rows if r.audit != "accept"]):
            order += dedup.spread_over_sequences(
                [(r, r.image_id, r.sequence, r.captured_at_ms) for r in group], rng)
        for row in order[cap:]:
            row.status, row.reason = "capped", f"over the cap of {cap} images for segment {segment_id}"


def curate(records, segment_lines: Mapping, image_paths: Mapping[str, Path],
           options: Optional[CurationOptions] = None, audit: Optional[Mapping[str, str]] = None,
           urban_scorer=None, ratio_model=None, progress: Optional[Progress] = None
           ) -> CurationResult:
    """Apply method §2 filters 1–8 in order, then the cap per segment.

    ``records``: Mapillary image records (objects or dicts with ``image_id``, ``segment_id``,
    ``captured_at_ms``, ``lon``, ``lat``, ``is_pano``, ``camera_type``, ``sequence``);
    ``segment_lines``: segment id → lon/lat (Multi)LineString; ``image_paths``: image id → the
    downloaded thumbnail. ``urban_scorer`` / ``ratio_model`` are loaded from the options when
    not given. Raises :class:`~..errors.Cancelled` when the progress asks to stop.
    """
    options = options or CurationOptions()
    options.validate()
    progress = progress or NullProgress()
    run = _Run(records, segment_lines, image_paths, options, audit, progress)
    _metadata_tiers(run)
    progress.set_progress(5.0)
    models = {"siglip": _urban_tier(run, urban_scorer, SubProgress(progress, 5, 45)),
              "vistas": _ratio_tier(run, ratio_model, SubProgress(progress, 45, 85))}
    _quality_tier(run, SubProgress(progress, 85, 98))
    _duplicate_tier(run)
    _audit_tier(run)
    _apply_cap(run)
    progress.set_progress(100.0)
    state = {t: ("skipped" if any(r.tiers.get(t) == "skipped" for r in run.rows) else "ran")
             for t in TIER_NAMES}
    result = CurationResult(run.rows, run.notes, options.as_dict(), state, models)
    log.info("curation: %s", result.counts())
    return result
