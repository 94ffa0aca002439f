"""``geofidelity:atlas`` / ``atlas``: check the inputs and the output first, gather the pages
(:mod:`.core.atlas`), draw them with QGIS (:mod:`.atlas_layout`) and write the run manifest beside
the PDF. Needs a running QGIS (the algorithm's, or :func:`.qgis_env.start_qgis` for the CLI)."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from geofidelity_plugin.core.atlas.data import check_segments_layer, chosen_condition, gather
from geofidelity_plugin.core.errors import InputError, OutputError
from geofidelity_plugin.core.output_paths import check_output_file
from geofidelity_plugin.core.store.store_check import check_store_file, check_store_path


def check_inputs(store, segments, coverage=None, evaluation=None, out=None) -> dict:
    """Every input and the output, before any work: paths as ``Path`` (``None`` when not given)."""
    from geofidelity_plugin.core.inspect.segment_view import linked_store

    store = linked_store(store, str(evaluation) if evaluation else None)
    if not store:
        raise InputError("no benchmark store was given — give --store (the .sqlite store) or --evaluation (an "
                         "evaluation folder whose manifest names its store)")
    store = check_store_path(store)
    check_store_file(store, create=False)
    if not segments:
        raise InputError("no segments GeoPackage was given — give --segments, the GeoPackage Select segments wrote")
    segments = Path(segments)
    check_segments_layer(segments)
    if coverage and not Path(coverage).is_file():
        raise InputError(f"coverage GeoPackage not found: {coverage} — run the coverage audit, or leave it out")
    if evaluation and not Path(evaluation).is_dir():
        raise InputError(f"evaluation folder not found: {evaluation} — give the folder Evaluate wrote, or leave it out")
    inputs = {"store": store, "segments GeoPackage": segments}
    if coverage:
        inputs["coverage GeoPackage"] = Path(coverage)
    out = check_output_file(out, "atlas PDF", inputs=inputs)
    if out.suffix.lower() != ".pdf":
        raise OutputError(f"the atlas PDF {out} does not end in .pdf — give e.g. {out.with_suffix('.pdf')}")
    return {"store": store, "segments": segments, "coverage": Path(coverage) if coverage else None,
            "evaluation": Path(evaluation) if evaluation else None, "out": out}


def build_atlas(store, segments, out, coverage=None, evaluation=None, models=None, condition=None,
                osm_file=None, progress=None) -> dict:
    """Write the atlas PDF and its manifest; returns ``{"pdf", "manifest", "pages", "seconds"}``."""
    from geofidelity_plugin.qgis_side.atlas_layout import render_atlas
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    started = time.perf_counter()
    paths = check_inputs(store, segments, coverage, evaluation, out)
    if osm_file and not Path(osm_file).is_file():
        raise InputError(f"OSM file not found: {osm_file} — give an .osm/.osm.pbf file, or leave it out")
    if paths["evaluation"] is None and progress is not None:
        progress.warning("no evaluation folder given: the pages show no scores — give --evaluation")
    condition = chosen_condition(paths["store"], condition)
    pages = gather(paths["store"], paths["evaluation"], paths["coverage"], models, condition, progress)
    with tempfile.TemporaryDirectory(prefix="geofidelity-atlas-") as work:
        result = render_atlas(pages, paths["segments"], paths["coverage"], paths["store"], paths["evaluation"],
                              condition, paths["out"], Path(work), osm_file=osm_file, progress=progress)
    seconds = time.perf_counter() - started
    manifest = write_manifest(paths["out"].with_suffix(".manifest.json"), build_manifest(
        "atlas", {"models": models or "all", "condition": condition, "osm_file": osm_file},
        inputs={k: str(v) for k, v in paths.items() if v is not None and k != "out"},
        outputs={"pdf": str(paths["out"]), "pages": result["pages"], "segments": result["segments"],
                 "photographers": {p.segment_id: p.photographers for p in pages if p.photographers}},
        notes=[p.stand_in for p in pages[:1] if p.stand_in]))
    return {"pdf": paths["out"], "manifest": manifest, "pages": result["pages"], "seconds": seconds}
