"""An MFP run (method §10): a generated map raster against its reference, tile by tile; or a
folder of generated images against a folder of references, pair by pair.

Tiles are read from both rasters in batches, scored by the ViT in one forward pass per batch
and side (generated, reference), and PSNR / SSIM are computed beside them on the same pixels.
Progress is reported and cancellation checked after every batch.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.manifest import build_manifest, file_sha256
from geofidelity_plugin.core.output_paths import check_output_folder
from geofidelity_plugin.core.progress import NullProgress, check_cancel
from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
from geofidelity_plugin.core.map_fidelity.options import LAMBDA_G, LAMBDA_S, MFP_RULE, MapFidelityOptions
from geofidelity_plugin.core.map_fidelity.outputs import (SCORE_FIELDS, write_folder_outputs, write_raster_outputs)
from geofidelity_plugin.core.map_fidelity.pixel_metrics import pixel_scores
from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster, open_pair
from geofidelity_plugin.core.map_fidelity.tiles import tile_grid

log = logging.getLogger("geofidelity")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp")


@dataclass
class MapFidelityRun:
    """What a run produced: its output paths and the mean of each score."""

    paths: dict[str, Path]
    means: dict[str, float]
    count: int  # tiles or pairs
    model: dict[str, Any] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def _means(scores: dict[str, np.ndarray]) -> dict[str, float]:
    """Mean of each score over its finite values; +inf when every value is +inf (PSNR of
    identical maps)."""
    out = {}
    for key in SCORE_FIELDS:
        values = np.asarray(scores[key], dtype=np.float64)
        finite = values[np.isfinite(values)]
        if finite.size:
            out[key] = float(finite.mean())
        else:
            out[key] = float("inf") if values.size and (values == np.inf).all() else float("nan")
    return out


def _manifest(mode: str, options: MapFidelityOptions, inputs: dict, scorer: MapFidelityScorer,
              notes: list[str]) -> dict:
    model = scorer.vit.model_info()
    notes = [*notes, f"feature model: {model['label']} — {model['note']}"]
    return build_manifest("mfp", {**asdict(options), "mode": mode, "tile_px": options.tile or model["input_size"]},
                          inputs=inputs, models=[model], notes=notes, mfp_rule=MFP_RULE,
                          loss={"lambda_g": LAMBDA_G, "lambda_s": LAMBDA_S,
                                "rule": "L = L1 + λ_G·(1 − G) + λ_S·D_S (method §10)"},
                          pixel_metrics=f"PSNR and SSIM from scikit-image {_version('scikit-image')} (data range "
                                        "255; SSIM 7×7 window, channels averaged)")


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "(version unknown)"


def _input(path: Path) -> dict:
    return {"path": str(path), "sha256": file_sha256(path)}


def score_rasters(generated: str | Path, reference: str | Path, out: str | Path, scorer: MapFidelityScorer,
                  options: MapFidelityOptions | None = None, progress=None,
                  reference_note: str | None = None) -> MapFidelityRun:
    """Score ``generated`` against ``reference`` (same grid) per tile; write the outputs to ``out``."""
    options = (options or MapFidelityOptions()).check()
    progress = progress or NullProgress()
    out = check_output_folder(out, "MFP output folder")
    gen, ref = open_pair(generated, reference)
    size = options.tile or scorer.vit.input_size
    tiles = tile_grid(gen.grid.width, gen.grid.height, size, options.overlap)
    progress.info(f"{len(tiles)} tiles of {size} px ({gen.grid.width} × {gen.grid.height} px map), "
                  f"model {scorer.vit.label}")
    parts: list[dict] = []
    step = options.batch_size
    for start in range(0, len(tiles), step):
        check_cancel(progress, "MFP scoring")
        batch = tiles[start:start + step]
        g = np.stack([gen.read(t.x, t.y, t.size, t.size) for t in batch])
        r = np.stack([ref.read(t.x, t.y, t.size, t.size) for t in batch])
        parts.append({**scorer.score(g, r), **pixel_scores(g, r)})
        progress.set_progress(95.0 * min(len(tiles), start + step) / len(tiles))
    scores = {k: np.concatenate([p[k] for p in parts]) for k in SCORE_FIELDS}
    notes = [reference_note] if reference_note else []
    manifest = _manifest("raster", options, {"generated": _input(gen.path), "reference": _input(ref.path)},
                         scorer, notes)
    overviews = (gen.overview(), ref.overview())
    gen.close()
    ref.close()
    paths = write_raster_outputs(Path(out), tiles, scores, gen.grid, scorer.vit.label, overviews, manifest)
    progress.set_progress(100.0)
    return MapFidelityRun(paths, _means(scores), len(tiles), scorer.vit.model_info())


def _images(folder: Path) -> dict[str, Path]:
    from ..locations import FOLDER, check_location

    folder = check_location(folder, FOLDER, what="image folder", fix="give a folder of map images",
                            missing="check the path: it was not found")
    return {p.relative_to(folder).with_suffix("").as_posix(): p for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES}


def _pair_pixels(name: str, generated: Path, reference: Path) -> tuple[np.ndarray, np.ndarray]:
    gen, ref = MapRaster(generated), MapRaster(reference)
    if (gen.grid.width, gen.grid.height) != (ref.grid.width, ref.grid.height):
        raise InputError(f"{name}: the generated map is {gen.grid.width} × {gen.grid.height} px and its "
                         f"reference {ref.grid.width} × {ref.grid.height} px — give pairs of the same size")
    pair = gen.read(0, 0, gen.grid.width, gen.grid.height), ref.read(0, 0, ref.grid.width, ref.grid.height)
    gen.close()
    ref.close()
    return pair


def score_folders(generated_dir: str | Path, reference_dir: str | Path, out: str | Path,
                  scorer: MapFidelityScorer, options: MapFidelityOptions | None = None,
                  progress=None) -> MapFidelityRun:
    """Pairs of generated/reference images matched by relative path without suffix (``a/001.png`` ↔
    ``a/001.jpg``); each image is one tile, resized to the ViT's input size for G and D_S, compared
    at full size for PSNR and SSIM. One row per pair in ``mfp_pairs.csv``."""
    options = (options or MapFidelityOptions()).check()
    progress = progress or NullProgress()
    out = check_output_folder(out, "MFP output folder")
    generated, references = _images(Path(generated_dir)), _images(Path(reference_dir))
    names = [n for n in generated if n in references]
    skipped = sorted(set(generated) ^ set(references))
    if not names:
        raise InputError(f"no image in {generated_dir} has a reference of the same name in {reference_dir} — "
                         "name each reference like its generated map (suffix aside)")
    if skipped:
        progress.warning(f"{len(skipped)} images have no partner and are skipped, e.g. {skipped[0]}")
    rows = []
    for start in range(0, len(names), options.batch_size):
        check_cancel(progress, "MFP scoring")
        chunk = names[start:start + options.batch_size]
        pixels = {name: _pair_pixels(name, generated[name], references[name]) for name in chunk}
        for shape in dict.fromkeys(g.shape for g, _ in pixels.values()):  # one forward pass per image size
            same = [n for n in chunk if pixels[n][0].shape == shape]
            g = np.stack([pixels[n][0] for n in same])
            r = np.stack([pixels[n][1] for n in same])
            scores = {**scorer.score(g, r), **pixel_scores(g, r)}
            for i, name in enumerate(same):
                rows.append({"name": name, "generated": str(generated[name]), "reference": str(references[name]),
                             "width": shape[1], "height": shape[0],
                             **{k: float(scores[k][i]) for k in SCORE_FIELDS}, "model": scorer.vit.label})
        progress.set_progress(95.0 * min(len(names), start + options.batch_size) / len(names))
    rows.sort(key=lambda row: names.index(row["name"]))
    inputs = {"generated_folder": str(generated_dir), "reference_folder": str(reference_dir),
              "pairs": len(rows), "skipped": skipped}
    manifest = _manifest("folder", options, inputs, scorer, [])
    paths = write_folder_outputs(Path(out), rows, manifest)
    progress.set_progress(100.0)
    means = _means({k: np.array([r[k] for r in rows]) for k in SCORE_FIELDS})
    return MapFidelityRun(paths, means, len(rows), scorer.vit.model_info(), skipped)
