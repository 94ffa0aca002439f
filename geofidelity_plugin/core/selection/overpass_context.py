"""The map context (method §1 "context layers") from an Overpass endpoint: one request per city
for the area an OSM file would give (the city's segments' bounding box widened by
``CONTEXT_MARGIN_M``), sorted into the same layers by the same tag rules (``context.py``).

The request goes through the road query's client (:class:`OverpassClient`: retries, backoff,
cache, error messages). Its failure never loses the selection: the segments are written and the
manifest and a warning say the context is missing and how to get it.
"""
from __future__ import annotations

from ..errors import RemoteServiceError
from ..progress import Progress, check_cancel
from .context import (CONTEXT_MARGIN_M, GREEN_TAGS, WATER_TAGS, ContextCollector, ContextLayers, city_boxes,
                      is_context_area, not_fetched)
from .overpass_answer import MalformedAnswer, _assemble_polygons, _element, _geometry, _members

__all__ = ["build_context_query", "fetch_context", "parse_context"]

#: Why the context is missing and what to do, completed with the failure.
RETRY_ADVICE = ("the segments were written without the map context layers — run select-segments again "
                "to fetch it (the road answer is cached, so only the context is asked for), or pass "
                "--no-context (untick \"Write map context layers\" in QGIS) to skip it")


def _values(key: str) -> str:
    values = sorted({v for table in (WATER_TAGS, GREEN_TAGS) for k, vs in table if k == key for v in vs})
    return "|".join(values)


def _area_filters() -> list[str]:
    """Overpass tag filters for every water / green key of ``context.py`` plus ``building``."""
    keys = sorted({k for table in (WATER_TAGS, GREEN_TAGS) for k, _ in table})
    return ['["building"]["building"!="no"]'] + [f'["{key}"~"^({_values(key)})$"]' for key in keys]


def build_context_query(bounds: tuple[float, float, float, float], timeout_s: int) -> str:
    """Overpass QL for the context of one city: every ``highway`` way, and the water, green and
    building ways and multipolygon relations of ``bounds`` = ``(west, south, east, north)``,
    with geometry (``out geom``). The road query (``build_query``) is a separate request."""
    west, south, east, north = bounds
    bbox = f"({south:.7f},{west:.7f},{north:.7f},{east:.7f})"
    lines = [f'  way["highway"]{bbox};']
    for tags in _area_filters():
        lines.append(f"  way{tags}{bbox};")
        lines.append(f'  rel["type"="multipolygon"]{tags}{bbox};')
    return f"[out:json][timeout:{int(timeout_s)}];\n(\n" + "\n".join(lines) + "\n);\nout geom;\n"


def _closed_ring(coords) -> bool:
    return len(coords) >= 4 and coords[0] == coords[-1]


def parse_context(payload, area) -> ContextLayers:
    """The context layers of an ``out geom`` answer (or several answers' ``elements`` joined),
    cut to ``area``. A closed way is an area when its tags say so, as in an OSM file;
    multipolygon relations are assembled from their members' geometry."""
    from shapely.errors import ShapelyError
    from shapely.geometry import MultiPolygon, Polygon

    if not isinstance(payload, dict) or not isinstance(payload.get("elements"), list):
        raise MalformedAnswer("the context answer has no 'elements' list")
    collector = ContextCollector(area)
    for index, element in enumerate(payload["elements"]):
        kind, osm_id, tags, where = _element(element, index)
        if kind == "way":
            coords = _geometry(element, where)
            if tags.get("highway"):
                collector.road(coords, osm_id, tags)
            if _closed_ring(coords) and is_context_area(tags):
                try:
                    polygon = Polygon(coords)
                except (ShapelyError, ValueError):
                    continue
                collector.polygon(polygon if polygon.is_valid else polygon.buffer(0), osm_id, tags)
        elif kind == "relation" and tags.get("type") == "multipolygon" and is_context_area(tags):
            try:
                parts = _assemble_polygons(_members(element, where))
                polygon = MultiPolygon([Polygon(shell, holes) for shell, holes in parts])
            except (ShapelyError, ValueError):
                continue
            if parts:
                collector.polygon(polygon, osm_id, tags)
    return collector.result


def fetch_context(client, segments, progress: Progress | None = None) -> ContextLayers:
    """The context around ``segments``: one request per city through ``client`` (an
    :class:`OverpassClient`), the answers joined (an element two cities share counts once) and
    cut to the united context area. A failed or malformed answer gives an empty, not-fetched
    result whose note says what failed and how to get the context."""
    from shapely.ops import unary_union

    boxes = city_boxes(segments, CONTEXT_MARGIN_M)
    if not boxes:
        return ContextLayers(note="no segment geometry: no context area")
    elements: dict[tuple, dict] = {}
    try:
        for i, bounds in enumerate(boxes):
            check_cancel(progress, "querying Overpass for the map context")
            if progress is not None:
                progress.info(f"Overpass: map context {i + 1} of {len(boxes)} (other roads, water, green, "
                              "buildings)")
            answer = client.run_query(build_context_query(bounds.bounds, client.timeout_s), progress)
            for element in answer.get("elements") or []:
                if isinstance(element, dict):
                    elements.setdefault((element.get("type"), element.get("id")), element)
        context = parse_context({"elements": list(elements.values())}, unary_union(boxes))
    except (RemoteServiceError, MalformedAnswer) as exc:
        message = f"the map context could not be fetched: {exc} — {RETRY_ADVICE}"
        if progress is not None:
            progress.warning(message)
        result = not_fetched(message)
        result.status = "failed"
        return result
    context.note = f"fetched from Overpass {getattr(client, 'endpoint_label', '')}".rstrip()
    return context
