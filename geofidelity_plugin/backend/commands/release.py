"""``python -m geofidelity_plugin`` — Import and export the published GeoFidelity-Bench release layout.

Each module registers its sub-commands (:func:`register`) and holds what they do."""
from __future__ import annotations


from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import release as spec
from geofidelity_plugin.spec.options import add_arguments


def register(sub) -> None:
    p = sub.add_parser(spec.IMPORT_RELEASE.command, help=spec.IMPORT_RELEASE.help)
    add_arguments(p, spec.IMPORT_RELEASE)
    p.set_defaults(func=cmd_import_release)

    p = sub.add_parser("export-release", help="write a store in the published release layout")
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_export_release)


def cmd_import_release(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into

    progress = progress_for("import-release", quiet=True)  # messages only: no percentages to show
    try:
        counts = import_release_into(args.release, args.store, args.seed, progress)
        if counts["missing_files"]:
            progress.warning(f"{counts['missing_files']} image files listed by the release are missing on disk")
    finally:
        progress.close()
    print(", ".join(f"{k}: {v}" for k, v in counts.items()) + f" → {args.store}")
    events.output(spec.STORE.key, args.store)
    for key, count in counts.items():
        events.value(spec.COUNTS[key].key, count)
    return 0


def cmd_export_release(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.evaluation.release.release_export import export_release
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from geofidelity_plugin.core.output_paths import check_output_folder

    check_output_folder(args.out, "release folder")
    with BenchmarkStore(args.store, create=False) as store:
        export_release(store, args.out)
    print(f"release layout written to {args.out}")
    events.output("OUTPUT", args.out)
    return 0
