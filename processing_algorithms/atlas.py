"""``geofidelity:atlas`` — a PDF with a cover and one page per segment: its map over the context
with the buffer, image points and gaps, the reference and generated strips, the scores beside the
real anchors, the coverage figures and the attributions (docs/atlas.md).

The pages are QGIS print layouts, so they are drawn here, in QGIS's own process, on the main
thread (``FlagNoThreading``, as QGIS's own layout export algorithms), not in the backend: no
torch is needed. The layout is ``resources/layouts/segment_atlas.qpt`` (restyle it in the layout
designer and save over it).
"""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingOutputFile, QgsProcessingOutputNumber,
                       QgsProcessingParameterFile, QgsProcessingParameterFileDestination,
                       QgsProcessingParameterString)

from .common import FeedbackProgress, advanced, user_errors


class AtlasAlgorithm(QgsProcessingAlgorithm):
    STORE, SEGMENTS, COVERAGE, EVALUATION = "STORE", "SEGMENTS", "COVERAGE", "EVALUATION_FOLDER"
    MODELS, CONDITION, OSM_FILE, OUTPUT = "MODELS", "CONDITION", "OSM_FILE", "OUTPUT"

    def name(self):
        return "atlas"

    def displayName(self):  # noqa: N802
        return "5 · Atlas PDF (one page per segment)"

    def group(self):
        return "5 · Show"

    def groupId(self):  # noqa: N802
        return "show"

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
        self.addParameter(QgsProcessingParameterFile(
            self.STORE, "Benchmark store (empty: the store the evaluation was run on)", extension="sqlite",
            optional=True))
        self.addParameter(QgsProcessingParameterFile(self.SEGMENTS, "Segments GeoPackage (output of Select segments)",
                                                     extension="gpkg"))
        self.addParameter(QgsProcessingParameterFile(self.COVERAGE, "Coverage GeoPackage (output of the coverage "
                                                     "audit)", extension="gpkg", optional=True))
        self.addParameter(QgsProcessingParameterFile(self.EVALUATION, "Evaluation folder (output of Evaluate)",
                                                     behavior=Qgis.ProcessingFileParameterBehavior.Folder,
                                                     optional=True))
        self.addParameter(QgsProcessingParameterString(
            self.MODELS, "Models whose generated panels are shown (comma-separated; empty: all)", optional=True))
        self.addParameter(QgsProcessingParameterString(
            self.CONDITION, "Prompt condition of the generated panels (empty: L1)", optional=True))
        self.addParameter(advanced(QgsProcessingParameterFile(
            self.OSM_FILE, "OSM file drawn as context when the segments GeoPackage has no context layers",
            optional=True)))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Atlas PDF", "PDF (*.pdf)"))
        self.addOutput(QgsProcessingOutputFile("MANIFEST", "Run manifest"))
        self.addOutput(QgsProcessingOutputNumber("PAGES", "Pages"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.qgis_side.atlas_build import build_atlas

        models = [m.strip() for m in self.parameterAsString(parameters, self.MODELS, context).split(",") if m.strip()]
        result = build_atlas(
            self.parameterAsFile(parameters, self.STORE, context) or None,
            self.parameterAsFile(parameters, self.SEGMENTS, context),
            self.parameterAsFileOutput(parameters, self.OUTPUT, context),
            coverage=self.parameterAsFile(parameters, self.COVERAGE, context) or None,
            evaluation=self.parameterAsFile(parameters, self.EVALUATION, context) or None,
            models=models or None, condition=self.parameterAsString(parameters, self.CONDITION, context) or None,
            osm_file=self.parameterAsFile(parameters, self.OSM_FILE, context) or None,
            progress=FeedbackProgress(feedback))
        feedback.pushInfo(f"atlas: {result['pdf']} ({result['pages']} pages, {result['seconds']:.1f} s)")
        return {self.OUTPUT: str(result["pdf"]), "MANIFEST": str(result["manifest"]), "PAGES": result["pages"]}
