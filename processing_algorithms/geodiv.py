"""``geofidelity:geodiv`` — GeoDiv diversity (VDI, SEVI, Vendi) per model / condition / city, with the
real reference panels as the baseline (docs/method.md, GeoDiv); runs ``geodiv`` in the backend
process (docs/backend-protocol.md)."""
from __future__ import annotations

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, command_line
from geofidelity_plugin.spec import geodiv as spec

from .algorithm import GeoFidelityAlgorithm
from .common import device_or_default, load_backend_layers, option, run_backend, user_errors


class GeoDivAlgorithm(GeoFidelityAlgorithm):
    GROUP = "evaluate"
    OUTPUT = "OUTPUT_FOLDER"

    def name(self):
        return "geodiv"

    def displayName(self):  # noqa: N802
        return "4c · GeoDiv diversity (VDI, SEVI, Vendi)"

    def shortHelpString(self):  # noqa: N802
        return ("How diverse the panels are, per model, prompt condition and city, beside the real reference "
                "panels (docs/method.md, GeoDiv). VDI: a VQA model answers multiple-choice questions about the "
                "street and its background (an image that shows no sidewalk does not vote on its material); per "
                "question the normalised Hill number of the answers, 0 (all alike) to 1 (evenly spread). SEVI: "
                "the mean 1–5 affluence and maintenance rating and its diversity. Vendi: the effective number of "
                "distinct images by their embeddings — needs no VQA model. Answers of a hosted model can be "
                "imported as a CSV (image_id, question_id, answer + grouping columns).")

    def createInstance(self):  # noqa: N802
        return GeoDivAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        add_parameters(self, spec.GEODIV)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        args, plain = command_line(self, spec.GEODIV, parameters, context)
        if not (plain["DEVICE"] or "").strip():  # empty: the device of the plugin's settings
            option(args, "--device", device_or_default(""))
        run = run_backend(spec.GEODIV.command, args, feedback)
        load_backend_layers(context, run)  # the city layer (from a store), styled by model − real VDI
        feedback.pushInfo(f"GeoDiv tables: {run.path(spec.GROUPS.key)}")
        return {self.OUTPUT: plain[self.OUTPUT],
                **{res.key: run.path(res.key) for res in spec.GEODIV.results if res.kind == "file"},
                spec.GROUP_COUNT.key: run.values.get(spec.GROUP_COUNT.key, 0)}
