"""``geofidelity:curate_panels`` — method §2 filters 1–8 and the cap per segment, run by the
backend process (``curate``), where the SigLIP and Mask2Former models load."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputNumber, QgsProcessingParameterBoolean,
                       QgsProcessingParameterEnum, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber,
                       QgsProcessingParameterString)

from geofidelity_plugin.qgis_side.processing_spec import parameter, value
from geofidelity_plugin.spec.curation import THRESHOLDS
from geofidelity_plugin.spec.options import argv_of

from .common import advanced, device_or_default, flag, load_backend_layers, option, run_backend, user_errors


class CuratePanelsAlgorithm(QgsProcessingAlgorithm):
    STORE, AUDIT, SIGLIP, VISTAS, CAP, SEED, OUTPUT = "STORE", "AUDIT_CSV", "SIGLIP_MODEL", "VISTAS_MODEL", "CAP", "SEED", "OUTPUT"
    DEVICE, PRECISION = "DEVICE", "PRECISION"
    CAP_SPREAD, CAP_BIN, SCORE_ALL = "CAP_SPREAD", "CAP_BIN", "SCORE_ALL"

    def name(self):
        return "curate_panels"

    def displayName(self):  # noqa: N802
        return "2b · Curate reference panels"

    def group(self):
        return "2 · Reference panels"

    def groupId(self):  # noqa: N802
        return "reference_panels"

    def shortHelpString(self):  # noqa: N802
        return ("Filters the fetched images in the protocol's order, recording pass/fail and the measured value "
                "per image: 1 inside the road buffer, 2 not panoramic, 3 daytime (solar elevation), 4 SigLIP "
                "urban scene, 5 Mapillary-Vistas ratios, 6 quality (sharpness, luma, colourfulness, aspect), "
                "7 duplicates (perceptual hash, thinning per sequence), 8 manual audit (kept in the store, "
                "settable from a CSV image_id,decision[,segment_id] or the inspector); then a seeded cap per "
                "segment, spread first along the segment (bins, each covered bin kept before any gets a second "
                "image), then over sequences and dates — or, as an option, over sequences and dates only (the "
                "paper's rule). Images that can no longer change which images are kept are not scored by "
                "tiers 4–7 (reported as capped, 'not scored'). Model tiers are skipped with a note when their "
                "weights are unavailable. Kept images become the segments' reference panels.")

    def createInstance(self):  # noqa: N802
        return CuratePanelsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.reference_panels.options import CAP_SPREADS, PRECISIONS, CurationOptions

        d = CurationOptions()
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterFile(self.AUDIT, "Manual audit CSV (image_id,decision[,segment_id])",
                                                     extension="csv", optional=True))
        self.addParameter(QgsProcessingParameterString(self.SIGLIP, "SigLIP model (empty: skip tier 4)",
                                                       defaultValue=d.siglip_model or "", optional=True))
        self.addParameter(QgsProcessingParameterString(self.VISTAS, "Mask2Former Vistas model (empty: skip tier 5)",
                                                       defaultValue=d.vistas_model or "", optional=True))
        for opt in THRESHOLDS:
            self.addParameter(parameter(opt))
        self.addParameter(QgsProcessingParameterNumber(self.CAP, "Images per segment at most", defaultValue=d.cap_per_segment,
                                                       minValue=1))
        p = QgsProcessingParameterEnum(self.CAP_SPREAD, "Spread of the cap", list(CAP_SPREADS),
                                       defaultValue=CAP_SPREADS.index(d.cap_spread))
        p.setHelp("along: bins along the segment first (every covered bin keeps an image before any keeps a "
                  "second), then sequences and capture dates within a bin; sequences: over sequences and dates "
                  "only (the paper's rule, which can leave stretches of the street without an image).")
        self.addParameter(p)
        self.addParameter(advanced(QgsProcessingParameterNumber(
            self.CAP_BIN, "Cap bin length along the segment (m)", Qgis.ProcessingNumberParameterType.Double,
            defaultValue=d.cap_bin_m, minValue=1)))
        p = QgsProcessingParameterBoolean(self.SCORE_ALL, "Score every image (also those the cap cannot keep)",
                                          defaultValue=False)
        p.setHelp("Off: tiers 4–7 skip the images that cannot change which images are kept — the kept images "
                  "are the same. On: every image is scored, and the stretch before the cap is exact.")
        self.addParameter(advanced(p))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Random seed", defaultValue=d.seed, minValue=0))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.DEVICE, "Device of the SigLIP and Mask2Former tiers: cpu, cuda, cuda:N or mps (empty: the GPU "
                         "when there is one)", optional=True)))
        p = QgsProcessingParameterEnum(self.PRECISION, "Precision of the SigLIP and Mask2Former tiers",
                                       list(PRECISIONS), defaultValue=PRECISIONS.index(d.precision))
        p.setHelp("fp32, the default on every device, gives the same tier decisions on a CPU and a GPU; bf16 "
                  "and fp16 are faster on a GPU, cached apart and recorded in the run manifest.")
        self.addParameter(advanced(p))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Curated image points", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("KEPT", "Images kept"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``curate`` in the backend process (docs/backend-protocol.md)."""
        from geofidelity_plugin.core.reference_panels.options import CAP_SPREADS, PRECISIONS

        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        args = ["--store", self.parameterAsFile(parameters, self.STORE, context), "--out", output,
                "--siglip-model", self.parameterAsString(parameters, self.SIGLIP, context) or "",
                "--vistas-model", self.parameterAsString(parameters, self.VISTAS, context) or "",
                "--cap", self.parameterAsInt(parameters, self.CAP, context),
                "--seed", self.parameterAsInt(parameters, self.SEED, context),
                "--cap-spread", CAP_SPREADS[self.parameterAsEnum(parameters, self.CAP_SPREAD, context)],
                "--cap-bin", self.parameterAsDouble(parameters, self.CAP_BIN, context)]
        flag(args, "--score-all", self.parameterAsBoolean(parameters, self.SCORE_ALL, context))
        args += argv_of(THRESHOLDS, {opt.name: value(self, opt, parameters, context) for opt in THRESHOLDS})
        option(args, "--device", device_or_default(self.parameterAsString(parameters, self.DEVICE, context)))
        option(args, "--precision", PRECISIONS[self.parameterAsEnum(parameters, self.PRECISION, context)])
        audit_csv = self.parameterAsFile(parameters, self.AUDIT, context)
        if audit_csv:
            args += ["--audit-csv", audit_csv]
        run = run_backend("curate", args, feedback)
        load_backend_layers(context, run)
        feedback.pushInfo(f"curation: {run.values.get('COUNTS')}")
        return {self.OUTPUT: run.path("OUTPUT") or output, "KEPT": run.values.get("KEPT", 0)}
