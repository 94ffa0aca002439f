"""Map-like test images and GeoTIFFs for the MFP tests (method §10)."""
from __future__ import annotations

import numpy as np


def maps(n: int, size: int, seed: int) -> np.ndarray:
    """Map-like uint8 RGB images: a background, a few thick 'roads' and a block."""
    rng = np.random.default_rng(seed)
    out = np.full((n, size, size, 3), (242, 239, 233), dtype=np.uint8)
    for image in out:
        for _ in range(3):
            r = rng.integers(0, size - 3)
            image[r:r + 3] = rng.integers(0, 256, 3)
            c = rng.integers(0, size - 3)
            image[:, c:c + 3] = rng.integers(0, 256, 3)
        y, x = rng.integers(0, size // 2, 2)
        image[y:y + size // 4, x:x + size // 4] = (217, 208, 201)
    return out


def write_tif(path, pixels: np.ndarray, origin=(385000.0, 6672000.0), pixel=2.0, epsg=3067, alpha=None):
    """An 8-bit RGB(A) GeoTIFF, written with the raster library MFP reads with here (grid.py)."""
    from geofidelity_plugin.core.map_fidelity.grid import raster_library

    if raster_library() == "rasterio":
        return _write_tif_rasterio(path, pixels, origin, pixel, epsg, alpha)
    from osgeo import gdal, osr

    bands = 3 + (alpha is not None)
    ds = gdal.GetDriverByName("GTiff").Create(str(path), pixels.shape[1], pixels.shape[0], bands, gdal.GDT_Byte)
    ds.SetGeoTransform((origin[0], pixel, 0.0, origin[1], 0.0, -pixel))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    ds.SetProjection(srs.ExportToWkt())
    for b in range(3):
        ds.GetRasterBand(b + 1).WriteArray(pixels[..., b])
    if alpha is not None:
        ds.GetRasterBand(4).WriteArray(alpha)
        ds.GetRasterBand(4).SetColorInterpretation(gdal.GCI_AlphaBand)
    ds = None
    return path


def _write_tif_rasterio(path, pixels, origin, pixel, epsg, alpha):
    import rasterio
    from rasterio.enums import ColorInterp
    from rasterio.transform import from_origin

    bands = 3 + (alpha is not None)
    with rasterio.open(str(path), "w", driver="GTiff", width=pixels.shape[1], height=pixels.shape[0], count=bands,
                       dtype="uint8", crs=f"EPSG:{epsg}", transform=from_origin(origin[0], origin[1], pixel, pixel)) as ds:
        for b in range(3):
            ds.write(pixels[..., b], b + 1)
        if alpha is not None:
            ds.write(alpha, 4)
            ds.colorinterp = [ColorInterp.red, ColorInterp.green, ColorInterp.blue, ColorInterp.alpha]
    return path
