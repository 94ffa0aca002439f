"""``geofidelity:mfp`` — MFP (method §10): a generated map raster against the map QGIS renders
for the same extent, CRS and pixel size, tile by tile.

QGIS renders the reference here, in QGIS's own process: the layers and their styles live in the
user's project, and drawing them is QGIS's job (on layer clones made in ``prepareAlgorithm``, as
QGIS's own *Convert map to raster* does). The rendered GeoTIFF goes to the backend process
(``mfp --reference``), which runs the ViT — QGIS never imports torch.
"""
from __future__ import annotations

from pathlib import Path

from qgis.core import (Qgis, QgsProcessingException,
                       QgsProcessingMultiStepFeedback, QgsProcessingOutputVectorLayer, QgsProcessingParameterFile,
                       QgsProcessingParameterMultipleLayers, QgsProcessingParameterRasterLayer)

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, command_line
from geofidelity_plugin.spec import map_fidelity as spec

from .algorithm import GeoFidelityAlgorithm
from .common import FeedbackProgress, device_or_default, load_backend_layers, option, run_backend, user_errors


class MapFidelityAlgorithm(GeoFidelityAlgorithm):
    GROUP = "mfp"
    GENERATED, REFERENCE, LAYERS, OSM_FILE = "GENERATED", "REFERENCE", "LAYERS", "OSM_FILE"
    BACKGROUND, DPI, OUTPUT = "BACKGROUND", "DPI", "OUTPUT_FOLDER"

    def name(self):
        return "mfp"

    def displayName(self):  # noqa: N802
        return "6 · MFP: score a generated map against the map QGIS renders"

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
        add_parameters(self, spec.MFP)  # the ViT, tiles, device, render settings, output folder; the outputs
        self.addOutput(QgsProcessingOutputVectorLayer(spec.TILES.key, spec.TILES.label))

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
        path = map_render.render_reference(layers, generated, out_dir / "reference.tif",
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
        shared, plain = command_line(self, spec.MFP, parameters, context)
        args = ["--generated", generated, "--reference", reference, *shared]
        option(args, spec.REFERENCE_NOTE.flag, note)
        if not (plain["DEVICE"] or "").strip():  # empty: the device of the plugin's settings
            option(args, "--device", device_or_default(""))
        run = run_backend(spec.MFP.command, args, steps)
        load_backend_layers(context, run)
        values = run.values
        feedback.pushInfo(f"{values.get(spec.COUNT.key)} tiles scored with {values.get(spec.MODEL.key)}: mean MFP "
                          f"{values.get(spec.MEAN_MFP.key)}, G {values.get(spec.MEAN_G.key)}, "
                          f"D_S {values.get(spec.MEAN_D_S.key)}")
        tiles = run.output(spec.TILES.key)
        return {self.OUTPUT: str(out_dir), spec.TILES.key: tiles["layer"] if tiles else None,
                spec.REFERENCE_MAP.key: reference,
                **{r.key: run.path(r.key) for r in (spec.SUMMARY_CSV, spec.FIGURE, spec.MANIFEST)},
                **{r.key: values.get(r.key) for r in (spec.MEAN_MFP, spec.MEAN_G, spec.MEAN_D_S)}}
