"""The reference map of MFP (method §10), rendered by QGIS on the generated raster's own grid.

For a grid (size, north-up geotransform, CRS) the chosen layers are drawn with their styles,
tile by tile (``RENDER_TILE`` px per render job), each tile's map extent taken from the grid's
pixel edges, so that pixel (i, j) of the reference covers exactly the ground of pixel (i, j) of
the generated map. Tiles are drawn with QGIS's map-tile flag and an extent buffer, so a symbol
crossing a tile edge is drawn whole on both sides. The result is an RGB GeoTIFF on that grid.

Needs QGIS: the Processing algorithm calls it inside QGIS (on layer clones, with the project's
styles); the ``mfp`` command calls it in a backend whose Python can import qgis (the OSM layers
then get the default styles ``resources/styles/mfp_osm_*.qml``). The qgis-free core never
imports this module.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .core import atomic
from .core.errors import InputError
from .core.map_fidelity.options import DEFAULT_BACKGROUND, DEFAULT_DPI, OSM_LAYERS, RENDER_TILE
from .core.progress import check_cancel
from .core.resources import resource

#: OGR layer and subset of each default OSM layer; drawn bottom to top in this order.
OSM_SOURCES = {
    "water": ("multipolygons", "\"natural\" = 'water' OR \"landuse\" IN ('reservoir', 'basin')"),
    "buildings": ("multipolygons", "\"building\" IS NOT NULL"),
    "roads": ("lines", "\"highway\" IS NOT NULL"),
}
EXTENT_BUFFER_PX = 64


def osm_style(name: str) -> Path:
    return resource("styles", f"mfp_osm_{name}.qml")


def osm_layers(osm_file: str | Path, names=OSM_LAYERS) -> list:
    """The default OSM layers of ``osm_file`` (roads, buildings, water), styled, top layer first."""
    from qgis.core import QgsVectorLayer

    unknown = [n for n in names if n not in OSM_SOURCES]
    if unknown:
        raise InputError(f"unknown OSM layer {unknown[0]!r} — choose among {', '.join(OSM_SOURCES)}")
    if not Path(osm_file).exists():
        raise InputError(f"OSM file {osm_file} not found — give an .osm or .osm.pbf file")
    layers = []
    for name in [n for n in OSM_SOURCES if n in names]:
        ogr_layer, subset = OSM_SOURCES[name]
        layer = QgsVectorLayer(f"{osm_file}|layername={ogr_layer}", f"OSM {name}", "ogr")
        if not layer.isValid():
            raise InputError(f"{osm_file} cannot be read as OSM data by QGIS — give an .osm or .osm.pbf file")
        layer.setSubsetString(subset)
        message, ok = layer.loadNamedStyle(str(osm_style(name)))
        if not ok:
            raise InputError(f"the style {osm_style(name)} cannot be loaded ({message}) — reinstall the plugin")
        layers.append(layer)
    return layers[::-1]  # QgsMapSettings draws the first layer on top


def grid_crs(grid):
    from qgis.core import QgsCoordinateReferenceSystem

    crs = QgsCoordinateReferenceSystem.fromWkt(grid.crs_wkt) if grid.crs_wkt else QgsCoordinateReferenceSystem()
    if not crs.isValid():
        raise InputError("the generated map has no CRS, so QGIS cannot know which ground it shows — georeference "
                         "it (e.g. `gdal_translate -a_srs EPSG:3067 -a_ullr …`) or give a reference raster")
    if grid.geotransform[5] >= 0:
        raise InputError("the generated map is not north-up (its geotransform's y pixel size is not negative) — "
                         "warp it with `gdalwarp` first")
    return crs


def _tile_image(settings, width: int, height: int, background) -> np.ndarray:
    from qgis.core import QgsMapRendererCustomPainterJob
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QImage, QPainter

    settings.setOutputSize(QSize(width, height))
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(background)
    painter = QPainter(image)
    job = QgsMapRendererCustomPainterJob(settings, painter)
    job.renderSynchronously()
    painter.end()
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    data = rgb.constBits()
    data.setsize(rgb.sizeInBytes())
    return np.frombuffer(data, dtype=np.uint8).reshape(height, rgb.bytesPerLine())[:, :width * 3] \
        .reshape(height, width, 3).copy()


def render_reference(layers: list, grid, out_path: str | Path, background: str = DEFAULT_BACKGROUND,
                     dpi: float = DEFAULT_DPI, tile: int = RENDER_TILE, transform_context=None,
                     progress=None) -> Path:
    """Render ``layers`` (top layer first) for ``grid`` into an RGB GeoTIFF at ``out_path``."""
    from osgeo import gdal
    from qgis.core import Qgis, QgsMapSettings, QgsRectangle
    from qgis.PyQt.QtGui import QColor

    gdal.UseExceptions()
    if not layers:
        raise InputError("no layer to render the reference map from — choose layers, an OSM file or a "
                         "reference raster")
    colour = QColor(background)
    if not colour.isValid():
        raise InputError(f"background colour {background!r} is not a colour — give e.g. #f2efe9")
    crs = grid_crs(grid)
    x0, px, _, y0, _, py = grid.geotransform
    settings = QgsMapSettings()
    settings.setLayers(list(layers))
    settings.setDestinationCrs(crs)
    settings.setBackgroundColor(colour)
    settings.setOutputDpi(float(dpi))
    settings.setFlag(Qgis.MapSettingsFlag.Antialiasing, True)
    settings.setFlag(Qgis.MapSettingsFlag.RenderMapTile, True)
    settings.setExtentBuffer(EXTENT_BUFFER_PX * abs(px))
    if transform_context is not None:
        settings.setTransformContext(transform_context)
    windows = [(x, y, min(tile, grid.width - x), min(tile, grid.height - y))
               for y in range(0, grid.height, tile) for x in range(0, grid.width, tile)]
    out_path = Path(out_path)
    with atomic.atomic_path(out_path, suffix=".tif") as tmp:
        dataset = gdal.GetDriverByName("GTiff").Create(str(tmp), grid.width, grid.height, 3, gdal.GDT_Byte,
                                                       options=["COMPRESS=DEFLATE", "TILED=YES"])
        dataset.SetGeoTransform(grid.geotransform)
        dataset.SetProjection(grid.crs_wkt)
        for done, (x, y, w, h) in enumerate(windows):
            check_cancel(progress, "rendering the reference map")
            settings.setExtent(QgsRectangle(x0 + x * px, y0 + (y + h) * py, x0 + (x + w) * px, y0 + y * py))
            gdal.PushErrorHandler("CPLQuietErrorHandler")  # OSM extracts: clipped multipolygons warn per ring
            try:
                pixels = _tile_image(settings, w, h, colour)
            finally:
                gdal.PopErrorHandler()
            for band in range(3):
                dataset.GetRasterBand(band + 1).WriteArray(pixels[..., band], x, y)
            if progress is not None:
                progress.set_progress(100.0 * (done + 1) / len(windows))
        dataset.FlushCache()
        dataset = None
    return out_path
