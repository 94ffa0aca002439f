"""``python -m geofidelity_plugin geodiv`` — GeoDiv (docs/method.md, GeoDiv): how diverse the
panels are per model / condition / city, beside the real reference panels: VDI and SEVI from a
VQA model's (or an answers CSV's) multiple-choice answers, and the Vendi score of the panels'
embeddings, which needs no VQA model. The run itself — its checks and its manifest — is
:func:`geofidelity_plugin.core.geodiv.workflow.run_geodiv`; the options are ``spec/geodiv.py``."""
from __future__ import annotations

from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import geodiv as spec
from geofidelity_plugin.spec.options import add_arguments, add_options


def register(sub) -> None:
    p = sub.add_parser(spec.GEODIV.command, help=spec.GEODIV.help)
    add_arguments(p, spec.GEODIV)
    add_options(p, spec.CLI_ONLY)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_geodiv)


def cmd_geodiv(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.geodiv.workflow import GeoDivRequest, run_geodiv

    request = GeoDivRequest.of(args).check()  # before the progress starts
    progress = progress_for("geodiv", quiet=args.quiet)
    try:
        run = run_geodiv(request, progress)
    finally:
        progress.close()
    for key, path in run.paths.items():
        result = spec.TABLES.get(key)
        events.output(result.key if result else key.upper(), path)
        print(f"{key}: {path}")
    if run.city_layer is not None:
        from geofidelity_plugin.core.geodiv.city_layer import LAYER, STYLE

        layer = run.city_layer
        events.output(spec.CITY_LAYER.key, layer, layer=f"{layer}|layername={LAYER}",
                      name="GeoDiv: model − real VDI per city", style=STYLE)
        print(f"city layer: {layer}")
    events.value(spec.GROUP_COUNT.key, len(run.groups))
    return 0
