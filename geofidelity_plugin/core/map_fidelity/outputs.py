"""What an MFP run writes (method §10): the per-tile grid layer (GeoPackage, styled by
``resources/styles/mfp_tiles.qml``), the same rows as CSV, a summary table, a figure and the
manifest — published together through a staging folder, the manifest last."""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np

from .. import atomic
from .grid import raster_library
from .tiles import Tile, tile_ring

TILE_LAYER = "mfp_tiles"
STYLE = "mfp_tiles.qml"
SCORE_FIELDS = ("g", "d_s", "d_s_rms", "mfp", "psnr", "ssim")
FILES = {"tiles_gpkg": "mfp_tiles.gpkg", "tiles_csv": "mfp_tiles.csv", "summary_csv": "mfp_summary.csv",
         "figure": "mfp_summary.png", "pairs_csv": "mfp_pairs.csv", "manifest": "manifest.json"}


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def tile_rows(tiles: list[Tile], scores: dict[str, np.ndarray], model_label: str) -> list[dict]:
    return [{"tile_id": t.tile_id, "row": t.row, "col": t.col, "x_px": t.x, "y_px": t.y, "size_px": t.size,
             **{k: float(scores[k][i]) for k in SCORE_FIELDS}, "model": model_label}
            for i, t in enumerate(tiles)]


def summary_rows(scores: dict[str, np.ndarray]) -> list[dict]:
    """Per score: tiles, mean, median, min, max, std over the finite values (PSNR is +inf for an
    identical tile: counted in ``n_infinite`` and left out of the statistics)."""
    rows = []
    for key in SCORE_FIELDS:
        values = np.asarray(scores[key], dtype=np.float64)
        finite = values[np.isfinite(values)]
        stats = ({"mean": finite.mean(), "median": float(np.median(finite)), "min": finite.min(),
                  "max": finite.max(), "std": finite.std()} if finite.size else
                 dict.fromkeys(("mean", "median", "min", "max", "std"), math.nan))
        rows.append({"score": key, "tiles": int(values.size), "n_infinite": int(np.isinf(values).sum()),
                     **{k: float(v) for k, v in stats.items()}})
    return rows


def layer_crs(wkt: str):
    """The tile layer's CRS for a raster's WKT: by its EPSG code when the WKT ends with one (the
    raster and layer libraries may carry different PROJ databases, whose WKTs of one code differ),
    else the WKT itself; ``None`` for a raster without a CRS."""
    import re

    from fiona.crs import CRS

    if not wkt:
        return None
    code = re.search(r'AUTHORITY\["EPSG","(\d+)"\]\]\s*$', wkt)
    return CRS.from_epsg(int(code.group(1))) if code else CRS.from_wkt(wkt)


def _write_gpkg(path: Path, rows: list[dict], tiles: list[Tile], grid) -> None:
    import fiona

    props = {"tile_id": "int", "row": "int", "col": "int", "x_px": "int", "y_px": "int", "size_px": "int",
             **{k: "float" for k in SCORE_FIELDS}, "model": "str"}
    crs = layer_crs(grid.crs_wkt)
    with fiona.open(str(path), "w", driver="GPKG", layer=TILE_LAYER, crs=crs,
                    schema={"geometry": "Polygon", "properties": props}) as dst:
        for row, tile in zip(rows, tiles):
            dst.write({"geometry": {"type": "Polygon", "coordinates": [tile_ring(tile, grid.geotransform)]},
                       "properties": row})


def _figure(path: Path, generated: np.ndarray, reference: np.ndarray, tiles: list[Tile],
            scores: dict[str, np.ndarray], title: str) -> None:
    """Generated and reference maps, and the per-tile MFP and D_S_rms (one cell per tile)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, cols = max(t.row for t in tiles) + 1, max(t.col for t in tiles) + 1
    grids = {}
    for key in ("mfp", "d_s_rms"):
        cells = np.full((rows, cols), np.nan)
        for t, v in zip(tiles, scores[key]):
            cells[t.row, t.col] = v
        grids[key] = cells
    fig, axes = plt.subplots(1, 4, figsize=(16, 4.4))
    for ax, image, label in ((axes[0], generated, "generated"), (axes[1], reference, "reference")):
        ax.imshow(image)
        ax.set_title(label)
    for ax, key, cmap, label in ((axes[2], "mfp", "RdYlBu", "MFP per tile (higher: closer)"),
                                 (axes[3], "d_s_rms", "magma_r", "D_S_rms per tile (structure)")):
        shown = ax.imshow(grids[key], cmap=cmap, interpolation="nearest")
        fig.colorbar(shown, ax=ax, fraction=0.046)
        ax.set_title(label)
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_raster_outputs(out: Path, tiles: list[Tile], scores: dict[str, np.ndarray], grid, model_label: str,
                         overviews: tuple[np.ndarray, np.ndarray], manifest: dict) -> dict[str, Path]:
    """The grid layer, tile CSV, summary CSV, figure and manifest of a raster run."""
    rows = tile_rows(tiles, scores, model_label)
    summary = summary_rows(scores)
    keys = ("tiles_gpkg", "tiles_csv", "summary_csv", "figure", "manifest")
    paths = {k: out / FILES[k] for k in keys}
    manifest = dict(manifest, outputs={k: str(v) for k, v in paths.items()}, summary=summary,
                    raster_library=raster_library())
    with atomic.staged_folder(out, FILES["manifest"]) as stage:
        _write_gpkg(stage.path(FILES["tiles_gpkg"]), rows, tiles, grid)
        stage.path(FILES["tiles_csv"]).write_text(to_csv(rows), encoding="utf-8")
        stage.path(FILES["summary_csv"]).write_text(to_csv(summary), encoding="utf-8")
        mean = next(r for r in summary if r["score"] == "mfp")["mean"]
        _figure(stage.path(FILES["figure"]), *overviews, tiles, scores,
                f"MFP — {model_label}: mean MFP {mean:.4f} over {len(tiles)} tiles (method §10)")
        stage.path(FILES["manifest"]).write_text(json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False,
                                                            default=str) + "\n", encoding="utf-8")
    return paths


def write_folder_outputs(out: Path, rows: list[dict], manifest: dict) -> dict[str, Path]:
    """The pairs table (one row per generated/reference pair), its summary and the manifest."""
    scores = {k: np.array([r[k] for r in rows], dtype=np.float64) for k in SCORE_FIELDS}
    summary = summary_rows(scores)
    paths = {k: out / FILES[k] for k in ("pairs_csv", "summary_csv", "manifest")}
    manifest = dict(manifest, outputs={k: str(v) for k, v in paths.items()}, summary=summary,
                    raster_library=raster_library())
    with atomic.staged_folder(out, FILES["manifest"]) as stage:
        stage.path(FILES["pairs_csv"]).write_text(to_csv(rows), encoding="utf-8")
        stage.path(FILES["summary_csv"]).write_text(to_csv(summary), encoding="utf-8")
        stage.path(FILES["manifest"]).write_text(json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False,
                                                            default=str) + "\n", encoding="utf-8")
    return paths
