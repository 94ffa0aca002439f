"""``mfp`` — MFP (method §10): a generated map against its reference, per tile, in QGIS
``geofidelity:mfp``. The layers, the OSM file and the rasters the algorithm renders or reads in
QGIS stay outside: they are QGIS inputs, and the command line's own sources (``--generated``,
``--reference``, ``--osm``, ``--layer``, the folder pair) are :data:`CLI_ONLY`."""
from __future__ import annotations

from geofidelity_plugin.core.map_fidelity.options import (DEFAULT_BACKGROUND, DEFAULT_BATCH_SIZE, DEFAULT_DPI,
                                                          DEFAULT_MODEL, DEFAULT_OVERLAP, DEFAULT_TILE,
                                                          OFFLINE_MODEL_FOLDER, OSM_LAYERS, PAPER_MODEL)
from geofidelity_plugin.spec.options import CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import DEVICE

#: a vector layer output in QGIS (the GeoPackage's tile layer), so outside ``MFP.results``
TILES = Result("TILES", "MFP per tile", "file")
REFERENCE = Result("REFERENCE", "Reference map rendered by the backend (GeoTIFF)", "file")
REFERENCE_MAP = Result("REFERENCE_MAP", "Reference map (GeoTIFF)", "file")
SUMMARY_CSV = Result("SUMMARY_CSV", "Summary table (CSV)", "file")
FIGURE = Result("FIGURE", "Summary figure (PNG)", "file")
MANIFEST = Result("MANIFEST", "Run manifest", "file")
TILES_CSV = Result("TILES_CSV", "Tile table (CSV)", "file")
PAIRS_CSV = Result("PAIRS_CSV", "Pair table (CSV)", "file")
MEAN_MFP = Result("MEAN_MFP", "Mean MFP")
MEAN_G = Result("MEAN_G", "Mean G")
MEAN_D_S = Result("MEAN_D_S", "Mean D_S")
COUNT = Result("COUNT", "Tiles or pairs scored")
MODEL = Result("MODEL", "Feature model")

#: the core's output names (core/map_fidelity/workflow.py) → their results
FILES = {"tiles_csv": TILES_CSV, "pairs_csv": PAIRS_CSV, "summary_csv": SUMMARY_CSV, "figure": FIGURE,
         "manifest": MANIFEST}


def mean_result(metric: str) -> Result:
    """The result of one mean the core reports (``mfp``, ``g``, ``d_s`` …)."""
    known = {r.key: r for r in (MEAN_MFP, MEAN_G, MEAN_D_S)}
    key = f"MEAN_{metric.upper()}"
    return known.get(key) or Result(key, f"Mean {metric}")


MFP = CommandSpec(
    command="mfp",
    help="MFP: score a generated map against its (QGIS-rendered) reference, per tile (method §10)",
    options=(
        Option("MODEL", "--model", "text", "ViT (auto, a hub id or a local folder)",
               help=f"ViT: auto ({PAPER_MODEL}, the paper's DINO ViT, when the model manager has it, else the "
                    f"offline DINOv2-S/14 {OFFLINE_MODEL_FOLDER}, named as such in every output), a hub id or a "
                    "folder", default=DEFAULT_MODEL),
        Option("TILE", "--tile", "integer", "Tile size in px (0: the ViT's input size)",
               help="tile size in px (0: the ViT's input size)", default=DEFAULT_TILE, rule="non-negative-count"),
        Option("OVERLAP", "--overlap", "integer", "Tile overlap (px)", help="px shared by neighbouring tiles",
               default=DEFAULT_OVERLAP, rule="non-negative-count", advanced=True),
        Option("BATCH_SIZE", "--batch-size", "integer", "Tiles per forward pass", help="tiles per forward pass",
               default=DEFAULT_BATCH_SIZE, rule="count", advanced=True),
        DEVICE,
        Option("BACKGROUND", "--background", "text", "Background colour of the rendered reference",
               help="background colour of a rendered reference", default=DEFAULT_BACKGROUND, advanced=True),
        Option("DPI", "--dpi", "number", "Render dpi (sizes in mm or points)",
               help="dpi at which a rendered reference draws sizes in mm or points", default=DEFAULT_DPI,
               rule="positive", minimum=1, advanced=True),
        Option("OUTPUT_FOLDER", "--out", "folder_out", "Output folder", help="output folder", required=True,
               record=False),
    ),
    results=(REFERENCE_MAP, SUMMARY_CSV, FIGURE, MANIFEST, MEAN_MFP, MEAN_G, MEAN_D_S),
)

#: on the command line only: its own sources of the two maps (QGIS gives layers instead)
CLI_ONLY = (
    Option("GENERATED", "--generated", "file", "Generated map raster",
           help="generated map raster (GeoTIFF; PNG/JPEG with --reference)", record=False),
    Option("REFERENCE", "--reference", "file", "Reference raster",
           help="reference raster on the generated map's grid", record=False),
    Option("OSM", "--osm", "file", "OSM file",
           help="OSM file (.osm/.osm.pbf): QGIS renders its roads, buildings and water as the reference, with the "
                "default styles", record=False),
    Option("OSM_LAYERS", "--osm-layers", "text", "OSM layers to render", help="which OSM layers to render",
           default=",".join(OSM_LAYERS)),
    Option("GENERATED_FOLDER", "--generated-folder", "folder", "Generated maps folder",
           help="folder mode: generated map images", record=False),
    Option("REFERENCE_FOLDER", "--reference-folder", "folder", "Reference maps folder",
           help="folder mode: reference images, named like the generated ones", record=False),
)
#: set by geofidelity:mfp when QGIS rendered the reference (hidden on the command line)
REFERENCE_NOTE = Option("REFERENCE_NOTE", "--reference-note", "text", "How the reference was made", record=False)
