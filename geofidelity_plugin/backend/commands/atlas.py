"""``python -m geofidelity_plugin atlas`` — 5 · an atlas PDF: a cover and one page per segment
with its map over the context, image strips, scores beside the real anchors, coverage figures and
the attributions (docs/atlas.md). Draws with QGIS (a headless one here), not with torch."""
from __future__ import annotations


from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import atlas as spec
from geofidelity_plugin.spec.options import add_options


def register(sub) -> None:
    p = sub.add_parser(spec.ATLAS.command, help=spec.ATLAS.help,
                       description="Writes a PDF with a cover (city overview, run summary) and one page per "
                                   "segment, drawn by QGIS from the layout template resources/layouts/"
                                   "segment_atlas.qpt.")
    models = spec.MODELS_OPTION
    add_options(p, [o for o in spec.ATLAS.options if o is not models])
    p.add_argument(models.flag, dest=models.dest, action="append", default=[], help=models.help)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_atlas)


def cmd_atlas(args) -> int:
    from geofidelity_plugin.qgis_side.atlas_build import build_atlas, check_inputs
    from geofidelity_plugin.core import events
    from geofidelity_plugin.qgis_side.qgis_env import start_qgis_for

    check_inputs(args.store, args.segments, args.coverage, args.evaluation, args.out)  # before QGIS starts
    start_qgis_for("the atlas", "or use geofidelity:atlas in QGIS")
    progress = progress_for("atlas", args.quiet)
    try:
        events.announce_stage(progress, "drawing the atlas pages")
        result = build_atlas(args.store, args.segments, args.out, args.coverage, args.evaluation,
                             spec.models_of(args.model) or None, args.condition, args.osm, progress)
    finally:
        progress.close()
    print(f"atlas: {result['pdf']} ({result['pages']} pages, {result['seconds']:.1f} s)")
    events.output(spec.ATLAS_PDF.key, result["pdf"])
    events.output(spec.MANIFEST.key, result["manifest"])
    events.value(spec.PAGES.key, result["pages"])
    return 0
