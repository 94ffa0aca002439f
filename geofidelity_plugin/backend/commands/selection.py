"""``python -m geofidelity_plugin`` — 1 · select named OSM road segments (method §1).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations

from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import selection as spec
from geofidelity_plugin.spec.options import add_arguments, recorded


def register(sub) -> None:
    from geofidelity_plugin.core.selection.option_checks import argparse_road_classes

    p = sub.add_parser(spec.SELECT_SEGMENTS.command, help=spec.SELECT_SEGMENTS.help,
                       description="Select named road segments: merged same-name ways ≥ min length, "
                                   "clipped, spaced, stratified by road class.")
    p.add_argument("--cities", required=True,
                   help="CSV with columns name,country,country_code,lon,lat — or a point layer file (.gpkg, "
                        ".geojson, .shp; FILE|layername=NAME for one layer) with fields name, country_code "
                        "and optionally country")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--osm", help="local .osm / .osm.bz2 / .osm.pbf file")
    src.add_argument("--overpass", metavar="URL", help="Overpass API endpoint, e.g. https://overpass-api.de/api/interpreter")
    src.add_argument("--roads", metavar="FILE",
                     help="road line layer file (.gpkg, .geojson, .shp) with fields name and highway "
                          "(and osm_id, way_id or id for the OSM way ids)")
    p.add_argument("--places", metavar="FILE",
                   help="neighbourhood points (field name) for a --roads source, which has no OSM place nodes")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_arguments(p, spec.SELECT_SEGMENTS)
    p.add_argument(spec.ROAD_CLASSES.flag, dest=spec.ROAD_CLASSES.dest, type=argparse_road_classes,
                   help=spec.ROAD_CLASSES.help)
    p.set_defaults(func=cmd_select_segments)


def _selection_options(args):
    from geofidelity_plugin.core.selection.options import SelectionOptions

    hood = args.neighbourhood_max_distance
    opts = SelectionOptions(radius_m=args.radius, min_length_m=args.min_length,
                            clip_length_m=args.clip_length, min_spacing_m=args.min_spacing,
                            max_per_city=args.max_per_city, seed=args.seed,
                            include_other=not args.no_other,
                            write_context=not args.no_context,
                            neighbourhood_max_distance_m=hood if hood else None)
    if args.road_classes:
        opts.road_classes = dict(args.road_classes)  # parsed and checked by argparse_road_classes
    return opts


def _read_cities(path: str, progress):
    from geofidelity_plugin.core.selection.cities import read_city_table
    from geofidelity_plugin.core.selection.layer_inputs import is_vector_file, read_city_layer

    if is_vector_file(path):
        return read_city_layer(path)
    return read_city_table(path, warn=progress.warning)


def _road_source(args):
    """What ``select_segments`` reads the roads from: an OSM file, Overpass or a line layer."""
    if args.places and not args.roads:
        from geofidelity_plugin.core.errors import InputError

        raise InputError("--places (neighbourhood points) only applies to a --roads line layer — an OSM file "
                         "and Overpass bring their own place nodes; leave --places out")
    if args.overpass:
        from geofidelity_plugin.core.paths import cache_dir
        from geofidelity_plugin.core.selection.overpass import OverpassClient

        return OverpassClient(args.overpass, cache_dir=cache_dir() / "overpass", max_retries=args.overpass_retries)
    if args.roads:
        from geofidelity_plugin.core.selection.layer_inputs import read_road_layer

        return read_road_layer(args.roads, args.places)
    return args.osm


def cmd_select_segments(args) -> int:
    from geofidelity_plugin.core.selection.workflow import check_selection_outputs, select_segments

    inputs = {"the city table (--cities)": args.cities, "the OSM file (--osm)": args.osm,
              "the road layer (--roads)": args.roads, "the neighbourhood points (--places)": args.places}
    inputs = {what: str(path).split("|", 1)[0] for what, path in inputs.items() if path}
    check_selection_outputs(args.out, inputs)  # before any reading or download
    options = _selection_options(args)
    options.validate()
    progress = progress_for("select segments", args.quiet)
    try:
        cities = _read_cities(args.cities, progress)
        result = select_segments(cities, _road_source(args), options, output_gpkg=args.out, progress=progress,
                                 inputs=inputs, recorded_options=recorded(args, spec.SELECT_SEGMENTS))
    finally:
        progress.close()
    print(f"{len(result.segments)} segments → {result.gpkg_path}")
    print(f"manifest: {result.manifest_path}\nsummary:  {result.summary_path}")
    _selection_events(result)
    return 0


def _selection_events(result) -> None:
    """What a driver loads after ``select-segments``: the segments layer, styled by road class."""
    from geofidelity_plugin.core import events

    gpkg = str(result.gpkg_path)
    events.output(spec.OUTPUT.key, gpkg, layer=f"{gpkg}|layername=segments", name="GeoFidelity segments",
                  style="segments_by_class.qml")
    events.output(spec.MANIFEST.key, result.manifest_path)
    events.output(spec.SUMMARY.key, result.summary_path)
    events.value(spec.SEGMENT_COUNT.key, len(result.segments))
    events.value(spec.ADDRESSABLE.key, result.manifest["outputs"].get("addressable"))
