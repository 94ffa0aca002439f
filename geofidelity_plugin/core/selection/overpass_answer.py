"""Check and parse an Overpass ``out geom`` JSON answer into :class:`OsmData`.

The answer is checked as a whole before anything is kept: valid JSON of the wrong shape (an
element without ``type``, a ``geometry`` that is not a list, ``tags`` that are a string, …)
raises :class:`MalformedAnswer` saying where, so that such an answer is neither cached nor
replayed by a later run.
"""
from __future__ import annotations

import logging
import math

from shapely.errors import ShapelyError
from shapely.geometry import LineString, Polygon
from shapely.geometry.polygon import orient
from shapely.ops import linemerge, polygonize, unary_union

from .osm_data import AdminArea, OsmData, PlaceNode, RoadWay
from .osm_file import PLACE_VALUES

log = logging.getLogger("geofidelity")


class MalformedAnswer(ValueError):
    """JSON that is not an Overpass answer of the expected shape; the message says where."""


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null"}.get(
        type(value), f"a {type(value).__name__}")


def _coordinate(value, name: str, limit: float, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MalformedAnswer(f"{where} has a {name} that is {_kind(value)}, not a number")
    if not (math.isfinite(value) and -limit <= value <= limit):
        raise MalformedAnswer(f"{where} has the {name} {value}, outside [-{limit:g}, {limit:g}]")
    return float(value)


def _point(point, where: str) -> tuple[float, float]:
    if not isinstance(point, dict):
        raise MalformedAnswer(f"{where} has a point that is {_kind(point)}, not an object with lat and lon")
    return (_coordinate(point.get("lon"), "lon", 180.0, where),
            _coordinate(point.get("lat"), "lat", 90.0, where))


def _geometry(owner: dict, where: str) -> list[tuple[float, float]]:
    """``(lon, lat)`` of an ``out geom`` way or member; ``null`` points (outside the query's area)
    are skipped."""
    geometry = owner.get("geometry")
    if geometry is None:
        return []
    if not isinstance(geometry, list):
        raise MalformedAnswer(f"{where} has a 'geometry' that is {_kind(geometry)}, not a list of points")
    return [_point(p, where) for p in geometry if p is not None]


def _tags(element: dict, where: str) -> dict:
    tags = element.get("tags")
    if tags is None:
        return {}
    if not isinstance(tags, dict):
        raise MalformedAnswer(f"{where} has 'tags' that are {_kind(tags)}, not an object")
    for key, value in tags.items():
        if not isinstance(value, str):
            raise MalformedAnswer(f"{where} has the tag {key!r} with {_kind(value)}, not a string")
    return tags


def _members(element: dict, where: str) -> list[tuple[str, str, list]]:
    members = element.get("members")
    if members is None:
        return []
    if not isinstance(members, list):
        raise MalformedAnswer(f"{where} has 'members' that are {_kind(members)}, not a list")
    checked = []
    for i, member in enumerate(members):
        if not isinstance(member, dict):
            raise MalformedAnswer(f"{where} has member {i} that is {_kind(member)}, not an object")
        role = member.get("role")
        checked.append((str(member.get("type") or ""), role if isinstance(role, str) else "",
                        _geometry(member, f"{where} member {i}")))
    return checked


def _assemble_polygons(members: list[tuple[str, str, list]]) -> tuple:
    """Rings of a multipolygon relation from its way members' geometries: the lines of each
    role are merged and polygonized; every inner ring goes to the smallest outer ring that
    holds it. Unclosed rings (members outside the answer) give no polygon."""
    lines: dict[str, list[LineString]] = {"outer": [], "inner": []}
    for kind, role, points in members:
        role = role or "outer"
        if kind == "way" and role in lines and len(points) >= 2:
            lines[role].append(LineString(points))
    if not lines["outer"]:
        return ()

    def rings(role: str) -> list[Polygon]:
        if not lines[role]:
            return []
        noded = unary_union(linemerge(lines[role]))
        return [Polygon(face.exterior) for face in polygonize(noded)]

    shells = rings("outer")
    holes: list[list[Polygon]] = [[] for _ in shells]
    for hole in rings("inner"):
        inside = hole.representative_point()
        owners = [i for i, shell in enumerate(shells) if shell.covers(inside)]
        if owners:
            holes[min(owners, key=lambda i: shells[i].area)].append(hole)
    polygons = []
    for shell, own_holes in zip(shells, holes):
        polygon = orient(Polygon(shell.exterior.coords, [h.exterior.coords for h in own_holes]))
        polygons.append((tuple(polygon.exterior.coords),
                         tuple(tuple(ring.coords) for ring in polygon.interiors)))
    return tuple(polygons)


def _element(element, index: int) -> tuple[str, int, dict, str]:
    if not isinstance(element, dict):
        raise MalformedAnswer(f"element {index} is {_kind(element)}, not an object")
    kind = element.get("type")
    if not isinstance(kind, str) or not kind:
        raise MalformedAnswer(f"element {index} has no 'type' (node, way or relation)")
    osm_id = element.get("id")
    if isinstance(osm_id, bool) or not isinstance(osm_id, int):
        raise MalformedAnswer(f"element {index} ({kind}) has no integer 'id'")
    where = f"element {index} ({kind} {osm_id})"
    return kind, osm_id, _tags(element, where), where


def parse_elements(payload) -> OsmData:
    """Check an ``out geom`` JSON answer and turn it into the :class:`OsmData` every road source
    returns (method §1). Coordinates become ``(lon, lat)``; ways with under two points are
    skipped. Raises :class:`MalformedAnswer` for JSON of the wrong shape."""
    if not isinstance(payload, dict):
        raise MalformedAnswer(f"the answer is {_kind(payload)}, not a JSON object")
    elements = payload.get("elements")
    if not isinstance(elements, list):
        raise MalformedAnswer(f"'elements' is {_kind(elements)}, not a list")
    data = OsmData()
    skipped = 0
    for index, element in enumerate(elements):
        kind, osm_id, tags, where = _element(element, index)
        if kind == "way":
            coords = tuple(_geometry(element, where))
        elif kind == "node":
            lon = _coordinate(element.get("lon"), "lon", 180.0, where)
            lat = _coordinate(element.get("lat"), "lat", 90.0, where)
        elif kind == "relation":
            members = _members(element, where)
        name = (tags.get("name") or "").strip()
        if not name:
            continue
        if kind == "way" and tags.get("highway"):
            if len(coords) < 2:
                skipped += 1
                continue
            data.ways.append(RoadWay(osm_id, name, tags["highway"], coords))
        elif kind == "node" and tags.get("place") in PLACE_VALUES:
            data.places.append(PlaceNode(osm_id, name, tags["place"], lon, lat))
        elif kind == "relation" and tags.get("boundary") == "administrative":
            try:
                polygons = _assemble_polygons(members)
            except (ShapelyError, ValueError) as exc:
                log.debug("admin relation %s (%s): no polygon (%s)", osm_id, name, exc)
                continue
            if not polygons:
                log.debug("admin relation %s (%s) has no closed ring", osm_id, name)
                continue
            level = tags.get("admin_level") or ""
            data.admin_areas.append(AdminArea(osm_id, name, int(level) if level.isdigit() else None,
                                              polygons))
    if skipped:
        log.info("%d named ways had fewer than two points in the Overpass answer", skipped)
    return data
