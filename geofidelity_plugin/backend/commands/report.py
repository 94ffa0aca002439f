"""``python -m geofidelity_plugin`` — 5 · HTML report; the demo.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import report as spec
from geofidelity_plugin.spec.options import add_arguments


def register(sub) -> None:
    p = sub.add_parser(spec.REPORT.command, help=spec.REPORT.help)
    add_arguments(p, spec.REPORT)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("demo", help="run the pipeline on the bundled data (offline) and write a QGIS project")
    p.add_argument("--out", default="demo_output", help="output folder (default %(default)s)")
    p.add_argument("--without-qgis", action="store_true",
                   help="run only the steps that need no QGIS (what happens anyway where QGIS is not installed): "
                        "the atlas and the QGIS project are skipped, and said so")
    p.add_argument("--osm", help="OSM extract to run on (default: the bundled Helsinki extract of a clone)")
    p.add_argument("--feature-model", help="DINOv2 folder (default: the demo's converted DINOv2-S/14 of a clone)")
    p.set_defaults(func=cmd_demo)


def cmd_report(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.report.html import FIGURE_DIR, write_report

    progress = progress_for("report", quiet=True)  # warnings only: "warning: …" on stderr, or protocol lines
    try:
        path = write_report(args.evaluation, args.out, args.title, warn=progress.warning, coverage=args.coverage)
    finally:
        progress.close()
    print(f"report: {path}")
    events.output(spec.REPORT_HTML.key, path)
    if (path.parent / FIGURE_DIR).is_dir():
        events.output(spec.FIGURES.key, path.parent / FIGURE_DIR)
    return 0


def cmd_demo(args) -> int:
    from geofidelity_plugin.backend.demo import run_demo

    paths = run_demo(args.out, args.without_qgis, args.osm, args.feature_model)
    print("\nGeoFidelity demo finished. Outputs:")
    for label, path in paths.items():
        print(f"  {label:<10} {path}")
    return 0
