"""``atlas`` — 5 · the atlas PDF (docs/atlas.md), in QGIS ``geofidelity:atlas``. The algorithm draws
the pages in QGIS itself (no backend); the command draws them with a headless QGIS. Both read
their options from here."""
from __future__ import annotations

from geofidelity_plugin.spec.options import CommandSpec, Option, Result

ATLAS_PDF = Result("ATLAS_PDF", "Atlas PDF", "file")
MANIFEST = Result("MANIFEST", "Run manifest", "file")
PAGES = Result("PAGES", "Pages")

#: several models: comma-separated in QGIS, the flag repeated on the command line
MODELS_OPTION = Option("MODELS", "--model", "text", "Models whose generated panels are shown (comma-separated; "
                       "empty: all)", help="model whose generated panel is shown (repeat; default: every model in "
                       "the store)", field="model")

ATLAS = CommandSpec(
    command="atlas",
    help="5 · atlas PDF: a cover and one page per segment (map, images, scores, coverage)",
    options=(
        Option("STORE", "--store", "file", "Benchmark store (empty: the store the evaluation was run on)",
               help="benchmark store (default: the store the evaluation was run on)", extension="sqlite",
               record=False),
        Option("SEGMENTS", "--segments", "file", "Segments GeoPackage (output of Select segments)",
               help="segments GeoPackage of Select segments (with its context layers)", extension="gpkg",
               required=True, record=False),
        Option("COVERAGE", "--coverage", "file", "Coverage GeoPackage (output of the coverage audit)",
               help="coverage GeoPackage of the coverage audit (buffers, image points, gaps)", extension="gpkg",
               record=False),
        Option("EVALUATION_FOLDER", "--evaluation", "folder", "Evaluation folder (output of Evaluate)",
               help="evaluation folder of Evaluate (the scores and the run manifest)", record=False),
        MODELS_OPTION,
        Option("CONDITION", "--condition", "text", "Prompt condition of the generated panels (empty: L1)",
               help="prompt condition of the generated panels (default L1)"),
        Option("OSM_FILE", "--osm", "file",
               "OSM file drawn as context when the segments GeoPackage has no context layers",
               help="OSM file drawn as context when the segments GeoPackage has no context layers", advanced=True,
               record=False),
        Option("OUTPUT", "--out", "file_out", "Atlas PDF", help="atlas PDF path", required=True,
               file_filter="PDF (*.pdf)", record=False),
    ),
    results=(MANIFEST, PAGES),
)


def models_of(value) -> list[str]:
    """The models of :data:`MODELS_OPTION`: a comma-separated text (QGIS) or the repeated flag."""
    items = value.split(",") if isinstance(value, str) else (value or [])
    return [m.strip() for item in items for m in str(item).split(",") if m.strip()]
