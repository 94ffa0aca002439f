"""``geofidelity:mfp`` in real QGIS and ``mfp`` on the command line (method §10), with a tiny ViT
loaded through the real code: QGIS renders the reference from a project layer with its style, the
backend scores it, and the grid layer loads styled."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from qgis.core import QgsProcessingException, QgsProject

from conftest import REPO
from map_images import maps, write_tif
from tiny_models import make_tiny_dinov2

ORIGIN = (385000.0, 6672000.0)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return make_tiny_dinov2(tmp_path_factory.mktemp("vit") / "dinov2", seed=5, crop=28)


def block_layer(colour: str):
    """A project layer: one block polygon in EPSG:3067 filled with ``colour`` (its project style)."""
    from qgis.core import QgsFeature, QgsFillSymbol, QgsGeometry, QgsRectangle, QgsVectorLayer

    layer = QgsVectorLayer("Polygon?crs=EPSG:3067", "blocks", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(ORIGIN[0] + 10, ORIGIN[1] - 40, ORIGIN[0] + 60,
                                                          ORIGIN[1] - 10)))
    layer.dataProvider().addFeatures([feature])
    layer.renderer().setSymbol(QgsFillSymbol.createSimple({"color": colour, "outline_style": "no"}))
    return layer


def test_mfp_algorithm_renders_the_reference_and_loads_a_styled_grid(qgis_provider, tiny, tmp_path):
    import processing

    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster

    generated = write_tif(tmp_path / "generated.tif", maps(1, 56, seed=4)[0], origin=ORIGIN)  # 2 × 2 tiles
    layer = block_layer("#2060c0")
    QgsProject.instance().addMapLayer(layer)
    try:
        result = processing.runAndLoadResults("geofidelity:mfp", {
            "GENERATED": str(generated), "LAYERS": [layer.id()], "MODEL": str(tiny), "DEVICE": "cpu",
            "BACKGROUND": "#ffffff", "OUTPUT_FOLDER": str(tmp_path / "out")})
    finally:
        QgsProject.instance().removeMapLayer(layer.id())
    reference = MapRaster(result["REFERENCE_MAP"])
    assert reference.grid == MapRaster(generated).grid  # the generated raster's extent, CRS and pixel size
    pixels = reference.read(0, 0, 56, 56)
    assert (pixels[5:20, 5:30] == (0x20, 0x60, 0xc0)).all() and (pixels[25:, :] == 255).all()  # its project style
    grids = [l for l in QgsProject.instance().mapLayers().values() if l.name().startswith("MFP per tile")]
    assert grids, "the grid layer was not loaded"
    grid = grids[-1]
    assert grid.featureCount() == 4 and grid.crs().authid() == "EPSG:3067"
    assert grid.renderer().type() == "graduatedSymbol" and grid.renderer().classAttribute() == "mfp"
    assert grid.labelsEnabled() and "not the paper's" in grid.name()
    fields = [f.name() for f in grid.fields()]
    assert all(k in fields for k in ("g", "d_s", "d_s_rms", "mfp", "psnr", "ssim"))
    assert result["MEAN_MFP"] < 1.0 and result["MEAN_D_S"] > 0.0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert any("rendered by QGIS from the layers blocks" in note for note in manifest["notes"])
    QgsProject.instance().removeMapLayer(grid.id())


def test_mfp_algorithm_needs_exactly_one_reference(qgis_provider, tiny, tmp_path):
    import processing

    generated = write_tif(tmp_path / "generated.tif", maps(1, 56, seed=4)[0], origin=ORIGIN)
    with pytest.raises(QgsProcessingException, match="no single reference.*choose exactly one"):
        processing.run("geofidelity:mfp", {"GENERATED": str(generated), "MODEL": str(tiny),
                                           "OUTPUT_FOLDER": str(tmp_path / "out")})


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "geofidelity_plugin", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def test_cli_mfp_options_and_errors(tmp_path):
    out = _cli("mfp", "--help")
    assert out.returncode == 0
    for flag in ("--generated", "--reference", "--osm", "--osm-layers", "--layer", "--generated-folder",
                 "--reference-folder", "--model", "--tile", "--overlap", "--batch-size", "--device", "--background",
                 "--dpi", "--out"):
        assert flag in out.stdout, flag
    out = _cli("mfp", "--generated", "x.tif", "--out", str(tmp_path / "o"))
    assert out.returncode == 2 and "give exactly one of --reference" in out.stderr and "Traceback" not in out.stderr


def test_cli_folder_mode(tiny, tmp_path):
    from PIL import Image

    for folder in ("gen", "ref"):
        (tmp_path / folder).mkdir()
    images = maps(2, 40, seed=6)
    for i, image in enumerate(images):
        Image.fromarray(image).save(tmp_path / "gen" / f"{i}.png")
        Image.fromarray(images[0]).save(tmp_path / "ref" / f"{i}.png")
    out = _cli("--events", "jsonl", "mfp", "--generated-folder", str(tmp_path / "gen"), "--reference-folder",
               str(tmp_path / "ref"), "--model", str(tiny), "--device", "cpu", "--out", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["event"] == "result" and result["values"]["COUNT"] == 2
    rows = (tmp_path / "out" / "mfp_pairs.csv").read_text().splitlines()
    first = dict(zip(rows[0].split(","), rows[1].split(",")))
    assert first["name"] == "0" and float(first["g"]) == 1.0 and float(first["d_s"]) == 0.0
    assert np.isfinite(result["values"]["MEAN_SSIM"])


def test_cli_renders_vector_files_with_their_saved_style(qgis_app, tiny, tmp_path):
    """``mfp --layer blocks.gpkg``: the backend renders the file with the .qml saved beside it."""
    from qgis.core import QgsVectorFileWriter, QgsVectorLayer

    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster

    blocks = tmp_path / "blocks.gpkg"
    memory = block_layer("#c03020")
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    QgsVectorFileWriter.writeAsVectorFormatV2(memory, str(blocks), QgsProject.instance().transformContext(), options)
    saved = QgsVectorLayer(str(blocks), "blocks", "ogr")
    saved.setRenderer(memory.renderer().clone())
    saved.saveNamedStyle(str(tmp_path / "blocks.qml"))
    generated = write_tif(tmp_path / "generated.tif", maps(1, 56, seed=4)[0], origin=ORIGIN)
    out = _cli("--events", "jsonl", "mfp", "--generated", str(generated), "--layer", str(blocks), "--model", str(tiny),
               "--device", "cpu", "--background", "#ffffff", "--out", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr[-3000:]
    events = [json.loads(line) for line in out.stdout.splitlines()]
    outputs = {e["key"]: e for e in events if e["event"] == "output"}
    assert outputs["TILES"]["style"] == "mfp_tiles.qml" and "layername=mfp_tiles" in outputs["TILES"]["layer"]
    pixels = MapRaster(outputs["REFERENCE"]["path"]).read(0, 0, 56, 56)
    assert (pixels[5:20, 5:30] == (0xc0, 0x30, 0x20)).all() and (pixels[25:, :] == 255).all()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert any("blocks.gpkg (their saved styles)" in note for note in manifest["notes"])
