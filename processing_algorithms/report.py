"""``geofidelity:report`` — an HTML report with PNG figures of one evaluation (method §6–§8); runs
``report`` in the backend process (docs/backend-protocol.md)."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputHtml, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterString)

from .common import option, run_backend, user_errors


class ReportAlgorithm(QgsProcessingAlgorithm):
    EVALUATION, TITLE, COVERAGE, OUTPUT = "EVALUATION_FOLDER", "TITLE", "COVERAGE", "OUTPUT"

    def name(self):
        return "report"

    def displayName(self):  # noqa: N802
        return "5 · Report (HTML with figures)"

    def group(self):
        return "5 · Show"

    def groupId(self):  # noqa: N802
        return "show"

    def shortHelpString(self):  # noqa: N802
        return ("Writes a self-contained HTML report of an evaluation folder: the paper-style tables with "
                "bootstrap intervals, margin distributions per model and condition, paired L1−L0 deltas with "
                "intervals, per-city maps of Δhard, CLIP score against retrieval, the anchors beside the "
                "models, the coverage audit of the store (per city and per segment, capture dates), the skipped "
                "and failed lists, the run manifest, and the data credits (OpenStreetMap, Mapillary). Stand-in "
                "data carry a banner.")

    def createInstance(self):  # noqa: N802
        return ReportAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterFile(self.EVALUATION, "Evaluation folder (output of Evaluate)",
                                                     behavior=Qgis.ProcessingFileParameterBehavior.Folder))
        self.addParameter(QgsProcessingParameterString(self.TITLE, "Title", optional=True))
        self.addParameter(QgsProcessingParameterFile(
            self.COVERAGE, "Coverage audit GeoPackage (default: the newest audit of the evaluation's store)",
            fileFilter="GeoPackage (*.gpkg)", optional=True))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Report", "HTML (*.html)", optional=True))
        self.addOutput(QgsProcessingOutputHtml("REPORT_HTML", "Report"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        args = ["--evaluation", self.parameterAsFile(parameters, self.EVALUATION, context)]
        option(args, "--out", self.parameterAsFileOutput(parameters, self.OUTPUT, context))
        option(args, "--title", self.parameterAsString(parameters, self.TITLE, context))
        option(args, "--coverage", self.parameterAsFile(parameters, self.COVERAGE, context))
        run = run_backend("report", args, feedback)
        path = run.path("REPORT_HTML")
        feedback.pushInfo(f"report: {path}")
        return {self.OUTPUT: path, "REPORT_HTML": path}
