"""``geofidelity:build_galleries`` — method §3 hard-negative galleries in the store (runs
``build-galleries`` in the backend process, docs/backend-protocol.md)."""
from __future__ import annotations

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, command_line
from geofidelity_plugin.spec import galleries as spec

from .algorithm import GeoFidelityAlgorithm
from .common import run_backend, user_errors


class BuildGalleriesAlgorithm(GeoFidelityAlgorithm):
    GROUP = "evaluate"
    def name(self):
        return "build_galleries"

    def displayName(self):  # noqa: N802
        return "4a · Build retrieval galleries"

    def shortHelpString(self):  # noqa: N802
        return ("For every segment: the nearest segment of the same city, another segment of the same city in a "
                "different neighbourhood, a segment with the same driving side in another city and a random "
                "segment of another city — distinct, seeded — plus the stricter same-neighbourhood negative kept "
                "apart (method §3). Missing kinds are skipped and K is recorded per row at evaluation. "
                "Optionally loads the segments GeoPackage from 'Select named road segments' into the store first.")

    def createInstance(self):  # noqa: N802
        return BuildGalleriesAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        add_parameters(self, spec.BUILD_GALLERIES)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        args, plain = command_line(self, spec.BUILD_GALLERIES, parameters, context)
        run = run_backend(spec.BUILD_GALLERIES.command, args, feedback)
        return {"GALLERIES": run.values.get("GALLERIES", 0), "STORE_OUT": run.path("STORE_OUT") or plain["STORE"]}
