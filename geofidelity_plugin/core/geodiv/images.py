"""Which images GeoDiv scores (docs/method.md, GeoDiv): the generated panels of a benchmark
store, labelled by model, prompt condition, city and country, and the real reference panels of
the same segments as the baseline rows (model ``real``, condition ``reference``). Stdlib only.
"""
from __future__ import annotations

from ..errors import InputError

REAL_MODEL = "real"
REAL_CONDITION = "reference"
LABELS = ("model", "condition", "city", "country", "segment_id")


def store_images(store_path, include_real: bool = True, models=None) -> list[dict]:
    """Rows ``{image_id, path, model, condition, city, country, segment_id}`` from the store."""
    from ..store.store import BenchmarkStore

    store = BenchmarkStore(store_path, create=False)
    try:
        segments = {s["segment_id"]: s for s in store.segments()}
        generated = store.generated_panels()
        references = store.reference_panels() if include_real else {}
    finally:
        store.close()
    wanted = set(models or [])
    rows: list[dict] = []
    used_segments = set()
    for (model, condition, segment_id), images in sorted(generated.items()):
        if wanted and model not in wanted:
            continue
        used_segments.add(segment_id)
        for image in images:
            rows.append(_row(f"{model}/{condition}/{segment_id}/{image['sample_index']}", image["abs_path"],
                             model, condition, segments.get(segment_id, {}), segment_id))
    for segment_id, images in sorted(references.items()):
        if used_segments and segment_id not in used_segments:
            continue  # the baseline covers the segments the models drew
        for image in images:
            rows.append(_row(f"{REAL_MODEL}/{image['reference_id']}", image["abs_path"], REAL_MODEL, REAL_CONDITION,
                             segments.get(segment_id, {}), segment_id))
    if not rows:
        raise InputError(f"the benchmark store {store_path} has no generated or reference images — run the "
                         "reference-panel and generation steps first, or give --images")
    return rows


def _row(image_id, path, model, condition, segment: dict, segment_id) -> dict:
    return {"image_id": image_id, "path": str(path), "model": model, "condition": condition,
            "city": segment.get("city") or "", "country": segment.get("country") or "", "segment_id": segment_id}


def folder_images(folder, model: str = "folder", condition: str = "", unusable=None) -> list[dict]:
    """Every image in ``folder`` (recursively), one group; ``city`` is its sub-folder name.

    Each file with an image suffix is decoded whole first and must stay inside ``folder``; one
    that cannot be used (junk, empty, truncated, a decompression bomb, undecodable, a link out of
    the folder) is left out and counted, with its reason, in ``unusable``
    (:class:`~geofidelity_plugin.core.vision.unusable_images.UnusableImages`) for the log, the
    manifest and the run's failed_images.csv."""
    from ..vision.unusable_images import UnusableImages, image_problem

    from ..locations import FOLDER, check_location

    folder = check_location(folder, FOLDER, what="image folder", fix="give a folder of images",
                            missing="check the path: it was not found")
    unusable = unusable if unusable is not None else UnusableImages(f"the image folder {folder}")
    paths = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".webp")
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    good = []
    for p in paths:
        problem = image_problem(p, folder)
        if problem:
            unusable.add(p, problem)
        else:
            good.append(p)
    if not good:
        found = f" ({unusable.summary()})" if unusable else ""
        raise InputError(f"image folder {folder} has no usable .jpg/.png/.webp images{found} — give a folder of images")
    return [{"image_id": p.relative_to(folder).as_posix(), "path": str(p), "model": model, "condition": condition,
             "city": p.parent.name if p.parent != folder else "", "country": "", "segment_id": ""} for p in good]


def limit_per_group(rows: list[dict], group_by, n: int) -> list[dict]:
    """At most ``n`` images per group (``n`` ≤ 0: all), chosen by the hash of their image id — the
    same images on every run, spread over the group's segments rather than its first ones."""
    import hashlib

    if n <= 0:
        return rows
    by_group: dict[tuple, list[dict]] = {}
    for row in rows:
        by_group.setdefault(tuple(str(row.get(c, "")) for c in group_by), []).append(row)
    kept = []
    for members in by_group.values():
        kept += sorted(members, key=lambda r: hashlib.sha1(r["image_id"].encode()).hexdigest())[:n]
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(kept, key=lambda r: order[id(r)])
