"""``geofidelity:coverage_audit`` — where along each segment street-level coverage exists."""
from __future__ import annotations

from qgis.core import (QgsProcessingAlgorithm, QgsProcessingOutputNumber, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber)

from .common import FeedbackProgress, load_on_completion, run_core, user_errors


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
                "stretches are written as a red line layer.")

    def createInstance(self):  # noqa: N802
        return CoverageAuditAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterNumber(self.RADIUS, "Covered within (m)", QgsProcessingParameterNumber.Double,
                                                       defaultValue=30.0, minValue=1))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Coverage", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("GAPS", "Uncovered stretches"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.core.store.store import BenchmarkStore
        from geofidelity_plugin.core.output_paths import check_output_file
        from geofidelity_plugin.core.reference_panels.layers import write_coverage_gpkg
        from geofidelity_plugin.core.reference_panels.workflow import coverage_store

        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        store_path = self.parameterAsFile(parameters, self.STORE, context)
        run_core(check_output_file, output, "coverage GeoPackage",  # before the long work
                 inputs={"the benchmark store ('Benchmark store')": store_path})
        with BenchmarkStore(store_path, create=False) as store:
            coverage = run_core(coverage_store, store, self.parameterAsDouble(parameters, self.RADIUS, context),
                                FeedbackProgress(feedback))
            write_coverage_gpkg(output, coverage, store.segments())
        for c in coverage:
            feedback.pushInfo(f"{c.segment_id}: {c.images_kept} kept, longest gap {c.longest_gap_m:.0f} m")
        load_on_completion(context, f"{output}|layername=coverage", "GeoFidelity coverage", self.OUTPUT,
                           "coverage_by_images.qml")
        load_on_completion(context, f"{output}|layername=coverage_gaps", "GeoFidelity coverage gaps", "GAPS_LAYER",
                           "coverage_gaps.qml")
        return {self.OUTPUT: output, "GAPS": sum(len(c.gaps) for c in coverage)}
