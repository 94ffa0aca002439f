"""``geofidelity:generate_panels`` and ``geofidelity:import_generated`` — method §4 panels.

Both run in the backend process (docs/backend-protocol.md): ``generate`` and ``import-generated``."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingException, QgsProcessingOutputFile,
                       QgsProcessingOutputFolder, QgsProcessingOutputNumber, QgsProcessingParameterBoolean,
                       QgsProcessingParameterEnum, QgsProcessingParameterFile, QgsProcessingParameterNumber,
                       QgsProcessingParameterString)

from .common import advanced, device_or_default, flag, option, run_backend, user_errors
from .ray_option import PARAMETER as RAY_CLUSTER, add_ray_option, ray_parameter


class GeneratePanelsAlgorithm(QgsProcessingAlgorithm):
    STORE, GENERATOR, CUSTOM, SAMPLES, SEED, SHARED = "STORE", "GENERATOR", "CUSTOM_FOLDER", "SAMPLES", "SEED", "SHARED_NOISE"
    CONDITIONS, TEMPLATES, STEPS, GUIDANCE, DTYPE, RESOLUTION, NAME = (
        "CONDITIONS", "TEMPLATES", "STEPS", "GUIDANCE", "DTYPE", "RESOLUTION", "CUSTOM_NAME")
    DEVICE, OUT = "DEVICE", "GENERATIONS_FOLDER"
    PLAN, VRAM_BUDGET, FP8, PRECISION, FORCE = "PLAN", "VRAM_BUDGET", "FP8_DENOISER", "PRECISION", "FORCE"
    BATCH_FORWARD = "BATCH_FORWARD"

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
                "the same settings are kept; images made with other settings (dtype, device, steps, seed, …) are "
                "refused unless 'Replace panels made with other settings' is ticked. Memory plan: 'auto' picks the "
                "fastest way the generator fits the GPU's free memory (or the VRAM budget) — whole pipeline on the "
                "GPU, model offload, group offload, sequential offload — and splits a panel's batch when needed. "
                "Heavy: needs a GPU for the full models; runs in the GeoFidelity backend (Settings › Options › "
                "GeoFidelity).")

    def createInstance(self):  # noqa: N802
        return GeneratePanelsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.generation.options import (BATCH_FORWARD_CHOICES, CONDITIONS, CUSTOM_DEFAULTS,
                                                                DEFAULT_SAMPLES, DEFAULT_SEED, PLAN_CHOICES,
                                                                PRECISION_CHOICES, generator_choices)

        self.generators = generator_choices()
        self.plans, self.precisions = list(PLAN_CHOICES), list(PRECISION_CHOICES)
        self.batch_forwards = list(BATCH_FORWARD_CHOICES)
        self.conditions = list(CONDITIONS)
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterEnum(self.GENERATOR, "Generator", self.generators, defaultValue=0))
        self.addParameter(QgsProcessingParameterFile(self.CUSTOM, "Custom diffusers folder", optional=True,
                                                     behavior=Qgis.ProcessingFileParameterBehavior.Folder))
        self.addParameter(QgsProcessingParameterString(self.NAME, "Custom generator name", optional=True))
        self.addParameter(QgsProcessingParameterEnum(self.CONDITIONS, "Prompt conditions", self.conditions,
                                                     allowMultiple=True, defaultValue=list(range(len(self.conditions)))))
        self.addParameter(QgsProcessingParameterNumber(self.SAMPLES, "Images per panel", defaultValue=DEFAULT_SAMPLES,
                                                       minValue=1))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Base seed", defaultValue=DEFAULT_SEED))
        self.addParameter(QgsProcessingParameterBoolean(self.SHARED, "Shared noise across conditions (causal deltas)",
                                                        defaultValue=False))
        self.addParameter(advanced(QgsProcessingParameterString(self.TEMPLATES, "Prompt templates (JSON: L0, L1, L2, "
                                                                "suffix)", optional=True)))
        for key, label, kind, setting in (
                (self.STEPS, "Steps (custom)", Qgis.ProcessingNumberParameterType.Integer, "steps"),
                (self.GUIDANCE, "Guidance (custom)", Qgis.ProcessingNumberParameterType.Double, "guidance"),
                (self.RESOLUTION, "Resolution (custom)", Qgis.ProcessingNumberParameterType.Integer, "resolution")):
            self.addParameter(advanced(QgsProcessingParameterNumber(key, label, kind, minValue=0,
                                                                    defaultValue=CUSTOM_DEFAULTS[setting])))
        self.addParameter(advanced(QgsProcessingParameterString(self.DTYPE, "dtype (custom): fp32, fp16 or bf16",
                                                                defaultValue=CUSTOM_DEFAULTS["dtype"])))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.DEVICE, "Device (cpu, cuda, cuda:N, mps; empty: the GPU when there is one)", optional=True)))
        self.addParameter(QgsProcessingParameterEnum(
            self.PLAN, "Memory plan (auto: the fastest that fits the GPU)", self.plans, defaultValue=0))
        self.addParameter(QgsProcessingParameterString(
            self.VRAM_BUDGET, "VRAM budget, e.g. 12GB (empty: the GPU's free memory)", optional=True))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.FP8, "Store the denoiser's weights in fp8 (less memory; changes the images)", defaultValue=False)))
        self.addParameter(advanced(QgsProcessingParameterEnum(
            self.PRECISION, "Precision (auto: each generator's own dtype)", self.precisions, defaultValue=0)))
        self.addParameter(advanced(QgsProcessingParameterEnum(
            self.BATCH_FORWARD, "Denoiser over a batch (auto: image by image on the CPU, one batch on a GPU)",
            self.batch_forwards, defaultValue=0)))
        self.addParameter(QgsProcessingParameterBoolean(
            self.FORCE, "Replace panels made with other settings", defaultValue=False))
        self.addParameter(advanced(QgsProcessingParameterFile(
            self.OUT, "Generations folder (empty: 'generations' beside the store)", optional=True,
            behavior=Qgis.ProcessingFileParameterBehavior.Folder)))
        self.addParameter(ray_parameter())
        self.addOutput(QgsProcessingOutputNumber("GENERATED", "Images generated"))
        self.addOutput(QgsProcessingOutputNumber("KEPT", "Images already there (resumed)"))
        self.addOutput(QgsProcessingOutputFolder("GENERATIONS", "Folder of the generator's images"))
        self.addOutput(QgsProcessingOutputFile("MANIFEST", "Generation manifest"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``generate`` in the backend process (docs/backend-protocol.md)."""
        from geofidelity_plugin.core.generation.options import CUSTOM_FOLDER_CHOICE

        choice = self.generators[self.parameterAsEnum(parameters, self.GENERATOR, context)]
        args = ["--store", self.parameterAsFile(parameters, self.STORE, context),
                "--samples", self.parameterAsInt(parameters, self.SAMPLES, context),
                "--seed", self.parameterAsInt(parameters, self.SEED, context)]
        if choice == CUSTOM_FOLDER_CHOICE:
            folder = self.parameterAsFile(parameters, self.CUSTOM, context)
            name = self.parameterAsString(parameters, self.NAME, context).strip()
            if not folder or not name:
                raise QgsProcessingException("a custom generator needs its diffusers folder and a name — fill in "
                                             "'Custom diffusers folder' and 'Custom generator name'")
            args += ["--generator", name, "--custom-folder", folder,
                     "--steps", self.parameterAsInt(parameters, self.STEPS, context),
                     "--guidance", self.parameterAsDouble(parameters, self.GUIDANCE, context),
                     "--dtype", self.parameterAsString(parameters, self.DTYPE, context),
                     "--resolution", self.parameterAsInt(parameters, self.RESOLUTION, context)]
        else:  # a registered generator runs with the protocol's settings: the custom ones are not sent
            args += ["--generator", choice]
        conditions = [self.conditions[i] for i in self.parameterAsEnums(parameters, self.CONDITIONS, context)]
        if conditions:
            args += ["--conditions", *conditions]
        flag(args, "--shared-noise", self.parameterAsBool(parameters, self.SHARED, context))
        option(args, "--templates", self.parameterAsString(parameters, self.TEMPLATES, context))
        option(args, "--device", device_or_default(self.parameterAsString(parameters, self.DEVICE, context)))
        option(args, "--out", self.parameterAsFile(parameters, self.OUT, context))
        args += ["--plan", self.plans[self.parameterAsEnum(parameters, self.PLAN, context)],
                 "--precision", self.precisions[self.parameterAsEnum(parameters, self.PRECISION, context)],
                 "--batch-forward", self.batch_forwards[self.parameterAsEnum(parameters, self.BATCH_FORWARD, context)]]
        option(args, "--vram-budget", self.parameterAsString(parameters, self.VRAM_BUDGET, context).strip())
        flag(args, "--fp8-denoiser", self.parameterAsBool(parameters, self.FP8, context))
        flag(args, "--force", self.parameterAsBool(parameters, self.FORCE, context))
        add_ray_option(args, self.parameterAsString(parameters, RAY_CLUSTER, context))
        run = run_backend("generate", args, feedback)
        values = run.values
        feedback.pushInfo(f"{values.get('GENERATED')} images generated, {values.get('KEPT')} kept from earlier runs, "
                          f"{values.get('SKIPPED_PROMPTS')} prompts skipped")
        if values.get("PLAN"):
            feedback.pushInfo(f"memory plan {values['PLAN']}, {values.get('IMAGES_PER_CALL')} image(s) per call, "
                              f"predicted peak {values.get('PREDICTED_PEAK_GIB')} GiB")
        return {"GENERATED": values.get("GENERATED", 0), "KEPT": values.get("KEPT", 0),
                "GENERATIONS": run.path("GENERATIONS"), "MANIFEST": run.path("MANIFEST")}


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
                                                     behavior=Qgis.ProcessingFileParameterBehavior.Folder))
        self.addParameter(QgsProcessingParameterString(self.MODEL, "Model name (empty: first folder level)",
                                                       optional=True))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.REPLACE, "Replace existing panels (delete their earlier images first; otherwise an import over "
                          "them is refused)", defaultValue=False)))
        self.addOutput(QgsProcessingOutputNumber("IMAGES", "Images imported"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``import-generated`` in the backend process (docs/backend-protocol.md)."""
        args = ["--store", self.parameterAsFile(parameters, self.STORE, context),
                "--folder", self.parameterAsFile(parameters, self.FOLDER, context)]
        option(args, "--model", self.parameterAsString(parameters, self.MODEL, context).strip())
        flag(args, "--replace", self.parameterAsBool(parameters, self.REPLACE, context))
        run = run_backend("import-generated", args, feedback)
        images = run.values.get("IMAGES", 0)
        feedback.pushInfo(f"{images} images imported for {', '.join(run.values.get('MODELS') or [])}")
        return {"IMAGES": images}
