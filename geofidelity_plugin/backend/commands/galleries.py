"""``python -m geofidelity_plugin`` — 3 · hard-negative retrieval galleries (method §3).

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations

from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import galleries as spec
from geofidelity_plugin.spec.options import add_arguments


def register(sub) -> None:
    p = sub.add_parser(spec.BUILD_GALLERIES.command, help=spec.BUILD_GALLERIES.help)
    add_arguments(p, spec.BUILD_GALLERIES)
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
