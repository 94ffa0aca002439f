"""The reference map of MFP (method §10), rendered by QGIS on the generated raster's own grid.

For a grid (size, north-up geotransform, CRS) the chosen layers are drawn with their styles,
tile by tile (``RENDER_TILE`` px per render job), each tile's map extent taken from the grid's
pixel edges, so that pixel (i, j) of the reference covers exactly the ground of pixel (i, j) of
the generated map. Tiles are drawn with QGIS's map-tile flag and an extent buffer, so a symbol
crossing a tile edge is drawn whole on both sides, and each render job covers its tile plus a
margin of ``EXTENT_BUFFER_PX`` whole pixels that is cropped off: QGIS 3.40 (not 3.22) clips the
lines of a geographic layer drawn on a projected map (e.g. OSM in EPSG:4326; qgis/QGIS#45200)
after reprojection, to the job's visible extent + 10 % and not to the buffered extent, which
would cut thick lines along a small tile's edges. The result is an RGB
GeoTIFF on that grid.

Needs QGIS: the Processing algorithm calls it inside QGIS (on layer clones, with the project's
styles); the ``mfp`` command calls it in a backend whose Python can import qgis (the OSM layers
then get the default styles ``resources/styles/mfp_osm_*.qml``). The qgis-free core never
imports this module.
"""
from __future__ import annotations

from pathlib import Path

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.map_fidelity.grid import check_covered, raster_grid
from geofidelity_plugin.core.map_fidelity.options import (DEFAULT_BACKGROUND, DEFAULT_DPI, OSM_LAYERS, RENDER_TILE)
from geofidelity_plugin.core.progress import check_cancel
from geofidelity_plugin.qgis_side.osm_layers import EXTENT_BUFFER_PX, OSM_SOURCES, osm_layers, osm_style  # noqa: F401

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


def layers_bounds(layers: list, crs, transform_context=None):
    """The union of the layers' extents in ``crs`` as ``(xmin, ymin, xmax, ymax)``; None when no
    layer holds a feature."""
    from qgis.core import QgsCoordinateTransform, QgsCsException, QgsProject, QgsRectangle

    context = transform_context if transform_context is not None else QgsProject.instance().transformContext()
    union = QgsRectangle()
    union.setMinimal()
    for layer in layers:
        extent = layer.extent()
        if extent.isNull():
            continue
        try:
            extent = QgsCoordinateTransform(layer.crs(), crs, context).transformBoundingBox(extent)
        except QgsCsException:
            continue
        union.combineExtentWith(extent)
    if union.isNull() or union.xMinimum() > union.xMaximum():
        return None
    return union.xMinimum(), union.yMinimum(), union.xMaximum(), union.yMaximum()


def _tile_image(settings, width: int, height: int, background, margin: int):
    """Render one job of ``width`` × ``height`` px and return its inner part, ``margin`` px cropped
    off each side, as an RGB888 QImage (rows ``bytesPerLine()`` bytes apart)."""
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
    return image.copy(margin, margin, width - 2 * margin, height - 2 * margin) \
        .convertToFormat(QImage.Format.Format_RGB888)


def _write_tile(dataset, image, x: int, y: int) -> None:
    """Write an RGB888 QImage into bands 1–3 of ``dataset`` at pixel (x, y), straight from Qt's bytes."""
    from osgeo import gdal

    data = image.constBits()
    data.setsize(image.sizeInBytes())
    w, h = image.width(), image.height()
    dataset.WriteRaster(x, y, w, h, bytes(data), w, h, gdal.GDT_Byte, [1, 2, 3],
                        buf_pixel_space=3, buf_line_space=image.bytesPerLine(), buf_band_space=1)


def render_reference(layers: list, grid, out_path: str | Path, background: str = DEFAULT_BACKGROUND,
                     dpi: float = DEFAULT_DPI, tile: int = RENDER_TILE, transform_context=None,
                     progress=None) -> Path:
    """Render ``layers`` (top layer first) for ``grid`` — a :class:`Grid`, or the path of the
    generated raster whose grid it is — into an RGB GeoTIFF at ``out_path``."""
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
    if isinstance(grid, (str, Path)):
        grid = raster_grid(grid)
    crs = grid_crs(grid)
    check_covered(grid, layers_bounds(layers, crs, transform_context), "the reference data "
                  f"({', '.join(layer.name() for layer in layers)})")
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
            m = EXTENT_BUFFER_PX  # drawn around the tile, then cropped: QGIS's line clipping stays off the tile
            settings.setExtent(QgsRectangle(x0 + (x - m) * px, y0 + (y + h + m) * py,
                                            x0 + (x + w + m) * px, y0 + (y - m) * py))
            gdal.PushErrorHandler("CPLQuietErrorHandler")  # OSM extracts: clipped multipolygons warn per ring
            try:
                tile_image = _tile_image(settings, w + 2 * m, h + 2 * m, colour, m)
            finally:
                gdal.PopErrorHandler()
            _write_tile(dataset, tile_image, x, y)
            if progress is not None:
                progress.set_progress(100.0 * (done + 1) / len(windows))
        dataset.FlushCache()
        dataset = None
    return out_path
