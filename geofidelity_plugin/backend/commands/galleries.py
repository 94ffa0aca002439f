"""``python -m geofidelity_plugin`` — 3 · hard-negative retrieval galleries (method §3).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.core.option_checks import argparse_number
from geofidelity_plugin.backend.commands.progress import progress_for


def register(sub) -> None:
    p = sub.add_parser("build-galleries", help="3 · hard-negative retrieval galleries (method §3)")
    p.add_argument("--store", required=True, help="benchmark store (.sqlite), created if missing")
    p.add_argument("--segments", help="segments GeoPackage to load into the store first")
    p.add_argument("--seed", type=argparse_number("seed"), default=0, help="random seed, ≥ 0 (default %(default)s)")
    p.add_argument("--rebuild", action="store_true",
                   help="ignore negatives already in the store (default: keep them, e.g. a release's neg_* ids)")
    p.set_defaults(func=cmd_build_galleries)


def cmd_build_galleries(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.evaluation.store_steps import build_store_galleries

    progress = progress_for("galleries", quiet=True)  # messages only: the step is quick
    try:
        n = build_store_galleries(args.store, args.segments, args.seed, not args.rebuild, progress=progress)
    finally:
        progress.close()
    print(f"{n} galleries in {args.store}")
    events.output("STORE_OUT", args.store)
    events.value("GALLERIES", n)
    return 0
