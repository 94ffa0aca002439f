"""The QGIS-rendered MFP reference (method §10) sits on the generated raster's pixel grid: a
GeoTIFF whose pixels are known is redrawn from vectors by QGIS, tile by tile, and must come back
pixel for pixel."""
from __future__ import annotations

import numpy as np
import pytest

ORIGIN = (385123.5, 6672345.25)  # not a multiple of the pixel size
PIXEL = 2.0
WIDTH, HEIGHT = 53, 37  # neither a multiple of the render tile


def known_grid(tmp_path):
    """A GeoTIFF (EPSG:3067) with a random pattern of black pixels on white; returns its grid and mask."""
    from osgeo import gdal, osr

    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster

    rng = np.random.default_rng(0)
    mask = rng.random((HEIGHT, WIDTH)) < 0.3
    pixels = np.where(mask[..., None], 0, 255).astype(np.uint8).repeat(3, axis=-1)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(3067)
    ds = gdal.GetDriverByName("GTiff").Create(str(tmp_path / "known.tif"), WIDTH, HEIGHT, 3, gdal.GDT_Byte)
    ds.SetGeoTransform((ORIGIN[0], PIXEL, 0.0, ORIGIN[1], 0.0, -PIXEL))
    ds.SetProjection(srs.ExportToWkt())
    for band in range(3):
        ds.GetRasterBand(band + 1).WriteArray(pixels[..., band])
    ds = None
    return MapRaster(tmp_path / "known.tif").grid, mask


def memory_layer(kind: str, crs: str, geometries, symbol_props: dict):
    from qgis.core import QgsFeature, QgsFillSymbol, QgsMarkerSymbol, QgsVectorLayer

    layer = QgsVectorLayer(f"{kind}?crs={crs}", kind, "memory")
    features = []
    for geometry in geometries:
        feature = QgsFeature()
        feature.setGeometry(geometry)
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    symbol = (QgsFillSymbol if kind == "Polygon" else QgsMarkerSymbol).createSimple(symbol_props)
    layer.renderer().setSymbol(symbol)
    return layer


def test_rendered_reference_matches_known_pixels(qgis_app, tmp_path):
    """One square polygon per black pixel of the known GeoTIFF; QGIS renders them for its grid in
    16-px render tiles (partial ones at the edges) and every pixel comes back as it was."""
    from qgis.core import QgsGeometry, QgsRectangle

    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster, check_pair
    from geofidelity_plugin.qgis_side.map_render import render_reference

    grid, mask = known_grid(tmp_path)
    squares = [QgsGeometry.fromRect(QgsRectangle(ORIGIN[0] + c * PIXEL, ORIGIN[1] - (r + 1) * PIXEL,
                                                 ORIGIN[0] + (c + 1) * PIXEL, ORIGIN[1] - r * PIXEL))
               for r, c in zip(*np.nonzero(mask))]
    layer = memory_layer("Polygon", "EPSG:3067", squares, {"color": "black", "outline_style": "no"})
    out = render_reference([layer], grid, tmp_path / "rendered.tif", background="#ffffff", tile=16)
    check_pair(tmp_path / "known.tif", out)  # same size, geotransform and CRS
    rendered = MapRaster(out).read(0, 0, WIDTH, HEIGHT)
    known = MapRaster(tmp_path / "known.tif").read(0, 0, WIDTH, HEIGHT)
    assert np.array_equal(rendered, known), f"{int((rendered != known).any(axis=-1).sum())} pixels differ"


def test_other_crs_layers_land_on_their_pixels(qgis_app, tmp_path):
    """Squares stored in WGS84 are reprojected on the fly onto the raster's EPSG:3067 grid: the
    square drawn for pixels (row…row+1, col…col+1) covers exactly those four pixels."""
    from pyproj import Transformer
    from qgis.core import QgsGeometry, QgsPointXY

    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster
    from geofidelity_plugin.qgis_side.map_render import render_reference

    grid, _ = known_grid(tmp_path)
    to_wgs84 = Transformer.from_crs(3067, 4326, always_xy=True)
    cells = [(5, 7), (20, 40), (30, 12)]
    squares = []
    for r, c in cells:
        corners = [(c, r), (c + 2, r), (c + 2, r + 2), (c, r + 2), (c, r)]
        ring = [QgsPointXY(*to_wgs84.transform(ORIGIN[0] + x * PIXEL, ORIGIN[1] - y * PIXEL)) for x, y in corners]
        squares.append(QgsGeometry.fromPolygonXY([ring]))
    layer = memory_layer("Polygon", "EPSG:4326", squares, {"color": "black", "outline_style": "no"})
    out = render_reference([layer], grid, tmp_path / "squares.tif", background="#ffffff", tile=16)
    darkness = 255.0 - MapRaster(out).read(0, 0, WIDTH, HEIGHT).mean(axis=-1)
    expected = np.zeros((HEIGHT, WIDTH), bool)
    for r, c in cells:
        expected[r:r + 2, c:c + 2] = True
    assert np.array_equal(darkness > 127, expected)
    assert np.abs(darkness - 255.0 * expected).max() <= 2  # reprojected edges stay on the pixel edges


def test_osm_layers_render_with_default_styles(qgis_app, tmp_path, helsinki_pbf):
    """The demo's Helsinki extract: roads, buildings and water with the shipped styles, drawn for a
    2 m grid in EPSG:3067 — the map has the style's colours, whatever the render tile size."""
    from osgeo import osr

    from geofidelity_plugin.core.map_fidelity.raster_io import Grid, MapRaster
    from geofidelity_plugin.qgis_side.map_render import osm_layers, render_reference

    srs = osr.SpatialReference()
    srs.ImportFromEPSG(3067)
    grid = Grid(96, 80, (385800.0, 2.0, 0.0, 6672400.0, 0.0, -2.0), srs.ExportToWkt())
    layers = osm_layers(helsinki_pbf)
    assert [layer.name() for layer in layers] == ["OSM roads", "OSM buildings", "OSM water"]
    assert layers[0].renderer().type() == "categorizedSymbol"
    first = MapRaster(render_reference(layers, grid, tmp_path / "a.tif")).read(0, 0, 96, 80)
    second = MapRaster(render_reference(layers, grid, tmp_path / "b.tif", tile=32)).read(0, 0, 96, 80)
    # render tiles are seamless: one render job and nine agree up to the rounding of antialiased edges
    difference = np.abs(first.astype(int) - second.astype(int)).max(axis=-1)
    assert difference.max() <= 1 and (difference > 0).mean() < 0.02
    colours = {tuple(c) for c in first.reshape(-1, 3)}
    assert (242, 239, 233) in colours and (217, 208, 201) in colours  # background and building fill
    with pytest.raises(Exception, match="unknown OSM layer 'rivers'"):
        osm_layers(helsinki_pbf, ("rivers",))


def test_render_refuses_a_grid_without_crs(qgis_app, tmp_path):
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.map_fidelity.raster_io import Grid
    from geofidelity_plugin.qgis_side.map_render import render_reference

    layer = memory_layer("Point", "EPSG:4326", [], {"name": "square"})
    with pytest.raises(InputError, match="no CRS.*georeference"):
        render_reference([layer], Grid(10, 10, (0.0, 1.0, 0.0, 0.0, 0.0, 1.0), ""), tmp_path / "x.tif")
