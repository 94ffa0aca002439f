"""``geofidelity:curate_panels`` — method §2 filters 1–8 and the cap per segment."""
from __future__ import annotations

from qgis.core import (QgsProcessingAlgorithm, QgsProcessingOutputNumber, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber,
                       QgsProcessingParameterString)

from .common import FeedbackProgress, advanced, load_on_completion, run_core, user_errors


class CuratePanelsAlgorithm(QgsProcessingAlgorithm):
    STORE, AUDIT, SIGLIP, VISTAS, CAP, SEED, OUTPUT = "STORE", "AUDIT_CSV", "SIGLIP_MODEL", "VISTAS_MODEL", "CAP", "SEED", "OUTPUT"
    NUMBERS = (("BUFFER", "buffer_m", "Road buffer (m)"), ("SOLAR_MIN", "solar_min_deg", "Minimum solar elevation (°)"),
               ("SIGLIP_THRESHOLD", "siglip_threshold", "SigLIP street probability ≥"),
               ("LAPLACIAN_MIN", "laplacian_var_min", "Variance of Laplacian ≥"),
               ("LUMA_MIN", "luma_min", "Mean luma ≥"), ("LUMA_MAX", "luma_max", "Mean luma ≤"),
               ("COLOURFULNESS_MIN", "colourfulness_min", "Colourfulness ≥"),
               ("ASPECT_MIN", "aspect_min", "Aspect ratio ≥"), ("ASPECT_MAX", "aspect_max", "Aspect ratio ≤"),
               ("PHASH_RADIUS", "phash_radius", "Perceptual-hash Hamming radius"),
               ("THINNING_M", "thinning_m", "Spatial thinning per sequence (m)"))

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
                "segment spread over sequences and dates. Model tiers are skipped with a note when their "
                "weights are unavailable. Kept images become the segments' reference panels.")

    def createInstance(self):  # noqa: N802
        return CuratePanelsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.reference_panels.curate import CurationOptions

        d = CurationOptions()
        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite)", fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterFile(self.AUDIT, "Manual audit CSV (image_id,decision[,segment_id])",
                                                     extension="csv", optional=True))
        self.addParameter(QgsProcessingParameterString(self.SIGLIP, "SigLIP model (empty: skip tier 4)",
                                                       defaultValue=d.siglip_model or "", optional=True))
        self.addParameter(QgsProcessingParameterString(self.VISTAS, "Mask2Former Vistas model (empty: skip tier 5)",
                                                       defaultValue=d.vistas_model or "", optional=True))
        for key, attr, label in self.NUMBERS:
            self.addParameter(advanced(QgsProcessingParameterNumber(key, label, QgsProcessingParameterNumber.Double,
                                                                    defaultValue=getattr(d, attr))))
        self.addParameter(QgsProcessingParameterNumber(self.CAP, "Images per segment at most", defaultValue=d.cap_per_segment,
                                                       minValue=1))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Random seed", defaultValue=d.seed))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Curated image points", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("KEPT", "Images kept"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.core.store.store import BenchmarkStore
        from geofidelity_plugin.core.manifest import build_manifest, write_manifest
        from geofidelity_plugin.core.output_paths import check_output_file
        from geofidelity_plugin.core.reference_panels.curate import CurationOptions
        from geofidelity_plugin.core.reference_panels.layers import write_images_gpkg
        from geofidelity_plugin.core.reference_panels.workflow import curate_store

        options = CurationOptions(siglip_model=self.parameterAsString(parameters, self.SIGLIP, context) or None,
                                  vistas_model=self.parameterAsString(parameters, self.VISTAS, context) or None,
                                  cap_per_segment=self.parameterAsInt(parameters, self.CAP, context),
                                  seed=self.parameterAsInt(parameters, self.SEED, context))
        for key, attr, _ in self.NUMBERS:
            value = self.parameterAsDouble(parameters, key, context)
            setattr(options, attr, int(value) if attr == "phash_radius" else value)
        run_core(options.validate)
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        store_path = self.parameterAsFile(parameters, self.STORE, context)
        audit_csv = self.parameterAsFile(parameters, self.AUDIT, context) or None
        inputs = {"the benchmark store ('Benchmark store')": store_path,
                  "the audit CSV ('Manual audit CSV')": audit_csv}
        run_core(check_output_file, output, "curated image points GeoPackage", inputs=inputs)  # before the long work
        with BenchmarkStore(store_path, create=False) as store:
            result = run_core(curate_store, store, options, audit_csv, progress=FeedbackProgress(feedback))
            write_images_gpkg(output, store.candidates())
            manifest = build_manifest("curate_panels", options.as_dict(), inputs={"store": str(store.path)},
                                      outputs={"counts": result.counts(), "gpkg": output}, models=[result.models],
                                      notes=result.notes, tier_state=result.tier_state)
        write_manifest(output.rsplit(".", 1)[0] + ".manifest.json", manifest)
        for note in result.notes:
            feedback.pushWarning(note)
        feedback.pushInfo(f"curation: {result.counts()}")
        load_on_completion(context, f"{output}|layername=reference_images", "GeoFidelity curated images",
                           self.OUTPUT, "reference_images_status.qml")
        return {self.OUTPUT: output, "KEPT": result.counts().get("kept", 0)}
