"""Cities and roads from vector files (a GeoPackage, GeoJSON, shapefile …) instead of a CSV
table or an OSM file (method §1 inputs): city points with ``name``, ``country_code`` (and
optionally ``country``) fields; road lines with ``name`` and ``highway`` fields (an ``osm_id``,
``way_id`` or ``id`` field keeps the OSM way ids, which the segment ids are built from);
neighbourhood points with a ``name`` field. The QGIS algorithm writes its layer inputs to a
temporary GeoPackage and passes it here.

A path may name one layer of a multi-layer file the way QGIS does: ``file.gpkg|layername=roads``.
Coordinates of any CRS are transformed to WGS84 lon/lat.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from .cities import City, check_distinct_cities, make_city
from .osm_data import OsmData, PlaceNode, RoadWay

#: Suffixes read as vector layers by ``--cities`` (anything else is a CSV table).
VECTOR_SUFFIXES = (".gpkg", ".geojson", ".json", ".shp", ".fgb", ".sqlite", ".gml", ".kml")
_WAY_ID_FIELDS = ("osm_id", "way_id", "id")


def is_vector_file(path: str | Path) -> bool:
    """Whether ``path`` (with an optional ``|layername=…``) names a vector file, not a CSV table."""
    return str(path).split("|", 1)[0].lower().endswith(VECTOR_SUFFIXES)


def _split(path: str | Path) -> tuple[Path, str | None]:
    text = str(path)
    layer = None
    if "|" in text:
        text, _, option = text.partition("|")
        if option.startswith("layername="):
            layer = option[len("layername="):] or None
    return Path(text).expanduser(), layer


class _Layer:
    """One layer of a vector file opened with fiona, with a transform to WGS84 lon/lat."""

    def __init__(self, path: str | Path, what: str):
        import fiona
        from fiona.errors import FionaError

        self.path, layer = _split(path)
        self.what = what
        if not self.path.exists():
            raise InputError(f"{what} {self.path} does not exist — give a GeoPackage (or another vector "
                             "file) that holds it")
        if self.path.is_dir():
            raise InputError(f"{what} {self.path} is a folder — give a GeoPackage (or another vector file)")
        try:
            layers = fiona.listlayers(str(self.path))
            if layer is not None and layer not in layers:
                raise InputError(f"{what} {self.path} has no layer {layer!r} (its layers: "
                                 f"{', '.join(layers) or 'none'}) — name one of them after '|layername='")
            self.src = fiona.open(str(self.path), layer=layer or layers[0])
        except FionaError as exc:
            raise InputError(f"{what} {self.path} is not a readable vector file ({str(exc)[:200]}) — give a "
                             "GeoPackage, GeoJSON or shapefile") from None
        self.fields = list(self.src.schema["properties"])
        try:
            self._transform = self._to_wgs84()
        except Exception:
            self.src.close()
            raise

    def _to_wgs84(self):
        from pyproj import CRS, Transformer
        from pyproj.exceptions import CRSError

        wkt = self.src.crs_wkt
        if not wkt:
            return None  # no CRS recorded: read as lon/lat
        try:
            crs = CRS.from_wkt(wkt)
        except CRSError as exc:
            raise InputError(f"{self.what} {self.path} has a coordinate reference system that cannot be read "
                             f"({str(exc)[:120]}) — save it in EPSG:4326 (WGS 84)") from None
        if crs.to_epsg() == 4326:
            return None
        return Transformer.from_crs(crs, CRS.from_epsg(4326), always_xy=True)

    def lonlat(self, coords) -> list[tuple[float, float]]:
        points = [(float(c[0]), float(c[1])) for c in coords]
        if self._transform is None:
            return points
        xs, ys = self._transform.transform([p[0] for p in points], [p[1] for p in points])
        return list(zip(xs, ys))

    def require(self, names: tuple[str, ...], fix: str) -> None:
        missing = [f for f in names if f not in self.fields]
        if missing:
            raise InputError(f"{self.what} {self.path.name} lacks field(s) {', '.join(missing)} (has: "
                             f"{', '.join(self.fields) or 'none'}) — {fix}")

    def features(self):
        return iter(self.src)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.src.close()


def _text(value) -> str:
    return "" if value is None else str(value).strip()


def _point(layer: _Layer, geometry) -> tuple[float, float] | None:
    if not geometry:
        return None
    if geometry["type"] == "Point":
        coords = [geometry["coordinates"]]
    elif geometry["type"] == "MultiPoint" and len(geometry["coordinates"]) == 1:
        coords = list(geometry["coordinates"])
    else:
        raise InputError(f"{layer.what} {layer.path.name} holds {geometry['type']} geometries — give "
                         "single points")
    return layer.lonlat(coords)[0]


def read_city_layer(path: str | Path) -> list[City]:
    """One city per point: ``name``, ``country_code`` and optionally ``country`` fields."""
    cities = []
    with _Layer(path, "city layer") as layer:
        layer.require(("name", "country_code"), "add them (name, country_code and optionally country)")
        for feature in layer.features():
            props, where = feature["properties"], f"feature {feature.id}"
            point = _point(layer, feature["geometry"])
            if point is None:
                raise InputError(f"city layer {layer.path.name}: {where} has no geometry — give each city a "
                                 "point")
            country = props.get("country") if "country" in layer.fields else props.get("country_code")
            cities.append(make_city(_text(props.get("name")), _text(country), _text(props.get("country_code")),
                                    point[0], point[1], where=where))
    if not cities:
        raise InputError(f"city layer {layer.path.name} holds no points — add one point per city")
    check_distinct_cities(cities, f"city layer {layer.path.name}")
    return cities


def read_road_layer(path: str | Path, places: str | Path | None = None) -> OsmData:
    """Road lines (``name`` and ``highway`` fields) and, optionally, neighbourhood points
    (``name`` field), as the same plain data an OSM file gives."""
    with _Layer(path, "road layer") as layer:
        layer.require(("name", "highway"), "the road layer must have 'name' and 'highway' fields")
        id_field = next((f for f in _WAY_ID_FIELDS if f in layer.fields), None)
        data = OsmData(source=f"line layer {layer.path.name}")
        for feature in layer.features():
            props, geometry = feature["properties"], feature["geometry"]
            name, highway = _text(props.get("name")), _text(props.get("highway"))
            if not name or not highway or not geometry:
                continue
            if geometry["type"] == "LineString":
                parts = [geometry["coordinates"]]
            elif geometry["type"] == "MultiLineString":
                parts = geometry["coordinates"]
            else:
                raise InputError(f"road layer {layer.path.name} holds {geometry['type']} geometries — give "
                                 "a line layer")
            raw_id = _text(props.get(id_field)) if id_field else ""
            way_id = int(raw_id) if raw_id.lstrip("-").isdigit() else int(feature.id)
            for part in parts:
                if len(part) >= 2:
                    data.ways.append(RoadWay(way_id, name, highway, tuple(layer.lonlat(part))))
    if places is not None:
        data.places.extend(read_place_layer(places))
    return data


def read_place_layer(path: str | Path) -> list[PlaceNode]:
    """Neighbourhood points (``name`` field) for a road layer, which has no OSM place nodes."""
    nodes = []
    with _Layer(path, "neighbourhood layer") as layer:
        layer.require(("name",), "the neighbourhood points must have a 'name' field")
        for feature in layer.features():
            name = _text(feature["properties"].get("name"))
            point = _point(layer, feature["geometry"]) if name else None
            if point is not None:
                nodes.append(PlaceNode(int(feature.id), name, "neighbourhood", point[0], point[1]))
    return nodes
