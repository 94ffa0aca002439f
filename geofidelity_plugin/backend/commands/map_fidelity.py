"""``python -m geofidelity_plugin mfp`` — MFP: a generated map against its reference, per tile
(method §10); or a folder of generated maps against a folder of references, per pair.

The reference is a raster on the generated map's grid (``--reference``), or QGIS renders it for
that grid from an OSM file (``--osm``, default styles) or vector files (``--layer``, each with the
QGIS style saved beside it). Rendering needs a Python that can import qgis (the backend venv sees
Debian's QGIS); it runs before the ViT is loaded."""
from __future__ import annotations

import argparse
from pathlib import Path

from geofidelity_plugin.backend.commands.progress import progress_for
from geofidelity_plugin.spec import map_fidelity as spec
from geofidelity_plugin.spec.options import add_arguments, add_options


def register(sub) -> None:
    p = sub.add_parser(spec.MFP.command, help=spec.MFP.help,
                       description="G (global, [CLS]), D_S (structure, key self-similarity), MFP, PSNR and SSIM "
                                   "per tile into a grid layer, a summary table and a figure; or per image pair "
                                   "of two folders into one table.")
    add_options(p, spec.CLI_ONLY)
    p.add_argument("--layer", action="append", default=[],
                   help="vector file to render as the reference (repeat; the first is drawn on top; its QGIS "
                        "style is the .qml of the same name beside it)")
    add_arguments(p, spec.MFP)
    p.add_argument(spec.REFERENCE_NOTE.flag, dest=spec.REFERENCE_NOTE.dest, help=argparse.SUPPRESS)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_mfp)


def _mode(args) -> str:
    from geofidelity_plugin.core.errors import InputError

    if args.generated_folder or args.reference_folder:
        if not (args.generated_folder and args.reference_folder):
            raise InputError("folder mode needs two folders — give both --generated-folder and --reference-folder")
        if args.generated or args.reference or args.osm or args.layer:
            raise InputError("both a folder pair and a single map were given — give either the two folders or "
                             "--generated with one reference")
        return "folder"
    if not args.generated:
        raise InputError("no generated map — give --generated RASTER (or --generated-folder with --reference-folder)")
    sources = [bool(args.reference), bool(args.osm), bool(args.layer)]
    if sum(sources) != 1:
        raise InputError("no single reference for the generated map — give exactly one of --reference RASTER, "
                         "--osm FILE or --layer FILE (repeatable)")
    return "raster"


def render(args, out: Path, progress) -> tuple[Path, str]:
    """Render the reference for the generated raster's grid with QGIS; returns its path and a note."""
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster

    from geofidelity_plugin.qgis_side.qgis_env import start_qgis_for

    start_qgis_for("rendering the reference", "use geofidelity:mfp in QGIS, or give --reference RASTER")
    from geofidelity_plugin.qgis_side import map_render
    from qgis.core import QgsVectorLayer
    grid = MapRaster(args.generated).grid
    if args.osm:
        names = [n.strip() for n in args.osm_layers.split(",") if n.strip()]
        layers = map_render.osm_layers(args.osm, names)
        note = f"reference rendered by QGIS from {args.osm} ({', '.join(names)}; default styles)"
    else:
        layers = []
        for path in args.layer:
            layer = QgsVectorLayer(path, Path(path.split("|")[0]).stem, "ogr")
            if not layer.isValid():
                raise InputError(f"{path} cannot be read as a vector layer — give a GeoPackage, shapefile or "
                                 "other OGR file")
            layers.append(layer)
        note = f"reference rendered by QGIS from {', '.join(args.layer)} (their saved styles)"
    events.announce_stage(progress, "rendering the reference map")
    path = map_render.render_reference(layers, grid, out / "reference.tif", background=args.background,
                                       dpi=args.dpi, progress=progress)
    return path, f"{note}; background {args.background}, {args.dpi:g} dpi"


def cmd_mfp(args) -> int:
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
    from geofidelity_plugin.core.map_fidelity.options import MapFidelityOptions
    from geofidelity_plugin.core.map_fidelity.outputs import STYLE, TILE_LAYER
    from geofidelity_plugin.core.map_fidelity.raster_io import check_pair
    from geofidelity_plugin.core.map_fidelity.workflow import score_folders, score_rasters
    from geofidelity_plugin.core.map_fidelity.vit import MapViT, resolve_model
    from geofidelity_plugin.core.output_paths import check_output_folder

    mode = _mode(args)
    options = MapFidelityOptions(tile=args.tile, overlap=args.overlap, batch_size=args.batch_size).check()
    out = check_output_folder(args.out, "MFP output folder")
    progress = progress_for("mfp", args.quiet)
    try:
        reference, note = args.reference, args.reference_note
        if mode == "raster" and not reference:
            reference, note = render(args, out, progress)
            events.output(spec.REFERENCE.key, reference)
        if mode == "raster":
            check_pair(args.generated, reference)
        model = resolve_model(args.model, warn=progress.warning)
        events.announce_stage(progress, "loading the feature model", model)
        scorer = MapFidelityScorer(MapViT(model, device=args.device), batch_size=options.batch_size)
        events.announce_stage(progress, "scoring tiles" if mode == "raster" else "scoring pairs")
        if mode == "raster":
            run = score_rasters(args.generated, reference, out, scorer, options, progress, reference_note=note)
        else:
            run = score_folders(args.generated_folder, args.reference_folder, out, scorer, options, progress)
    finally:
        progress.close()
    label = scorer.vit.label
    print(f"MFP ({label}): {run.count} {'tiles' if mode == 'raster' else 'pairs'}; mean "
          + ", ".join(f"{k} {v:.4f}" for k, v in run.means.items()))
    for key, path in run.paths.items():
        print(f"  {key:<12} {path}")
    if "tiles_gpkg" in run.paths:
        gpkg = run.paths["tiles_gpkg"]
        events.output(spec.TILES.key, gpkg, layer=f"{gpkg}|layername={TILE_LAYER}", name=f"MFP per tile — {label}",
                      style=STYLE)
    for key, result in spec.FILES.items():
        if key in run.paths:
            events.output(result.key, run.paths[key])
    events.value(spec.COUNT.key, run.count)
    events.value(spec.MODEL.key, label)
    for key, value in run.means.items():
        events.value(spec.mean_result(key).key, value)
    return 0
