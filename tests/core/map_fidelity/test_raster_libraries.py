"""MFP reads rasters with GDAL's bindings (osgeo) or with rasterio (core/map_fidelity/grid.py):
the same pixels and the same scores either way. Each library runs in a process of its own — the
project's .venv has osgeo (Debian's GDAL), a pip install has rasterio (its own GDAL inside) —
on the same files: an RGB GeoTIFF, one with an alpha band, a palette GeoTIFF and a plain PNG."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO
from map_images import maps, write_tif
from tiny_models import make_tiny_dinov2

SCRIPT = r"""
import json, sys
from pathlib import Path
import numpy as np
from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
from geofidelity_plugin.core.map_fidelity.options import MapFidelityOptions
from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster
from geofidelity_plugin.core.map_fidelity.vit import MapViT
from geofidelity_plugin.core.map_fidelity.workflow import score_rasters

folder, model, out = (Path(a) for a in sys.argv[1:4])
read = {}
for name in ("ref.tif", "gen.tif", "alpha.tif", "palette.tif", "plain.png"):
    raster = MapRaster(folder / name)
    read[name] = {"library": raster.library, "grid": [raster.grid.width, raster.grid.height,
                                                      list(raster.grid.geotransform), bool(raster.grid.crs_wkt)]}
    np.save(out / f"{name}.whole.npy", raster.read(0, 0, raster.grid.width, raster.grid.height))
    np.save(out / f"{name}.window.npy", raster.read(5, 7, 30, 20, out_size=(17, 11)))
    raster.close()
run = score_rasters(folder / "gen.tif", folder / "ref.tif", out / "mfp",
                    MapFidelityScorer(MapViT(str(model), device="cpu")), MapFidelityOptions(batch_size=2))
print(json.dumps({"read": read, "tiles": str(run.paths["tiles_csv"]),
                  "library": json.loads(run.paths["manifest"].read_text())["raster_library"]}))
"""


def _can_import(python: str, module: str) -> bool:
    done = subprocess.run([python, "-c", f"import {module}"], capture_output=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    return done.returncode == 0


def _gdal_python() -> str | None:
    for python in (sys.executable, str(REPO / ".venv" / "bin" / "python")):
        if Path(python).exists() and _can_import(python, "osgeo.gdal"):
            return python
    return None


def _run(python: str, library: str, folder: Path, model: Path, out: Path) -> dict:
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), GEOFIDELITY_RASTER_IO=library, HF_HUB_OFFLINE="1")
    done = subprocess.run([python, "-c", SCRIPT, str(folder), str(model), str(out)], capture_output=True,
                          text=True, timeout=600, env=env, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _write_palette_tif(path: Path, image) -> None:
    """A one-band GeoTIFF with a colour table in GDAL's own 16-bit scaling (value × 257). (PIL
    writes × 256, which GDAL 3.6 reads one level lower than newer GDAL does: a difference
    between GDAL versions, not between the two libraries.)"""
    import rasterio

    colours = image.getpalette()[:3 * 256]
    table = {i: (*colours[3 * i:3 * i + 3], 255) for i in range(len(colours) // 3)}
    with rasterio.open(str(path), "w", driver="GTiff", width=image.width, height=image.height, count=1,
                       dtype="uint8") as ds:
        ds.write(np.asarray(image, dtype=np.uint8), 1)
        ds.write_colormap(1, table)


def _tiles(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_gdal_and_rasterio_read_the_same_pixels_and_give_the_same_scores(tmp_path):
    gdal_python = _gdal_python()
    if not _can_import(sys.executable, "rasterio") or gdal_python is None:
        pytest.skip("needs rasterio in this Python and osgeo in it or in the project .venv (make pip-check runs it)")
    from PIL import Image

    folder = tmp_path / "rasters"
    folder.mkdir()
    reference = maps(1, 70, seed=9)[0]
    generated = reference.copy()
    generated[:, 35:] = 255 - generated[:, 35:]
    write_tif(folder / "ref.tif", reference)
    write_tif(folder / "gen.tif", generated)
    write_tif(folder / "alpha.tif", reference, alpha=np.linspace(0, 255, 70 * 70).reshape(70, 70).astype(np.uint8))
    _write_palette_tif(folder / "palette.tif", Image.fromarray(reference).convert("P", palette=Image.Palette.ADAPTIVE,
                                                                                colors=16))
    Image.fromarray(generated).save(folder / "plain.png")
    model = make_tiny_dinov2(tmp_path / "dinov2", seed=3, crop=28)

    by_gdal = _run(gdal_python, "gdal", folder, model, tmp_path / "gdal")
    by_rasterio = _run(sys.executable, "rasterio", folder, model, tmp_path / "rasterio")
    assert by_gdal["library"] == "gdal" and by_rasterio["library"] == "rasterio"
    assert {r["library"] for r in by_gdal["read"].values()} == {"gdal"}
    assert {r["library"] for r in by_rasterio["read"].values()} == {"rasterio"}
    for name in by_gdal["read"]:
        assert by_gdal["read"][name]["grid"] == by_rasterio["read"][name]["grid"], name
        for part in ("whole", "window"):
            a = np.load(tmp_path / "gdal" / f"{name}.{part}.npy")
            b = np.load(tmp_path / "rasterio" / f"{name}.{part}.npy")
            assert a.dtype == b.dtype == np.uint8 and a.shape == b.shape and np.array_equal(a, b), (name, part)
    ours, theirs = _tiles(by_rasterio["tiles"]), _tiles(by_gdal["tiles"])
    assert len(ours) == len(theirs) == 9
    for a, b in zip(ours, theirs):
        for key, value in a.items():
            try:
                x, y = float(value), float(b[key])
            except ValueError:
                assert value == b[key], key
                continue
            assert x == pytest.approx(y, abs=1e-12, rel=0) or (np.isinf(x) and x == y), (key, x, y)
