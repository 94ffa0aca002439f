"""Write an evaluation's outputs (PROTOCOL §6–§7): per-panel rows as CSV and as a GeoPackage
table joinable to the segments layer by ``segment_id``; a per-segment score layer for one model
and condition; the tables as CSV and Markdown; the failed-image list; the run manifest.
Every file is written atomically."""
from __future__ import annotations

from pathlib import Path

from .. import atomic
from ..gpkg import field_type, field_value
from .. import manifest as manifest_mod
from .tables import to_csv, tables_markdown

PANEL_TABLE = "panel_scores"
SEGMENT_LAYER = "segment_scores"
SEGMENT_FIELDS = ("cos_sim", "top1", "reciprocal_rank", "chance_adjusted_top1", "margin_hard", "margin_mean",
                  "margin_nearest_same_city", "margin_same_city_other_neighbourhood",
                  "margin_same_driving_side_other_city", "margin_random_other_city", "margin_same_neighbourhood",
                  "gallery_size", "mmd2", "dcsf", "gads", "n_generated", "n_reference")


def write_gpkg(path: Path, rows: list[dict], segments: list[dict], model: str | None, condition: str | None,
               stand_in: bool) -> Path:
    """``panel_scores`` (no geometry) and ``segment_scores`` (segment lines or centroids)."""
    import fiona
    from fiona.crs import CRS
    from shapely import wkt
    from shapely.geometry import Point, mapping

    with atomic.atomic_path(path, suffix=".gpkg") as tmp:
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
    return path


def write_outputs(out_dir: str | Path, result, segments: list[dict], manifest: dict,
                  model: str | None = None, condition: str | None = None,
                  stand_in_note: str | None = None) -> dict[str, Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = [dict(r, stand_in=bool(stand_in_note)) for r in result.rows]
    paths = {"per_panel_csv": out / "per_panel_scores.csv", "gpkg": out / "evaluation.gpkg",
             "tables_md": out / "tables.md", "manifest": out / "evaluation.manifest.json",
             "failed_images": out / "failed_images.csv"}
    atomic.write_text(paths["per_panel_csv"], to_csv(rows))
    write_gpkg(paths["gpkg"], rows, segments, model, condition, bool(stand_in_note))
    for name, table in result.tables.items():
        paths[f"table_{name}"] = out / f"table_{name}.csv"
        atomic.write_text(paths[f"table_{name}"], to_csv(table) or "(no rows)\n")
    atomic.write_text(paths["tables_md"], tables_markdown(result.tables, stand_in_note))
    failed = [{"image_path": p, "reason": r} for p, r in sorted(result.failed_images.items())]
    atomic.write_text(paths["failed_images"], to_csv(failed) or "image_path,reason\n")
    manifest = dict(manifest, outputs={**manifest.get("outputs", {}), **{k: str(v) for k, v in paths.items()}},
                    stand_in=stand_in_note)
    manifest_mod.write_manifest(paths["manifest"], manifest)
    return paths
