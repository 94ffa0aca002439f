"""Run the whole selection stage: read the road source, select per city, audit, write the
GeoPackage, the manifest and the HTML summary. The single entry point shared by the
Processing algorithm and the CLI."""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import manifest as manifest_mod
from ..errors import InputError
from ..progress import NullProgress, Progress, SubProgress, check_cancel
from .cities import City
from .osm_data import OsmData
from .segments import Segment, SelectionOptions, audit_addressability, select_city_segments
from .writers import write_segments_gpkg, write_summary_html

log = logging.getLogger("geofidelity")


@dataclass
class SelectionResult:
    segments: list[Segment]
    gpkg_path: Path | None
    manifest_path: Path | None
    summary_path: Path | None
    manifest: dict


def load_roads(road_source, cities: list[City], options: SelectionOptions,
               progress: Progress) -> OsmData:
    """``road_source`` is a path to an OSM file, an ``OverpassClient``, or ready ``OsmData``."""
    if isinstance(road_source, OsmData):
        return road_source
    if hasattr(road_source, "fetch_osm"):
        data = OsmData(source=f"Overpass {getattr(road_source, 'endpoint', '')}")
        for i, city in enumerate(cities):
            check_cancel(progress, "querying Overpass")
            progress.info(f"Overpass: roads around {city.name}")
            data.extend(road_source.fetch_osm(city.lon, city.lat, options.radius_m, progress=progress))
            progress.set_progress(100.0 * (i + 1) / len(cities))
        return data
    if isinstance(road_source, (str, Path)):
        from .osm_file import read_osm_file
        return read_osm_file(road_source, progress=progress)
    raise InputError(f"unsupported road source {road_source!r}: give an OSM file path, an "
                     "Overpass endpoint or a line layer with name and highway fields")


def select_segments(cities: list[City], road_source, options: SelectionOptions | None = None,
                    output_gpkg: str | Path | None = None, progress: Progress | None = None,
                    source_description: str | None = None) -> SelectionResult:
    options = options or SelectionOptions()
    options.validate()
    progress = progress or NullProgress()
    if not cities:
        raise InputError("no cities given — the city table needs at least one row")
    progress.info(f"reading roads for {len(cities)} cit{'y' if len(cities) == 1 else 'ies'}")
    data = load_roads(road_source, cities, options, SubProgress(progress, 0, 40))
    progress.info(f"{len(data.ways)} named highway ways, {len(data.places)} place nodes, "
                  f"{len(data.admin_areas)} admin areas")
    segments: list[Segment] = []
    for i, city in enumerate(cities):
        check_cancel(progress, f"selecting segments in {city.name}")
        found = select_city_segments(city, data, options, SubProgress(progress, 40, 90))
        progress.info(f"{city.name}: {len(found)} segments selected")
        segments.extend(found)
        progress.set_progress(40 + 50.0 * (i + 1) / len(cities))
    unique, total = audit_addressability(segments)
    progress.info(f"addressability: {unique} of {total} segments have a unique "
                  "(city, neighbourhood, street)")
    check_cancel(progress, "writing outputs")
    inputs = {"road_source": source_description or data.source,
              "cities": [asdict(c) for c in cities]}
    if isinstance(road_source, (str, Path)) and Path(road_source).is_file():
        inputs["road_source_sha256"] = manifest_mod.file_sha256(road_source)
    manifest = manifest_mod.build_manifest(
        "select_segments", options, inputs=inputs,
        outputs={"segments": len(segments), "addressable": unique},
        notes=["Road data © OpenStreetMap contributors (ODbL)."])
    gpkg = manifest_path = summary = None
    if output_gpkg is not None:
        if not segments:
            raise InputError("no segment met the rules in any city — nothing written; lower the "
                             "minimum length or widen the radius")
        gpkg = write_segments_gpkg(segments, output_gpkg)
        manifest["outputs"]["gpkg"] = str(gpkg)
        manifest_path = manifest_mod.write_manifest(Path(output_gpkg).with_suffix(".manifest.json"), manifest)
        summary = write_summary_html(segments, Path(output_gpkg).with_suffix(".summary.html"), manifest)
    progress.set_progress(100)
    return SelectionResult(segments, gpkg, manifest_path, summary, manifest)
