"""Write an evaluation's outputs (method §6–§7): per-panel rows as CSV and as a GeoPackage
table joinable to the segments layer by ``segment_id``; a per-segment score layer for one model
and condition; the tables as CSV and Markdown; the failed-image list; the run manifest.

All of a run's files are written into a staging folder and published together, the manifest
last (:func:`~geofidelity_plugin.core.atomic.staged_folder`): a run that fails while writing
(a full disk) leaves the folder — and an earlier evaluation in it — exactly as it was."""
from __future__ import annotations

import contextlib
import json
import logging
import sys
from pathlib import Path

from .. import atomic
from ..errors import OutputError, describe_os_error
from ..gpkg import field_type, field_value
from ..output_paths import check_output_folder
from geofidelity_plugin.core.evaluation.statistics.tables import TABLE_NAMES, to_csv, tables_markdown
from geofidelity_plugin.core.evaluation.paper_markdown import PAPER_TABLE_NAMES, paper_tables_markdown

log = logging.getLogger("geofidelity")

PANEL_TABLE = "panel_scores"
SEGMENT_LAYER = "segment_scores"
SEGMENT_FIELDS = ("cos_sim", "top1", "reciprocal_rank", "chance_adjusted_top1", "margin_hard", "margin_mean",
                  "margin_nearest_same_city", "margin_same_city_other_neighbourhood",
                  "margin_same_driving_side_other_city", "margin_random_other_city", "margin_same_neighbourhood",
                  "gallery_size", "mmd2", "dcsf", "gads", "n_generated", "n_reference")


MANIFEST_NAME = "evaluation.manifest.json"
#: output key → file name in the evaluation folder (``report`` reads them by these names)
OUTPUT_FILES = {"per_panel_csv": "per_panel_scores.csv", "gpkg": "evaluation.gpkg", "tables_md": "tables.md",
                "manifest": MANIFEST_NAME, "failed_images": "failed_images.csv",
                **{f"table_{name}": f"table_{name}.csv" for name in TABLE_NAMES + PAPER_TABLE_NAMES}}


def check_evaluation_folder(out_dir) -> Path:
    """Before the work: the folder can be written and no output file name is taken by a folder."""
    out = check_output_folder(out_dir, "evaluation output folder")
    for name in OUTPUT_FILES.values():
        if (out / name).is_dir():
            raise OutputError(f"cannot write the evaluation output {out / name}: {out / name} is a folder — move "
                              "it away or choose another output folder")
    return out


def write_gpkg(path: Path, rows: list[dict], segments: list[dict], model: str | None, condition: str | None,
               stand_in: bool) -> Path:
    """``panel_scores`` (no geometry) and ``segment_scores`` (segment lines or centroids), written
    atomically to ``path``."""
    with atomic.atomic_path(path, suffix=".gpkg") as tmp:
        _write_gpkg_file(tmp, rows, segments, model, condition, stand_in)
    return path


def _write_gpkg_file(tmp: Path | str, rows: list[dict], segments: list[dict], model: str | None,
                     condition: str | None, stand_in: bool) -> None:
    import fiona
    from fiona.crs import CRS
    from shapely import wkt
    from shapely.geometry import Point, mapping

    keys = list(dict.fromkeys(k for r in rows for k in r))
    schema = {"geometry": "None", "properties": {k: field_type([r.get(k) for r in rows]) for k in keys}}
    with fiona.open(tmp, "w", driver="GPKG", layer=PANEL_TABLE, schema=schema) as dst:
        for r in rows:
            dst.write({"geometry": None, "properties": {k: field_value(r.get(k)) for k in keys}})
    if model and condition:
        chosen = {r["segment_id"]: r for r in rows if r["model"] == model and r["condition"] == condition}
        geoms = {s["segment_id"]: (wkt.loads(s["geometry_wkt"]) if s.get("geometry_wkt")
                                   else Point(s["centroid_lon"], s["centroid_lat"])) for s in segments}
        lines = all(g.geom_type == "LineString" for g in geoms.values())
        if not lines:  # e.g. an imported release: its blocks have centroids only
            geoms = {sid: (g if g.geom_type == "Point" else g.centroid) for sid, g in geoms.items()}
        gtype = "LineString" if lines else "Point"
        props = {"segment_id": "str", "city": "str", "street_name": "str", "neighbourhood": "str",
                 "model": "str", "condition": "str", "stand_in": "int",
                 **{f: "float" for f in SEGMENT_FIELDS}}
        with fiona.open(tmp, "w", driver="GPKG", layer=SEGMENT_LAYER, crs=CRS.from_epsg(4326),
                        schema={"geometry": gtype, "properties": props}) as dst:
            for s in segments:
                r = chosen.get(s["segment_id"], {})
                dst.write({"geometry": mapping(geoms[s["segment_id"]]), "properties": {
                    "segment_id": s["segment_id"], "city": s["city"], "street_name": s.get("street_name"),
                    "neighbourhood": s.get("neighbourhood"), "model": model, "condition": condition,
                    "stand_in": int(stand_in), **{f: r.get(f) for f in SEGMENT_FIELDS}}})


def write_outputs(out_dir: str | Path, result, segments: list[dict], manifest: dict,
                  model: str | None = None, condition: str | None = None,
                  stand_in_note: str | None = None) -> dict[str, Path]:
    """Write every output of an evaluation into ``out_dir``; returns key → published path."""
    out = Path(out_dir)
    rows = [dict(r, stand_in=bool(stand_in_note)) for r in result.rows]
    names = {k: v for k, v in OUTPUT_FILES.items()
             if not k.startswith("table_") or k[len("table_"):] in result.tables}
    names.update({f"table_{name}": f"table_{name}.csv" for name in result.tables})
    paths = {key: out / name for key, name in names.items()}
    notes = list(getattr(result, "notes", None) or [])
    manifest = dict(manifest, outputs={**manifest.get("outputs", {}), **{k: str(v) for k, v in paths.items()}},
                    stand_in=stand_in_note)
    staged = False
    try:
        with atomic.staged_folder(out, MANIFEST_NAME) as stage:
            def text(key: str, content: str) -> None:
                stage.path(names[key]).write_text(content, encoding="utf-8")

            text("per_panel_csv", to_csv(rows))
            gpkg = _gpkg_bytes(rows, segments, model, condition, bool(stand_in_note))
            stage.path(names["gpkg"]).write_bytes(gpkg)  # a full disk fails here, with its errno
            for name, table in result.tables.items():
                text(f"table_{name}", to_csv(table) or "(no rows)\n")
            text("tables_md", tables_markdown(result.tables, stand_in_note, notes)
                 + paper_tables_markdown(result.tables))
            from geofidelity_plugin.core.vision.unusable_images import failed_rows  # with each one's kind

            text("failed_images", to_csv(failed_rows(result.failed_images)) or "image_path,reason,kind\n")
            text("manifest", json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n")
            staged = True
    except OutputError:
        raise
    except (OSError, *_gdal_write_errors()) as exc:  # a full disk reaches GDAL's writer too
        raise _write_failure(exc, out, staged) from None
    return paths


def _gpkg_bytes(rows: list[dict], segments: list[dict], model: str | None, condition: str | None,
                stand_in: bool) -> bytes:
    """The GeoPackage built in GDAL's memory file system, so that writing it to disk is one
    plain file write whose failure says why (a full disk)."""
    from fiona.io import MemoryFile

    with _quiet_gdal(), MemoryFile(ext=".gpkg") as mem:
        _write_gpkg_file(mem.name, rows, segments, model, condition, stand_in)
        mem.seek(0)
        return mem.read()


def _gdal_write_errors() -> tuple[type[BaseException], ...]:
    """What fiona raises when GDAL cannot write a GeoPackage (its OSError kinds are OSErrors)."""
    try:
        from fiona._err import CPLE_BaseError
        from fiona.errors import DriverError, TransactionError
    except ImportError:  # pragma: no cover — fiona is a dependency
        return ()
    return (TransactionError, DriverError, CPLE_BaseError)


@contextlib.contextmanager
def _quiet_gdal():
    """While GDAL writes: its follow-up errors after a failed write (which fiona's compiled code
    prints with a traceback, then "Exception ignored in …") and its own error lines go to the
    debug log; the failure itself is raised and becomes one message."""
    def to_debug(unraisable) -> None:
        log.debug("GDAL while writing a GeoPackage: %s", unraisable.exc_value)

    def excepthook_to_debug(kind, value, tb) -> None:
        log.debug("GDAL while writing a GeoPackage: %s: %s", kind.__name__, value)

    loggers = [logging.getLogger(name) for name in ("fiona", "fiona._env", "fiona._err", "fiona.ogrext")]
    levels = [lg.level for lg in loggers]
    previous_hook, previous_excepthook = sys.unraisablehook, sys.excepthook
    sys.unraisablehook, sys.excepthook = to_debug, excepthook_to_debug
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        sys.unraisablehook, sys.excepthook = previous_hook, previous_excepthook
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _write_failure(exc: Exception, out: Path, published: bool) -> Exception:
    if isinstance(exc, OSError) and exc.errno is not None:
        reason = describe_os_error(exc, out).split(": ", 1)[1]
    else:
        reason = (f"the GeoPackage could not be written ({' '.join(str(exc).split())[:200]}) — free some space "
                  "or choose an output folder on another disk")
    if published:
        state = ("its earlier manifest was removed, so the folder is marked incomplete — run evaluate again once "
                 "this is fixed")
    else:
        state = "nothing in it was changed"
    return OutputError(f"cannot write the evaluation outputs in {out}: {reason}; {state}")
