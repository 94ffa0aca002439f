"""``python -m geofidelity_plugin`` — 5 · HTML report; the demo.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations

import sys



def register(sub) -> None:
    p = sub.add_parser("report", help="5 · HTML report with figures of an evaluation folder")
    p.add_argument("--evaluation", required=True, help="output folder of `evaluate`")
    p.add_argument("--out", help="report path (default: <evaluation>/report.html)")
    p.add_argument("--title")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("demo", help="run the pipeline on the bundled data (offline) and write a QGIS project")
    p.add_argument("--out", default="demo_output", help="output folder (default %(default)s)")
    p.set_defaults(func=cmd_demo)


def cmd_report(args) -> int:
    from ..core.report.html import write_report

    path = write_report(args.evaluation, args.out, args.title,
                        warn=lambda message: print(f"warning: {message}", file=sys.stderr))
    print(f"report: {path}")
    return 0


def cmd_demo(args) -> int:
    from ..demo import run_demo

    paths = run_demo(args.out)
    print("\nGeoFidelity demo finished. Outputs:")
    for label, path in paths.items():
        print(f"  {label:<10} {path}")
    return 0
