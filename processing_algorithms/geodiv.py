"""``geofidelity:geodiv`` — GeoDiv diversity (VDI, SEVI, Vendi) per model / condition / city, with the
real reference panels as the baseline (docs/method.md, GeoDiv); runs ``geodiv`` in the backend
process (docs/backend-protocol.md)."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputFile, QgsProcessingParameterBoolean,
                       QgsProcessingParameterFile, QgsProcessingParameterFolderDestination,
                       QgsProcessingParameterNumber, QgsProcessingParameterString)

from .common import advanced, device_or_default, flag, load_backend_layers, option, run_backend, user_errors


class GeoDivAlgorithm(QgsProcessingAlgorithm):
    STORE, IMAGES, ANSWERS, QUESTIONS = "STORE", "IMAGES", "ANSWERS", "QUESTIONS"
    GROUP_BY, VQA_MODEL, FEATURE_MODEL = "GROUP_BY", "VQA_MODEL", "FEATURE_MODEL"
    DEVICE, PRECISION, DROP_ZERO, OUTPUT = "DEVICE", "PRECISION", "DROP_ZERO_OPTIONS", "OUTPUT_FOLDER"
    PER_GROUP, BATCH, CONVERGENCE = "PER_GROUP", "BATCH_SIZE", "CONVERGENCE"

    def name(self):
        return "geodiv"

    def displayName(self):  # noqa: N802
        return "4 · GeoDiv diversity (VDI, SEVI, Vendi)"

    def group(self):
        return "4 · Evaluate"

    def groupId(self):  # noqa: N802
        return "evaluate"

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
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store", extension="sqlite", optional=True))
        self.addParameter(QgsProcessingParameterFile(self.IMAGES, "Or: a folder of images (sub-folder = city)",
                                                     behavior=Qgis.ProcessingFileParameterBehavior.Folder,
                                                     optional=True))
        self.addParameter(QgsProcessingParameterFile(self.ANSWERS, "Or: answers CSV (from a hosted model)",
                                                     extension="csv", optional=True))
        self.addParameter(QgsProcessingParameterString(
            self.VQA_MODEL, "VQA model (qwen2.5-vl-7b-instruct, a hub id or a folder; none: no questions)",
            defaultValue="none"))
        self.addParameter(QgsProcessingParameterString(
            self.FEATURE_MODEL, "Embedding model for the Vendi score (e.g. facebook/dinov2-base; none: skip)",
            defaultValue="none"))
        self.addParameter(QgsProcessingParameterString(self.GROUP_BY, "Group by (columns, comma-separated)",
                                                       defaultValue="model,condition,city"))
        self.addParameter(QgsProcessingParameterNumber(
            self.PER_GROUP, "At most this many images per group (0: all)", minValue=0, defaultValue=0))
        self.addParameter(advanced(QgsProcessingParameterNumber(
            self.BATCH, "Option texts per forward pass", minValue=1, defaultValue=8)))
        self.addParameter(advanced(QgsProcessingParameterFile(self.QUESTIONS, "Question set (JSON)",
                                                              extension="json", optional=True)))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.DEVICE, "Device: cpu, cuda, cuda:N or mps (empty: the GPU when there is one)", optional=True)))
        self.addParameter(advanced(QgsProcessingParameterString(self.PRECISION, "Precision (fp32, bf16, fp16)",
                                                                defaultValue="fp32")))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.DROP_ZERO, "Normalise by the options chosen at least once (not the method's)", defaultValue=False)))
        self.addParameter(QgsProcessingParameterBoolean(
            self.CONVERGENCE, "Check how the ranking settles with the number of images", defaultValue=False))
        self.addParameter(QgsProcessingParameterFolderDestination(self.OUTPUT, "Output folder"))
        self.addOutput(QgsProcessingOutputFile("GROUPS", "Diversity per group (CSV)"))
        self.addOutput(QgsProcessingOutputFile("QUESTIONS", "Diversity per question (CSV)"))
        self.addOutput(QgsProcessingOutputFile("CITY_LAYER", "Cities: model − real VDI (GeoPackage)"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        out = self.parameterAsString(parameters, self.OUTPUT, context)
        args = ["--out", out, "--group-by", self.parameterAsString(parameters, self.GROUP_BY, context)]
        option(args, "--store", self.parameterAsFile(parameters, self.STORE, context))
        option(args, "--images", self.parameterAsFile(parameters, self.IMAGES, context))
        option(args, "--answers", self.parameterAsFile(parameters, self.ANSWERS, context))
        option(args, "--questions", self.parameterAsFile(parameters, self.QUESTIONS, context))
        option(args, "--vqa-model", self.parameterAsString(parameters, self.VQA_MODEL, context))
        option(args, "--feature-model", self.parameterAsString(parameters, self.FEATURE_MODEL, context))
        option(args, "--device", device_or_default(self.parameterAsString(parameters, self.DEVICE, context)))
        option(args, "--precision", self.parameterAsString(parameters, self.PRECISION, context))
        option(args, "--per-group", self.parameterAsInt(parameters, self.PER_GROUP, context))
        option(args, "--batch-size", self.parameterAsInt(parameters, self.BATCH, context))
        flag(args, "--convergence", self.parameterAsBoolean(parameters, self.CONVERGENCE, context))
        flag(args, "--drop-zero-options", self.parameterAsBoolean(parameters, self.DROP_ZERO, context))
        run = run_backend("geodiv", args, feedback)
        load_backend_layers(context, run)  # the city layer (from a store), styled by model − real VDI
        feedback.pushInfo(f"GeoDiv tables: {run.path('GROUPS')}")
        return {self.OUTPUT: out, "GROUPS": run.path("GROUPS"), "QUESTIONS": run.path("QUESTIONS"),
                "CITY_LAYER": run.path("CITY_LAYER")}
