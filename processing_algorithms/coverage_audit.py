"""``geofidelity:coverage_audit`` — where along each segment street-level coverage exists, run by
the backend process (``coverage``)."""
from __future__ import annotations

from qgis.core import (QgsProcessingAlgorithm, QgsProcessingOutputNumber, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber)

from .common import load_backend_layers, run_backend, user_errors


class CoverageAuditAlgorithm(QgsProcessingAlgorithm):
    STORE, RADIUS, OUTPUT = "STORE", "RADIUS", "OUTPUT"

    def name(self):
        return "coverage_audit"

    def displayName(self):  # noqa: N802
        return "2c · Coverage audit"

    def group(self):
        return "2 · Reference panels"

    def groupId(self):  # noqa: N802
        return "reference_panels"

    def shortHelpString(self):  # noqa: N802
        return ("Per segment: images kept, rejected per tier, capped, distinct sequences, capture-year span, "
                "and the longest stretch of the segment with no kept image within the radius; the uncovered "
                "stretches are written as a red line layer. What the cap cost: the longest stretch without an "
                "image before the cap (images that passed every tier) and after it (kept images) — "
                "stretch_before_cap_m and stretch_after_cap_m; images_not_scored counts the images curation "
                "did not score (the stretch before the cap is then an upper bound).")

    def createInstance(self):  # noqa: N802
        return CoverageAuditAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.reference_panels.options import COVERAGE_RADIUS_M

        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterNumber(self.RADIUS, "Covered within (m)", QgsProcessingParameterNumber.Double,
                                                       defaultValue=COVERAGE_RADIUS_M, minValue=1))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Coverage", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("GAPS", "Uncovered stretches"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``coverage`` in the backend process (docs/backend-protocol.md)."""
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        run = run_backend("coverage", ["--store", self.parameterAsFile(parameters, self.STORE, context),
                                       "--out", output,
                                       "--radius", self.parameterAsDouble(parameters, self.RADIUS, context)], feedback)
        load_backend_layers(context, run)
        return {self.OUTPUT: run.path("OUTPUT") or output, "GAPS": run.values.get("GAPS", 0)}
