"""The map context around the selected segments (method §1 "context layers"): the other roads,
water, parks and green landuse, and buildings, read from the same OSM file as the roads, so that
a map of the segments shows where they are.

The context is clipped to the *context area*: per city, the bounding box of that city's selected
segments widened by ``CONTEXT_MARGIN_M`` metres on every side. A feature that touches the area is
kept and cut to it; nothing outside is read into memory, so a country extract costs one more pass
over the file, not its whole content. Coordinates are WGS84 lon/lat, like the segments layer.

Layers (names are a contract: the QGIS project, the atlas and the screenshots read them):

* ``context_roads`` — every ``highway=*`` way (lines; fields ``osm_id``, ``highway``, ``name``);
  the selected segments draw over them;
* ``context_water`` — ``natural=water``, ``waterway=riverbank``, ``landuse=reservoir|basin|pond``
  areas (polygons; ``kind`` = the tag value);
* ``context_green`` — parks, gardens, playgrounds, pitches, grass/forest/meadow landuse, wood,
  scrub, heath, grassland, wetland (polygons; ``kind`` = the tag value);
* ``context_buildings`` — ``building=*`` areas except ``building=no`` (polygons; ``building``).
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..progress import Progress, check_cancel

CONTEXT_MARGIN_M = 300.0
ROADS, WATER, GREEN, BUILDINGS = "context_roads", "context_water", "context_green", "context_buildings"
CONTEXT_LAYERS = (ROADS, WATER, GREEN, BUILDINGS)

#: (key, values) pairs that make an area water / green; the matching value is the ``kind`` field.
WATER_TAGS = (("natural", {"water"}), ("waterway", {"riverbank"}),
              ("landuse", {"reservoir", "basin", "pond"}))
GREEN_TAGS = (("leisure", {"park", "garden", "playground", "pitch", "nature_reserve", "common"}),
              ("landuse", {"grass", "forest", "meadow", "recreation_ground", "cemetery", "village_green",
                           "allotments", "orchard"}),
              ("natural", {"wood", "scrub", "heath", "grassland", "wetland"}))

SCHEMAS = {
    ROADS: {"geometry": "MultiLineString",
            "properties": {"osm_id": "int", "highway": "str:32", "name": "str:120"}},
    WATER: {"geometry": "MultiPolygon", "properties": {"osm_id": "int", "kind": "str:32", "name": "str:120"}},
    GREEN: {"geometry": "MultiPolygon", "properties": {"osm_id": "int", "kind": "str:32", "name": "str:120"}},
    BUILDINGS: {"geometry": "MultiPolygon", "properties": {"osm_id": "int", "building": "str:32"}},
}
_CANCEL_EVERY = 20000


@dataclass
class ContextLayers:
    """Features per context layer: ``(shapely geometry, properties)`` pairs; ``area`` is the
    context area (a shapely geometry in lon/lat) and ``fetched`` says whether a source was read."""

    features: dict[str, list] = field(default_factory=lambda: {name: [] for name in CONTEXT_LAYERS})
    area: object = None
    fetched: bool = True
    note: str = ""
    status: str = ""  # "skipped" (--no-context) or "failed" (the request failed); "" otherwise

    def counts(self) -> dict[str, int]:
        return {name: len(self.features.get(name, [])) for name in CONTEXT_LAYERS}

    def manifest_entry(self) -> dict:
        """What the run manifest records: which layers were written and their feature counts."""
        entry = {"fetched": self.fetched, "margin_m": CONTEXT_MARGIN_M,
                 "layers": {name: n for name, n in self.counts().items() if n}}
        if self.area is not None:
            entry["bounds"] = [round(v, 6) for v in self.area.bounds]
        if self.note:
            entry["note"] = self.note
        if self.status:
            entry["status"] = self.status
        return entry


def not_fetched(note: str) -> ContextLayers:
    return ContextLayers(fetched=False, note=note)


def city_boxes(segments, margin_m: float = CONTEXT_MARGIN_M) -> list:
    """Per city, the bounding box of its segments widened by ``margin_m`` (in degrees of the
    city's latitude): what one context request asks for (method §1 "context layers")."""
    from shapely.geometry import box

    by_city = defaultdict(list)
    for s in segments:
        if s.geometry is not None:
            by_city[s.city].append(s.geometry.bounds)
    boxes = []
    for bounds in by_city.values():
        x0, y0 = min(b[0] for b in bounds), min(b[1] for b in bounds)
        x1, y1 = max(b[2] for b in bounds), max(b[3] for b in bounds)
        dlat = margin_m / 111_320.0
        dlon = margin_m / (111_320.0 * max(math.cos(math.radians((y0 + y1) / 2)), 0.01))
        boxes.append(box(x0 - dlon, y0 - dlat, x1 + dlon, y1 + dlat))
    return boxes


def context_area(segments, margin_m: float = CONTEXT_MARGIN_M):
    """The city boxes (:func:`city_boxes`) united: the part of the map the context is cut to."""
    from shapely.ops import unary_union

    boxes = city_boxes(segments, margin_m)
    return unary_union(boxes) if boxes else None


def _match(tags, table) -> str | None:
    for key, values in table:
        value = tags.get(key)
        if value in values:
            return value
    return None


def is_context_area(tags) -> bool:
    """Whether an area with ``tags`` belongs to a context layer (water, green or a building)."""
    building = tags.get("building")
    return bool(_match(tags, WATER_TAGS) or _match(tags, GREEN_TAGS) or (building and building != "no"))


def _as_multi(geom, polygonal: bool):
    """``geom`` cut to the area as a Multi* geometry of the layer's kind, or None when nothing is left."""
    from shapely.geometry import MultiLineString, MultiPolygon

    kind = "Polygon" if polygonal else "LineString"
    parts = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == kind and not g.is_empty]
    if not parts:
        nested = [p for g in getattr(geom, "geoms", []) for p in getattr(g, "geoms", [])]
        parts = [g for g in nested if g.geom_type == kind and not g.is_empty]
    if not parts:
        return None
    return MultiPolygon(parts) if polygonal else MultiLineString(parts)


class ContextCollector:
    """Sorts OSM roads and areas into the context layers and cuts them to ``area``: the one
    place that says which tags make a context feature, whatever the source (OSM file or
    Overpass answer)."""

    def __init__(self, area):
        from shapely.geometry import box
        from shapely.prepared import prep

        self.result = ContextLayers(area=area)
        self.area, self.inside = area, prep(area)
        self.bounds = area.bounds
        self.bbox = box(*self.bounds)

    def road(self, coords, osm_id: int, tags) -> None:
        """A way's ``(lon, lat)`` points: kept in ``context_roads`` when it is a highway touching the area."""
        from shapely.geometry import LineString

        highway = tags.get("highway")
        if not highway or tags.get("area") == "yes":
            return
        if len(coords) < 2 or not _touches_bounds(coords, *self.bounds):
            return
        line = LineString(coords)
        if not self.inside.intersects(line):
            return
        geom = _as_multi(line.intersection(self.area), polygonal=False)
        if geom is not None:
            self.result.features[ROADS].append((geom, {"osm_id": osm_id, "highway": highway,
                                                       "name": tags.get("name")}))

    def polygon(self, polygon, osm_id: int, tags) -> None:
        """An area's (multi)polygon: kept in the water / green / buildings layers its tags name."""
        from shapely.errors import ShapelyError

        building = tags.get("building")
        water, green = _match(tags, WATER_TAGS), _match(tags, GREEN_TAGS)
        if not (water or green or (building and building != "no")):
            return
        if not polygon.intersects(self.bbox) or not self.inside.intersects(polygon):
            return
        try:
            geom = _as_multi(polygon.intersection(self.area), polygonal=True)
        except ShapelyError:
            geom = _as_multi(polygon.buffer(0).intersection(self.area), polygonal=True)
        if geom is None:
            return
        features = self.result.features
        if water:
            features[WATER].append((geom, {"osm_id": osm_id, "kind": water, "name": tags.get("name")}))
        elif green:
            features[GREEN].append((geom, {"osm_id": osm_id, "kind": green, "name": tags.get("name")}))
        if building and building != "no":
            features[BUILDINGS].append((geom, {"osm_id": osm_id, "building": building}))


def read_context(path: str | Path, area, progress: Progress | None = None) -> ContextLayers:
    """The four context layers of the OSM file ``path`` that touch ``area``, cut to it."""
    import osmium
    from shapely import wkb

    if area is None or area.is_empty:
        return ContextLayers(area=area, note="no segment geometry: no context area")
    collector = ContextCollector(area)
    factory = osmium.geom.WKBFactory()
    keys = osmium.filter.KeyFilter("building", "natural", "landuse", "leisure", "waterway")
    processor = osmium.FileProcessor(str(path)).with_locations().with_areas(keys)
    for count, obj in enumerate(processor):
        if count % _CANCEL_EVERY == 0:
            check_cancel(progress, "reading the map context")
        if obj.is_way():
            if obj.tags.get("highway"):
                collector.road([(n.lon, n.lat) for n in obj.nodes if n.location.valid()], obj.id, obj.tags)
        elif obj.is_area():
            if not is_context_area(obj.tags):
                continue
            try:
                polygon = wkb.loads(factory.create_multipolygon(obj), hex=True)
            except RuntimeError:
                continue  # an incomplete ring in a clipped extract
            collector.polygon(polygon, obj.orig_id(), obj.tags)
    return collector.result


def _touches_bounds(coords, x0, y0, x1, y1) -> bool:
    xs, ys = [c[0] for c in coords], [c[1] for c in coords]
    return not (max(xs) < x0 or min(xs) > x1 or max(ys) < y0 or min(ys) > y1)


def write_context_layers(path: str | Path, context: ContextLayers) -> list[str]:
    """Add the non-empty context layers to the GeoPackage ``path`` (EPSG:4326); their names."""
    import fiona
    from fiona.crs import CRS
    from shapely.geometry import mapping

    written = []
    for name in CONTEXT_LAYERS:
        features = context.features.get(name) or []
        if not features:
            continue
        with fiona.open(str(path), "w", driver="GPKG", layer=name, schema=SCHEMAS[name],
                        crs=CRS.from_epsg(4326)) as dst:
            dst.writerecords({"geometry": mapping(g), "properties": props} for g, props in features)
        written.append(name)
    return written
