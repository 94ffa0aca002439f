"""What ``evaluate`` checks in a store before it loads any model (docs/method.md, "Errors and exit
codes"): there must be segments, reference panels, generated panels and galleries, the held-out
anchor must fit in at least one reference panel, and the panel chosen for the map must exist.
Each failure names the store and the command that adds what is missing.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from ..store.store import BenchmarkStore


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_store_ready(store: BenchmarkStore, options, layer_model: str | None = None,
                      layer_condition: str | None = None) -> None:
    """Raise :class:`InputError` when ``store`` cannot give a meaningful evaluation."""
    path = store.path
    counts = store.counts()
    store.segments()  # every record readable (a damaged one is reported as such, now)
    if counts["segments"] == 0:
        raise InputError(f"the benchmark store {path} has no segments — select them (select-segments, then "
                         "fetch-mapillary and curate) or import a release (import-release)")
    sizes = [len(images) for images in store.reference_panels().values() if images]
    if not sizes:
        raise InputError(f"the benchmark store {path} has no reference panels (no reference images, or every one "
                         "was rejected in the audit) — fetch and curate them (fetch-mapillary, then curate) or "
                         "import a release (import-release), then run evaluate again")
    if counts["generated_images"] == 0 and not options.anchors_only:
        raise InputError(f"the benchmark store {path} has no generated panels, so there is nothing to evaluate — "
                         "generate them (generate) or record images made by another generator "
                         "(import-generated), then run evaluate again; or score only the real anchors, the "
                         "benchmark's own baseline (--anchors-only; in QGIS \"Score the real anchors only\")")
    if counts["galleries"] == 0:
        raise InputError(f"the benchmark store {path} has no galleries: every panel is scored by retrieval "
                         "against its segment's hard negatives — run build-galleries on this store first")
    check_holdout(options, sizes)
    if not options.anchors_only:
        check_layer_choice(store, layer_model, layer_condition)
    check_image_files(store, options)


def _all_missing(store: BenchmarkStore, rows: list[dict], what: str) -> None:
    """Refuse when every one of ``rows``' image files is missing: the store was moved alone."""
    if not rows or any(os.path.exists(r["abs_path"]) for r in rows):
        return
    folders = sorted({Path(r["image_path"]).parts[0] + "/" for r in rows if not Path(r["image_path"]).is_absolute()})
    where = (f"{', '.join(folders[:3])} beside the store" if folders else "the folders they were recorded in")
    raise InputError(f"all {len(rows)} {what} images of the store {store.path} are missing — the store was moved "
                     f"without its image folders ({where}; e.g. {rows[0]['abs_path']} does not exist) — copy "
                     "them next to the store, or run evaluate on the store where it was")


def check_image_files(store: BenchmarkStore, options) -> None:
    """Before any model is loaded: a store whose reference (or generated) images are all missing
    cannot be scored. When only some are missing the run goes on; :func:`failed_images_note`
    counts them in one line and failed_images.csv lists them."""
    _all_missing(store, [r for images in store.reference_panels().values() for r in images], "reference")
    if not options.anchors_only:
        _all_missing(store, [g for images in store.generated_panels().values() for g in images], "generated")


def failed_images_note(failed: dict[str, str]) -> str | None:
    """One line for every image that could not be used: how many files are missing, how many
    could not be read (each one is listed, with its reason, in failed_images.csv)."""
    if not failed:
        return None
    from ..vision.unusable_images import failed_kinds

    missing = sum(reason == "file not found" for reason in failed.values())
    why = ", ".join(f"{n} {kind}" for kind, n in failed_kinds(
        {p: r for p, r in failed.items() if r != "file not found"}).items())
    kinds = [f"{missing} missing" if missing else "", f"{len(failed) - missing} unreadable ({why})"
             if len(failed) > missing else ""]
    example = next(iter(sorted(failed.items())))
    return (f"{_count(len(failed), 'image')} skipped ({', '.join(k for k in kinds if k)}; e.g. {example[0]}: "
            f"{example[1]}) — each one is listed in failed_images.csv")


def check_holdout(options, sizes: list[int]) -> None:
    """The held-out anchor takes ``holdout_size`` images out of a reference panel and keeps at
    least one: refuse a size that no panel can give."""
    holdout = options.holdout_size
    if not options.anchors or holdout <= 0 or max(sizes) > holdout:
        return
    largest, smallest = max(sizes), min(sizes)
    fix = (f"use --holdout-size {largest - 1} or less, or 0 to skip the held-out anchor" if largest > 1 else
           "with one image per panel there is nothing to hold out: use --holdout-size 0 to skip the held-out anchor")
    raise InputError(
        f"the held-out anchor size {holdout} (--holdout-size; in QGIS \"Held-out anchor size\") leaves no reference "
        f"image in any panel: the largest reference panel has {_count(largest, 'image')} (the smallest {smallest}) "
        f"— {fix}")


def check_layer_choice(store: BenchmarkStore, model: str | None, condition: str | None) -> None:
    """The model (and condition) asked for the map layer has generated panels."""
    panels = store.generated_panels()
    models = sorted({m for m, _, _ in panels})
    if model and model not in models:
        raise InputError(f"model {model!r} has no generated panel in {store.path}; its models: "
                         f"{', '.join(models)} — choose one of them for the map (or leave it empty)")
    chosen = model or models[0]
    conditions = sorted({c for m, c, _ in panels if m == chosen})
    if condition and condition not in conditions:
        raise InputError(f"condition {condition!r} has no panel of {chosen} in {store.path}; its conditions: "
                         f"{', '.join(conditions)} — choose one of them for the map")


def anchors_only_note(options) -> str | None:
    if not options.anchors_only:
        return None
    return ("only the real anchors were scored (--anchors-only), no generated panel: the tables by condition, "
            "the paired deltas and the city-balanced table are empty")


def holdout_note(layout, options) -> str | None:
    """Which segments lost their held-out anchor because their panel is too small."""
    if not options.anchors or options.holdout_size <= 0:
        return None
    lost = [sid for sid in layout.segment_ids if sid not in layout.held_out]
    if not lost:
        return None
    total = len(layout.segment_ids)
    return (f"held-out anchor missing for {len(lost)} of {_count(total, 'segment')}: their usable reference "
            f"panel has {options.holdout_size} images or fewer, and the anchor (--holdout-size "
            f"{options.holdout_size}) must leave at least one")


def unbiased_note(rows: list[dict], options) -> str | None:
    """How many panels have no unbiased MMD² (a panel of one image)."""
    if not options.mmd_unbiased:
        return None
    missing = sum(r.get("mmd2") is None for r in rows)
    if not missing:
        return None
    return (f"unbiased MMD² and DCSF left empty for {_count(missing, 'panel')}: the U-statistic needs at least "
            "2 images in both the generated and the reference panel (a held-out anchor's reduced reference "
            "panel can have one) — the tables average the other panels")


def skipped_note(skipped: list[dict]) -> str | None:
    """How many generated panels were left out, by reason (the manifest lists each one)."""
    reasons: dict[str, int] = {}
    for item in skipped:
        if item.get("model"):
            reasons[item["reason"]] = reasons.get(item["reason"], 0) + 1
    if not reasons:
        return None
    total = sum(reasons.values())
    detail = "; ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items()))
    return (f"{_count(total, 'generated panel')} not scored ({detail}) — each is listed under outputs.skipped "
            "in the manifest")
