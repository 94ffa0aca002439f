"""``report`` — the HTML report with figures of one evaluation (method §6–§8), in QGIS
``geofidelity:report``."""
from __future__ import annotations

from geofidelity_plugin.spec.options import CommandSpec, Option, Result

#: the report page (an HTML output in QGIS) and the folder of its PNG figures
REPORT_HTML = Result("REPORT_HTML", "Report", "html")
FIGURES = Result("FIGURES", "Figures folder", "folder")

REPORT = CommandSpec(
    command="report",
    help="5 · HTML report with figures of an evaluation folder",
    options=(
        Option("EVALUATION_FOLDER", "--evaluation", "folder", "Evaluation folder (output of Evaluate)",
               help="output folder of `evaluate`", required=True, record=False),
        Option("TITLE", "--title", "text", "Title", help="page title (default: \"GeoFidelity evaluation report\")"),
        Option("COVERAGE", "--coverage", "file",
               "Coverage audit GeoPackage (default: the newest audit of the evaluation's store)",
               help="the coverage audit's GeoPackage for the coverage section (default: the newest audit of the "
                    "evaluation's store, beside the evaluation or the store)",
               file_filter="GeoPackage (*.gpkg)", record=False),
        Option("OUTPUT", "--out", "file_out", "Report", help="report path (default: <evaluation>/report.html)",
               file_filter="HTML (*.html)", record=False),
    ),
    results=(REPORT_HTML,),
)
