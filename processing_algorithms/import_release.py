"""``geofidelity:import_release`` — load the published GeoFidelity-Bench release layout (runs
``import-release`` in the backend process, docs/backend-protocol.md)."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputNumber,
                       QgsProcessingParameterFile, QgsProcessingParameterFileDestination,
                       QgsProcessingParameterNumber)

from .common import run_backend, user_errors


class ImportReleaseAlgorithm(QgsProcessingAlgorithm):
    ROOT, STORE, SEED = "RELEASE_ROOT", "STORE", "SEED"

    def name(self):
        return "import_release"

    def displayName(self):  # noqa: N802
        return "Import a GeoFidelity-Bench release"

    def group(self):
        return "4 · Evaluate"

    def groupId(self):  # noqa: N802
        return "evaluate"

    def shortHelpString(self):  # noqa: N802
        return ("Reads the published release folder (data/processed/v3/benchmark_v3.json, metadata/*.csv, "
                "the image folders) into a benchmark store: blocks become segments, the release's own "
                "neg_* ids are kept as gallery negatives and the missing nearest-same-city kind is filled "
                "from centroids. Score a new generator by importing its images and running Evaluate.")

    def createInstance(self):  # noqa: N802
        return ImportReleaseAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterFile(self.ROOT, "Release root folder",
                                                     behavior=Qgis.ProcessingFileParameterBehavior.Folder))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Random seed (for filled negatives)", defaultValue=0))
        self.addParameter(QgsProcessingParameterFileDestination(self.STORE, "Benchmark store", "SQLite (*.sqlite)"))
        self.addOutput(QgsProcessingOutputNumber("SEGMENTS", "Segments"))
        self.addOutput(QgsProcessingOutputNumber("MISSING_FILES", "Image files missing on disk"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        store = self.parameterAsFileOutput(parameters, self.STORE, context)
        run = run_backend("import-release", ["--release", self.parameterAsFile(parameters, self.ROOT, context),
                                             "--store", store,
                                             "--seed", self.parameterAsInt(parameters, self.SEED, context)], feedback)
        values = run.values
        for key, value in values.items():
            feedback.pushInfo(f"{key.lower()}: {value}")
        return {self.STORE: run.path("STORE") or store, "SEGMENTS": values.get("SEGMENTS", 0),
                "MISSING_FILES": values.get("MISSING_FILES", 0)}
