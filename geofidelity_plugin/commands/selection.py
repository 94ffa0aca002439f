"""``python -m geofidelity_plugin`` — 1 · select named OSM road segments (method §1).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations

import argparse

from ..core.option_checks import argparse_number
from .progress import progress_for


def _add_selection_options(p: argparse.ArgumentParser) -> None:
    from ..core.selection.option_checks import argparse_road_classes
    from ..core.selection.segments import SelectionOptions

    d = SelectionOptions()
    positive, non_negative = argparse_number("positive"), argparse_number("non-negative")
    p.add_argument("--radius", type=positive, default=d.radius_m, help="radius around each centre, m (default %(default)s)")
    p.add_argument("--min-length", type=non_negative, default=d.min_length_m, help="minimum merged length, m (default %(default)s)")
    p.add_argument("--clip-length", type=positive, default=d.clip_length_m, help="clip length, m (default %(default)s)")
    p.add_argument("--min-spacing", type=non_negative, default=d.min_spacing_m, help="minimum centroid spacing, m (default %(default)s)")
    p.add_argument("--max-per-city", type=argparse_number("count"), default=d.max_per_city, help="segments per city at most (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=d.seed, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--road-classes", type=argparse_road_classes,
                   help='JSON object class → list of highway values, e.g. \'{"primary": ["trunk", "primary"]}\' '
                        "(default: primary, secondary, residential, pedestrian)")
    p.add_argument("--no-other", action="store_true", help="drop named highways outside the listed classes")


def register(sub) -> None:
    p = sub.add_parser("select-segments", help="1 · choose named OSM road segments per city (method §1)",
                       description="Select named road segments: merged same-name ways ≥ min length, "
                                   "clipped, spaced, stratified by road class.")
    p.add_argument("--cities", required=True, help="CSV with columns name,country,country_code,lon,lat")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--osm", help="local .osm / .osm.bz2 / .osm.pbf file")
    src.add_argument("--overpass", metavar="URL", help="Overpass API endpoint, e.g. https://overpass-api.de/api/interpreter")
    p.add_argument("--out", required=True, help="output GeoPackage (manifest and HTML summary are written beside it)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _add_selection_options(p)
    p.set_defaults(func=cmd_select_segments)


def _selection_options(args):
    from ..core.selection.segments import SelectionOptions

    opts = SelectionOptions(radius_m=args.radius, min_length_m=args.min_length,
                            clip_length_m=args.clip_length, min_spacing_m=args.min_spacing,
                            max_per_city=args.max_per_city, seed=args.seed,
                            include_other=not args.no_other)
    if args.road_classes:
        opts.road_classes = dict(args.road_classes)  # parsed and checked by argparse_road_classes
    return opts


def cmd_select_segments(args) -> int:
    from ..core.selection.cities import read_city_table
    from ..core.selection.pipeline import check_selection_outputs, select_segments

    inputs = {"the city table (--cities)": args.cities, "the OSM file (--osm)": args.osm}
    check_selection_outputs(args.out, inputs)  # before any reading or download
    progress = progress_for("select segments", args.quiet)
    try:
        cities = read_city_table(args.cities, warn=progress.warning)
        if args.overpass:
            from ..core.paths import cache_dir
            from ..core.selection.overpass import OverpassClient

            source = OverpassClient(args.overpass, cache_dir=cache_dir() / "overpass")
        else:
            source = args.osm
        result = select_segments(cities, source, _selection_options(args), output_gpkg=args.out,
                                 progress=progress, inputs=inputs)
    finally:
        progress.close()
    print(f"{len(result.segments)} segments → {result.gpkg_path}")
    print(f"manifest: {result.manifest_path}\nsummary:  {result.summary_path}")
    return 0
