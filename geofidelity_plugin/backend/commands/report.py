"""``python -m geofidelity_plugin`` — 5 · HTML report; the demo.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.backend.commands.progress import progress_for


def register(sub) -> None:
    p = sub.add_parser("report", help="5 · HTML report with figures of an evaluation folder")
    p.add_argument("--evaluation", required=True, help="output folder of `evaluate`")
    p.add_argument("--out", help="report path (default: <evaluation>/report.html)")
    p.add_argument("--title", help="page title (default: \"GeoFidelity evaluation report\")")
    p.add_argument("--coverage", help="the coverage audit's GeoPackage for the coverage section (default: the newest "
                                      "audit of the evaluation's store, beside the evaluation or the store)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("demo", help="run the pipeline on the bundled data (offline) and write a QGIS project")
    p.add_argument("--out", default="demo_output", help="output folder (default %(default)s)")
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
    events.output("REPORT_HTML", path)
    if (path.parent / FIGURE_DIR).is_dir():
        events.output("FIGURES", path.parent / FIGURE_DIR)
    return 0


def cmd_demo(args) -> int:
    from geofidelity_plugin.backend.demo import run_demo

    paths = run_demo(args.out)
    print("\nGeoFidelity demo finished. Outputs:")
    for label, path in paths.items():
        print(f"  {label:<10} {path}")
    return 0
