"""The plain data every road source produces (OSM file, Overpass, a QGIS line layer), so that
segment selection does not care where the roads came from.

Coordinates are WGS84 ``(lon, lat)`` tuples throughout.
"""
from __future__ import annotations

from dataclasses import dataclass, field

LonLat = tuple[float, float]


@dataclass(frozen=True)
class RoadWay:
    """One OSM way with ``highway=*`` and a ``name``."""

    way_id: int
    name: str
    highway: str
    coords: tuple[LonLat, ...]


@dataclass(frozen=True)
class PlaceNode:
    """A ``place=neighbourhood|suburb|quarter`` node (method §1 neighbourhood label)."""

    node_id: int
    name: str
    place: str
    lon: float
    lat: float


@dataclass(frozen=True)
class AdminArea:
    """A named ``boundary=administrative`` polygon; rings are lists of (lon, lat).

    ``polygons`` is a list of polygons, each ``(outer_ring, [inner_rings])``.
    """

    area_id: int
    name: str
    admin_level: int | None
    polygons: tuple


@dataclass
class OsmData:
    """Everything segment selection needs from one source."""

    ways: list[RoadWay] = field(default_factory=list)
    places: list[PlaceNode] = field(default_factory=list)
    admin_areas: list[AdminArea] = field(default_factory=list)
    source: str = ""

    def extend(self, other: "OsmData") -> None:
        seen_ways = {w.way_id for w in self.ways}
        self.ways.extend(w for w in other.ways if w.way_id not in seen_ways)
        seen_places = {p.node_id for p in self.places}
        self.places.extend(p for p in other.places if p.node_id not in seen_places)
        seen_areas = {a.area_id for a in self.admin_areas}
        self.admin_areas.extend(a for a in other.admin_areas if a.area_id not in seen_areas)
