"""``evaluate --protocol release`` (docs/method.md §6 "Release protocol"): score every generated
panel of a store, and the release's three baselines, exactly as the published release's own
evaluator does, then its summaries (mean and standard deviation by method, method × level,
city × method and level).

The layout — block order, each block's image order and its own ``neg_*`` blocks — is the one
``import-release`` recorded in the store (meta ``release_layout``); a store built here gets the
segments by id, the reference images by id and the store's galleries (same-neighbourhood in the
release's first column).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.progress import NullProgress, Progress, SubProgress, check_cancel
from geofidelity_plugin.core.store.store import BenchmarkStore
from geofidelity_plugin.core.evaluation.galleries import (RANDOM_OTHER_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD, SAME_DRIVING_SIDE_OTHER_CITY, SAME_NEIGHBOURHOOD)
from geofidelity_plugin.core.evaluation.release.protocol import (BASELINES, BASELINE_LEVEL, NEG_FIELDS, ORACLE, RANDOM_GLOBAL, RANDOM_SAME_COUNTRY, RAW_COLUMNS, SUMMARIES, SUMMARY_METRICS, Block, baseline_paths, score_row, split_block)

LAYOUT_META = "release_layout"
#: why a block has no panel of a baseline (``baseline_paths`` draws none)
BASELINE_GAPS = {ORACLE: "no held-out reference image could be embedded",
                 RANDOM_GLOBAL: "no reference image in the release",
                 RANDOM_SAME_COUNTRY: "no other block of its country {country} to draw reference images from"}
#: gallery kind here → the release's negative field, for a store built here
KIND_FIELDS = {SAME_NEIGHBOURHOOD: NEG_FIELDS[0], SAME_CITY_OTHER_NEIGHBOURHOOD: NEG_FIELDS[1],
               SAME_DRIVING_SIDE_OTHER_CITY: NEG_FIELDS[2], RANDOM_OTHER_CITY: NEG_FIELDS[3]}


@dataclass
class ReleaseResult:
    rows: list[dict]
    summaries: dict[str, list[dict]]
    failed_images: dict[str, str]
    feature_stats: dict
    skipped: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    gamma: float = float("nan")   # no run-wide γ: the release fits one per pair (each row's ``gamma``)
    tables: dict = field(default_factory=dict)


def release_layout(store: BenchmarkStore) -> tuple[list[Block], str]:
    """The blocks in the release's order, and where the layout came from."""
    segments = {s["segment_id"]: s for s in store.segments()}
    panels = store.reference_panels()
    recorded = store.meta(LAYOUT_META)
    if recorded:
        path_of = {r["reference_id"]: r["abs_path"] for images in panels.values() for r in images}
        blocks = []
        for b in recorded["blocks"]:
            seg = segments.get(b["block_id"])
            if seg is None:
                continue
            blocks.append(Block(b["block_id"], seg["city"], b.get("country") or seg.get("country_code") or "",
                                [path_of[r] for r in b["reference_ids"] if r in path_of],
                                {f: (b.get("negatives") or {}).get(f) or None for f in NEG_FIELDS}))
        return blocks, "the release's own order and neg_* blocks (recorded by import-release)"
    galleries = store.galleries()
    blocks = [Block(sid, s["city"], s.get("country_code") or "", [r["abs_path"] for r in panels.get(sid, [])],
                    {f: galleries.get(sid, {}).get(kind) for kind, f in KIND_FIELDS.items()})
              for sid, s in sorted(segments.items())]
    return blocks, ("segments and reference images by id and the store's galleries (same-neighbourhood as the "
                    "release's first negative): the store was not made by import-release")


def evaluate_release(store: BenchmarkStore, embedder, options, ratio_model=None,
                     progress: Progress | None = None) -> ReleaseResult:
    """Score every generated panel and the baselines with the release's evaluator."""
    from geofidelity_plugin.core.evaluation.embedding_rows import _embed, _ratios

    progress = progress or NullProgress()
    blocks, source = release_layout(store)
    if not blocks:
        raise InputError(f"{store.path.name} has no segments — import a release (import-release) first")
    generated = {} if options.anchors_only else store.generated_panels()
    paths = sorted({p for b in blocks for p in b.images} |
                   {g["abs_path"] for images in generated.values() for g in images})
    progress.info(f"embedding {len(paths)} images")
    embed, failed, stats = _embed(paths, embedder, options, SubProgress(progress, 0, 70))
    ratios, ratio_failed = {}, {}
    if ratio_model is not None:
        ratios, ratio_failed = _ratios([p for p in paths if p in embed], ratio_model, SubProgress(progress, 70, 85))
    check_cancel(progress, "scoring (release protocol)")
    by_id = {b.block_id: b for b in blocks}
    split = {b.block_id: split_block(b.block_id, b.images, options.seed) for b in blocks}
    gallery = {bid: [p for p in split[bid][1] if p in embed] for bid in by_id}
    means = {bid: np.stack([embed[p] for p in paths_]).mean(0) for bid, paths_ in gallery.items() if paths_}
    notes = [f"release protocol: layout from {source}; split, retrieval, γ per pair, GAAS and baselines as the "
             "published release's evaluator (docs/method.md §6 Release protocol)"]
    skipped: list[dict] = []
    panels = [(model, level, sid, [g["abs_path"] for g in images])
              for (model, level, sid), images in sorted(generated.items())]
    for b in blocks:
        held = [p for p in split[b.block_id][0] if p in embed]
        chosen_by_method = baseline_paths(b, held, blocks, options.seed)
        for method, chosen in chosen_by_method.items():
            panels.append((method, BASELINE_LEVEL, b.block_id, chosen))
        for method in BASELINES:  # a baseline with nothing to draw from is a skipped row, never a silent gap
            if method not in chosen_by_method:
                skipped.append({"model": method, "condition": BASELINE_LEVEL, "segment_id": b.block_id,
                                "reason": BASELINE_GAPS[method].format(country=b.country or "(none)")})
    rows = []
    for model, level, sid, image_paths in panels:
        block = by_id.get(sid)
        good = [p for p in image_paths if p in embed]
        reason = (None if block is not None else "block is not in the release layout") or \
            (None if sid in means else "its gallery split is empty (every image held out, or none usable)") or \
            (None if good else "every image failed to load")
        if reason:
            skipped.append({"model": model, "condition": level, "segment_id": sid, "reason": reason})
            continue
        gallery_means = [means[sid]] + [means.get(block.negatives.get(f) or "") for f in NEG_FIELDS]
        gen = np.stack([embed[p] for p in good])
        target = np.stack([embed[p] for p in gallery[sid]])
        gen_ratios = _stack(ratios, good)
        ref_ratios = _stack(ratios, gallery[sid])
        values = score_row(gen, target, gallery_means, gen_ratios, ref_ratios)
        rows.append({"method": model, "level": level, "block_id": sid, "city": block.city,
                     "country": block.country, **values})
    if not rows:
        raise InputError("no panel can be scored under the release protocol: "
                         + "; ".join(sorted({s["reason"] for s in skipped})[:3]))
    notes += _notes(rows, skipped, failed, ratio_model, ratios, options)
    for note in notes[1:]:
        progress.warning(note)
    failed_all = {**failed, **{p: f"semantic: {r}" for p, r in ratio_failed.items()}}
    result = ReleaseResult([{c: _clean(r.get(c)) for c in RAW_COLUMNS} for r in rows],
                           summaries(rows), failed_all, stats, skipped, notes)
    progress.set_progress(100)
    return result


def _stack(ratios: dict, paths: list[str]):
    if not ratios or any(p not in ratios for p in paths):
        return None
    return np.stack([ratios[p] for p in paths]).astype(np.float64)


def _clean(value):
    if isinstance(value, (float, np.floating)):
        return None if np.isnan(value) else float(value)
    return value


def _notes(rows, skipped, failed, ratio_model, ratios, options) -> list[str]:
    from geofidelity_plugin.core.evaluation.preflight import failed_images_note, skipped_note

    baseline_skips = [s for s in skipped if s["condition"] == BASELINE_LEVEL]
    generated_skips = [s for s in skipped if s["condition"] != BASELINE_LEVEL]  # each panel counted once
    notes = [n for n in (failed_images_note(failed), skipped_note(generated_skips)) if n]
    if baseline_skips:
        notes.append(f"{len(baseline_skips)} baseline panel(s) not scored: "
                     + "; ".join(sorted({s['reason'] for s in baseline_skips}))
                     + " — each is listed under outputs.skipped in the manifest")
    no_mmd = sum(1 for r in rows if np.isnan(r["mmd"]))
    if no_mmd:
        notes.append(f"mmd and dcsf empty for {no_mmd} row(s): the unbiased MMD² needs ≥ 2 images in the generated "
                     "panel and in the block's gallery split (a block of 2–3 images keeps 1–2)")
    if ratio_model is None:
        notes.append("gaas empty: no Mapillary-Vistas segmentation model (download mask2former-vistas with "
                     "`python -m geofidelity_plugin models download mask2former-vistas`, or give --semantic-model)")
    else:
        no_gaas = sum(1 for r in rows if np.isnan(r["gaas"]))
        if no_gaas:
            notes.append(f"gaas empty for {no_gaas} row(s): an image of the panel or of its gallery split has no "
                         "semantic ratios (listed in failed_images.csv)")
    if options.anchors_only:
        notes.append("only the baselines were scored (--anchors-only)")
    return notes


def summaries(rows: list[dict]) -> dict[str, list[dict]]:
    """Mean and sample standard deviation (n − 1; empty below 2 values) of each summary metric,
    missing values left out, for every group of :data:`SUMMARIES`."""
    out = {}
    for name, keys in SUMMARIES.items():
        groups: dict[tuple, list[dict]] = {}
        for r in rows:
            groups.setdefault(tuple(r[k] for k in keys), []).append(r)
        table = []
        for key in sorted(groups, key=lambda k: tuple(str(x) for x in k)):
            members = groups[key]
            entry = dict(zip(keys, key), rows=len(members))
            for metric in SUMMARY_METRICS:
                values = np.array([r[metric] for r in members if r[metric] is not None and not np.isnan(r[metric])])
                entry[f"{metric}_mean"] = float(values.mean()) if values.size else None
                entry[f"{metric}_std"] = float(values.std(ddof=1)) if values.size > 1 else None
            table.append(entry)
        out[name] = table
    return out
