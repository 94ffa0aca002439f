"""Tiles of a map raster (method §10): squares of N px on the raster's own pixel grid.

Tiles start every ``N − overlap`` px from the top-left pixel; where the raster's width or height
is not a multiple of that stride the last row (column) of tiles is aligned to the bottom (right)
edge instead, so every pixel is scored and no tile is padded. Stdlib only.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError


@dataclass(frozen=True)
class Tile:
    """One tile: its id, its place in the tile grid, and its pixel window."""

    tile_id: int
    row: int
    col: int
    x: int  # left column, px
    y: int  # top row, px
    size: int


def _starts(length: int, size: int, stride: int) -> list[int]:
    starts = list(range(0, length - size + 1, stride))
    if starts[-1] + size < length:
        starts.append(length - size)
    return starts


def tile_grid(width: int, height: int, size: int, overlap: int = 0) -> list[Tile]:
    """The tiles covering a ``width`` × ``height`` raster, row by row from the top left."""
    if size < 2:
        raise InputError(f"tile size {size} px is too small — give at least 2 px")
    if not 0 <= overlap < size:
        raise InputError(f"overlap {overlap} px must be ≥ 0 and smaller than the tile ({size} px) — lower --overlap")
    if width < size or height < size:
        raise InputError(f"the map ({width} × {height} px) is smaller than one tile ({size} px) — give a smaller "
                         "--tile (the ViT resizes each tile to its input size) or a larger map")
    stride = size - overlap
    tiles = []
    for row, y in enumerate(_starts(height, size, stride)):
        for col, x in enumerate(_starts(width, size, stride)):
            tiles.append(Tile(len(tiles), row, col, x, y, size))
    return tiles


def tile_ring(tile: Tile, geotransform: tuple) -> list[tuple[float, float]]:
    """The tile's outline in map coordinates (closed ring), from a GDAL geotransform."""
    x0, px, _, y0, _, py = geotransform
    corners = [(tile.x, tile.y), (tile.x + tile.size, tile.y), (tile.x + tile.size, tile.y + tile.size),
               (tile.x, tile.y + tile.size), (tile.x, tile.y)]
    return [(x0 + c * px, y0 + r * py) for c, r in corners]
