"""One call for the evaluate stage, shared by the Processing algorithm, the CLI and the demo:
open the store, load the feature (and optional semantic) model, score, write every output."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from geofidelity_plugin.core.vision.devices import check_device
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.option_checks import check_number
from geofidelity_plugin.core.events import announce_stage
from geofidelity_plugin.core.progress import NullProgress, Progress
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
from geofidelity_plugin.core.vision.model_refs import check_semantic_model
from geofidelity_plugin.core.vision.precision import DEFAULT_DECODE
from geofidelity_plugin.core.evaluation.outputs import check_evaluation_folder, write_outputs
from geofidelity_plugin.core.evaluation.feature_export import check_export_folder
from geofidelity_plugin.core.evaluation.feature_export import export_features as export_features_to
from geofidelity_plugin.core.evaluation.preflight import check_store_ready
from geofidelity_plugin.core.store.sqlite_locks import DEFAULT_LOCK_TIMEOUT_S
from geofidelity_plugin.core.store.store import BenchmarkStore

from geofidelity_plugin.core.evaluation.options import DEFAULT_BATCH_SIZE, DEFAULT_FEATURE_MODEL  # noqa: E402,F401


@dataclass
class EvaluationRun:
    result: object
    paths: dict
    model: str | None
    condition: str | None
    stand_in_note: str | None = None


def pick_layer_panel(rows: list[dict], model: str | None, condition: str | None) -> tuple[str | None, str | None]:
    """The (model, condition) shown on the map: the user's choice, else the first model at L1."""
    models = sorted({r["model"] for r in rows if not r["is_anchor"]})
    if not models and not model:  # no generated panel yet: map the real held-out anchor
        anchors = sorted({r["model"] for r in rows if r["model"].endswith("held_out_real")})
        return (anchors[0], "anchor") if anchors else (None, None)
    if model and model not in {r["model"] for r in rows}:
        raise InputError(f"model {model!r} has no scored panel; scored models: {', '.join(models) or 'none'}")
    model = model or (models[0] if models else None)
    conditions = sorted({r["condition"] for r in rows if r["model"] == model})
    if condition and condition not in conditions:
        raise InputError(f"condition {condition!r} has no panel of {model}; available: {', '.join(conditions)}")
    condition = condition or ("L1" if "L1" in conditions else (conditions[0] if conditions else None))
    return model, condition


def run_evaluation(store_path: str | Path, out_dir: str | Path, feature_model: str = DEFAULT_FEATURE_MODEL,
                   options: EvaluationOptions | None = None, semantic_model: str | None = "auto",
                   layer_model: str | None = None, layer_condition: str | None = None,
                   batch_size: int = DEFAULT_BATCH_SIZE, device: str | None = None,
                   cache_path: str | Path | None = None,
                   stand_in_note: str | None = None, fast_jpeg_decode: bool = True, decode: str = DEFAULT_DECODE,
                   progress: Progress | None = None,
                   lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S, clip_model: str | None = "auto",
                   ray: str | None = None, ray_workers: int | None = None,
                   recorded_options: dict | None = None, only_segments=None,
                   export_features: str | Path | None = None) -> EvaluationRun:
    """``fast_jpeg_decode``: decode large JPEGs at a reduced DCT scale that still covers the
    processor's resize target (embedding cosine vs a full decode ≥ 0.9997); off = exact.
    ``decode``: where JPEGs are decoded — auto, cpu or device (method §5 "Decoding").
    ``lock_timeout_s``: how long to wait for a store or feature cache that another run is using.
    ``semantic_model`` / ``clip_model``: ``"auto"`` (the default) uses the Mapillary-Vistas
    Mask2Former (GADS) and CLIP ViT-B/32 (the CLIP check) when the model manager has them, and
    says in a note when it has not; ``None`` or ``"none"`` skips them; else a hub id or a folder.
    ``recorded_options``: the command's options as its specification records them, added to the
    manifest's options (those of ``options`` keep their keys).
    ``only_segments``: score and report these segments only (ids, or ``@FILE``;
    :mod:`..segment_subset`) — each road's scores stay those of a run over every segment.
    ``export_features``: a folder that receives the scored features as ``.npz`` files for other
    toolkits (:mod:`.feature_export`); recorded in the manifest (``feature_export``).
    ``ray``: ``local`` or a cluster address — the embeddings run on Ray (:mod:`..scaleout.embeddings`,
    ``ray_workers`` workers), everything else here; one manifest gains a ``cluster`` section.

    Everything that can be checked without a model is checked first — the options, the device,
    the model references, the store (a real, intact benchmark store with reference panels,
    generated panels, galleries and their image files) and the output folder — so a bad input
    fails in the first seconds, not after a model load.
    """
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache
    from geofidelity_plugin.core.vision.features import FeatureExtractor, check_feature_model

    from geofidelity_plugin.core.segment_subset import LABEL, parse_only_segments, recorded as recorded_subset

    options = options or EvaluationOptions()
    options.validate()
    only = parse_only_segments(only_segments)
    if only is not None and options.protocol == "release":
        raise InputError(f"the release protocol scores every block of the release's split, as its evaluator does "
                         f"(docs/method.md §6 Release protocol) — leave out {LABEL}, or use the paper protocol")
    if export_features and options.protocol == "release":
        raise InputError("--export-features writes the features of the paper protocol's panels (docs/method.md §6 "
                         "Comparability with the field) — leave it out with --protocol release, or use the paper "
                         "protocol")
    recorded_options = {**(recorded_options or {}), "only_segments": recorded_subset(only)}
    check_number("batch size (--batch-size; in QGIS \"Batch size\")", batch_size, "count", str(DEFAULT_BATCH_SIZE))
    check_number("lock timeout (--lock-timeout)", lock_timeout_s, "non-negative", "60")
    progress = progress or NullProgress()
    ray_run = None
    if ray:  # embeddings on Ray: the workers check the device (the driver may have no GPU)
        from geofidelity_plugin.core.scaleout.embeddings import RayEvaluation

        ray_run = RayEvaluation(ray, ray_workers, device, progress)
    device = check_device(device) if ray_run is None else None
    check_feature_model(feature_model)
    from geofidelity_plugin.core.vision.clip_scores import resolve_clip_model

    semantic_model, semantic_note = resolve_semantic_model(semantic_model)
    if semantic_model:
        check_semantic_model(semantic_model)
    clip_model, clip_note = resolve_clip_model(clip_model) if options.protocol == "paper" else (None, None)
    with BenchmarkStore(store_path, create=False, lock_timeout_s=lock_timeout_s, warn=progress.warning) as store:
        check_store_ready(store, options, layer_model, layer_condition)
        out_dir = check_evaluation_folder(out_dir)
        export_dir = check_export_folder(export_features) if export_features else None
        cache = FeatureCache(cache_path, busy_timeout_s=lock_timeout_s, warn=progress.warning)
        try:
            announce_stage(progress, "loading the feature model", str(feature_model))
            extractor = FeatureExtractor(feature_model, device=device if ray_run is None else ray_run.driver_device,
                                         batch_size=batch_size, cache=cache, precision=options.precision,
                                         l2_normalise=False, fast_jpeg_decode=fast_jpeg_decode, decode=decode)
            if ray_run is not None:
                extractor = ray_run.wrap(extractor)
            models = [extractor.model_info()]
            ratio_model = clip_scorer = None
            notes = [n for n in (semantic_note, clip_note) if n]
            if semantic_model:
                from geofidelity_plugin.core.vision.semantics import SemanticRatioModel

                announce_stage(progress, "loading the segmentation model", str(semantic_model))
                ratio_model = SemanticRatioModel(semantic_model, device=device, precision=options.precision,
                                                 cache=cache)
                models.append(ratio_model.model_info())
            if clip_model:
                from geofidelity_plugin.core.vision.clip_scores import ClipScorer

                announce_stage(progress, "loading the CLIP model", str(clip_model))
                clip_scorer = ClipScorer(clip_model, device=device, batch_size=batch_size, cache=cache,
                                         precision=options.precision)
                models.append(clip_scorer.model_info())
            stand_in_note = stand_in_note or store.meta("stand_in")
            if stand_in_note:
                progress.warning(stand_in_note)
                notes.append(stand_in_note)
            announce_stage(progress, "extracting features")
            if options.protocol == "release":
                from geofidelity_plugin.core.evaluation.release.evaluate import evaluate_release
                from geofidelity_plugin.core.evaluation.release.outputs import write_release_outputs

                result = evaluate_release(store, extractor, options, ratio_model=ratio_model, progress=progress)
                models[0] = extractor.model_info()  # now with what decoding did (method §5)
                manifest = evaluation_manifest(result, options, store, models, notes)
                manifest["options"] = {**(recorded_options or {}), **manifest["options"]}
                if ray_run is not None:
                    ray_run.finish_manifest(manifest)
                paths = write_release_outputs(out_dir, result, manifest, stand_in_note)
                return EvaluationRun(result, paths, None, None, stand_in_note)
            result = evaluate_store(store, extractor, options, ratio_model=ratio_model, progress=progress,
                                    clip_scorer=clip_scorer, only=only, keep_features=export_dir is not None)
            result.notes[:0] = [n for n in (semantic_note, clip_note) if n]  # in tables.md too
            model, condition = pick_layer_panel(result.rows, layer_model, layer_condition)
            models[0] = extractor.model_info()  # now with what decoding did (method §5)
            manifest = evaluation_manifest(result, options, store, models, notes)
            manifest["options"] = {**(recorded_options or {}), **manifest["options"]}
            if ray_run is not None:
                ray_run.finish_manifest(manifest)
            if export_dir is not None:
                announce_stage(progress, "exporting the features", str(export_dir))
                manifest["feature_export"] = export_features_to(export_dir, result.features, store, models[0])
                result.features = None
            segments = [s for s in store.segments() if only is None or s["segment_id"] in only]
            paths = write_outputs(out_dir, result, segments, manifest, model, condition, stand_in_note)
        finally:
            cache.close()
            if ray_run is not None:
                ray_run.close()
    return EvaluationRun(result, paths, model, condition, stand_in_note)


def resolve_semantic_model(choice: str | None) -> tuple[str | None, str | None]:
    """``(model to load, note)`` for GADS (method §5): ``auto`` takes the Mapillary-Vistas
    Mask2Former when the model manager has it, else none with a note; ``none``/empty skips."""
    from geofidelity_plugin.core.models.resolve import ModelNotPresent, local_model
    from geofidelity_plugin.core.vision.semantics import DEFAULT_MODEL

    text = (choice or "").strip()
    if text.lower() in ("", "none", "off"):
        return None, "GADS skipped (--semantic-model none): no segmentation model"
    if text.lower() != "auto":
        return text, None
    try:
        local_model(DEFAULT_MODEL)
    except ModelNotPresent:
        return None, (f"GADS skipped: the Mapillary-Vistas Mask2Former ({DEFAULT_MODEL}) is not in the models "
                      "folder — download it with `python -m geofidelity_plugin models download mask2former-vistas` "
                      "(in QGIS: GeoFidelity › 0 · Models), or give --semantic-model")
    return DEFAULT_MODEL, None
