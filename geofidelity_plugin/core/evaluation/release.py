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

from ..conditions import CONDITIONS
from .. import atomic
from ..errors import InputError
from ..progress import Progress, check_cancel
from ..selection.cities import driving_side
from .galleries import (RANDOM_OTHER_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD,
                        SAME_DRIVING_SIDE_OTHER_CITY, SAME_NEIGHBOURHOOD, build_galleries)
from .store import BenchmarkStore, GeneratedImage

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


def _read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _int_or_none(value) -> int | None:
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def import_release(root: str | Path, store: BenchmarkStore, seed: int = 0,
                   progress: Progress | None = None) -> dict[str, int]:
    """Load a release folder into ``store``; returns counts. Missing images are reported, not
    fatal: the evaluation lists them per image."""
    root = Path(root)
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        raise InputError(f"{root} is not a GeoFidelity-Bench release: {MANIFEST} is missing — point "
                         "at the release's root folder (the one holding data/ and metadata/)")
    try:
        blocks = json.loads(manifest_path.read_text(encoding="utf-8"))["blocks"]
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{manifest_path} is not a valid benchmark manifest ({exc})") from exc
    segments, keep = [], {}
    for b in blocks:
        try:
            lat, lon = float(b["centroid"][0]), float(b["centroid"][1])
            sid = str(b["block_id"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InputError(f"a block in {MANIFEST} lacks block_id or centroid [lat, lon] ({exc})") from exc
        code = str(b.get("country") or "")
        segments.append({"segment_id": sid, "city": b.get("city", ""), "country": code,
                         "country_code": code.upper()[:2], "street_name": b.get("street_name", ""),
                         "neighbourhood": b.get("neighborhood", ""), "road_class": b.get("stratum", ""),
                         "driving_side": driving_side(code[:2]) if len(code) >= 2 else "",
                         "centroid_lon": lon, "centroid_lat": lat})
        keep[sid] = {kind: (str(b[field]) if b.get(field) not in (None, "") else None)
                     for field, kind in NEG_FIELDS.items()}
    known = {s["segment_id"] for s in segments}
    for sid, kinds in keep.items():
        for kind, neg in kinds.items():
            if neg is not None and neg not in known:
                raise InputError(f"block {sid}: {kind} negative {neg!r} is not a block of the release")
    store.put_segments(segments)
    check_cancel(progress, "importing the release")
    if (root / REFERENCE_CSV).is_file():
        refs = [{"reference_id": r["reference_id"], "segment_id": r["block_id"], "image_id": r.get("image_id"),
                 "image_path": str(root / r["image_path"]), "lon": _float(r.get("lon")),
                 "lat": _float(r.get("lat")), "captured_at_ms": _int_or_none(r.get("captured_at_utc_ms"))}
                for r in _read_csv(root / REFERENCE_CSV)]
    else:  # the manifest alone: images listed per block
        refs = [{"reference_id": f"{b['block_id']}:{i}", "segment_id": str(b["block_id"]),
                 "image_id": img.get("image_id"), "image_path": str(root / img["image_path"])}
                for b in blocks for i, img in enumerate(b.get("images", []))]
    unknown = sorted({r["segment_id"] for r in refs} - known)
    if unknown:
        raise InputError(f"reference images name unknown blocks {unknown[:5]} — the release is inconsistent")
    store.put_reference_images(refs)
    generated = []
    if (root / GENERATED_CSV).is_file():
        for r in _read_csv(root / GENERATED_CSV):
            check_cancel(progress, "importing generated images") if len(generated) % 5000 == 0 else None
            generated.append(GeneratedImage(
                model=r["model"], condition=r["level"], segment_id=r["block_id"],
                sample_index=int(r["sample_index"]), image_path=str(root / r["image_path"]),
                seed=_int_or_none(r.get("seed")), prompt=r.get("prompt"), prompt_meta=r.get("prompt_meta"),
                origin=r.get("image_origin") or "release"))
        store.put_generated(generated)
    store.put_galleries(build_galleries(segments, seed=seed, keep=keep))
    store.set_meta("source", {"kind": "geofidelity-bench release", "root": str(root)})
    missing = sum(1 for r in refs if not Path(r["image_path"]).exists()) + \
        sum(1 for g in generated if not Path(g.image_path).exists())
    return {"segments": len(segments), "reference_images": len(refs), "generated_images": len(generated),
            "missing_files": missing}


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


def _place(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` (hard link when possible) unless an identical file is there."""
    if dst.exists() and dst.stat().st_size == src.stat().st_size:
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.part")
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    tmp.replace(dst)


def export_release(store: BenchmarkStore, out: str | Path, scores: list[dict] | None = None,
                   progress: Progress | None = None) -> Path:
    """Write ``store`` in the release layout under ``out`` (images copied or hard-linked)."""
    out = Path(out)
    segments = store.segments()
    panels = store.reference_panels()
    galleries = store.galleries()
    inverse = {kind: field for field, kind in NEG_FIELDS.items()}
    blocks, ref_rows = [], []
    for s in segments:
        check_cancel(progress, "exporting reference images")
        sid = s["segment_id"]
        images = []
        for r in panels.get(sid, []):
            image_id = r["image_id"] or Path(r["image_path"]).stem
            rel = Path("data/raw/mapillary_v3") / sid / f"mapillary_{image_id}.jpg"
            _place(Path(r["abs_path"]), out / rel)
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
    for (model, condition, sid), imgs in store.generated_panels().items():
        check_cancel(progress, "exporting generated images")
        seg = next((s for s in segments if s["segment_id"] == sid), {})
        for g in imgs:
            rel = Path("generations_v3") / model / condition / sid / f"{g['sample_index']:02d}.jpg"
            _place(Path(g["abs_path"]), out / rel)
            gen_rows.append({"model": model, "block_id": sid, "city": seg.get("city"), "country": seg.get("country_code"),
                             "level": condition, "sample_index": g["sample_index"], "image_path": str(rel),
                             "seed": g["seed"] if g["seed"] is not None else "missing", "prompt": g["prompt"],
                             "prompt_meta": g["prompt_meta"], "image_origin": g["origin"],
                             "metadata_source": "geofidelity"})
    atomic.write_json(out / MANIFEST, {"blocks": blocks})
    _write_csv(out / BLOCKS_CSV, ["block_id", "city", "country", "street_name", "neighborhood",
                                  "centroid_latitude", "centroid_longitude", "stratum"],
               [{"block_id": b["block_id"], "city": b["city"], "country": b["country"],
                 "street_name": b["street_name"], "neighborhood": b["neighborhood"],
                 "centroid_latitude": b["centroid"][0], "centroid_longitude": b["centroid"][1],
                 "stratum": b["stratum"]} for b in blocks])
    _write_csv(out / REFERENCE_CSV, ["reference_id", "image_id", "image_path", "block_id", "city", "country",
                                     "lat", "lon", "captured_at_utc_ms"], ref_rows)
    _write_csv(out / GENERATED_CSV, ["model", "block_id", "city", "country", "level", "sample_index", "image_path",
                                     "seed", "prompt", "prompt_meta", "image_origin", "metadata_source"], gen_rows)
    if scores:
        _write_csv(out / SCORES_CSV, ["method", "level", "block_id", "cos_sim", "dcsf", "mmd", "gaas",
                                      "retrieval_acc", "mrr", "chance_adjusted_top1", "margin_hard", "margin_mean"],
                   [{"method": r["model"], "level": r["condition"], "block_id": r["segment_id"],
                     "cos_sim": r.get("cos_sim"), "dcsf": r.get("dcsf"), "mmd": r.get("mmd2"),
                     "gaas": r.get("gads"), "retrieval_acc": r.get("top1"), "mrr": r.get("reciprocal_rank"),
                     "chance_adjusted_top1": r.get("chance_adjusted_top1"), "margin_hard": r.get("margin_hard"),
                     "margin_mean": r.get("margin_mean")} for r in scores])
    return out
