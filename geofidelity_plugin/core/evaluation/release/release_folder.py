"""Import and export the published GeoFidelity-Bench release layout (RELEASE_FORMAT.md), so a
user can score a new generator against the published panels, or publish a benchmark built
here in the same layout. "Block" in the release is "segment" here.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from geofidelity_plugin.core.conditions import CONDITIONS
from geofidelity_plugin.core.confined_paths import confine, joined
from geofidelity_plugin.core.countries import country_from_code
from geofidelity_plugin.core.documents import read_json
from geofidelity_plugin.core.enumerations import COUNTRY, LEVEL, Enumeration
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.locations import FOLDER, check_location
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.selection.cities import driving_side
from geofidelity_plugin.core.evaluation.galleries import (RANDOM_OTHER_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD, SAME_DRIVING_SIDE_OTHER_CITY, SAME_NEIGHBOURHOOD, build_galleries)
from geofidelity_plugin.core.store.image_roots import add_image_root
from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage
from geofidelity_plugin.core.tables import TableSchema, read_table

MANIFEST = Path("data/processed/v3/benchmark_v3.json")
BLOCKS_CSV = Path("metadata/blocks.csv")
REFERENCE_CSV = Path("metadata/reference_images.csv")
GENERATED_CSV = Path("metadata/generated_images.csv")
SCORES_CSV = Path("results/per_block_scores.csv")
LEVELS = CONDITIONS

#: release ``neg_*`` field → gallery kind here
NEG_FIELDS = {
    "neg_same_neighborhood_diff_block": SAME_NEIGHBOURHOOD,
    "neg_same_city_diff_neighborhood": SAME_CITY_OTHER_NEIGHBOURHOOD,
    "neg_same_driving_side_diff_city": SAME_DRIVING_SIDE_OTHER_CITY,
    "neg_random_city": RANDOM_OTHER_CITY,
}


#: what a release root holds, for the messages that say what is missing
LAYOUT = (f"a release root holds {MANIFEST.as_posix()} ({{\"blocks\": [{{block_id, city, country, centroid: "
          f"[lat, lon], images, neg_*}}, …]}}), {REFERENCE_CSV.as_posix()} (reference_id, image_id, image_path, "
          f"block_id, …), {GENERATED_CSV.as_posix()} (model, block_id, level, sample_index, image_path, …) and the "
          "image folders data/raw/mapillary_v3/{block_id}/ and generations_v3/{model}/{level}/{block_id}/")
#: what to do about an image path that leaves the release (confined_paths.confine)
PATH_FIX = ("list every image by its path relative to the release root (e.g. data/raw/mapillary_v3/{block_id}/"
            "mapillary_{image_id}.jpg), naming an image file inside the release — correct that row, or download the "
            "release again; nothing was imported")
REFERENCE_COLUMNS = ("reference_id", "block_id", "image_path")
GENERATED_COLUMNS = ("model", "block_id", "level", "sample_index", "image_path")


#: the release's metadata tables as the one table reader checks them (RELEASE_FORMAT.md): a row given
#: twice would be counted twice and stored once, so a repeated key is refused, naming both lines
_RELEASE_FIX = "the release is inconsistent: correct the file, or download the release again"
_NO_SEED = ("", "missing", "none", "nan")
REFERENCE_TABLE = TableSchema("release table", REFERENCE_COLUMNS, filled=REFERENCE_COLUMNS, key=("reference_id",),
                              types={"lon": "float", "lat": "float", "captured_at_utc_ms": "float"},
                              key_label=lambda r: f"reference_id {r['reference_id']!r}", rows_required=False,
                              fix=_RELEASE_FIX)
GENERATED_TABLE = TableSchema("release table", GENERATED_COLUMNS, filled=GENERATED_COLUMNS,
                              key=("model", "level", "block_id", "sample_index"), nulls=_NO_SEED,
                              types={"sample_index": "int", "seed": "float"},
                              enums={"level": LEVEL}, rows_required=False, fix=_RELEASE_FIX,
                              key_label=lambda r: f"model {r['model']!r}, level {r['level']}, block {r['block_id']}, "
                                                  f"sample_index {int(r['sample_index'])}")


def _read_csv(path: Path, schema: TableSchema) -> list[dict]:
    """Rows of a release CSV (each with its line number as ``_line``), read and checked by the one
    table reader (:mod:`geofidelity_plugin.core.tables`)."""
    return [{**row, "_line": row.line} for row in read_table(path, schema).rows]


def _int_or_none(value) -> int | None:
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None


def check_release_root(root: str | Path) -> Path:
    """``root`` is a folder holding the release manifest; returns it as a ``Path``."""
    root = check_location(root, FOLDER, what="release folder", fix=f"give the release's root folder ({LAYOUT})",
                          missing="check the path: it was not found")
    if not (root / MANIFEST).is_file():
        raise InputError(f"{root} is not a GeoFidelity-Bench release: {MANIFEST.as_posix()} is missing — point "
                         f"at the release's root folder (the one holding data/ and metadata/); {LAYOUT}")
    return root.resolve()  # image paths made from it hold wherever the store lies, whatever the working folder


def _read_blocks(root: Path) -> list[dict]:
    path = root / MANIFEST
    data = read_json(path, "release manifest", "it is not a valid benchmark manifest: download the release "
                     "again", expect=None)
    blocks = data.get("blocks") if isinstance(data, dict) else None
    if not isinstance(blocks, list) or not blocks:
        raise InputError(f"{path} has no 'blocks' list (or it is empty) — a release manifest is "
                         "{\"blocks\": [{block_id, city, country, centroid: [lat, lon], images, neg_*}, …]}")
    return blocks


def _text(value) -> str:
    return "" if value is None else str(value)


def _segment(b, index: int) -> dict:
    """The segment of one release block, checked."""
    where = f"block #{index + 1} of {MANIFEST.as_posix()}"
    if not isinstance(b, dict):
        raise InputError(f"{where} is not an object with block_id, city and centroid")
    if b.get("block_id") in (None, ""):
        raise InputError(f"{where} has no block_id")
    sid = str(b["block_id"])
    try:
        lat, lon = float(b["centroid"][0]), float(b["centroid"][1])
    except (KeyError, TypeError, ValueError, IndexError):
        raise InputError(f"block {sid} in {MANIFEST.as_posix()} has no valid centroid [lat, lon] (got "
                         f"{b.get('centroid')!r}) — download the release again") from None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise InputError(f"block {sid} in {MANIFEST.as_posix()}: centroid [{lat}, {lon}] is not [lat, lon] in degrees")
    if not _text(b.get("city")).strip():
        raise InputError(f"block {sid} in {MANIFEST.as_posix()} has no city — every block needs one")
    name, code = country_from_code(_text(b.get("country")))  # "FI" → ("Finland", "FI"): prompts name the country
    if name and not code:  # checked against the one country table (enumerations.COUNTRY)
        raise InputError(f"block {sid} in {MANIFEST.as_posix()}: country {name!r} is not {COUNTRY.allowed()} — "
                         "correct the block's country, or download the release again")
    return {"segment_id": sid, "city": _text(b["city"]), "country": name, "country_code": code,
            "street_name": _text(b.get("street_name")), "neighbourhood": _text(b.get("neighborhood")),
            "road_class": _text(b.get("stratum")),
            "driving_side": driving_side(code) if code else "",
            "centroid_lon": lon, "centroid_lat": lat}


def import_release(root: str | Path, store: BenchmarkStore, seed: int = 0,
                   progress: Progress | None = None) -> dict[str, int]:
    """Load a release folder into ``store``; returns counts. Everything is read and checked
    before the store is written. A few missing images are counted, not fatal (the evaluation
    lists them per image); a release whose reference images are all missing is refused."""
    root = check_release_root(root)
    blocks = _read_blocks(root)
    segments, keep = [], {}
    for index, b in enumerate(blocks):
        segment = _segment(b, index)
        sid = segment["segment_id"]
        if sid in keep:
            raise InputError(f"block {sid} occurs twice in {MANIFEST.as_posix()} — block ids must be unique")
        segments.append(segment)
        keep[sid] = {kind: (str(b[field]) if b.get(field) not in (None, "") else None)
                     for field, kind in NEG_FIELDS.items()}
    known = {s["segment_id"] for s in segments}
    for sid, kinds in keep.items():
        for kind, neg in kinds.items():
            if neg is not None and neg not in known:
                raise InputError(f"block {sid}: {kind} negative {neg!r} is not a block of the release")
    check_cancel(progress, "importing the release")
    refs = _references(root, blocks)
    unknown = sorted({r["segment_id"] for r in refs} - known)
    if unknown:
        raise InputError(f"reference images name unknown blocks {unknown[:5]} — the release is inconsistent")
    if not refs:  # a header with no rows (the manifest alone always lists images, or is refused)
        raise InputError(f"{root / REFERENCE_CSV} lists no reference image — a release lists every reference image "
                         "there (reference_id, image_id, image_path, block_id, …): download the release again")
    present = sum(1 for r in refs if Path(r["image_path"]).is_file())
    if not present:
        example = f" (e.g. {Path(refs[0]['image_path']).relative_to(root).as_posix()})" if refs else ""
        raise InputError(f"the reference images of {root} are missing: {present} of {len(refs)} listed are on "
                         f"disk{example} — unpack the release's images into data/raw/mapillary_v3/{{block_id}}/ "
                         "under the release root and import again")
    generated = _generated(root, known, progress)
    store.put_segments(segments)
    store.put_reference_images(refs)
    if generated:
        store.put_generated(generated)
    store.put_galleries(build_galleries(segments, seed=seed, keep=keep))
    store.set_meta("source", {"kind": "geofidelity-bench release", "root": str(root)})
    add_image_root(store, root)
    store.set_meta("release_layout", release_layout_record(root, blocks, refs))
    missing = len(refs) - present + sum(1 for g in generated if not Path(g.image_path).exists())
    return {"segments": len(segments), "reference_images": len(refs), "generated_images": len(generated),
            "missing_files": missing}


def release_layout_record(root: Path, blocks: list[dict], refs: list[dict]) -> dict:
    """What ``evaluate --protocol release`` needs that the store's tables do not keep: the blocks
    in the manifest's order, each block's reference images in the manifest's image order (then
    any other of its rows in reference_images.csv order), the release's own country codes and
    its ``neg_*`` fields as given (the galleries fill missing kinds; the release's evaluator does
    not) — docs/method.md §6 Release protocol."""
    by_block: dict[str, list[dict]] = {}
    for r in refs:
        by_block.setdefault(r["segment_id"], []).append(r)
    out = []
    for b in blocks:
        sid = str(b["block_id"])
        rows = by_block.get(sid, [])
        position = {}
        images = b.get("images") or []
        for i, img in enumerate(images if isinstance(images, list) else [images]):
            if isinstance(img, dict) and img.get("image_path"):
                position.setdefault(str(joined(root, str(img["image_path"]))), i)
        ordered = sorted(range(len(rows)), key=lambda k: (position.get(rows[k]["image_path"], len(position)), k))
        out.append({"block_id": sid, "country": _text(b.get("country")),
                    "reference_ids": [rows[k]["reference_id"] for k in ordered],
                    "negatives": {field: (str(b[field]) if b.get(field) not in (None, "") else None)
                                  for field in NEG_FIELDS}})
    return {"blocks": out}


def _references(root: Path, blocks: list[dict]) -> list[dict]:
    if (root / REFERENCE_CSV).is_file():
        refs = []
        blocks_known = Enumeration("block of the release", tuple(str(b.get("block_id")) for b in blocks),
                                   listing=f"a block_id of {MANIFEST.as_posix()}")
        for r in _read_csv(root / REFERENCE_CSV, replace(REFERENCE_TABLE, enums={"block_id": blocks_known})):
            refs.append({"reference_id": r["reference_id"], "segment_id": r["block_id"],
                         "image_id": r.get("image_id"),
                         "image_path": str(confine(root, r["image_path"], what="image_path", source=root / REFERENCE_CSV,
                                                   line=r["_line"], column="image_path", fix=PATH_FIX)),
                         "lon": _float(r.get("lon")), "lat": _float(r.get("lat")),
                         "captured_at_ms": _int_or_none(r.get("captured_at_utc_ms"))})
        return refs
    refs = []  # the manifest alone: images listed per block
    for b in blocks:
        images = b.get("images") or []
        for i, img in enumerate(images if isinstance(images, list) else [images]):
            if not isinstance(img, dict) or not img.get("image_path"):
                raise InputError(f"block {b['block_id']} in {MANIFEST.as_posix()}: image #{i + 1} has no "
                                 f"image_path, and there is no {REFERENCE_CSV.as_posix()} — {LAYOUT}")
            path = confine(root, img["image_path"], what="image_path", fix=PATH_FIX,
                           source=f"{root / MANIFEST} (block {b['block_id']}, image #{i + 1})")
            refs.append({"reference_id": f"{b['block_id']}:{i}", "segment_id": str(b["block_id"]),
                         "image_id": img.get("image_id"), "image_path": str(path)})
    return refs


def _generated(root: Path, known: set[str], progress: Progress | None) -> list[GeneratedImage]:
    path = root / GENERATED_CSV
    if not path.is_file():
        return []
    generated = []
    for r in _read_csv(path, GENERATED_TABLE):
        if len(generated) % 5000 == 0:
            check_cancel(progress, "importing generated images")
        sample = int(r["sample_index"])
        if r["block_id"] not in known:
            raise InputError(f"{path} line {r['_line']}: block {r['block_id']!r} is not a block of the release "
                             f"({MANIFEST.as_posix()}) — the release is inconsistent")
        generated.append(GeneratedImage(
            model=r["model"], condition=r["level"], segment_id=r["block_id"], sample_index=sample,
            image_path=str(confine(root, r["image_path"], what="image_path", source=path, line=r["_line"],
                                   column="image_path", fix=PATH_FIX)),
            seed=_int_or_none(r.get("seed")), prompt=r.get("prompt"),
            prompt_meta=r.get("prompt_meta"), origin=r.get("image_origin") or "release"))
    return generated


def _float(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
