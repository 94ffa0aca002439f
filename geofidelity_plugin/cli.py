"""``python -m geofidelity_plugin`` — the pipeline from a shell, for batch runs and notebooks.

Every sub-command drives the same core functions as the Processing algorithms. Run
``python -m geofidelity_plugin <command> --help`` for the options of one stage.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from .core.errors import Cancelled, GeoFidelityError

log = logging.getLogger("geofidelity")


class TqdmProgress:
    """Core ``Progress`` shown as a tqdm bar on stderr; Ctrl-C cancels cleanly."""

    def __init__(self, description: str, quiet: bool = False):
        from tqdm import tqdm

        self.bar = tqdm(total=100, desc=description, disable=quiet, leave=True,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")
        self.cancel_requested = False

    def set_progress(self, percent: float) -> None:
        self.bar.n = min(100.0, max(0.0, float(percent)))
        self.bar.refresh()

    def info(self, message: str) -> None:
        self.bar.write(message, file=sys.stderr)

    def warning(self, message: str) -> None:
        self.bar.write(f"warning: {message}", file=sys.stderr)

    def is_canceled(self) -> bool:
        return self.cancel_requested

    def close(self) -> None:
        self.bar.close()


def _add_selection_options(p: argparse.ArgumentParser) -> None:
    from .core.selection.segments import SelectionOptions

    d = SelectionOptions()
    p.add_argument("--radius", type=float, default=d.radius_m, help="radius around each centre, m (default %(default)s)")
    p.add_argument("--min-length", type=float, default=d.min_length_m, help="minimum merged length, m (default %(default)s)")
    p.add_argument("--clip-length", type=float, default=d.clip_length_m, help="clip length, m (default %(default)s)")
    p.add_argument("--min-spacing", type=float, default=d.min_spacing_m, help="minimum centroid spacing, m (default %(default)s)")
    p.add_argument("--max-per-city", type=int, default=d.max_per_city, help="segments per city at most (default %(default)s)")
    p.add_argument("--seed", type=int, default=d.seed, help="random seed (default %(default)s)")
    p.add_argument("--road-classes", help="JSON object class → list of highway values (default: primary, secondary, residential, pedestrian)")
    p.add_argument("--no-other", action="store_true", help="drop named highways outside the listed classes")


def _selection_options(args):
    from .core.selection.segments import SelectionOptions

    opts = SelectionOptions(radius_m=args.radius, min_length_m=args.min_length,
                            clip_length_m=args.clip_length, min_spacing_m=args.min_spacing,
                            max_per_city=args.max_per_city, seed=args.seed,
                            include_other=not args.no_other)
    if args.road_classes:
        opts.road_classes = {k: tuple(v) for k, v in json.loads(args.road_classes).items()}
    return opts


def cmd_select_segments(args) -> int:
    from .core.selection.cities import read_city_table
    from .core.selection.pipeline import select_segments

    if args.overpass:
        from .core.paths import cache_dir
        from .core.selection.overpass import OverpassClient

        source = OverpassClient(args.overpass, cache_dir=cache_dir() / "overpass")
    else:
        source = args.osm
    progress = TqdmProgress("select segments", args.quiet)
    try:
        result = select_segments(read_city_table(args.cities), source, _selection_options(args),
                                 output_gpkg=args.out, progress=progress)
    finally:
        progress.close()
    print(f"{len(result.segments)} segments → {result.gpkg_path}")
    print(f"manifest: {result.manifest_path}\nsummary:  {result.summary_path}")
    return 0


def cmd_demo(args) -> int:
    from .demo import run_demo

    paths = run_demo(Path(args.out))
    print("\nGeoFidelity demo finished. Outputs:")
    for label, path in paths.items():
        print(f"  {label:<10} {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m geofidelity_plugin",
        description="GeoFidelity: does a text-to-image model draw the named street it was asked for? "
                    "Each command is one stage of the protocol.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("select-segments", help="1 · choose named OSM road segments per city (PROTOCOL §1)",
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

    p = sub.add_parser("demo", help="run the pipeline on the bundled data (offline) and write a QGIS project")
    p.add_argument("--out", default="demo_output", help="output folder (default %(default)s)")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(message)s")
    try:
        return args.func(args)
    except Cancelled as exc:
        print(f"cancelled: {exc}", file=sys.stderr)
        return 130
    except GeoFidelityError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
