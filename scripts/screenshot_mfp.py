"""`make screenshots`: the MFP grid layer (method §10) in a real QGIS window under Xvfb.

A stand-in "generated" map of central Helsinki is made from the demo's OSM extract: QGIS renders
roads, buildings and water, then the east half is redrawn with the roads 6 px off and the north-west
tile with the road colours turned. ``geofidelity:mfp`` then renders the reference from the OSM file
itself and scores every 224-px tile with the offline DINOv2-S/14 in the backend process. The
styled grid layer over the generated map is saved as docs/screenshots/mfp_tiles.png.
Run: ``xvfb-run python scripts/screenshot_mfp.py docs/screenshots [work folder]``.
"""
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OSM = ROOT / "data" / "external" / "osm" / "Helsinki.osm.pbf"
SIZE, PIXEL, CENTRE = 672, 1.5, (385944.0, 6672297.0)  # 3 × 3 tiles of 224 px, EPSG:3067


def settle(app, seconds=1.5):
    end = time.time() + seconds
    while time.time() < end:
        app.processEvents()
        time.sleep(0.02)


def grid(shift_px: int = 0):
    from osgeo import osr

    from geofidelity_plugin.core.map_fidelity.raster_io import Grid

    srs = osr.SpatialReference()
    srs.ImportFromEPSG(3067)
    x0, y0 = CENTRE[0] - SIZE / 2 * PIXEL, CENTRE[1] + SIZE / 2 * PIXEL
    return Grid(SIZE, SIZE, (x0 - shift_px * PIXEL, PIXEL, 0.0, y0, 0.0, -PIXEL), srs.ExportToWkt())


def stand_in_generated(work: Path) -> Path:
    """The OSM map with its east half's roads 6 px off and the north-west tile recoloured."""
    from osgeo import gdal
    from qgis.PyQt.QtGui import QColor

    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster
    from geofidelity_plugin.qgis_side.map_render import osm_layers, render_reference

    layers = osm_layers(OSM)
    base = render_reference(layers, grid(0), work / "generated.tif")
    shifted = MapRaster(render_reference(layers, grid(6), work / "shifted.tif")).read(0, 0, SIZE, SIZE)
    renderer = layers[0].renderer()
    for index, category in enumerate(renderer.categories()):
        symbol = category.symbol().clone()
        fill = symbol.symbolLayer(1).color()
        symbol.symbolLayer(1).setColor(QColor.fromHsl((max(fill.hslHue(), 0) + 150) % 360, 200, 110))
        renderer.updateCategorySymbol(index, symbol)
    recoloured = MapRaster(render_reference(layers, grid(0), work / "recoloured.tif")).read(0, 0, SIZE, SIZE)
    dataset = gdal.Open(str(base), gdal.GA_Update)
    for band in range(3):
        pixels = dataset.GetRasterBand(band + 1).ReadAsArray()
        pixels[:, SIZE // 2:] = shifted[:, SIZE // 2:, band]
        pixels[:224, :224] = recoloured[:224, :224, band]
        dataset.GetRasterBand(band + 1).WriteArray(pixels)
    dataset = None
    return base


def main(out: Path, work: Path) -> int:
    from qgis.core import QgsApplication, QgsProject, QgsRasterLayer
    from qgis.gui import QgsMapCanvas

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], True)
    app.initQgis()
    plugins = "/usr/share/qgis/python/plugins"
    if plugins not in sys.path:
        sys.path.append(plugins)
    from processing.core.Processing import Processing

    Processing.initialize()
    from geofidelity_plugin.qgis_side.qgis_env import register_provider

    register_provider()
    import processing

    work.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    generated = stand_in_generated(work)
    result = processing.runAndLoadResults("geofidelity:mfp", {
        "GENERATED": str(generated), "OSM_FILE": str(OSM), "MODEL": "auto", "DEVICE": "cpu",
        "OUTPUT_FOLDER": str(work / "mfp")})
    project = QgsProject.instance()
    tiles = next(layer for layer in project.mapLayers().values() if layer.name().startswith("MFP per tile"))
    raster = QgsRasterLayer(str(generated), "generated map (stand-in)")
    project.addMapLayer(raster)
    canvas = QgsMapCanvas()
    canvas.resize(1000, 1000)
    canvas.setDestinationCrs(tiles.crs())
    canvas.setLayers([tiles, raster])
    canvas.setExtent(tiles.extent().buffered(10))
    canvas.show()
    canvas.refresh()
    settle(app, 3)
    canvas.grab().save(str(out / "mfp_tiles.png"))
    print(f"screenshot: {out / 'mfp_tiles.png'} (mean MFP {result['MEAN_MFP']:.4f})")
    canvas.close()
    canvas.deleteLater()
    settle(app, 0.3)
    project.clear()
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp())))
