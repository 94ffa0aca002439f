"""``geofidelity:report`` — an HTML report with PNG figures of one evaluation (method §6–§8); runs
``report`` in the backend process (docs/backend-protocol.md)."""
from __future__ import annotations

from geofidelity_plugin.qgis_side.processing_spec import add_specification, command_line
from geofidelity_plugin.spec import report as spec

from .algorithm import GeoFidelityAlgorithm
from .common import run_backend, user_errors


class ReportAlgorithm(GeoFidelityAlgorithm):
    GROUP = "show"
    OUTPUT = "OUTPUT"

    def name(self):
        return "report"

    def displayName(self):  # noqa: N802
        return "5a · Report (HTML with figures)"

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
        add_specification(self, spec.REPORT)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``report`` in the backend process (docs/backend-protocol.md)."""
        args, _ = command_line(self, spec.REPORT, parameters, context)
        run = run_backend(spec.REPORT.command, args, feedback)
        path = run.path(spec.REPORT_HTML.key)
        feedback.pushInfo(f"report: {path}")
        return {self.OUTPUT: path, spec.REPORT_HTML.key: path}
