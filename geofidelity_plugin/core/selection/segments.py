"""Select named road segments per city (method §1): candidates within the radius, touching
same-name ways merged, length filter, 2 km clip, class-stratified greedy spacing, neighbourhood,
driving side, stable ids, addressability audit.
"""
from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np
from shapely.geometry import LineString, MultiLineString, Point

from ..errors import InputError
from ..progress import NullProgress, Progress, check_cancel
from .cities import City, slug
from .geodesy import LocalFrame
from .neighbourhood import NeighbourhoodIndex
from .options import DEFAULT_ROAD_CLASSES, OTHER_CLASS, SelectionOptions  # noqa: F401 (public here too)
from .osm_data import OsmData
from .road_graph import MergedLine, Piece, merge_pieces

log = logging.getLogger("geofidelity")

#: ``highway`` values that are never road lines (features, platforms, unbuilt roads).
EXCLUDED_HIGHWAYS = frozenset({"platform", "proposed", "construction", "abandoned", "razed",
                               "disused", "corridor", "elevator", "bus_stop", "rest_area",
                               "services", "raceway"})


@dataclass
class Segment:
    """One benchmark target; field names are the segments layer's fields."""

    segment_id: str
    city: str
    country: str
    country_code: str
    street_name: str
    neighbourhood: str
    neighbourhood_source: str
    road_class: str
    highway: str
    length_m: float
    merged_length_m: float
    centroid_lon: float
    centroid_lat: float
    driving_side: str
    osm_way_ids: str
    distance_to_centre_m: float
    selection_rank: int
    addressable: bool = True
    geometry: LineString | None = None  # lon/lat

    def attributes(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "geometry"}


def _class_of(highway: str, options: "SelectionOptions") -> str | None:
    if highway in EXCLUDED_HIGHWAYS:
        return None
    for name, values in options.road_classes.items():
        if highway in values:
            return name
    return OTHER_CLASS if options.include_other else None


def _candidate_pieces(data: OsmData, frame: LocalFrame, options: SelectionOptions):
    disc = Point(0.0, 0.0).buffer(options.radius_m, 256)
    by_name: dict[str, list[Piece]] = defaultdict(list)
    for way in data.ways:
        if _class_of(way.highway, options) is None:
            continue
        line = frame.line_to_metric(way.coords)
        if line.length == 0 or line.distance(Point(0, 0)) > options.radius_m:
            continue
        inside = line if line.within(disc) else line.intersection(disc)
        parts = inside.geoms if isinstance(inside, MultiLineString) else [inside]
        for part in parts:
            if isinstance(part, LineString) and part.length > 0:
                by_name[way.name.casefold()].append(Piece(way.way_id, way.name, way.highway, part))
    return by_name


def _dominant(highway_lengths: dict[str, float], options) -> tuple[str, str]:
    """The highway value covering most of the clipped line, and its class."""
    highway = max(sorted(highway_lengths), key=lambda h: highway_lengths[h])
    return highway, _class_of(highway, options) or OTHER_CLASS


def greedy_select(candidates: list[tuple[str, MergedLine]], options: SelectionOptions) -> list[int]:
    """Class-stratified greedy spacing: classes take turns (in option order); within a class
    candidates come in a seeded random order; a candidate is taken when its centroid is at
    least ``min_spacing_m`` from every taken one. Returns indices into ``candidates``."""
    rng = np.random.default_rng(options.seed)
    queues: dict[str, list[int]] = {}
    for cls in options.class_order:
        members = [i for i, (c, _) in enumerate(candidates) if c == cls]
        queues[cls] = [members[j] for j in rng.permutation(len(members))]
    chosen: list[int] = []
    centroids: list[tuple[float, float]] = []
    min_sq = options.min_spacing_m ** 2
    while len(chosen) < options.max_per_city and any(queues.values()):
        for cls in options.class_order:
            queue = queues[cls]
            while queue:
                i = queue.pop(0)
                c = candidates[i][1].clipped.centroid
                if all((c.x - x) ** 2 + (c.y - y) ** 2 >= min_sq for x, y in centroids):
                    chosen.append(i)
                    centroids.append((c.x, c.y))
                    break
            if len(chosen) >= options.max_per_city:
                break
    return chosen


def select_city_segments(city: City, data: OsmData, options: SelectionOptions,
                         progress: Progress | None = None) -> list[Segment]:
    progress = progress or NullProgress()
    frame = LocalFrame(city.lon, city.lat)
    by_name = _candidate_pieces(data, frame, options)
    if not by_name:
        raise InputError(
            f"no named roads of classes {', '.join(options.road_classes)} within "
            f"{options.radius_m:.0f} m of {city.name}'s centre (lon {city.lon}, lat {city.lat}) in "
            f"{data.source or 'the road source'} — check the centre (lon/lat order) and that the "
            "source covers the city")
    candidates: list[tuple[str, MergedLine]] = []
    for n, name in enumerate(sorted(by_name)):
        if n % 50 == 0:
            check_cancel(progress, "merging ways")
        for merged in merge_pieces(by_name[name], options.min_length_m, options.clip_length_m):
            _, cls = _dominant(merged.highway_lengths, options)
            candidates.append((cls, merged))
    if not candidates:
        progress.warning(f"{city.name}: named roads exist, but none spans {options.min_length_m:.0f} m "
                         "after merging — no segment selected")
        return []
    hood = NeighbourhoodIndex.build(frame, data.places, data.admin_areas, city.name,
                                    options.neighbourhood_max_distance_m)
    segments = []
    for rank, i in enumerate(greedy_select(candidates, options), start=1):
        cls, merged = candidates[i]
        highway, _ = _dominant(merged.highway_lengths, options)
        c = merged.clipped.centroid
        lon, lat = frame.to_lonlat(c.x, c.y)
        label, source, _ = hood.label(c.x, c.y)
        segments.append(Segment(
            segment_id=f"{city.country_code.lower()}-{slug(city.name)}-w{min(merged.component_way_ids)}",
            city=city.name, country=city.country, country_code=city.country_code,
            street_name=merged.name, neighbourhood=label, neighbourhood_source=source,
            road_class=cls, highway=highway, length_m=round(merged.clipped.length, 2),
            merged_length_m=round(merged.spine.length, 2), centroid_lon=round(lon, 7),
            centroid_lat=round(lat, 7), driving_side=city.driving_side,
            osm_way_ids=",".join(str(w) for w in merged.way_ids),
            distance_to_centre_m=round(float(np.hypot(c.x, c.y)), 2), selection_rank=rank,
            geometry=frame.geometry_to_lonlat(merged.clipped)))
    missing = [s.street_name for s in segments if not s.neighbourhood]
    if missing:
        progress.warning(f"{city.name}: no neighbourhood found for {len(missing)} segment(s) "
                         "(no place node nearby, no admin area containing the centroid)")
    return segments


def audit_addressability(segments: list[Segment]) -> tuple[int, int]:
    """Flag segments whose (city, neighbourhood, street) is not unique in the set (method §1).
    Returns ``(unique, total)``."""
    keys = Counter((s.city, s.neighbourhood, s.street_name) for s in segments)
    for s in segments:
        s.addressable = keys[(s.city, s.neighbourhood, s.street_name)] == 1
    return sum(s.addressable for s in segments), len(segments)
