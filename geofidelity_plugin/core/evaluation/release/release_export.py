"""Write a benchmark store in the published GeoFidelity-Bench release layout (RELEASE_FORMAT.md),
so a benchmark built here can be published and imported elsewhere with ``import-release``.

What is published is the bytes of the images the store lists; only files that live inside the
store's own folders (:mod:`geofidelity_plugin.core.store.image_roots`) are copied, so a row that
names a file elsewhere (``/etc/passwd``, a link out of the release it came from) is refused
before anything is written.
"""
from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.atomic import StagedFolder, staged_folder
from geofidelity_plugin.core.confined_paths import confinement_problem, copy_inside
from geofidelity_plugin.core.errors import InputError, OutputError, describe_os_error
from geofidelity_plugin.core.output_paths import check_output_folder
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.store.image_roots import image_roots
from geofidelity_plugin.core.store.store import BenchmarkStore

from .release_folder import BLOCKS_CSV, GENERATED_CSV, MANIFEST, NEG_FIELDS, REFERENCE_CSV, SCORES_CSV


def _write_csv(path: Path, header: list[str], rows: list[dict]) -> None:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=header, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic.write_text(path, buf.getvalue())


def _place(src: Path, stage: StagedFolder, rel: Path, roots: list[Path]) -> None:
    """Stage ``src`` as ``rel`` (hard link when possible) unless an identical file is already
    published; only a file inside the store's folders ``roots`` is ever copied."""
    final = stage.final(str(rel))
    if final.exists() and final.stat().st_size == src.stat().st_size:
        return
    copy_inside(src, stage.path(str(rel)), roots)


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
    roots = image_roots(store)
    files = _inside_only(files, roots, store)
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
                _place(src, stage, rel, roots)
            _write_tables(stage, blocks, ref_rows, gen_rows, scores)
            atomic.write_json(stage.path(MANIFEST.as_posix()), {"blocks": blocks})
    except (OSError, OutputError) as exc:
        cause = exc if isinstance(exc, OSError) else exc.__cause__
        reason = describe_os_error(cause, "-").split(": ", 1)[1] if isinstance(cause, OSError) else str(exc)
        raise OutputError(f"cannot write the release {out}: {reason}; nothing was published (an earlier "
                          "export there is unchanged)") from None
    return out


def _inside_only(files: list[tuple[Path, Path]], roots: list[Path], store: BenchmarkStore) -> list[tuple[Path, Path]]:
    """``files`` with each source replaced by its real location, when every one of them is a file
    inside the store's own folders (a missing one is left for the missing-files message); else an
    :class:`InputError` naming how many are not and a few of them — nothing is exported."""
    checked, outside = [], []
    for src, rel in files:
        if not os.path.lexists(src):
            checked.append((src, rel))
            continue
        problem = confinement_problem(src, roots)
        if problem:
            outside.append(problem)
        else:
            checked.append((Path(os.path.realpath(src)), rel))
    if outside:
        raise InputError(f"{len(outside)} image(s) the store {store.path} lists are not files inside its own folders "
                         f"({', '.join(str(r) for r in roots)}): {'; '.join(outside[:3])} — an export publishes "
                         "only images the store owns; remove those rows (import the release again, or generate / "
                         "import-generated those panels again) and export again; nothing was exported")
    return checked


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
