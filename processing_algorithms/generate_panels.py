"""``geofidelity:generate_panels`` and ``geofidelity:import_generated`` — method §4 panels."""
from __future__ import annotations

from qgis.core import (QgsProcessingAlgorithm, QgsProcessingException, QgsProcessingOutputNumber,
                       QgsProcessingParameterBoolean, QgsProcessingParameterEnum, QgsProcessingParameterFile,
                       QgsProcessingParameterNumber, QgsProcessingParameterString)

from .common import FeedbackProgress, advanced, run_core, user_errors


class GeneratePanelsAlgorithm(QgsProcessingAlgorithm):
    STORE, GENERATOR, CUSTOM, SAMPLES, SEED, SHARED = "STORE", "GENERATOR", "CUSTOM_FOLDER", "SAMPLES", "SEED", "SHARED_NOISE"
    CONDITIONS, TEMPLATES, STEPS, GUIDANCE, DTYPE, RESOLUTION, NAME = (
        "CONDITIONS", "TEMPLATES", "STEPS", "GUIDANCE", "DTYPE", "RESOLUTION", "CUSTOM_NAME")
    DEVICE = "DEVICE"

    def name(self):
        return "generate_panels"

    def displayName(self):  # noqa: N802
        return "3a · Generate panels (diffusers)"

    def group(self):
        return "3 · Generate"

    def groupId(self):  # noqa: N802
        return "generate"

    def shortHelpString(self):  # noqa: N802
        return ("Builds the prompts of method §4 for every segment — L0 (city), L1 (+ street and neighbourhood), "
                "L2 (+ coordinates) and the same-city controls (wrong street, shuffled neighbourhood, both) — and "
                "generates a panel of images per prompt with one diffusers generator (registered: SDXL, SD 3.5 "
                "Large, FLUX.1-dev, FLUX.1-schnell, PixArt-Σ, HunyuanDiT; or a local diffusers folder). A distinct "
                "recorded seed per image, or shared noise across conditions. Resumable: images already made with "
                "the same settings are kept. Heavy: needs a GPU for the full models.")

    def createInstance(self):  # noqa: N802
        return GeneratePanelsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.generation.generators import GENERATORS
        from geofidelity_plugin.core.generation.prompts import CONDITIONS

        self.generators = list(GENERATORS) + ["custom folder"]
        self.conditions = list(CONDITIONS)
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterEnum(self.GENERATOR, "Generator", self.generators, defaultValue=0))
        self.addParameter(QgsProcessingParameterFile(self.CUSTOM, "Custom diffusers folder", optional=True,
                                                     behavior=QgsProcessingParameterFile.Folder))
        self.addParameter(QgsProcessingParameterString(self.NAME, "Custom generator name", optional=True))
        self.addParameter(QgsProcessingParameterEnum(self.CONDITIONS, "Prompt conditions", self.conditions,
                                                     allowMultiple=True, defaultValue=list(range(len(self.conditions)))))
        self.addParameter(QgsProcessingParameterNumber(self.SAMPLES, "Images per panel", defaultValue=4, minValue=1))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Base seed", defaultValue=0))
        self.addParameter(QgsProcessingParameterBoolean(self.SHARED, "Shared noise across conditions (causal deltas)",
                                                        defaultValue=False))
        self.addParameter(advanced(QgsProcessingParameterString(self.TEMPLATES, "Prompt templates (JSON: L0, L1, L2, "
                                                                "suffix)", optional=True)))
        for key, label, value, kind in ((self.STEPS, "Steps (custom)", 30, QgsProcessingParameterNumber.Integer),
                                        (self.GUIDANCE, "Guidance (custom)", 5.0, QgsProcessingParameterNumber.Double),
                                        (self.RESOLUTION, "Resolution (custom)", 1024, QgsProcessingParameterNumber.Integer)):
            self.addParameter(advanced(QgsProcessingParameterNumber(key, label, kind, defaultValue=value, minValue=0)))
        self.addParameter(advanced(QgsProcessingParameterString(self.DTYPE, "dtype (custom)", defaultValue="fp16")))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.DEVICE, "Device (cpu, cuda, cuda:N, mps; empty: the GPU when there is one)", optional=True)))
        self.addOutput(QgsProcessingOutputNumber("GENERATED", "Images generated"))
        self.addOutput(QgsProcessingOutputNumber("KEPT", "Images already there (resumed)"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.core.devices import check_device
        from geofidelity_plugin.core.store.store import BenchmarkStore
        from geofidelity_plugin.core.generation.prompts import PromptTemplates
        from geofidelity_plugin.core.generation.workflow import generate_store

        device = run_core(check_device, self.parameterAsString(parameters, self.DEVICE, context) or None)
        choice = self.generators[self.parameterAsEnum(parameters, self.GENERATOR, context)]
        custom = None
        if choice == "custom folder":
            folder = self.parameterAsFile(parameters, self.CUSTOM, context)
            choice = self.parameterAsString(parameters, self.NAME, context)
            if not folder or not choice:
                raise QgsProcessingException("a custom generator needs its diffusers folder and a name")
            custom = {"folder": folder, "steps": self.parameterAsInt(parameters, self.STEPS, context),
                      "guidance": self.parameterAsDouble(parameters, self.GUIDANCE, context),
                      "dtype": self.parameterAsString(parameters, self.DTYPE, context),
                      "resolution": self.parameterAsInt(parameters, self.RESOLUTION, context)}
        templates = PromptTemplates.from_json(self.parameterAsString(parameters, self.TEMPLATES, context))
        conditions = [self.conditions[i] for i in self.parameterAsEnums(parameters, self.CONDITIONS, context)]
        with BenchmarkStore(self.parameterAsFile(parameters, self.STORE, context), create=False) as store:
            result, skipped = run_core(generate_store, store, choice, self.parameterAsInt(parameters, self.SAMPLES, context),
                                       self.parameterAsInt(parameters, self.SEED, context),
                                       self.parameterAsBool(parameters, self.SHARED, context), conditions, templates,
                                       custom, device=device, progress=FeedbackProgress(feedback))
        feedback.pushInfo(f"{result.generated} images generated, {result.skipped_existing} kept from earlier runs, "
                          f"{len(skipped)} prompts skipped")
        return {"GENERATED": result.generated, "KEPT": result.skipped_existing}


class ImportGeneratedAlgorithm(QgsProcessingAlgorithm):
    STORE, FOLDER, MODEL, REPLACE = "STORE", "FOLDER", "MODEL_NAME", "REPLACE"

    def name(self):
        return "import_generated"

    def displayName(self):  # noqa: N802
        return "3b · Import a folder of generated images"

    def group(self):
        return "3 · Generate"

    def groupId(self):  # noqa: N802
        return "generate"

    def shortHelpString(self):  # noqa: N802
        return ("For generators outside the tool: reads {condition}/{segment_id}/{sample}.jpg (or "
                "{model}/{condition}/… when no model name is given), checks conditions and segment ids against "
                "the store, and records the images (seeds marked missing unless a prompts.csv sidecar gives them).")

    def createInstance(self):  # noqa: N802
        return ImportGeneratedAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterFile(self.FOLDER, "Folder of generated images",
                                                     behavior=QgsProcessingParameterFile.Folder))
        self.addParameter(QgsProcessingParameterString(self.MODEL, "Model name (empty: first folder level)",
                                                       optional=True))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.REPLACE, "Replace existing panels (delete their earlier images first; otherwise an import over "
                          "them is refused)", defaultValue=False)))
        self.addOutput(QgsProcessingOutputNumber("IMAGES", "Images imported"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.core.generation.workflow import import_folder_into

        result = run_core(import_folder_into, self.parameterAsFile(parameters, self.STORE, context),
                          self.parameterAsFile(parameters, self.FOLDER, context),
                          self.parameterAsString(parameters, self.MODEL, context) or None, FeedbackProgress(feedback),
                          replace=self.parameterAsBool(parameters, self.REPLACE, context))
        feedback.pushInfo(f"{result.images} images imported for {', '.join(result.models)}")
        return {"IMAGES": result.images}
