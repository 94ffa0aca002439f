"""``geofidelity:build_galleries`` — method §3 hard-negative galleries in the store (runs
``build-galleries`` in the backend process, docs/backend-protocol.md)."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputFile, QgsProcessingOutputNumber,
                       QgsProcessingParameterBoolean, QgsProcessingParameterFile, QgsProcessingParameterNumber)

from .common import flag, option, run_backend, user_errors


class BuildGalleriesAlgorithm(QgsProcessingAlgorithm):
    STORE, SEGMENTS, SEED, KEEP = "STORE", "SEGMENTS", "SEED", "KEEP_EXISTING"

    def name(self):
        return "build_galleries"

    def displayName(self):  # noqa: N802
        return "3 · Build retrieval galleries"

    def group(self):
        return "4 · Evaluate"

    def groupId(self):  # noqa: N802
        return "evaluate"

    def shortHelpString(self):  # noqa: N802
        return ("For every segment: the nearest segment of the same city, another segment of the same city in a "
                "different neighbourhood, a segment with the same driving side in another city and a random "
                "segment of another city — distinct, seeded — plus the stricter same-neighbourhood negative kept "
                "apart (method §3). Missing kinds are skipped and K is recorded per row at evaluation. "
                "Optionally loads the segments GeoPackage from 'Select named road segments' into the store first.")

    def createInstance(self):  # noqa: N802
        return BuildGalleriesAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite; created if missing)",
                                                     behavior=Qgis.ProcessingFileParameterBehavior.File,
                                                     fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterFile(self.SEGMENTS, "Segments GeoPackage to load first",
                                                     extension="gpkg", optional=True))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Random seed", defaultValue=0))
        self.addParameter(QgsProcessingParameterBoolean(self.KEEP, "Keep negatives already in the store (e.g. a "
                                                        "release's neg_* ids)", defaultValue=True))
        self.addOutput(QgsProcessingOutputNumber("GALLERIES", "Galleries built"))
        self.addOutput(QgsProcessingOutputFile("STORE_OUT", "Benchmark store"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        store = self.parameterAsFile(parameters, self.STORE, context)
        args = ["--store", store, "--seed", self.parameterAsInt(parameters, self.SEED, context)]
        option(args, "--segments", self.parameterAsFile(parameters, self.SEGMENTS, context))
        flag(args, "--rebuild", not self.parameterAsBool(parameters, self.KEEP, context))
        run = run_backend("build-galleries", args, feedback)
        return {"GALLERIES": run.values.get("GALLERIES", 0), "STORE_OUT": run.path("STORE_OUT") or store}
