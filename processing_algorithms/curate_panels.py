"""``geofidelity:curate_panels`` — method §2 filters 1–8 and the cap per segment, run by the
backend process (``curate``), where the SigLIP and Mask2Former models load."""
from __future__ import annotations

from dataclasses import replace


from geofidelity_plugin.qgis_side.processing_spec import add_outputs, parameter, values
from geofidelity_plugin.spec import curation as spec
from geofidelity_plugin.spec.options import argv

from .algorithm import GeoFidelityAlgorithm
from .common import device_or_default, load_backend_layers, run_backend, user_errors


class CuratePanelsAlgorithm(GeoFidelityAlgorithm):
    GROUP = "reference_panels"
    def name(self):
        return "curate_panels"

    def displayName(self):  # noqa: N802
        return "2b · Curate reference panels"

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
        for opt in spec.CURATE.options:
            # the curated points: optional on the command line, always written from QGIS
            self.addParameter(parameter(replace(opt, required=True) if opt is spec.OUTPUT else opt))
        add_outputs(self, spec.CURATE)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``curate`` in the backend process (docs/backend-protocol.md)."""
        plain = values(self, spec.CURATE, parameters, context)
        plain[spec.DEVICE.name] = device_or_default(plain[spec.DEVICE.name])
        args = argv(spec.CURATE, plain)
        for model in (spec.SIGLIP_MODEL, spec.VISTAS_MODEL):  # empty: skip the tier, so say so
            if not (plain[model.name] or "").strip():
                args += [model.flag, ""]
        run = run_backend(spec.CURATE.command, args, feedback)
        load_backend_layers(context, run)
        feedback.pushInfo(f"curation: {run.values.get(spec.COUNTS.key)}")
        return {spec.OUTPUT.name: run.path(spec.OUTPUT.name) or plain[spec.OUTPUT.name],
                spec.KEPT.key: run.values.get(spec.KEPT.key, 0),
                spec.NOT_SCORED.key: run.values.get(spec.NOT_SCORED.key, 0),
                spec.MANIFEST.key: run.path(spec.MANIFEST.key)}
