"""The options of MFP (method §10) with their defaults. Stdlib only, so that the QGIS side shows
the same defaults as the command line without importing numpy or torch."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..vision.model_ids import OFFLINE_DINOV2_FOLDER

#: The paper's feature model: a DINO ViT. The paper does not name the variant; it follows
#: Tumanyan et al.'s splicing framework, which uses DINO ViT-B/8.
PAPER_MODEL = "facebook/dino-vitb8"
#: The project's offline DINOv2-S/14 (made by `make models`), used when the paper's model is
#: not downloaded; every output then says so.
OFFLINE_MODEL_FOLDER = OFFLINE_DINOV2_FOLDER
#: ``auto``: the paper's model when it is in the models folder, else the offline DINOv2-S/14.
DEFAULT_MODEL = "auto"

LAMBDA_G = 10.0   # weight of L_G = 1 − G = MSE(CLS_o, CLS_t) in the loss (paper, Eq. 10)
LAMBDA_S = 1.0    # weight of L_S = D_S = ‖S_o − S_t‖_F in the loss
L1_WEIGHT = 1.0   # weight of the pixel L1 term

#: Our single MFP score (the paper gives no closed form for one number).
MFP_RULE = ("MFP = G − D_S_rms = 1 − MSE(CLS_o, CLS_t) − ‖S_o − S_t‖_F / n_tokens; 1 for identical maps, "
            "higher is better (method §10)")

DEFAULT_TILE = 0           # tile size in px (0: the ViT's input size)
DEFAULT_OVERLAP = 0        # px shared by neighbouring tiles
DEFAULT_BATCH_SIZE = 8     # tiles per ViT forward pass
DEFAULT_BACKGROUND = "#f2efe9"  # land colour of the rendered reference (OSM Carto's)
DEFAULT_DPI = 96.0         # the dpi at which symbol sizes in mm/points are rendered
RENDER_TILE = 1024         # px per QGIS render job (tiles are stitched on the raster's own grid)
OSM_LAYERS = ("roads", "buildings", "water")


@dataclass
class MapFidelityOptions:
    """How the maps are cut and scored (method §10). ``tile`` 0: the ViT's input size."""

    tile: int = DEFAULT_TILE
    overlap: int = DEFAULT_OVERLAP
    batch_size: int = DEFAULT_BATCH_SIZE

    def check(self) -> "MapFidelityOptions":
        if self.tile < 0 or self.tile == 1:
            raise InputError(f"tile size {self.tile} px is too small — give at least 2 px, or 0 for the "
                             "ViT's input size")
        if self.overlap < 0 or (self.tile and self.overlap >= self.tile):
            raise InputError(f"overlap {self.overlap} px must be ≥ 0 and smaller than the tile "
                             f"({self.tile or 'the ViT input size'} px) — lower --overlap")
        if self.batch_size < 1:
            raise InputError(f"batch size {self.batch_size} must be at least 1 — give --batch-size 1 or more")
        return self
