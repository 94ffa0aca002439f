"""``geofidelity:coverage_audit`` — where along each segment street-level coverage exists, run by
the backend process (``coverage``)."""
from __future__ import annotations

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, command_line
from geofidelity_plugin.spec import coverage as spec

from .algorithm import GeoFidelityAlgorithm
from .common import load_backend_layers, run_backend, user_errors


class CoverageAuditAlgorithm(GeoFidelityAlgorithm):
    GROUP = "reference_panels"
    def name(self):
        return "coverage_audit"

    def displayName(self):  # noqa: N802
        return "2c · Coverage audit"

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
        add_parameters(self, spec.COVERAGE)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``coverage`` in the backend process (docs/backend-protocol.md)."""
        args, plain = command_line(self, spec.COVERAGE, parameters, context)
        run = run_backend(spec.COVERAGE.command, args, feedback)
        load_backend_layers(context, run)
        return {spec.OUTPUT: run.path(spec.OUTPUT) or plain[spec.OUTPUT], spec.GAPS.key: run.values.get(spec.GAPS.key, 0),
                spec.SEGMENTS.key: run.values.get(spec.SEGMENTS.key, 0),
                spec.CITIES_CSV.key: run.path(spec.CITIES_CSV.key), spec.MANIFEST.key: run.path(spec.MANIFEST.key)}
