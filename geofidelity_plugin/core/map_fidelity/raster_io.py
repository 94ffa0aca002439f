"""Map rasters for MFP (method §10), read with GDAL or rasterio (``grid.py`` says which): 8-bit RGB
windows on the raster's grid.

A generated map and its reference are compared pixel for pixel, so both must share one grid
(size, geotransform, CRS); a QGIS-rendered reference is made on the generated map's grid. Images
without georeferencing (PNG, JPEG) have GDAL's identity grid and compare by size alone.

Bands: three or more → the first three are R, G, B (a fourth alpha band is composited over
white); one band with a colour table → its colours; one grey band → R = G = B. Only 8-bit
rasters are read — a map image is 8-bit; other types are refused with the conversion to run.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import InputError
from .grid import Grid, open_raster, raster_library  # noqa: F401 (Grid, raster_library: public here too)


class MapRaster:
    """An open map raster; :meth:`read` returns (h, w, 3) uint8 windows."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.source, self.grid = open_raster(self.path)
        self.library = self.source.library
        self._alpha = self.source.alpha
        self._palette = None
        if self.source.palette is not None:
            self._palette = np.zeros((256, 3), dtype=np.uint8)
            self._palette[:len(self.source.palette)] = self.source.palette

    def read(self, x: int, y: int, width: int, height: int, out_size: tuple[int, int] | None = None) -> np.ndarray:
        """The window's RGB pixels, (height, width, 3) uint8 (or resampled to ``out_size`` (w, h))."""
        planes = self.source.read(x, y, width, height, out_size)
        if self._palette is not None:
            return self._palette[planes[0]]
        if len(planes) < 3:
            return np.repeat(planes[0][..., None], 3, axis=-1)
        rgb = np.stack(planes[:3], axis=-1)
        if self._alpha:
            alpha = planes[3][..., None].astype(np.float32) / 255.0
            rgb = np.rint(rgb * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
        return rgb

    def overview(self, max_side: int = 512) -> np.ndarray:
        """The whole map shrunk to at most ``max_side`` px (for figures)."""
        g = self.grid
        scale = min(1.0, max_side / max(g.width, g.height))
        size = (max(1, round(g.width * scale)), max(1, round(g.height * scale)))
        return self.read(0, 0, g.width, g.height, out_size=size)

    def close(self) -> None:
        self.source.close()


def open_pair(generated: str | Path, reference: str | Path) -> tuple[MapRaster, MapRaster]:
    """Both rasters, refused unless they share one grid."""
    gen, ref = MapRaster(generated), MapRaster(reference)
    why = gen.grid.mismatch(ref.grid)
    if why:
        raise InputError(f"the reference {ref.path} is not on the generated map's grid ({why}) — render the "
                         "reference for the generated raster (geofidelity:mfp with layers, or `mfp --osm`), or "
                         "warp it onto the same grid (`gdalwarp -te … -tr … -t_srs …`)")
    return gen, ref


def check_pair(generated: str | Path, reference: str | Path) -> None:
    """Refuse a pair that is not on one grid before any model is loaded."""
    for raster in open_pair(generated, reference):
        raster.close()
