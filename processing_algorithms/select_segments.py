"""``geofidelity:select_segments`` — method §1 named road segments."""
from __future__ import annotations

import json
from pathlib import Path

from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsFeatureRequest,
                       QgsProcessing, QgsProcessingAlgorithm, QgsProcessingException,
                       QgsProcessingParameterBoolean, QgsProcessingParameterEnum,
                       QgsProcessingParameterFeatureSource, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber,
                       QgsProcessingParameterString, QgsProcessingOutputFile,
                       QgsProcessingOutputNumber, QgsWkbTypes)

from .common import FeedbackProgress, load_on_completion, run_core, user_errors

SOURCES = ["OSM file (.osm, .osm.bz2, .osm.pbf)", "Overpass endpoint", "Line layer (name, highway fields)"]
WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


def _advanced(param):
    param.setFlags(param.flags() | param.FlagAdvanced)
    return param


class SelectSegmentsAlgorithm(QgsProcessingAlgorithm):
    CITIES, CITY_LAYER, SOURCE, OSM_FILE, OVERPASS_URL = "CITIES", "CITY_LAYER", "SOURCE", "OSM_FILE", "OVERPASS_URL"
    ROAD_LAYER, PLACE_LAYER = "ROAD_LAYER", "PLACE_LAYER"
    RADIUS, MIN_LENGTH, CLIP_LENGTH, MIN_SPACING = "RADIUS", "MIN_LENGTH", "CLIP_LENGTH", "MIN_SPACING"
    MAX_PER_CITY, SEED, ROAD_CLASSES, INCLUDE_OTHER = "MAX_PER_CITY", "SEED", "ROAD_CLASSES", "INCLUDE_OTHER"
    HOOD_DISTANCE, OUTPUT, RETRIES = "NEIGHBOURHOOD_MAX_DISTANCE", "OUTPUT", "OVERPASS_RETRIES"

    def name(self):
        return "select_segments"

    def displayName(self):  # noqa: N802
        return "1 · Select named road segments"

    def group(self):
        return "1 · Select"

    def groupId(self):  # noqa: N802
        return "select"

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
        from geofidelity_plugin.core.selection.segments import DEFAULT_ROAD_CLASSES, SelectionOptions

        d = SelectionOptions()
        p = QgsProcessingParameterFile(self.CITIES, "City table (CSV: name, country, country_code, lon, lat)",
                                       extension="csv", optional=True)
        p.setHelp("One row per city. Alternatively give a point layer below.")
        self.addParameter(p)
        self.addParameter(QgsProcessingParameterFeatureSource(
            self.CITY_LAYER, "…or city points (fields name, country, country_code)",
            [QgsProcessing.TypeVectorPoint], optional=True))
        self.addParameter(QgsProcessingParameterEnum(self.SOURCE, "Road source", SOURCES, defaultValue=0))
        self.addParameter(QgsProcessingParameterFile(self.OSM_FILE, "OSM file", optional=True))
        self.addParameter(QgsProcessingParameterString(
            self.OVERPASS_URL, "Overpass endpoint", defaultValue="https://overpass-api.de/api/interpreter",
            optional=True))
        self.addParameter(_advanced(QgsProcessingParameterNumber(
            self.RETRIES, "Overpass retries (busy / timeout answers)", defaultValue=4, minValue=0)))
        self.addParameter(QgsProcessingParameterFeatureSource(
            self.ROAD_LAYER, "Road line layer (fields name, highway)", [QgsProcessing.TypeVectorLine],
            optional=True))
        self.addParameter(_advanced(QgsProcessingParameterFeatureSource(
            self.PLACE_LAYER, "Neighbourhood points for a line-layer source (field name)",
            [QgsProcessing.TypeVectorPoint], optional=True)))
        for key, label, value in ((self.RADIUS, "Radius around each centre (m)", d.radius_m),
                                  (self.MIN_LENGTH, "Minimum merged length (m)", d.min_length_m),
                                  (self.CLIP_LENGTH, "Clip length (m)", d.clip_length_m),
                                  (self.MIN_SPACING, "Minimum centroid spacing (m)", d.min_spacing_m)):
            self.addParameter(QgsProcessingParameterNumber(key, label, QgsProcessingParameterNumber.Double,
                                                           defaultValue=value, minValue=0))
        self.addParameter(QgsProcessingParameterNumber(self.MAX_PER_CITY, "Maximum segments per city",
                                                       defaultValue=d.max_per_city, minValue=1))
        self.addParameter(QgsProcessingParameterNumber(self.SEED, "Random seed", defaultValue=d.seed))
        self.addParameter(_advanced(QgsProcessingParameterString(
            self.ROAD_CLASSES, "Road classes (JSON: class → list of highway values)",
            defaultValue=json.dumps({k: list(v) for k, v in DEFAULT_ROAD_CLASSES.items()}))))
        self.addParameter(_advanced(QgsProcessingParameterBoolean(
            self.INCLUDE_OTHER, "Keep other named highways as class 'other'", defaultValue=d.include_other)))
        self.addParameter(_advanced(QgsProcessingParameterNumber(
            self.HOOD_DISTANCE, "Maximum distance to a neighbourhood node (m)",
            QgsProcessingParameterNumber.Double, defaultValue=d.neighbourhood_max_distance_m, minValue=0)))
        self.addParameter(QgsProcessingParameterFileDestination(
            self.OUTPUT, "Segments", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputFile("MANIFEST", "Run manifest (JSON)"))
        self.addOutput(QgsProcessingOutputFile("SUMMARY", "Summary (HTML)"))
        self.addOutput(QgsProcessingOutputNumber("SEGMENT_COUNT", "Number of segments"))

    # -- inputs → plain objects -------------------------------------------------------------
    def _cities(self, parameters, context, feedback=None):
        from geofidelity_plugin.core.selection.cities import make_city, read_city_table

        path = self.parameterAsFile(parameters, self.CITIES, context)
        if path:
            return read_city_table(path, warn=feedback.pushWarning if feedback is not None else None)
        source = self.parameterAsSource(parameters, self.CITY_LAYER, context)
        if source is None:
            raise QgsProcessingException("give a city table (CSV) or a city point layer")
        xform = QgsCoordinateTransform(source.sourceCrs(), WGS84, context.transformContext())
        fields = [f.name() for f in source.fields()]
        missing = [f for f in ("name", "country_code") if f not in fields]
        if missing:
            raise QgsProcessingException(f"city layer lacks field(s) {', '.join(missing)} — add them")
        cities = []
        for feat in source.getFeatures():
            pt = xform.transform(feat.geometry().asPoint())
            country = feat["country"] if "country" in fields else feat["country_code"]
            cities.append(make_city(feat["name"], country, feat["country_code"], pt.x(), pt.y(),
                                    where=f"feature {feat.id()}"))
        return cities

    def _road_layer(self, parameters, context):
        from geofidelity_plugin.core.selection.osm_data import OsmData, PlaceNode, RoadWay

        source = self.parameterAsSource(parameters, self.ROAD_LAYER, context)
        if source is None:
            raise QgsProcessingException("choose a road line layer, or another road source")
        fields = [f.name() for f in source.fields()]
        if "name" not in fields or "highway" not in fields:
            raise QgsProcessingException(f"road layer must have 'name' and 'highway' fields (has: {', '.join(fields)})")
        id_field = next((f for f in ("osm_id", "way_id", "id") if f in fields), None)
        xform = QgsCoordinateTransform(source.sourceCrs(), WGS84, context.transformContext())
        data = OsmData(source=f"line layer {source.sourceName()}")
        for feat in source.getFeatures(QgsFeatureRequest()):
            name, highway = feat["name"], feat["highway"]
            if not name or not highway or not feat.hasGeometry():
                continue
            geom = feat.geometry()
            geom.transform(xform)
            parts = geom.asMultiPolyline() if QgsWkbTypes.isMultiType(geom.wkbType()) else [geom.asPolyline()]
            way_id = int(feat[id_field]) if id_field and str(feat[id_field]).lstrip("-").isdigit() else int(feat.id())
            for part in parts:
                if len(part) >= 2:
                    data.ways.append(RoadWay(way_id, str(name), str(highway), tuple((p.x(), p.y()) for p in part)))
        places = self.parameterAsSource(parameters, self.PLACE_LAYER, context)
        if places is not None:
            pxf = QgsCoordinateTransform(places.sourceCrs(), WGS84, context.transformContext())
            for feat in places.getFeatures():
                if feat.hasGeometry() and feat["name"]:
                    pt = pxf.transform(feat.geometry().asPoint())
                    data.places.append(PlaceNode(int(feat.id()), str(feat["name"]), "neighbourhood", pt.x(), pt.y()))
        return data

    def _options(self, parameters, context):
        from geofidelity_plugin.core.selection.option_checks import parse_road_classes
        from geofidelity_plugin.core.selection.segments import DEFAULT_ROAD_CLASSES, SelectionOptions

        text = self.parameterAsString(parameters, self.ROAD_CLASSES, context) or ""
        classes = parse_road_classes(text) if text.strip() else dict(DEFAULT_ROAD_CLASSES)
        hood = self.parameterAsDouble(parameters, self.HOOD_DISTANCE, context)
        return SelectionOptions(
            radius_m=self.parameterAsDouble(parameters, self.RADIUS, context),
            min_length_m=self.parameterAsDouble(parameters, self.MIN_LENGTH, context),
            clip_length_m=self.parameterAsDouble(parameters, self.CLIP_LENGTH, context),
            min_spacing_m=self.parameterAsDouble(parameters, self.MIN_SPACING, context),
            max_per_city=self.parameterAsInt(parameters, self.MAX_PER_CITY, context),
            seed=self.parameterAsInt(parameters, self.SEED, context),
            road_classes=classes, include_other=self.parameterAsBool(parameters, self.INCLUDE_OTHER, context),
            neighbourhood_max_distance_m=hood if hood > 0 else None)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.core.selection.overpass import OverpassClient
        from geofidelity_plugin.core.selection.pipeline import check_selection_outputs, select_segments

        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        if output and not Path(output).is_dir() and not output.lower().endswith(".gpkg"):
            output = str(Path(output).with_suffix(".gpkg"))
        kind = self.parameterAsEnum(parameters, self.SOURCE, context)
        inputs = {"the city table": self.parameterAsFile(parameters, self.CITIES, context) or None,
                  "the OSM file": (self.parameterAsFile(parameters, self.OSM_FILE, context) or None) if kind == 0 else None}
        run_core(check_selection_outputs, output, inputs)  # before any reading or download
        cities = run_core(self._cities, parameters, context, feedback)
        options = run_core(self._options, parameters, context)
        if kind == 0:
            road_source = self.parameterAsFile(parameters, self.OSM_FILE, context)
            if not road_source:
                raise QgsProcessingException("choose an OSM file (.osm, .osm.bz2 or .osm.pbf)")
        elif kind == 1:
            from geofidelity_plugin.core.paths import cache_dir

            url = self.parameterAsString(parameters, self.OVERPASS_URL, context)
            road_source = OverpassClient(url, cache_dir=cache_dir() / "overpass",
                                         max_retries=self.parameterAsInt(parameters, self.RETRIES, context))
        else:
            road_source = self._road_layer(parameters, context)
        result = run_core(select_segments, cities, road_source, options, output_gpkg=output,
                          progress=FeedbackProgress(feedback), inputs=inputs)
        load_on_completion(context, f"{output}|layername=segments", "GeoFidelity segments",
                           self.OUTPUT, "segments_by_class.qml")
        return {self.OUTPUT: output, "MANIFEST": str(result.manifest_path),
                "SUMMARY": str(result.summary_path), "SEGMENT_COUNT": len(result.segments)}
