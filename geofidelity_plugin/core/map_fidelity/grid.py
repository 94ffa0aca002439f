"""The pixel grid of a map raster for MFP (method §10), read with GDAL and nothing else (no numpy):
the QGIS side renders a reference on it, the backend reads the pixels (``raster_io.py``).

Only 8-bit, north-up rasters are accepted — a map image is 8-bit; other types are refused with the
conversion to run. Images without georeferencing (PNG, JPEG) have GDAL's identity grid.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError


def _gdal():
    from osgeo import gdal

    gdal.UseExceptions()
    return gdal


@dataclass(frozen=True)
class Grid:
    """A raster's pixel grid: size, GDAL geotransform and CRS (WKT, "" when none)."""

    width: int
    height: int
    geotransform: tuple
    crs_wkt: str = ""

    @property
    def pixel_size(self) -> tuple[float, float]:
        return abs(self.geotransform[1]), abs(self.geotransform[5])

    def mismatch(self, other: "Grid") -> str | None:
        """Why ``other`` is not the same grid, or None when it is."""
        if (self.width, self.height) != (other.width, other.height):
            return f"{self.width} × {self.height} px against {other.width} × {other.height} px"
        tolerance = 1e-6 * max(self.pixel_size)
        if any(abs(a - b) > tolerance for a, b in zip(self.geotransform, other.geotransform)):
            return f"geotransform {self.geotransform} against {other.geotransform}"
        if bool(self.crs_wkt) != bool(other.crs_wkt):
            return "one raster has a CRS and the other has none"
        if self.crs_wkt:
            from osgeo import osr

            a, b = osr.SpatialReference(), osr.SpatialReference()
            a.ImportFromWkt(self.crs_wkt)
            b.ImportFromWkt(other.crs_wkt)
            if not a.IsSame(b):
                return f"CRS {a.GetName()} against {b.GetName()}"
        return None


def open_raster(path: str | Path):
    """``(dataset, bands, grid)`` of the raster at ``path``, refused with the fix when it is missing,
    unreadable, not 8-bit or rotated."""
    gdal = _gdal()
    path = Path(path)
    if not path.exists():
        raise InputError(f"map raster {path} not found — give an existing image or GeoTIFF")
    try:
        ds = gdal.Open(str(path))
    except RuntimeError as exc:
        raise InputError(f"{path} cannot be read as a raster: {exc} — give a GeoTIFF, PNG or JPEG "
                         "map image") from None
    bands = [ds.GetRasterBand(i + 1) for i in range(ds.RasterCount)]
    if not bands:
        raise InputError(f"{path} has no raster band — give an RGB map image")
    if any(b.DataType != gdal.GDT_Byte for b in bands):
        raise InputError(f"{path} is not an 8-bit raster ({gdal.GetDataTypeName(bands[0].DataType)}) — "
                         "MFP reads 8-bit maps; convert it, e.g. `gdal_translate -ot Byte -scale in.tif out.tif`")
    gt = ds.GetGeoTransform(can_return_null=True) or (0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    if gt[2] or gt[4]:
        raise InputError(f"{path} has a rotated geotransform — warp it to a north-up grid first "
                         "(`gdalwarp in.tif out.tif`)")
    return ds, bands, Grid(ds.RasterXSize, ds.RasterYSize, tuple(float(v) for v in gt), ds.GetProjection() or "")


def raster_grid(path: str | Path) -> Grid:
    """The grid of the raster at ``path`` (checked as :func:`open_raster` checks it)."""
    return open_raster(path)[2]
