"""``geofidelity:select_segments`` inside real QGIS (offscreen, pytest-qgis)."""
from __future__ import annotations

import pytest
from qgis.core import (QgsFeature, QgsGeometry, QgsPointXY, QgsProcessingContext,
                       QgsProcessingException, QgsProcessingFeedback, QgsProject, QgsVectorLayer)

from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.core.selection.writers import read_segments_gpkg
from recording import RecordingFeedback

ALG = "geofidelity:select_segments"


@pytest.fixture
def cities_csv():
    return str(resource("data", "demo_cities.csv"))


def test_provider_registered(qgis_provider):
    from qgis.core import QgsApplication

    alg = QgsApplication.processingRegistry().algorithmById(ALG)
    assert alg is not None and alg.provider().id() == "geofidelity"
    names = [p.name() for p in alg.parameterDefinitions()]
    for key in ("CITIES", "OSM_FILE", "RADIUS", "MIN_LENGTH", "CLIP_LENGTH", "MIN_SPACING", "SEED"):
        assert key in names


def test_run_and_load_styled_layer(qgis_provider, tmp_path, helsinki_pbf, cities_csv):
    import processing

    out = tmp_path / "segments.gpkg"
    result = processing.runAndLoadResults(ALG, {
        "CITIES": cities_csv, "SOURCE": 0, "OSM_FILE": str(helsinki_pbf), "OUTPUT": str(out)})
    assert result["SEGMENT_COUNT"] >= 3
    layers = QgsProject.instance().mapLayersByName("GeoFidelity segments")
    assert layers, "the output layer was not loaded"
    layer = layers[-1]
    assert layer.isValid() and layer.featureCount() == result["SEGMENT_COUNT"]
    renderer = layer.renderer()
    assert renderer.type() == "categorizedSymbol" and renderer.classAttribute() == "road_class"
    assert {c.value() for c in renderer.categories()} >= {"primary", "secondary", "residential", "pedestrian"}
    for category in renderer.categories():  # no red or blue: the score layers' "loses" and "wins"
        r, g, b, _ = category.symbol().color().getRgb()
        assert not (r > max(g, b) + 60) and not (b > max(r, g) + 60), (category.value(), (r, g, b))
    assert layer.labelsEnabled() and layer.labeling().settings().fieldName == "street_name"
    fields = [f.name() for f in layer.fields()]
    for name in ("segment_id", "street_name", "neighbourhood", "road_class", "length_m", "centroid_lon",
                 "centroid_lat", "driving_side", "osm_way_ids", "addressable"):
        assert name in fields
    # the map context from the same OSM file, in its own group under the segments
    root = QgsProject.instance().layerTreeRoot()
    group = root.findGroup("GeoFidelity context")
    assert group is not None and root.children().index(group) > root.children().index(root.findLayer(layer.id()))
    assert [c.name() for c in group.children()] == ["OSM other roads", "OSM buildings", "OSM parks and green",
                                                    "OSM water"]
    roads = group.children()[0].layer()
    assert roads.featureCount() > 1000 and roads.renderer().type() == "RuleRenderer"
    # run again with a group of the same name nested elsewhere (as in the demo project's Scores group):
    # the context is replaced in the top-level group, never doubled, never moved into the nested one
    nested = root.addGroup("Scores").addGroup("GeoFidelity context")
    processing.runAndLoadResults(ALG, {"CITIES": cities_csv, "SOURCE": 0, "OSM_FILE": str(helsinki_pbf),
                                       "OUTPUT": str(out)})
    tops = [c for c in root.children() if c.name() == "GeoFidelity context"]
    assert tops == [group] and nested.children() == []
    assert [c.name() for c in group.children()] == ["OSM other roads", "OSM buildings", "OSM parks and green",
                                                    "OSM water"]
    assert len(QgsProject.instance().mapLayersByName("OSM buildings")) == 1
    root.removeChildNode(root.findGroup("Scores"))
    for extra in QgsProject.instance().mapLayersByName("GeoFidelity segments"):
        if extra.id() != layer.id():
            QgsProject.instance().removeMapLayer(extra.id())
    QgsProject.instance().removeMapLayer(layer.id())
    for child in group.children():
        QgsProject.instance().removeMapLayer(child.layerId())
    root.removeChildNode(group)


def test_cancel_through_feedback(qgis_provider, tmp_path, helsinki_pbf, cities_csv):
    import processing

    feedback = QgsProcessingFeedback()
    feedback.cancel()
    out = tmp_path / "segments.gpkg"
    with pytest.raises(QgsProcessingException, match="cancelled"):
        processing.run(ALG, {"CITIES": cities_csv, "OSM_FILE": str(helsinki_pbf), "OUTPUT": str(out)},
                       feedback=feedback, context=QgsProcessingContext())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("params,needle", [
    ({"OSM_FILE": "/nonexistent/roads.osm.pbf"}, "OSM file not found"),
    ({"SOURCE": 1, "OVERPASS_URL": "http://127.0.0.1:9/api/interpreter", "OVERPASS_RETRIES": 0}, "127.0.0.1:9"),
])
def test_bad_sources(qgis_provider, tmp_path, cities_csv, params, needle, monkeypatch):
    import processing

    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "segments.gpkg"
    with pytest.raises(QgsProcessingException, match=needle.replace(".", r"\.")):
        processing.run(ALG, {"CITIES": cities_csv, "OUTPUT": str(out), **params})
    assert not out.exists()


def _memory_roads(helsinki_pbf):
    """A QGIS line layer with name/highway fields built from the real OSM ways."""
    from geofidelity_plugin.core.selection.osm_file import read_osm_file

    layer = QgsVectorLayer("LineString?crs=EPSG:4326&field=name:string&field=highway:string&field=osm_id:long",
                           "roads", "memory")
    feats = []
    for way in read_osm_file(helsinki_pbf).ways:
        f = QgsFeature(layer.fields())
        f.setAttributes([way.name, way.highway, way.way_id])
        f.setGeometry(QgsGeometry.fromPolylineXY([QgsPointXY(x, y) for x, y in way.coords]))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def test_line_layer_source_and_city_points(qgis_provider, tmp_path, helsinki_pbf):
    import processing

    roads = _memory_roads(helsinki_pbf)
    cities = QgsVectorLayer("Point?crs=EPSG:3067&field=name:string&field=country:string&field=country_code:string",
                            "cities", "memory")
    f = QgsFeature(cities.fields())
    f.setAttributes(["Helsinki", "Finland", "FI"])
    f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(385920.0, 6672240.0)))  # ETRS-TM35FIN metres
    cities.dataProvider().addFeatures([f])
    out = tmp_path / "from_layer.gpkg"
    result = processing.run(ALG, {"CITY_LAYER": cities, "SOURCE": 2, "ROAD_LAYER": roads, "OUTPUT": str(out)})
    from_layer = read_segments_gpkg(out)
    out2 = tmp_path / "from_file.gpkg"
    processing.run(ALG, {"CITY_LAYER": cities, "SOURCE": 0, "OSM_FILE": str(helsinki_pbf), "OUTPUT": str(out2)})
    from_file = read_segments_gpkg(out2)
    assert result["SEGMENT_COUNT"] == len(from_file)
    assert [r["segment_id"] for r in from_layer] == [r["segment_id"] for r in from_file]
    assert from_layer[0]["neighbourhood"] == ""  # no place layer given


def test_memory_city_layer_is_exported_and_used(qgis_provider, tmp_path, helsinki_pbf):
    """A memory layer of city points (EPSG:3067, one of two points selected) reaches the backend
    as a GeoPackage in WGS84: only the selected city is used, at its own transformed centre."""
    import json
    from pathlib import Path

    import processing
    from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform,
                           QgsProcessingFeatureSourceDefinition)

    cities = QgsVectorLayer("Point?crs=EPSG:3067&field=name:string&field=country:string&field=country_code:string",
                            "cities", "memory")
    points = {"Helsingfors": QgsPointXY(385920.0, 6672240.0), "Nowhere": QgsPointXY(600000.0, 7300000.0)}
    feats = []
    for name, point in points.items():
        f = QgsFeature(cities.fields())
        f.setAttributes([name, "Suomi", "FI"])
        f.setGeometry(QgsGeometry.fromPointXY(point))
        feats.append(f)
    cities.dataProvider().addFeatures(feats)
    QgsProject.instance().addMapLayer(cities)
    cities.selectByExpression("\"name\" = 'Helsingfors'")
    feedback = RecordingFeedback()
    out = tmp_path / "seg.gpkg"
    try:
        result = processing.run(ALG, {"CITY_LAYER": QgsProcessingFeatureSourceDefinition(cities.id(), True),
                                      "SOURCE": 0, "OSM_FILE": str(helsinki_pbf), "OUTPUT": str(out)},
                                feedback=feedback)
    finally:
        QgsProject.instance().removeMapLayer(cities.id())
    (command,) = [line for line in feedback.lines if line.startswith("GeoFidelity backend:")]
    exported = Path(command.split(" --cities ", 1)[1].split(" ", 1)[0].strip('"'))
    assert exported.suffix == ".gpkg" and exported.is_file() and tmp_path not in exported.parents
    rows = read_segments_gpkg(out)
    assert rows and {r["city"] for r in rows} == {"Helsingfors"} and result["SEGMENT_COUNT"] == len(rows)
    (city,) = json.loads(Path(result["MANIFEST"]).read_text(encoding="utf-8"))["inputs"]["cities"]
    to_wgs84 = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:3067"),
                                      QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance())
    centre = to_wgs84.transform(points["Helsingfors"])
    assert (city["name"], city["country"]) == ("Helsingfors", "Suomi")
    assert city["lon"] == pytest.approx(centre.x(), abs=1e-7) and city["lat"] == pytest.approx(centre.y(), abs=1e-7)


def test_city_layer_missing_field(qgis_provider, tmp_path, helsinki_pbf):
    import processing

    cities = QgsVectorLayer("Point?crs=EPSG:4326&field=title:string", "cities", "memory")
    with pytest.raises(QgsProcessingException, match="lacks field"):
        processing.run(ALG, {"CITY_LAYER": cities, "OSM_FILE": str(helsinki_pbf),
                             "OUTPUT": str(tmp_path / "o.gpkg")})
