"""The pixel grid of a map raster for MFP (method §10), and the raster library that reads it: the
QGIS side renders a reference on the grid, the backend reads the pixels (``raster_io.py``).

Two libraries read rasters, with the same numbers: GDAL's own Python bindings (``osgeo``, which
QGIS and Debian have) and rasterio (pip wheels for Linux, Windows and macOS, GDAL inside). ``auto``
takes ``osgeo`` when it imports, else rasterio; ``GEOFIDELITY_RASTER_IO=gdal|rasterio`` chooses,
and the MFP manifest records the one used. No numpy here: the QGIS side imports this module.

Only 8-bit, north-up rasters are accepted — a map image is 8-bit; other types are refused with the
conversion to run. Images without georeferencing (PNG, JPEG) have the identity grid.
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

#: the environment variable that chooses the raster library
RASTER_IO_ENV = "GEOFIDELITY_RASTER_IO"
RASTER_LIBRARIES = ("gdal", "rasterio")
#: the grid of an image without georeferencing, in GDAL's order
IDENTITY = (0.0, 1.0, 0.0, 0.0, 0.0, 1.0)


def _importable(library: str) -> bool:
    try:
        if library == "gdal":
            from osgeo import gdal  # noqa: F401
        else:
            import rasterio  # noqa: F401
    except ImportError:
        return False
    return True


def raster_library() -> str:
    """``"gdal"`` or ``"rasterio"``: the one ``GEOFIDELITY_RASTER_IO`` names, or under ``auto``
    (the default) osgeo when it imports, else rasterio."""
    choice = (os.environ.get(RASTER_IO_ENV) or "auto").strip().lower()
    if choice not in ("auto", *RASTER_LIBRARIES):
        raise InputError(f"{RASTER_IO_ENV}={choice!r} is not a raster library — use auto, gdal or rasterio")
    for library in ((choice,) if choice != "auto" else RASTER_LIBRARIES):
        if _importable(library):
            return library
    wanted = "GDAL's Python bindings (osgeo)" if choice == "gdal" else "rasterio" if choice == "rasterio" else \
        "GDAL's Python bindings (osgeo) or rasterio"
    raise InputError(f"MFP reads map rasters with {wanted}, which this Python cannot import — install rasterio "
                     "into the backend environment (`python -m pip install rasterio`; pip wheels for every "
                     "platform)")


def _gdal():
    from osgeo import gdal

    gdal.UseExceptions()
    return gdal


def same_crs(a_wkt: str, b_wkt: str) -> bool:
    if raster_library() == "gdal":
        from osgeo import osr

        a, b = osr.SpatialReference(), osr.SpatialReference()
        a.ImportFromWkt(a_wkt)
        b.ImportFromWkt(b_wkt)
        return bool(a.IsSame(b))
    from rasterio.crs import CRS

    return CRS.from_wkt(a_wkt) == CRS.from_wkt(b_wkt)


def crs_name(wkt: str) -> str:
    if raster_library() == "gdal":
        from osgeo import osr

        srs = osr.SpatialReference()
        srs.ImportFromWkt(wkt)
        return srs.GetName()
    from rasterio.crs import CRS

    crs = CRS.from_wkt(wkt)
    return crs.to_string() or wkt[:40]


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
        if self.crs_wkt and not same_crs(self.crs_wkt, other.crs_wkt):
            return f"CRS {crs_name(self.crs_wkt)} against {crs_name(other.crs_wkt)}"
        return None


    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` of the grid in its CRS (north-up)."""
        x0, px, _, y0, _, py = self.geotransform
        xs, ys = (x0, x0 + self.width * px), (y0, y0 + self.height * py)
        return min(xs), min(ys), max(xs), max(ys)


def check_covered(grid: Grid, data_bounds, source: str) -> None:
    """The data the reference is rendered from reaches the generated map's ground: a map outside
    it would be scored against a blank reference (method §10), so it is refused.
    ``data_bounds``: the data's ``(xmin, ymin, xmax, ymax)`` in the grid's CRS, None when empty."""
    fix = ("check the generated map's georeferencing (its CRS and origin), or give OSM data or layers that "
           "cover it (--osm / --layer; in QGIS: the reference layers)")
    if data_bounds is None:
        raise InputError(f"{source} holds no feature to draw the reference map from — {fix}")
    gx0, gy0, gx1, gy1 = grid.bounds
    dx0, dy0, dx1, dy1 = data_bounds
    if dx0 > gx1 or dx1 < gx0 or dy0 > gy1 or dy1 < gy0:
        raise InputError(f"the generated map lies outside {source} (map {_box(grid.bounds)}, data {_box(data_bounds)} "
                         f"in the map's CRS): its reference would be blank — {fix}")


def _box(bounds) -> str:
    return "[" + ", ".join(f"{v:.0f}" if abs(v) > 1000 else f"{v:.4f}" for v in bounds) + "]"


class _GdalSource:
    """A raster opened with osgeo.gdal."""

    library = "gdal"

    def __init__(self, path: Path):
        gdal = _gdal()
        try:
            self._ds = gdal.Open(str(path))
        except RuntimeError as exc:
            raise _unreadable(path, exc) from None
        ds = self._ds
        self.width, self.height, self.count = ds.RasterXSize, ds.RasterYSize, ds.RasterCount
        self._bands = [ds.GetRasterBand(i + 1) for i in range(ds.RasterCount)]
        self.types = [gdal.GetDataTypeName(b.DataType) for b in self._bands]
        self.all_bytes = all(b.DataType == gdal.GDT_Byte for b in self._bands)
        self.geotransform = tuple(float(v) for v in (ds.GetGeoTransform(can_return_null=True) or IDENTITY))
        self.crs_wkt = ds.GetProjection() or ""
        self.alpha = self.count >= 4 and self._bands[3].GetColorInterpretation() == gdal.GCI_AlphaBand
        table = self._bands[0].GetColorTable() if self.count == 1 else None
        self.palette = ([tuple(table.GetColorEntry(i)[:3]) for i in range(min(256, table.GetCount()))]
                        if table is not None else None)

    def read(self, x: int, y: int, width: int, height: int, out_size=None) -> list:
        """Up to four bands of the window, each a (rows, columns) uint8 array, nearest-neighbour
        resampled to ``out_size`` (w, h) when given."""
        kwargs = {} if out_size is None else {"buf_xsize": out_size[0], "buf_ysize": out_size[1]}
        return [b.ReadAsArray(x, y, width, height, **kwargs) for b in self._bands[:4]]

    def close(self) -> None:
        self._bands, self._ds = [], None


class _RasterioSource:
    """A raster opened with rasterio (the same GDAL reading underneath)."""

    library = "rasterio"

    def __init__(self, path: Path):
        import rasterio
        from rasterio.enums import ColorInterp
        from rasterio.errors import NotGeoreferencedWarning, RasterioIOError

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", NotGeoreferencedWarning)
                self._ds = rasterio.open(str(path))
        except RasterioIOError as exc:
            raise _unreadable(path, exc) from None
        ds = self._ds
        self.width, self.height, self.count = ds.width, ds.height, ds.count
        self.types = list(ds.dtypes)
        self.all_bytes = all(t == "uint8" for t in ds.dtypes)
        self.geotransform = tuple(float(v) for v in ds.transform.to_gdal())
        self.crs_wkt = ds.crs.to_wkt() if ds.crs else ""
        self.alpha = self.count >= 4 and ds.colorinterp[3] == ColorInterp.alpha
        self.palette = None
        if self.count == 1:
            try:
                table = ds.colormap(1)
            except ValueError:  # no colour table
                table = None
            if table:
                self.palette = [tuple(table.get(i, (0, 0, 0, 0))[:3]) for i in range(min(256, max(table) + 1))]

    def read(self, x: int, y: int, width: int, height: int, out_size=None) -> list:
        from rasterio.enums import Resampling
        from rasterio.windows import Window

        indexes = list(range(1, min(4, self.count) + 1))
        shape = None if out_size is None else (len(indexes), out_size[1], out_size[0])
        data = self._ds.read(indexes, window=Window(x, y, width, height), out_shape=shape,
                             resampling=Resampling.nearest)
        return list(data)

    def close(self) -> None:
        self._ds.close()


def _unreadable(path: Path, exc) -> InputError:
    return InputError(f"{path} cannot be read as a raster: {exc} — give a GeoTIFF, PNG or JPEG map image")


def open_source(path: str | Path):
    """The raster at ``path`` opened with :func:`raster_library`'s library."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"map raster {path} not found — give an existing image or GeoTIFF")
    return (_GdalSource if raster_library() == "gdal" else _RasterioSource)(path)


def open_raster(path: str | Path):
    """``(source, grid)`` of the raster at ``path``, refused with the fix when it is missing,
    unreadable, not 8-bit or rotated."""
    path = Path(path)
    source = open_source(path)
    if not source.count:
        raise InputError(f"{path} has no raster band — give an RGB map image")
    if not source.all_bytes:
        raise InputError(f"{path} is not an 8-bit raster ({source.types[0]}) — MFP reads 8-bit maps; convert it, "
                         "e.g. `gdal_translate -ot Byte -scale in.tif out.tif`")
    gt = source.geotransform
    if gt[2] or gt[4]:
        raise InputError(f"{path} has a rotated geotransform — warp it to a north-up grid first "
                         "(`gdalwarp in.tif out.tif`)")
    return source, Grid(source.width, source.height, gt, source.crs_wkt)


def raster_grid(path: str | Path) -> Grid:
    """The grid of the raster at ``path`` (checked as :func:`open_raster` checks it)."""
    grid = open_raster(path)
    grid[0].close()
    return grid[1]
