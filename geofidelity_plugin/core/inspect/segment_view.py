"""Everything the inspector dock shows for one road segment (issue: click a road to see its
panels and scores): the segment's facts, its reference panel with the manual audit flags, one
sample of each gallery negative, the generated panel of a chosen model and condition (seeds,
prompts), its scores with the margin per negative kind, and the real anchors beside them.

Plain data read from the benchmark store and an evaluation folder; no QGIS, no GUI."""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..evaluation.galleries import ALL_KINDS
from ..store.store import BenchmarkStore

SCORE_KEYS = ("cos_sim", "top1", "rank", "reciprocal_rank", "chance_adjusted_top1", "margin_hard", "margin_mean",
              "margin_nearest_same_city", "margin_same_city_other_neighbourhood",
              "margin_same_driving_side_other_city", "margin_random_other_city", "margin_same_neighbourhood",
              "gallery_size", "mmd2", "dcsf", "gads")


@dataclass
class ImageItem:
    path: str
    label: str
    tooltip: str = ""
    reference_id: str | None = None
    audit: str | None = None


@dataclass
class SegmentView:
    segment_id: str
    facts: dict
    references: list[ImageItem]
    negatives: dict[str, tuple[str, list[ImageItem]]]   # kind → (segment_id, sample images)
    generated: list[ImageItem]
    scores: dict[str, dict]                             # "model" / anchor name → score row
    models: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    stand_in: str | None = None
    model: str | None = None
    condition: str | None = None


def _read_scores(evaluation_dir: Path | None) -> list[dict]:
    if evaluation_dir is None:
        return []
    path = Path(evaluation_dir) / "per_panel_scores.csv"
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _num(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def evaluation_store_path(evaluation_dir: str | Path) -> Path | None:
    """The store an evaluation was run on (from its manifest), if recorded and present."""
    manifest = Path(evaluation_dir) / "evaluation.manifest.json"
    try:
        store = json.loads(manifest.read_text(encoding="utf-8"))["inputs"]["store"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return Path(store) if Path(store).exists() else None


def segment_view(store: BenchmarkStore, segment_id: str, evaluation_dir: str | Path | None = None,
                 model: str | None = None, condition: str | None = None) -> SegmentView:
    segments = {s["segment_id"]: s for s in store.segments()}
    if segment_id not in segments:
        raise InputError(f"segment {segment_id!r} is not in {store.path.name} — pick a segment of this benchmark")
    seg = segments[segment_id]
    facts = {k: seg.get(k) for k in ("segment_id", "street_name", "neighbourhood", "city", "country_code",
                                     "road_class", "driving_side", "length_m", "centroid_lon", "centroid_lat")}
    panels = store.reference_panels(include_rejected=True)
    references = [ImageItem(r["abs_path"], r["image_id"] or r["reference_id"],
                            f"{r['reference_id']}" + (f" · captured {r['captured_at_ms']}" if r.get("captured_at_ms") else ""),
                            r["reference_id"], r["audit"]) for r in panels.get(segment_id, [])]
    negatives = {}
    for kind in ALL_KINDS:
        neg = store.galleries().get(segment_id, {}).get(kind)
        if neg:
            sample = [ImageItem(r["abs_path"], r["image_id"] or r["reference_id"]) for r in panels.get(neg, [])
                      if r["audit"] != "reject"][:4]
            negatives[kind] = (neg, sample)
    generated_all = store.generated_panels()
    models = sorted({k[0] for k in generated_all if k[2] == segment_id})
    model = model if model in models else (models[0] if models else None)
    conditions = sorted({k[1] for k in generated_all if k[0] == model and k[2] == segment_id})
    condition = condition if condition in conditions else ("L1" if "L1" in conditions else
                                                           (conditions[0] if conditions else None))
    generated = [ImageItem(g["abs_path"], f"sample {g['sample_index']}",
                           f"seed {g['seed'] if g['seed'] is not None else 'unknown'}\n{g['prompt'] or ''}")
                 for g in generated_all.get((model, condition, segment_id), [])]
    scores = {}
    for row in _read_scores(evaluation_dir):
        if row["segment_id"] != segment_id:
            continue
        is_anchor = row.get("is_anchor") in ("True", "true", "1")
        if is_anchor or (row["model"] == model and row["condition"] == condition):
            scores[row["model"]] = {k: _num(row.get(k)) for k in SCORE_KEYS}
    return SegmentView(segment_id, facts, references, negatives, generated, scores, models, conditions,
                       store.meta("stand_in"), model, condition)
