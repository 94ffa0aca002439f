"""A GeoDiv run (docs/method.md, GeoDiv): answers from the local VQA model or an answers CSV,
scored per group into VDI/SEVI tables, the Vendi score of each group's embeddings beside them,
and the model − real differences of each group against the real reference panels.

:func:`run_geodiv` is the whole run — input checks, answers, embeddings, tables, convergence,
the city layer and the run manifest (which records the options of ``spec/geodiv.py``) — so a
notebook gets what ``python -m geofidelity_plugin geodiv`` and ``geofidelity:geodiv`` get.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.progress import check_cancel
from geofidelity_plugin.core.geodiv.answers import score_answers, write_table
from geofidelity_plugin.core.geodiv.diversity import vendi_score
from geofidelity_plugin.core.geodiv.images import REAL_MODEL
from geofidelity_plugin.core.geodiv.options import (CITY_LAYER_NAME, DEFAULT_BATCH_SIZE, DEFAULT_GROUP_BY,
                                                    DEFAULT_PER_GROUP, DEFAULT_PRECISION, MANIFEST_NAME, NO_MODEL)
from geofidelity_plugin.core.geodiv.questions import QuestionSet


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


@dataclass
class GeoDivRequest:
    """Everything a GeoDiv run is given; the fields are the ``dest`` of the options in
    ``spec/geodiv.py`` (the command fills it from its arguments, a notebook by keyword)."""

    out: str | Path
    store: str | None = None
    images: str | None = None
    answers: str | None = None
    questions: str | None = None
    group_by: str | tuple = ",".join(DEFAULT_GROUP_BY)
    vqa_model: str | None = NO_MODEL
    feature_model: str | None = NO_MODEL
    cache: str | None = None
    device: str | None = None
    precision: str = DEFAULT_PRECISION
    batch_size: int = DEFAULT_BATCH_SIZE
    per_group: int = DEFAULT_PER_GROUP
    convergence: bool = False
    drop_zero_options: bool = False

    @classmethod
    def of(cls, values) -> "GeoDivRequest":
        """From an ``argparse`` namespace or a dict: the fields it has."""
        values = values if isinstance(values, dict) else vars(values)
        return cls(**{f.name: values[f.name] for f in fields(cls) if f.name in values})

    @property
    def columns(self) -> tuple[str, ...]:
        items = self.group_by.split(",") if isinstance(self.group_by, str) else self.group_by
        return tuple(c.strip() for c in items if c and c.strip())

    @property
    def vqa(self) -> str | None:
        return _model(self.vqa_model)

    @property
    def features(self) -> str | None:
        return _model(self.feature_model)

    def check(self) -> "GeoDivRequest":
        """The input checks of a run, before anything is loaded."""
        if self.store and self.images:
            raise InputError("give --store or --images, not both")
        if self.answers and self.vqa:
            raise InputError("give --answers or --vqa-model, not both")
        if (self.vqa or self.features) and not (self.store or self.images):
            raise InputError("a VQA or feature model needs images — give --store or --images")
        if not (self.answers or self.vqa or self.features):
            raise InputError("nothing to compute — give --answers, --vqa-model or --feature-model")
        if not self.columns:
            raise InputError("no grouping column — give --group-by, e.g. model,condition,city")
        if int(self.batch_size) < 1:
            raise InputError(f"batch size {self.batch_size} must be at least 1 — give --batch-size 1 or more")
        if int(self.per_group) < 0:
            raise InputError(f"--per-group {self.per_group} must be ≥ 0 (0: every image)")
        return self


@dataclass
class GeoDivRun:
    """What a run wrote: the core's output names → paths (tables, manifest), the group rows and
    the city layer (from a store), if any."""

    paths: dict[str, Path]
    groups: list[dict]
    city_layer: Path | None = None


def _model(value) -> str | None:
    return None if value in (None, "", NO_MODEL) else str(value)


def _images(request: GeoDivRequest, unusable=None) -> list[dict] | None:
    from geofidelity_plugin.core.geodiv.images import folder_images, limit_per_group, store_images

    if request.store:
        images = store_images(request.store)
    elif request.images:
        images = folder_images(request.images, unusable=unusable)
    else:
        return None
    return limit_per_group(images, request.columns, request.per_group)


_DIFFERENCE_SUFFIXES = ("_minus_real", "_paired", "_low", "_high")


def _city_layer(request: GeoDivRequest, paths) -> Path | None:
    """Cities styled by model − real VDI, when a store gives their positions."""
    if not (request.store and "differences" in paths):
        return None
    from geofidelity_plugin.core.geodiv.city_layer import city_points, write_city_layer
    from geofidelity_plugin.core.tables import TableSchema, read_table

    def number(column: str) -> str | None:
        return "float" if column.endswith(_DIFFERENCE_SUFFIXES) else None

    schema = TableSchema("GeoDiv differences table", (), type_of=number,
                         fix=f"run geodiv again into {request.out}")
    rows = [dict(row) for row in read_table(paths["differences"], schema).rows]
    for row in rows:
        for key, value in row.items():
            if key.endswith(_DIFFERENCE_SUFFIXES):
                row[key] = float(value) if value != "" else float("nan")
    return write_city_layer(rows, city_points(request.store), Path(request.out) / CITY_LAYER_NAME)


def run_options(request: GeoDivRequest, options: GeoDivOptions) -> dict:
    """The options the manifest records: every recorded option of ``spec/geodiv.py``, and how
    the Hill numbers are normalised."""
    from geofidelity_plugin.spec.geodiv import GEODIV
    from geofidelity_plugin.spec.options import recorded

    return {**recorded(request, GEODIV), "group_by": list(options.group_by),
            "count_zero_options": options.count_zero_options, **options.extra}


def _feature_cache(request: GeoDivRequest):
    """The embedding cache of a run with a feature model (``--cache``, else the default one)."""
    if not request.features:
        return None
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache

    if not request.cache:
        return FeatureCache()
    return FeatureCache(request.cache, hint="did you mean --answers? --cache takes the embedding cache file")


def run_geodiv(request: GeoDivRequest, progress=None) -> GeoDivRun:
    """A whole GeoDiv run into ``request.out``: checks, answers (local VQA model or CSV), Vendi
    embeddings, the tables, the convergence check, the city layer and the run manifest."""
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.geodiv import questions as qs
    from geofidelity_plugin.core.geodiv.answers import read_answers_csv
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    request.check()
    out = Path(request.out)
    group_by = request.columns
    cache = _feature_cache(request)  # before any long work: a --cache that is not a cache is refused
    from geofidelity_plugin.core.vision.unusable_images import UnusableImages

    unusable = UnusableImages(f"the image folder {request.images}")
    images = _images(request, unusable)
    unusable.report(progress)  # what the folder held that could not be used, with the reasons
    qset = qs.load(request.questions)
    options = GeoDivOptions(group_by, not request.drop_zero_options, request.vqa, request.features)
    models, answers, embeddings = [], None, None
    if request.answers:
        answers = read_answers_csv(request.answers, group_by, qset)
    elif request.vqa:
        from geofidelity_plugin.core.geodiv.vqa import OptionScorer

        events.announce_stage(progress, "loading the VQA model")
        scorer = OptionScorer(request.vqa, device=request.device, precision=request.precision,
                              batch_size=request.batch_size, cache_dir=out / "vqa_cache")
        models.append(scorer.describe())
        events.announce_stage(progress, "answering the questions")
        answers = local_answers(images, qset, scorer, group_by, progress)
    if request.features:
        from geofidelity_plugin.core.vision.features import FeatureExtractor

        events.announce_stage(progress, "embedding the panels (Vendi score)")
        extractor = FeatureExtractor(request.features, device=request.device, cache=cache,
                                     precision=request.precision)
        result = extractor.embed_paths([i["path"] for i in images], progress)
        models.append(result.model)
        embeddings = result.embeddings
    paths, groups = score_run(answers, qset, out, options, images, embeddings)
    if request.convergence and answers:
        from geofidelity_plugin.core.geodiv.convergence import plot_convergence, ranking_convergence

        events.announce_stage(progress, "convergence check")
        rows = ranking_convergence(answers, qset, group_by)
        paths["convergence"] = write_table(rows, out / "geodiv_convergence.csv")
        if rows:
            plot_convergence(rows, out / "geodiv_convergence.png")
            paths["convergence_figure"] = out / "geodiv_convergence.png"
    if unusable:
        paths["failed_images"] = write_table(unusable.rows(), out / "failed_images.csv")
    inputs = {"store": request.store, "images": request.images, "unusable_images": unusable.manifest(),
              "answers": request.answers,
              "questions": str(request.questions or qs.default_path()), "question_set_digest": qset.digest}
    manifest = build_manifest("geodiv", run_options(request, options), inputs=inputs,
                              outputs={k: str(v) for k, v in paths.items()}, models=models)
    paths["manifest"] = write_manifest(out / MANIFEST_NAME, manifest)
    return GeoDivRun(paths, groups, _city_layer(request, paths))
