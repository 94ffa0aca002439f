"""``geofidelity:import_release`` — load the published GeoFidelity-Bench release layout (runs
``import-release`` in the backend process, docs/backend-protocol.md)."""
from __future__ import annotations

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, command_line
from geofidelity_plugin.spec import release as spec

from .algorithm import GeoFidelityAlgorithm
from .common import run_backend, user_errors


class ImportReleaseAlgorithm(GeoFidelityAlgorithm):
    GROUP = "evaluate"
    def name(self):
        return "import_release"

    def displayName(self):  # noqa: N802
        return "4d · Import a GeoFidelity-Bench release"

    def shortHelpString(self):  # noqa: N802
        return ("Reads the published release folder (data/processed/v3/benchmark_v3.json, metadata/*.csv, "
                "the image folders) into a benchmark store: blocks become segments, the release's own "
                "neg_* ids are kept as gallery negatives and the missing nearest-same-city kind is filled "
                "from centroids. Score a new generator by importing its images and running Evaluate.")

    def createInstance(self):  # noqa: N802
        return ImportReleaseAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        add_parameters(self, spec.IMPORT_RELEASE)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``import-release`` in the backend process (docs/backend-protocol.md)."""
        args, plain = command_line(self, spec.IMPORT_RELEASE, parameters, context)
        run = run_backend(spec.IMPORT_RELEASE.command, args, feedback)
        values = run.values
        for key, value in values.items():
            feedback.pushInfo(f"{key.lower()}: {value}")
        return {spec.STORE.key: run.path(spec.STORE.key) or plain["STORE"],
                **{res.key: values.get(res.key, 0) for res in spec.IMPORT_RELEASE.results}}
