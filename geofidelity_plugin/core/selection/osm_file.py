"""Read roads, place nodes and administrative areas from a local OSM file with pyosmium
(method §1 road source "an OSM file (.osm / .osm.bz2 / .osm.pbf)").
"""
from __future__ import annotations

import logging
from pathlib import Path

from ..errors import InputError
from ..progress import Progress, check_cancel
from .osm_data import AdminArea, OsmData, PlaceNode, RoadWay

log = logging.getLogger("geofidelity")

OSM_SUFFIXES = (".osm", ".osm.bz2", ".osm.gz", ".osm.pbf", ".pbf")
PLACE_VALUES = frozenset({"neighbourhood", "suburb", "quarter"})
_CANCEL_EVERY = 20000


def _check_path(path: Path) -> None:
    if not path.exists():
        raise InputError(f"OSM file not found: {path} — give the path of an existing "
                         ".osm, .osm.bz2 or .osm.pbf file")
    if path.is_dir():
        raise InputError(f"OSM path {path} is a folder — give the path of an .osm, .osm.bz2 or "
                         ".osm.pbf file (e.g. one inside it)")
    if not path.is_file():
        raise InputError(f"OSM path is not a file: {path}")
    if not str(path).lower().endswith(OSM_SUFFIXES):
        raise InputError(f"unsupported OSM file type: {path.name} — expected one of "
                         f"{', '.join(OSM_SUFFIXES)}")
    if path.stat().st_size == 0:
        raise InputError(f"OSM file is empty: {path} — download the extract again")


def _not_osm(path: Path, detail: str) -> InputError:
    return InputError(f"could not read {path.name} as OSM data: it is not a valid or complete OSM file "
                      f"({detail}) — an interrupted download leaves a truncated file, and a renamed file "
                      f"of another kind cannot be read either; download it again ({path})")


def _polygons_from_area(area, wkb_factory):
    from shapely import wkb
    geom = wkb.loads(wkb_factory.create_multipolygon(area), hex=True)
    return tuple((tuple(p.exterior.coords), tuple(tuple(r.coords) for r in p.interiors))
                 for p in geom.geoms)


def read_osm_file(path: str | Path, progress: Progress | None = None,
                  with_admin_areas: bool = True) -> OsmData:
    """Named ``highway=*`` ways, ``place=neighbourhood|suburb|quarter`` nodes and named
    ``boundary=administrative`` areas of one OSM file.

    Ways whose nodes lie outside the extract keep only their known nodes; ways left with fewer
    than two nodes are dropped.
    """
    import osmium

    path = Path(path)
    _check_path(path)
    data = OsmData(source=f"OSM file {path.name}")
    wkb_factory = osmium.geom.WKBFactory()
    processor = osmium.FileProcessor(str(path)).with_locations()
    if with_admin_areas:
        processor = processor.with_areas(osmium.filter.TagFilter(("boundary", "administrative")))
    dropped = objects = 0
    try:
        for count, obj in enumerate(processor):
            objects = count + 1
            if count % _CANCEL_EVERY == 0:
                check_cancel(progress, "reading the OSM file")
            if obj.is_node():
                place = obj.tags.get("place")
                if place in PLACE_VALUES and obj.tags.get("name"):
                    loc = obj.location
                    data.places.append(PlaceNode(obj.id, obj.tags["name"], place, loc.lon, loc.lat))
            elif obj.is_way():
                name, highway = obj.tags.get("name"), obj.tags.get("highway")
                if not (name and highway) or obj.tags.get("area") == "yes":
                    continue  # plazas mapped as closed pedestrian areas are not lines
                coords = tuple((n.lon, n.lat) for n in obj.nodes if n.location.valid())
                if len(coords) < 2:
                    dropped += 1
                    continue
                data.ways.append(RoadWay(obj.id, name.strip(), highway, coords))
            elif obj.is_area():
                tags = obj.tags
                if tags.get("boundary") != "administrative" or not tags.get("name"):
                    continue
                try:
                    polygons = _polygons_from_area(obj, wkb_factory)
                except RuntimeError:
                    continue  # incomplete ring in a clipped extract
                level = tags.get("admin_level")
                data.admin_areas.append(AdminArea(
                    obj.orig_id(), tags["name"], int(level) if level and level.isdigit() else None,
                    polygons))
    except (RuntimeError, ValueError) as exc:  # libosmium's parse and decompression errors
        raise _not_osm(path, str(exc)) from None
    if objects == 0:
        raise _not_osm(path, "it holds no OSM data: no node, way or relation")
    if dropped:
        log.info("%d named ways had fewer than two nodes inside the extract and were dropped", dropped)
    return data
