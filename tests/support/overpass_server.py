"""A local Overpass API for tests (pytest-httpserver): it answers the road query (``around:``)
with a fixed answer and the map-context query (a bounding box) the way the real server does —
JSON ``elements``, ``out geom`` geometry on ways and on relation members — from an OSM extract.

The context it serves is chosen here with its own tag table, not the plugin's, so that a test
can compare what the plugin wrote with what was served. A context query can be made to fail
(``context_status``: 429, 504, …) while the road query still succeeds.
"""
from __future__ import annotations

import json
import re

from werkzeug import Response

PATH = "/api/interpreter"
WATER = {"natural": {"water"}, "waterway": {"riverbank"}, "landuse": {"reservoir", "basin", "pond"}}
GREEN = {"leisure": {"park", "garden", "playground", "pitch", "nature_reserve", "common"},
         "landuse": {"grass", "forest", "meadow", "recreation_ground", "cemetery", "village_green", "allotments",
                     "orchard"},
         "natural": {"wood", "scrub", "heath", "grassland", "wetland"}}
_BBOX = re.compile(r"\((-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\)")
EMPTY = {"version": 0.6, "osm3s": {"timestamp_osm_base": "2024-05-14T09:21:43Z"}, "elements": []}


def layer_of(tags: dict) -> str | None:
    """The context layer an area with ``tags`` belongs to (water before green), else None."""
    if any(tags.get(k) in v for k, v in WATER.items()):
        return "context_water"
    if any(tags.get(k) in v for k, v in GREEN.items()):
        return "context_green"
    return None


def is_context_query(query: str) -> bool:
    return "around:" not in query and _BBOX.search(query) is not None


def query_of(request) -> str:
    return request.form.get("data", "")


def context_requests(httpserver) -> int:
    return sum(is_context_query(query_of(request)) for request, _ in httpserver.log)


def road_requests(httpserver) -> int:
    return sum(not is_context_query(query_of(request)) for request, _ in httpserver.log)


class ContextWorld:
    """The highways, water / green / building ways and multipolygon relations of an OSM file,
    with their geometry, served per bounding box."""

    def __init__(self, pbf):
        import osmium

        self.ways, self.relations, coords = [], [], {}
        self.cut: set[int] = set()  # ways and relations the extract's edge cut (nodes or members missing)
        for obj in osmium.FileProcessor(str(pbf)).with_locations():
            if obj.is_way():
                points = [(n.lon, n.lat) for n in obj.nodes if n.location.valid()]
                coords[obj.id] = points
                if len(points) < len(obj.nodes):
                    self.cut.add(obj.id)
                tags = dict(obj.tags)
                if self._wanted(tags) and len(points) >= 2:
                    self.ways.append({"type": "way", "id": obj.id, "tags": tags,
                                      "geometry": [{"lat": y, "lon": x} for x, y in points]})
            elif obj.is_relation():
                tags = dict(obj.tags)
                if tags.get("type") == "multipolygon" and self._wanted(tags, area=True):
                    members = [{"type": "way", "ref": m.ref, "role": m.role} for m in obj.members if m.type == "w"]
                    self.relations.append({"type": "relation", "id": obj.id, "tags": tags, "members": members})
        for relation in self.relations:
            if any(m["ref"] in self.cut or m["ref"] not in coords for m in relation["members"]):
                self.cut.add(relation["id"])
            for member in relation["members"]:
                member["geometry"] = [{"lat": y, "lon": x} for x, y in coords.get(member["ref"], [])]

    @staticmethod
    def _wanted(tags: dict, area: bool = False) -> bool:
        building = tags.get("building", "no") != "no"
        return (not area and "highway" in tags) or building or layer_of(tags) is not None

    def answer(self, south: float, west: float, north: float, east: float) -> dict:
        """What Overpass returns for the context query of this bounding box: every element with a
        point or a segment in it."""
        from shapely.geometry import LineString, box

        area = box(west, south, east, north)

        def inside(geometry) -> bool:
            points = [(p["lon"], p["lat"]) for p in geometry]
            return len(points) >= 2 and LineString(points).intersects(area)

        ways = [w for w in self.ways if inside(w["geometry"])]
        relations = [r for r in self.relations if any(inside(m["geometry"]) for m in r["members"])]
        return dict(EMPTY, elements=ways + relations)


class OverpassServer:
    """The request handler: ``road_answer`` for the road query, the world's context for a context
    query (or an HTTP ``context_status`` error); ``served`` holds every context answer sent."""

    def __init__(self, road_answer: dict, world: ContextWorld | None = None, context_status: int = 200):
        self.road_answer, self.world, self.context_status = road_answer, world, context_status
        self.served: list[dict] = []

    def __call__(self, request) -> Response:
        query = query_of(request)
        if not is_context_query(query):
            return Response(json.dumps(self.road_answer), status=200, content_type="application/json")
        if self.context_status != 200:
            return Response(f"<html><body>Error {self.context_status}: the server is busy</body></html>",
                            status=self.context_status, content_type="text/html")
        south, west, north, east = (float(v) for v in _BBOX.search(query).groups())
        answer = self.world.answer(south, west, north, east) if self.world is not None else EMPTY
        self.served.append(answer)
        return Response(json.dumps(answer), status=200, content_type="application/json")

    def install(self, httpserver) -> str:
        httpserver.clear()
        httpserver.expect_request(PATH, method="POST").respond_with_handler(self)
        return httpserver.url_for(PATH)
