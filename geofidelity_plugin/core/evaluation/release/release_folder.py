"""Import and export the published GeoFidelity-Bench release layout (RELEASE_FORMAT.md), so a
user can score a new generator against the published panels, or publish a benchmark built
here in the same layout. "Block" in the release is "segment" here.
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

from geofidelity_plugin.core.conditions import CONDITIONS
from geofidelity_plugin.core.countries import country_from_code
from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.atomic import StagedFolder, staged_folder
from geofidelity_plugin.core.errors import InputError, OutputError, describe_os_error
from geofidelity_plugin.core.output_paths import check_output_folder
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.selection.cities import driving_side
from geofidelity_plugin.core.evaluation.galleries import (RANDOM_OTHER_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD, SAME_DRIVING_SIDE_OTHER_CITY, SAME_NEIGHBOURHOOD, build_galleries)
from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage

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
REFERENCE_COLUMNS = ("reference_id", "block_id", "image_path")
GENERATED_COLUMNS = ("model", "block_id", "level", "sample_index", "image_path")


def _read_csv(path: Path, required: tuple[str, ...] = ()) -> list[dict]:
    """Rows of a release CSV (each with its line number as ``_line``); a file that is not UTF-8,
    lacks a column of ``required`` or has ragged rows is an :class:`InputError`."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            header = [(h or "").strip() for h in reader.fieldnames or []]
            missing = [c for c in required if c not in header]
            if missing:
                raise InputError(f"{path} lacks the column(s) {', '.join(missing)} (its columns: "
                                 f"{', '.join(header[:12]) or 'none'}) — {LAYOUT}")
            reader.fieldnames = header
            rows = []
            for row in reader:
                if None in row:
                    raise InputError(f"{path} line {reader.line_num} has more cells than the header — "
                                     "download the release again")
                row["_line"] = reader.line_num
                rows.append(row)
            return rows
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text — download the release again (or save the file as "
                         "CSV UTF-8)") from None
    except csv.Error as exc:
        raise InputError(f"{path} is not a readable CSV ({exc}) — download the release again") from None


def _int_or_none(value) -> int | None:
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None


def check_release_root(root: str | Path) -> Path:
    """``root`` is a folder holding the release manifest; returns it as a ``Path``."""
    root = Path(root).expanduser()
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "not found"
        raise InputError(f"release folder {root} {what} — give the release's root folder ({LAYOUT})")
    if not (root / MANIFEST).is_file():
        raise InputError(f"{root} is not a GeoFidelity-Bench release: {MANIFEST.as_posix()} is missing — point "
                         f"at the release's root folder (the one holding data/ and metadata/); {LAYOUT}")
    return root.resolve()  # image paths made from it hold wherever the store lies, whatever the working folder


def _read_blocks(root: Path) -> list[dict]:
    path = root / MANIFEST
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{path} is not a valid benchmark manifest: it is not valid JSON ({exc}) — download "
                         "the release again") from None
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
    present = sum(1 for r in refs if Path(r["image_path"]).is_file())
    if not refs or not present:
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
                position.setdefault(str(root / str(img["image_path"])), i)
        ordered = sorted(range(len(rows)), key=lambda k: (position.get(rows[k]["image_path"], len(position)), k))
        out.append({"block_id": sid, "country": _text(b.get("country")),
                    "reference_ids": [rows[k]["reference_id"] for k in ordered],
                    "negatives": {field: (str(b[field]) if b.get(field) not in (None, "") else None)
                                  for field in NEG_FIELDS}})
    return {"blocks": out}


def _references(root: Path, blocks: list[dict]) -> list[dict]:
    if (root / REFERENCE_CSV).is_file():
        refs, lines = [], {}
        for r in _read_csv(root / REFERENCE_CSV, REFERENCE_COLUMNS):
            if not r["reference_id"] or not r["block_id"] or not r["image_path"]:
                raise InputError(f"{root / REFERENCE_CSV} line {r['_line']}: reference_id, block_id and "
                                 "image_path must not be empty")
            _refuse_duplicate(root / REFERENCE_CSV, lines, r["reference_id"], r["_line"],
                              f"reference_id {r['reference_id']!r}")
            refs.append({"reference_id": r["reference_id"], "segment_id": r["block_id"],
                         "image_id": r.get("image_id"), "image_path": str(root / r["image_path"]),
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
            refs.append({"reference_id": f"{b['block_id']}:{i}", "segment_id": str(b["block_id"]),
                         "image_id": img.get("image_id"), "image_path": str(root / str(img["image_path"]))})
    return refs


def _generated(root: Path, known: set[str], progress: Progress | None) -> list[GeneratedImage]:
    path = root / GENERATED_CSV
    if not path.is_file():
        return []
    generated, lines = [], {}
    for r in _read_csv(path, GENERATED_COLUMNS):
        if len(generated) % 5000 == 0:
            check_cancel(progress, "importing generated images")
        try:
            sample = int(r["sample_index"])
        except (TypeError, ValueError):
            raise InputError(f"{path} line {r['_line']}: sample_index {r['sample_index']!r} is not a whole "
                             "number — download the release again") from None
        if r["block_id"] not in known:
            raise InputError(f"{path} line {r['_line']}: block {r['block_id']!r} is not a block of the release "
                             f"({MANIFEST.as_posix()}) — the release is inconsistent")
        if not r["model"] or not r["level"] or not r["image_path"]:
            raise InputError(f"{path} line {r['_line']}: model, level and image_path must not be empty")
        _refuse_duplicate(path, lines, (r["model"], r["level"], r["block_id"], sample), r["_line"],
                          f"model {r['model']!r}, level {r['level']}, block {r['block_id']}, sample_index {sample}")
        generated.append(GeneratedImage(
            model=r["model"], condition=r["level"], segment_id=r["block_id"], sample_index=sample,
            image_path=str(root / r["image_path"]), seed=_int_or_none(r.get("seed")), prompt=r.get("prompt"),
            prompt_meta=r.get("prompt_meta"), origin=r.get("image_origin") or "release"))
    return generated


def _refuse_duplicate(path: Path, lines: dict, key, line: int, what: str) -> None:
    """Refuse a second row of ``path`` with the ``key`` of an earlier one (the store keeps one
    row per key: the import would count both and keep one), naming both lines."""
    first = lines.setdefault(key, line)
    if first != line:
        raise InputError(f"{path} lines {first} and {line} both give {what} — the release is inconsistent: keep "
                         "one of the two rows (or download the release again) and import again")


def _float(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _write_csv(path: Path, header: list[str], rows: list[dict]) -> None:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=header, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic.write_text(path, buf.getvalue())


def _place(src: Path, stage: StagedFolder, rel: Path) -> None:
    """Stage ``src`` as ``rel`` (hard link when possible) unless an identical file is already published."""
    final = stage.final(str(rel))
    if final.exists() and final.stat().st_size == src.stat().st_size:
        return
    dst = stage.path(str(rel))
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def export_release(store: BenchmarkStore, out: str | Path, scores: list[dict] | None = None,
                   progress: Progress | None = None) -> Path:
    """Write ``store`` in the release layout under ``out`` (images hard-linked or copied).

    An export is complete when ``out`` holds ``data/processed/v3/benchmark_v3.json``: every file
    is first written into a hidden staging folder inside ``out``, and only once all of them are
    there are they moved into place, the manifest last. A failed or cancelled export publishes
    nothing (an earlier export in ``out`` stays complete and unchanged), and a folder without
    the manifest is never a finished release. The output folder is checked, the store must hold
    segments and reference images (an empty store is "nothing to export", not a release that
    import-release would refuse), and every image the store lists must be on disk, before anything is written.
    """
    out = check_output_folder(out, "release folder")
    segments = store.segments()
    if not segments:
        raise InputError(f"the store {store.path} has no segments — nothing to export; select segments (or import "
                         "a release) and build the reference panels first")
    panels = store.reference_panels()
    if not any(panels.values()):
        raise InputError(f"the store {store.path} has segments but no reference images — nothing to export (a "
                         "release without reference panels cannot be imported); run fetch-mapillary and curate first")
    galleries = store.galleries()
    inverse = {kind: field for field, kind in NEG_FIELDS.items()}
    blocks, ref_rows, files = [], [], []
    for s in segments:
        check_cancel(progress, "exporting reference images")
        sid = s["segment_id"]
        images = []
        for r in panels.get(sid, []):
            image_id = r["image_id"] or Path(r["image_path"]).stem
            rel = Path("data/raw/mapillary_v3") / sid / f"mapillary_{image_id}.jpg"
            files.append((Path(r["abs_path"]), rel))
            images.append({"image_path": str(rel), "image_id": image_id})
            ref_rows.append({"reference_id": r["reference_id"], "image_id": image_id, "image_path": str(rel),
                             "block_id": sid, "city": s["city"], "country": s["country_code"],
                             "lat": r["lat"], "lon": r["lon"], "captured_at_utc_ms": r["captured_at_ms"]})
        block = {"block_id": sid, "city": s["city"], "country": s["country_code"], "stratum": s["road_class"],
                 "neighborhood": s["neighbourhood"], "street_name": s["street_name"],
                 "centroid": [s["centroid_lat"], s["centroid_lon"]], "images": images}
        for kind, field in inverse.items():
            block[field] = galleries.get(sid, {}).get(kind) or ""
        blocks.append(block)
    gen_rows = []
    by_id = {s["segment_id"]: s for s in segments}
    for (model, condition, sid), imgs in store.generated_panels().items():
        check_cancel(progress, "exporting generated images")
        seg = by_id.get(sid, {})
        for g in imgs:
            rel = Path("generations_v3") / model / condition / sid / f"{g['sample_index']:02d}.jpg"
            files.append((Path(g["abs_path"]), rel))
            gen_rows.append({"model": model, "block_id": sid, "city": seg.get("city"), "country": seg.get("country_code"),
                             "level": condition, "sample_index": g["sample_index"], "image_path": str(rel),
                             "seed": g["seed"] if g["seed"] is not None else "missing", "prompt": g["prompt"],
                             "prompt_meta": g["prompt_meta"], "image_origin": g["origin"],
                             "metadata_source": "geofidelity"})
    absent = [str(src) for src, _ in files if not src.is_file()]
    if absent:
        raise InputError(f"{len(absent)} image(s) the store {store.path} lists are missing on disk, e.g. "
                         f"{', '.join(absent[:3])} — restore them (or run the stage that made them again) and "
                         "export again; nothing was exported")
    try:
        with staged_folder(out, MANIFEST.as_posix()) as stage:
            for i, (src, rel) in enumerate(files):
                if i % 500 == 0:
                    check_cancel(progress, "exporting images")
                _place(src, stage, rel)
            _write_tables(stage, blocks, ref_rows, gen_rows, scores)
            atomic.write_json(stage.path(MANIFEST.as_posix()), {"blocks": blocks})
    except (OSError, OutputError) as exc:
        cause = exc if isinstance(exc, OSError) else exc.__cause__
        reason = describe_os_error(cause, "-").split(": ", 1)[1] if isinstance(cause, OSError) else str(exc)
        raise OutputError(f"cannot write the release {out}: {reason}; nothing was published (an earlier "
                          "export there is unchanged)") from None
    return out


def _write_tables(stage: StagedFolder, blocks: list[dict], ref_rows: list[dict], gen_rows: list[dict],
                  scores: list[dict] | None) -> None:
    _write_csv(stage.path(BLOCKS_CSV.as_posix()), ["block_id", "city", "country", "street_name", "neighborhood",
                                                   "centroid_latitude", "centroid_longitude", "stratum"],
               [{"block_id": b["block_id"], "city": b["city"], "country": b["country"],
                 "street_name": b["street_name"], "neighborhood": b["neighborhood"],
                 "centroid_latitude": b["centroid"][0], "centroid_longitude": b["centroid"][1],
                 "stratum": b["stratum"]} for b in blocks])
    _write_csv(stage.path(REFERENCE_CSV.as_posix()), ["reference_id", "image_id", "image_path", "block_id", "city",
                                                      "country", "lat", "lon", "captured_at_utc_ms"], ref_rows)
    _write_csv(stage.path(GENERATED_CSV.as_posix()), ["model", "block_id", "city", "country", "level", "sample_index",
                                                      "image_path", "seed", "prompt", "prompt_meta", "image_origin",
                                                      "metadata_source"], gen_rows)
    if scores:
        _write_csv(stage.path(SCORES_CSV.as_posix()), ["method", "level", "block_id", "cos_sim", "dcsf", "mmd", "gaas",
                                                       "retrieval_acc", "mrr", "chance_adjusted_top1", "margin_hard",
                                                       "margin_mean"],
                   [{"method": r["model"], "level": r["condition"], "block_id": r["segment_id"],
                     "cos_sim": r.get("cos_sim"), "dcsf": r.get("dcsf"), "mmd": r.get("mmd2"),
                     "gaas": r.get("gads"), "retrieval_acc": r.get("top1"), "mrr": r.get("reciprocal_rank"),
                     "chance_adjusted_top1": r.get("chance_adjusted_top1"), "margin_hard": r.get("margin_hard"),
                     "margin_mean": r.get("margin_mean")} for r in scores])
