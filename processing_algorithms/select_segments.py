"""``geofidelity:select_segments`` — method §1 named road segments, run by the backend process
(``select-segments``). A layer input (city points, road lines, neighbourhood points) is written
to a temporary GeoPackage in WGS84 first and its path handed to the command line."""
from __future__ import annotations

import uuid
from pathlib import Path

from qgis.core import (Qgis, QgsApplication, QgsProcessingContext,
                       QgsProcessingException, QgsProcessingParameterEnum,
                       QgsProcessingParameterFeatureSource, QgsProcessingParameterFile,
                       QgsProcessingParameterString, QgsProcessingUtils)

from geofidelity_plugin.qgis_side.processing_spec import add_specification, parameter, values
from geofidelity_plugin.spec import selection as spec
from geofidelity_plugin.spec.options import argv

from .algorithm import GeoFidelityAlgorithm
from .common import StylePostProcessor, advanced, load_backend_layers, run_backend, user_errors

SOURCES = ["OSM file (.osm, .osm.bz2, .osm.pbf)", "Overpass endpoint", "Line layer (name, highway fields)"]
CONTEXT_GROUP = "GeoFidelity context"


class ContextPostProcessor(StylePostProcessor):
    """Styles a map-context layer and puts it, in its place, in the "GeoFidelity context" group at
    the bottom of the layer tree (under the segments)."""

    def __init__(self, qml: str, rank: int):
        super().__init__(qml)
        self.rank = rank

    def postProcessLayer(self, layer, context, feedback):  # noqa: N802
        super().postProcessLayer(layer, context, feedback)
        if layer is None or context.project() is None:
            return
        root = context.project().layerTreeRoot()
        node = root.findLayer(layer.id())
        if node is None:
            return
        layer.setCustomProperty("geofidelity/context_rank", self.rank)
        group = context_group(root)
        for old in group.findLayers():  # a re-run replaces the context it drew before, never doubles it
            if old.layer() is not None and old.layer().id() != layer.id() and old.layer().source() == layer.source():
                context.project().removeMapLayer(old.layer().id())
        below = [c for c in group.children() if _context_rank(c) < self.rank]
        group.insertChildNode(len(below), node.clone())
        node.parent().removeChildNode(node)


def context_group(root):
    """The "GeoFidelity context" group at the top level of the layer tree (never one nested in
    another group, e.g. the demo project's Scores), made at the bottom when there is none."""
    from qgis.core import QgsLayerTree

    for child in root.children():
        if QgsLayerTree.isGroup(child) and child.name() == CONTEXT_GROUP:
            return child
    return root.insertGroup(len(root.children()), CONTEXT_GROUP)


def _context_rank(node) -> int:
    layer = node.layer() if hasattr(node, "layer") else None
    return int(layer.customProperty("geofidelity/context_rank", 99)) if layer is not None else 99


def load_context_layers(context, gpkg: str, manifest_path: str | None) -> list[str]:
    """Load the context layers the run wrote (its manifest lists them) on completion; none when the
    manifest is missing or cannot be read (the store and its segments are there all the same)."""
    from geofidelity_plugin.qgis_side.project_file import CONTEXT
    from geofidelity_plugin.qgis_side.provider_support import context_layers_written

    written = context_layers_written(manifest_path)
    loaded = []
    for rank, (table, name, qml) in enumerate(CONTEXT):
        if written.get(table):
            details = QgsProcessingContext.LayerDetails(name, context.project(), table.upper())
            details.setPostProcessor(ContextPostProcessor.create(qml, rank))
            context.addLayerToLoadOnCompletion(f"{gpkg}|layername={table}", details)
            loaded.append(table)
    return loaded


class SelectSegmentsAlgorithm(GeoFidelityAlgorithm):
    GROUP = "select"
    CITIES, CITY_LAYER, SOURCE, OSM_FILE, OVERPASS_URL = "CITIES", "CITY_LAYER", "SOURCE", "OSM_FILE", "OVERPASS_URL"
    ROAD_LAYER, PLACE_LAYER, OUTPUT = "ROAD_LAYER", "PLACE_LAYER", "OUTPUT"

    def name(self):
        return "select_segments"

    def displayName(self):  # noqa: N802
        return "1 · Select named road segments"

    def shortHelpString(self):  # noqa: N802
        return ("Chooses the benchmark's targets (method §1): named OSM highway ways within the "
                "radius of each city centre, touching same-name ways merged, kept when ≥ the "
                "minimum length, clipped around the point nearest the centroid, then a seeded "
                "greedy choice stratified by road class with centroids at least the spacing apart. "
                "Each segment gets a stable segment_id, neighbourhood, driving side, OSM way ids and "
                "an addressability flag. Writes a GeoPackage, a run manifest and an HTML summary.")

    def createInstance(self):  # noqa: N802
        return SelectSegmentsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        """The city and road inputs (a file or a layer, written to a file first) here; every other
        option from the specification (:mod:`geofidelity_plugin.spec.selection`)."""
        cities = QgsProcessingParameterFile(self.CITIES, "City table (CSV: name, country, country_code, lon, lat)",
                                            extension="csv", optional=True)
        cities.setHelp("One row per city. Alternatively give a point layer below.")
        add_specification(self, spec.SELECT_SEGMENTS, before=(
            cities,
            QgsProcessingParameterFeatureSource(
                self.CITY_LAYER, "…or city points (fields name, country, country_code)",
                [Qgis.ProcessingSourceType.VectorPoint], optional=True),
            QgsProcessingParameterEnum(self.SOURCE, "Road source", SOURCES, defaultValue=0),
            QgsProcessingParameterFile(self.OSM_FILE, "OSM file", optional=True),
            QgsProcessingParameterString(self.OVERPASS_URL, "Overpass endpoint", defaultValue=spec.DEFAULT_OVERPASS_ENDPOINT,
                                         optional=True),
            QgsProcessingParameterFeatureSource(self.ROAD_LAYER, "Road line layer (fields name, highway)",
                                                [Qgis.ProcessingSourceType.VectorLine], optional=True),
            advanced(QgsProcessingParameterFeatureSource(
                self.PLACE_LAYER, "Neighbourhood points for a line-layer source (field name)",
                [Qgis.ProcessingSourceType.VectorPoint], optional=True)),
        ), after=(parameter(spec.ROAD_CLASSES),))

    # -- parameters → command line ----------------------------------------------------------
    def _layer_file(self, parameters, key: str, context, feedback) -> str:
        """Write the layer of ``key`` (selected features only when so chosen) to a temporary
        GeoPackage in WGS84; the backend reads that file."""
        folder = Path(QgsProcessingUtils.tempFolder()) / f"geofidelity-{uuid.uuid4().hex[:12]}"
        folder.mkdir(parents=True, exist_ok=True)
        target = str(folder / f"{key.lower()}.gpkg")
        writer = QgsApplication.processingRegistry().createAlgorithmById("native:reprojectlayer")
        _, ok = writer.run({"INPUT": parameters[key], "TARGET_CRS": "EPSG:4326", "OUTPUT": target}, context, feedback)
        if not ok:
            raise QgsProcessingException(f"the layer of {self.parameterDefinition(key).description()!r} could not "
                                         f"be written to {target} — check the layer and the free space of "
                                         f"the temporary folder {QgsProcessingUtils.tempFolder()}")
        return target

    def _cities_argument(self, parameters, context, feedback) -> str:
        path = self.parameterAsFile(parameters, self.CITIES, context)
        if path:
            return path
        if self.parameterAsSource(parameters, self.CITY_LAYER, context) is None:
            raise QgsProcessingException("no cities were given — choose a city table (CSV) or a city point layer")
        return self._layer_file(parameters, self.CITY_LAYER, context, feedback)

    def _source_arguments(self, parameters, context, feedback) -> list:
        kind = self.parameterAsEnum(parameters, self.SOURCE, context)
        if kind == 0:
            osm = self.parameterAsFile(parameters, self.OSM_FILE, context)
            if not osm:
                raise QgsProcessingException("no OSM file was given — choose an .osm, .osm.bz2 or .osm.pbf file, "
                                             "or another road source")
            return ["--osm", osm]
        if kind == 1:
            return ["--overpass", self.parameterAsString(parameters, self.OVERPASS_URL, context)]
        if self.parameterAsSource(parameters, self.ROAD_LAYER, context) is None:
            raise QgsProcessingException("no road layer was given — choose a road line layer, or another road "
                                         "source")
        args = ["--roads", self._layer_file(parameters, self.ROAD_LAYER, context, feedback)]
        if self.parameterAsSource(parameters, self.PLACE_LAYER, context) is not None:
            args += ["--places", self._layer_file(parameters, self.PLACE_LAYER, context, feedback)]
        return args

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``select-segments`` in the backend process (docs/backend-protocol.md)."""
        plain = values(self, spec.SELECT_SEGMENTS, parameters, context)
        output = plain[self.OUTPUT]
        if output and not Path(output).is_dir() and not output.lower().endswith(".gpkg"):
            plain[self.OUTPUT] = output = str(Path(output).with_suffix(".gpkg"))
        args = ["--cities", self._cities_argument(parameters, context, feedback),
                *self._source_arguments(parameters, context, feedback), *argv(spec.SELECT_SEGMENTS, plain)]
        classes = (self.parameterAsString(parameters, spec.ROAD_CLASSES.name, context) or "").strip()
        if classes:
            args.append(f"{spec.ROAD_CLASSES.flag}={classes}")  # one argument: JSON text never reads as an option
        run = run_backend(spec.SELECT_SEGMENTS.command, args, feedback)
        load_backend_layers(context, run)
        gpkg = run.path(spec.OUTPUT.key) or output
        load_context_layers(context, gpkg, run.path(spec.MANIFEST.key))
        return {self.OUTPUT: gpkg, spec.MANIFEST.key: run.path(spec.MANIFEST.key),
                spec.SUMMARY.key: run.path(spec.SUMMARY.key),
                spec.SEGMENT_COUNT.key: run.values.get(spec.SEGMENT_COUNT.key, 0)}
