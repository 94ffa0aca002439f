"""``geofidelity:atlas`` — a PDF with a cover and one page per segment: its map over the context
with the buffer, image points and gaps, the reference and generated strips, the scores beside the
real anchors, the coverage figures and the attributions (docs/atlas.md).

The pages are QGIS print layouts, so they are drawn here, in QGIS's own process, on the main
thread (``FlagNoThreading``, as QGIS's own layout export algorithms), not in the backend: no
torch is needed. The layout is ``resources/layouts/segment_atlas.qpt`` (restyle it in the layout
designer and save over it).
"""
from __future__ import annotations

from qgis.core import Qgis

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, values
from geofidelity_plugin.spec import atlas as spec

from .algorithm import GeoFidelityAlgorithm
from .common import FeedbackProgress, user_errors


class AtlasAlgorithm(GeoFidelityAlgorithm):
    GROUP = "show"
    OUTPUT = "OUTPUT"

    def name(self):
        return "atlas"

    def displayName(self):  # noqa: N802
        return "5b · Atlas PDF (one page per segment)"

    def flags(self):
        return super().flags() | Qgis.ProcessingAlgorithmFlag.NoThreading  # print layouts draw on the main thread

    def shortHelpString(self):  # noqa: N802
        return ("Writes a PDF to print or hand on: a cover with the city overview and the run's summary, then one "
                "page per segment (sorted by city and street name) with the map zoomed to the segment over its "
                "context (other roads, water, parks, buildings), the image search buffer, the image points by "
                "curation status and the coverage gaps; the curated reference images (the rejected ones framed "
                "in red), each model's generated panel for the chosen condition, the scores beside the real "
                "anchors, the coverage figures, a legend, scale bar, north arrow, the date and the "
                "attributions. The layout is resources/layouts/segment_atlas.qpt: restyle it in the layout "
                "designer (items are found by their id).")

    def createInstance(self):  # noqa: N802
        return AtlasAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        add_parameters(self, spec.ATLAS)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.qgis_side.atlas_build import build_atlas

        given = {spec.ATLAS.option(name).dest: value or None
                 for name, value in values(self, spec.ATLAS, parameters, context).items()}
        result = build_atlas(given["store"], given["segments"], given["out"], coverage=given["coverage"],
                             evaluation=given["evaluation"], models=spec.models_of(given["model"]) or None,
                             condition=given["condition"], osm_file=given["osm"], progress=FeedbackProgress(feedback))
        feedback.pushInfo(f"atlas: {result['pdf']} ({result['pages']} pages, {result['seconds']:.1f} s)")
        return {self.OUTPUT: str(result["pdf"]), spec.MANIFEST.key: str(result["manifest"]),
                spec.PAGES.key: result["pages"]}
