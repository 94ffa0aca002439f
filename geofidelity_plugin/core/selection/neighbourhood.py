"""Neighbourhood label of a segment (method §1): the nearest ``place=neighbourhood|suburb|
quarter`` node, else the smallest administrative area containing the centroid."""
from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Point, Polygon

from .geodesy import LocalFrame
from .osm_data import AdminArea, PlaceNode


@dataclass
class NeighbourhoodIndex:
    frame: LocalFrame
    places: list[tuple[str, float, float]]
    areas: list[tuple[str, float, object]]  # (name, area m², polygon in metres), smallest first
    city_name: str
    max_distance_m: float | None

    @classmethod
    def build(cls, frame: LocalFrame, places: list[PlaceNode], admin_areas: list[AdminArea],
              city_name: str, max_distance_m: float | None) -> "NeighbourhoodIndex":
        pts = []
        for p in places:
            x, y = frame.to_metric(p.lon, p.lat)
            pts.append((p.name, x, y))
        polys = []
        for area in admin_areas:
            if area.name.casefold() == city_name.casefold():
                continue  # the city itself is not a neighbourhood
            for outer, inners in area.polygons:
                poly = Polygon([frame.to_metric(*c[:2]) for c in outer],
                               [[frame.to_metric(*c[:2]) for c in ring] for ring in inners])
                if poly.is_valid and poly.area > 0:
                    polys.append((area.name, poly.area, poly))
        polys.sort(key=lambda t: t[1])
        return cls(frame, pts, polys, city_name, max_distance_m)

    def label(self, x: float, y: float) -> tuple[str, str, float | None]:
        """Return ``(name, source, distance_m)`` with source ``place_node``, ``admin_area``
        or ``none``."""
        if self.places:
            name, px, py = min(self.places, key=lambda p: ((p[1] - x) ** 2 + (p[2] - y) ** 2, p[0]))
            dist = ((px - x) ** 2 + (py - y) ** 2) ** 0.5
            if self.max_distance_m is None or dist <= self.max_distance_m:
                return name, "place_node", dist
        point = Point(x, y)
        for name, _, poly in self.areas:
            if poly.contains(point):
                return name, "admin_area", 0.0
        return "", "none", None
