"""A GeoDiv run (docs/method.md, GeoDiv): answers from the local VQA model or an answers CSV,
scored per group into VDI/SEVI tables, the Vendi score of each group's embeddings beside them,
and the model − real differences of each group against the real reference panels.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.progress import check_cancel
from geofidelity_plugin.core.geodiv.answers import score_answers, write_table
from geofidelity_plugin.core.geodiv.diversity import vendi_score
from geofidelity_plugin.core.geodiv.images import REAL_MODEL
from geofidelity_plugin.core.geodiv.questions import QuestionSet

DEFAULT_GROUP_BY = ("model", "condition", "city")


@dataclass
class GeoDivOptions:
    group_by: tuple[str, ...] = DEFAULT_GROUP_BY
    count_zero_options: bool = True
    vqa_model: str | None = None
    feature_model: str | None = None
    extra: dict = field(default_factory=dict)


def local_answers(images: list[dict], qset: QuestionSet, scorer, labels=DEFAULT_GROUP_BY, progress=None) -> list[dict]:
    """Answer rows for ``images`` (each ``{image_id, path, …labels}``) from the local VQA model."""
    from geofidelity_plugin.core.geodiv.vqa import answer_rows

    rows: list[dict] = []
    for i, image in enumerate(images):
        check_cancel(progress, "GeoDiv VQA")
        logliks = scorer.score_file(image["path"], qset, progress)
        keep = tuple(labels) + (("segment_id",) if image.get("segment_id") and "segment_id" not in labels else ())
        rows += answer_rows(image["image_id"], logliks, qset, {k: image.get(k, "") for k in keep})
        if progress is not None:
            progress.set_progress(100.0 * (i + 1) / len(images))
    return rows


def vendi_by_group(images: list[dict], embeddings: np.ndarray, group_by) -> list[dict]:
    """Vendi score of each group's embeddings (rows of ``embeddings`` align with ``images``)."""
    members: dict[tuple, list[int]] = defaultdict(list)
    for i, image in enumerate(images):
        if np.isfinite(embeddings[i]).all():
            members[tuple(str(image.get(c, "")) for c in group_by)].append(i)
    return [{**dict(zip(group_by, key)), "images": len(idx), "vendi": vendi_score(embeddings[idx])}
            for key, idx in sorted(members.items())]


def differences(groups: list[dict], group_by, metrics) -> list[dict]:
    """Model − real for each group whose other labels (city …) have a real baseline row."""
    if "model" not in group_by:
        return []
    others = [c for c in group_by if c not in ("model", "condition")]
    real = {tuple(g[c] for c in others): g for g in groups if g["model"] == REAL_MODEL}
    out = []
    for g in groups:
        base = real.get(tuple(g[c] for c in others))
        if g["model"] == REAL_MODEL or base is None:
            continue
        row = {c: g[c] for c in group_by}
        for m in metrics:
            a, b = g.get(m, math.nan), base.get(m, math.nan)
            row[f"{m}_minus_real"] = a - b if isinstance(a, float) and isinstance(b, float) else math.nan
        out.append(row)
    return out


def merge(vdi_groups: list[dict], vendi_groups: list[dict], group_by) -> list[dict]:
    """One row per group with VDI/SEVI and Vendi side by side."""
    table: dict[tuple, dict] = {}
    for g in vendi_groups:
        table[tuple(g[c] for c in group_by)] = {**g}
    for g in vdi_groups:
        key = tuple(g[c] for c in group_by)
        table.setdefault(key, {c: g[c] for c in group_by}).update({k: v for k, v in g.items() if k != "images"})
        table[key].setdefault("images", g["images"])
    return [table[k] for k in sorted(table)]


def score_run(answers: list[dict] | None, qset: QuestionSet, out_dir, options: GeoDivOptions,
              images: list[dict] | None = None, embeddings: np.ndarray | None = None
              ) -> tuple[dict[str, Path], list[dict]]:
    """Write the GeoDiv tables into ``out_dir``; returns their paths and the group rows."""
    if answers is None and embeddings is None:
        raise InputError("nothing to score — give answers (a VQA model or an answers CSV) or embeddings")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    group_by = tuple(options.group_by)
    paths: dict[str, Path] = {}
    scored = {"questions": [], "groups": []}
    if answers is not None:
        scored = score_answers(answers, qset, group_by, options.count_zero_options)
        paths["answers"] = write_table(answers, out_dir / "geodiv_answers.csv")
        paths["questions"] = write_table(scored["questions"], out_dir / "geodiv_questions.csv")
    vendi = vendi_by_group(images, embeddings, group_by) if embeddings is not None else []
    groups = merge(scored["groups"], vendi, group_by)
    paths["groups"] = write_table(groups, out_dir / "geodiv_groups.csv")
    metrics = ("vdi_entity", "vdi_background", "vdi_overall", "affluence_mean", "maintenance_mean", "vendi")
    diffs = differences(groups, group_by, metrics)
    if answers is not None and diffs:
        from geofidelity_plugin.core.geodiv.intervals import model_minus_real

        intervals = {tuple(r[c] for c in group_by): r for r in model_minus_real(
            answers, qset, group_by, count_zero_options=options.count_zero_options)}
        for row in diffs:
            extra = intervals.get(tuple(row[c] for c in group_by))
            if extra:  # paired over the segments both drew (may differ from the all-image estimate)
                row.update({"segments": extra["segments"],
                            "vdi_overall_paired": extra["vdi_overall_minus_real"],
                            "vdi_overall_paired_low": extra["vdi_overall_minus_real_low"],
                            "vdi_overall_paired_high": extra["vdi_overall_minus_real_high"]})
    if diffs:
        paths["differences"] = write_table(diffs, out_dir / "geodiv_model_minus_real.csv")
    return paths, groups
