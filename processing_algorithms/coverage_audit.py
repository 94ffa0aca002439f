"""``geofidelity:coverage_audit`` — where along each segment street-level coverage exists, run by
the backend process (``coverage``)."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputFile, QgsProcessingOutputNumber,
                       QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber)

from .common import load_backend_layers, run_backend, user_errors


class CoverageAuditAlgorithm(QgsProcessingAlgorithm):
    STORE, RADIUS, GAP_RADIUS, OUTPUT = "STORE", "RADIUS", "GAP_RADIUS", "OUTPUT"

    def name(self):
        return "coverage_audit"

    def displayName(self):  # noqa: N802
        return "2c · Coverage audit"

    def group(self):
        return "2 · Reference panels"

    def groupId(self):  # noqa: N802
        return "reference_panels"

    def shortHelpString(self):  # noqa: N802
        return ("Per segment: images kept, rejected per tier, capped, images per km, distinct sequences, the "
                "first and last capture day, their span in days and a histogram of capture dates (per year, or per "
                "month under a two-year span); the share of the segment with no image within the gap radius "
                "(share_uncovered_20m, default 20 m), its gaps as lines graduated by length (gap_length_m) and "
                "the longest one; uncovered_fraction uses the coverage radius (default 30 m). Also written: every "
                "image as a point by curation status with its creator (coverage_images), each segment's buffer "
                "(coverage_buffers), and a city summary table (coverage_cities, and a CSV beside the "
                "GeoPackage). What the cap cost: the longest stretch without an "
                "image before the cap (images that passed every tier) and after it (kept images) — "
                "stretch_before_cap_m and stretch_after_cap_m; images_not_scored counts the images curation "
                "did not score (the stretch before the cap is then an upper bound).")

    def createInstance(self):  # noqa: N802
        return CoverageAuditAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.reference_panels.options import COVERAGE_GAP_RADIUS_M, COVERAGE_RADIUS_M

        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterNumber(self.RADIUS, "Covered within (m)",
                                                       Qgis.ProcessingNumberParameterType.Double,
                                                       defaultValue=COVERAGE_RADIUS_M, minValue=1))
        self.addParameter(QgsProcessingParameterNumber(self.GAP_RADIUS, "Gap: no image within (m)",
                                                       Qgis.ProcessingNumberParameterType.Double,
                                                       defaultValue=COVERAGE_GAP_RADIUS_M, minValue=1))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Coverage", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("GAPS", "Uncovered stretches"))
        self.addOutput(QgsProcessingOutputFile("CITIES_CSV", "City summary (CSV)"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``coverage`` in the backend process (docs/backend-protocol.md)."""
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        run = run_backend("coverage", ["--store", self.parameterAsFile(parameters, self.STORE, context),
                                       "--out", output,
                                       "--radius", self.parameterAsDouble(parameters, self.RADIUS, context),
                                       "--gap-radius", self.parameterAsDouble(parameters, self.GAP_RADIUS, context)],
                          feedback)
        load_backend_layers(context, run)
        return {self.OUTPUT: run.path("OUTPUT") or output, "GAPS": run.values.get("GAPS", 0),
                "CITIES_CSV": run.path("CITIES_CSV")}
