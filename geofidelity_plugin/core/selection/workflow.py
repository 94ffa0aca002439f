"""Run the whole selection stage: read the road source, select per city, audit, write the
GeoPackage, the manifest and the HTML summary. The single entry point shared by the
Processing algorithm and the CLI."""
from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core import manifest as manifest_mod
from geofidelity_plugin.core.errors import InputError, OutputError
from geofidelity_plugin.core.output_paths import check_output_file
from geofidelity_plugin.core.progress import NullProgress, Progress, SubProgress, check_cancel
from geofidelity_plugin.core.selection.cities import City, check_distinct_cities
from geofidelity_plugin.core.selection.context import ContextLayers, context_area, not_fetched, read_context
from geofidelity_plugin.core.selection.osm_data import OsmData
from geofidelity_plugin.core.selection.segments import (Segment, SelectionOptions, audit_addressability, select_city_segments)
from geofidelity_plugin.core.selection.writers import check_unique_ids, segments_gpkg_bytes, summary_html

log = logging.getLogger("geofidelity")


@dataclass
class SelectionResult:
    segments: list[Segment]
    gpkg_path: Path | None
    manifest_path: Path | None
    summary_path: Path | None
    manifest: dict


def output_paths(output_gpkg: str | Path) -> tuple[Path, Path, Path]:
    """The GeoPackage and the manifest and summary written beside it."""
    gpkg = Path(output_gpkg).expanduser()
    return gpkg, gpkg.with_suffix(".manifest.json"), gpkg.with_suffix(".summary.html")


def check_selection_outputs(output_gpkg: str | Path | None, inputs: dict | None = None) -> tuple[Path, Path, Path]:
    """Refuse, before any work, an output that cannot be written: the GeoPackage, or the manifest
    or summary beside it — including one that is an input of the run (``inputs``: description →
    path, e.g. ``{"the OSM file (--osm)": "h.osm.pbf"}``), which the run would destroy."""
    if output_gpkg is None or not str(output_gpkg).strip():
        raise InputError("no segments GeoPackage was given — give an output path such as segments.gpkg")
    gpkg, manifest, summary = output_paths(output_gpkg)
    check_output_file(gpkg, "segments GeoPackage", inputs=inputs, writes="segments")
    for path, what in ((manifest, "run manifest"), (summary, "HTML summary")):
        if path.is_dir():
            raise OutputError(f"the {what} is written beside the GeoPackage as {path}, but that is a folder "
                              "— move or rename that folder, or choose another output name")
        check_output_file(path, f"{what} (written beside the GeoPackage)", inputs=inputs)
    return gpkg, manifest, summary


def _publish(files: dict[Path, bytes]) -> None:
    """Write every file to a temporary sibling, then rename them all into place, the first one
    last (the manifest): a failure on the way leaves the earlier outputs exactly as they were."""
    with contextlib.ExitStack() as stack:
        for target, data in files.items():
            # written inside its own target's context, so that a failed write names that output
            stack.enter_context(atomic.atomic_path(target)).write_bytes(data)


def load_roads(road_source, cities: list[City], options: SelectionOptions,
               progress: Progress) -> OsmData:
    """``road_source`` is a path to an OSM file, an ``OverpassClient``, or ready ``OsmData``."""
    if isinstance(road_source, OsmData):
        return road_source
    if hasattr(road_source, "fetch_osm"):
        data = OsmData(source=f"Overpass {getattr(road_source, 'endpoint_label', '')}")  # no credentials
        for i, city in enumerate(cities):
            check_cancel(progress, "querying Overpass")
            progress.info(f"Overpass: roads around {city.name}")
            data.extend(road_source.fetch_osm(city.lon, city.lat, options.radius_m, progress=progress))
            progress.set_progress(100.0 * (i + 1) / len(cities))
        return data
    if isinstance(road_source, (str, Path)):
        from geofidelity_plugin.core.selection.osm_file import read_osm_file
        return read_osm_file(road_source, progress=progress)
    raise InputError(f"unsupported road source {road_source!r}: give an OSM file path, an "
                     "Overpass endpoint or a line layer with name and highway fields")


def load_context(road_source, segments: list[Segment], progress: Progress,
                 write_context: bool = True) -> ContextLayers:
    """The map context (other roads, water, green, buildings) around ``segments`` from the same
    source: an OSM file, or one more Overpass request per city; a QGIS layer gives roads only,
    which the manifest says."""
    if not write_context:
        skipped = not_fetched("not asked for (--no-context, or \"Write map context layers\" unticked)")
        skipped.status = "skipped"
        return skipped
    if isinstance(road_source, (str, Path)):
        progress.info("reading the map context (other roads, water, green, buildings)")
        return read_context(road_source, context_area(segments), progress=progress)
    if hasattr(road_source, "run_query"):
        from geofidelity_plugin.core.selection.overpass_context import fetch_context

        return fetch_context(road_source, segments, progress)
    return not_fetched("the road source is a line layer, so no context layers were written — "
                       "give an OSM file (.osm.pbf) or an Overpass endpoint as the road source to get them")


def select_segments(cities: list[City], road_source, options: SelectionOptions | None = None,
                    output_gpkg: str | Path | None = None, progress: Progress | None = None,
                    source_description: str | None = None, inputs: dict | None = None,
                    recorded_options: dict | None = None) -> SelectionResult:
    """Select the segments of ``cities`` from ``road_source`` and, with ``output_gpkg``, write
    them; ``inputs`` (description → path, e.g. the city table) are files the outputs must not
    replace — an OSM file given as ``road_source`` is always one. ``recorded_options``: the
    command's options as its specification records them, added to the manifest's options (those
    of ``options`` keep their keys)."""
    options = options or SelectionOptions()
    options.validate()
    if output_gpkg is not None:
        inputs = dict(inputs or {})
        if isinstance(road_source, (str, Path)):
            inputs.setdefault("the OSM file", road_source)
        check_selection_outputs(output_gpkg, inputs)
    progress = progress or NullProgress()
    if not cities:
        raise InputError("no cities given — the city table needs at least one row")
    check_distinct_cities(cities, "the city list")
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
    check_unique_ids(segments)
    unique, total = audit_addressability(segments)
    progress.info(f"addressability: {unique} of {total} segments have a unique "
                  "(city, neighbourhood, street)")
    context = load_context(road_source, segments, progress, options.write_context) \
        if output_gpkg is not None and segments \
        else not_fetched("nothing written")
    for name, count in context.counts().items():
        if count:
            progress.info(f"{name}: {count} features")
    if output_gpkg is not None and not context.fetched and context.status != "failed":  # failed: warned
        progress.info(f"map context: {context.note}")
    check_cancel(progress, "writing outputs")
    inputs = {"road_source": source_description or data.source,
              "cities": [asdict(c) for c in cities]}
    if isinstance(road_source, (str, Path)) and Path(road_source).is_file():
        inputs["road_source_sha256"] = manifest_mod.file_sha256(road_source)
    manifest = manifest_mod.build_manifest(
        "select_segments", options, inputs=inputs,
        outputs={"segments": len(segments), "addressable": unique, "context": context.manifest_entry()},
        notes=["Road data © OpenStreetMap contributors (ODbL)."])
    manifest["options"] = {**(recorded_options or {}), **manifest["options"]}
    gpkg = manifest_path = summary = None
    if output_gpkg is not None:
        if not segments:
            raise InputError("no segment met the rules in any city — nothing written; lower the "
                             "minimum length or widen the radius")
        gpkg, manifest_path, summary = output_paths(output_gpkg)
        manifest["outputs"]["gpkg"] = str(gpkg)
        _publish({manifest_path: (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False,
                                             default=str) + "\n").encode("utf-8"),
                  gpkg: segments_gpkg_bytes(segments, context),
                  summary: summary_html(segments, manifest).encode("utf-8")})
    progress.set_progress(100)
    return SelectionResult(segments, gpkg, manifest_path, summary, manifest)
