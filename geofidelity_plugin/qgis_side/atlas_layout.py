"""The atlas per segment as a PDF, drawn by QGIS's print layouts: a cover (the city overview and
the run's manifest summary) and one page per segment, driven by a :class:`QgsLayoutAtlas` over
the segments layer sorted by city then street name. The map of each page is zoomed to its segment,
over the context layers the selection step wrote (roads, water, green, buildings), with the
coverage audit's buffer, image points and gaps; the strips, scores and credits come from the
qgis-free :mod:`.core.atlas`.

The layouts are loaded from ``resources/layouts/*.qpt`` (items found by id), so a user may
restyle them. The pages go into one PDF through a ``QPdfWriter``, text kept as text (it can be
searched and extracted). Needs QGIS, not torch: the algorithm runs it in QGIS on the main thread,
the ``atlas`` command in a headless QGIS.
"""
from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

from geofidelity_plugin.qgis_side.atlas_pictures import (compose_row, segment_dates_chart, segment_strips,
                                                         strips_key)
from geofidelity_plugin.qgis_side.atlas_labels import POINT_LABEL, SEGMENT_LABEL, label as _label
from geofidelity_plugin.qgis_side.atlas_template import COVER_TEMPLATE, PAGE_MM, SEGMENT_TEMPLATE
from geofidelity_plugin.core.atlas.data import AtlasSegment, layer_names, table_rows
from geofidelity_plugin.core.atlas.dates import dates_title
from geofidelity_plugin.core.atlas.text import (city_table_text, coverage_text, facts_text, index_text,
                                                manifest_summary, map_score_label, page_numbers, scores_text)
from geofidelity_plugin.core.errors import InputError, OutputError
from geofidelity_plugin.core.progress import check_cancel
from geofidelity_plugin.core.resources import resource

#: context layers of the segments GeoPackage, bottom first: (fill or line colour, kind)
CONTEXT_STYLE = {"context_green": ("#c7e9b4", "fill"), "context_water": ("#a6cee3", "fill"),
                 "context_buildings": ("#d9d0c9", "fill"), "context_roads": ("#a0a0a0", "line")}
CONTEXT_NAMES = {"context_green": "Parks and green land", "context_water": "Water",
                 "context_buildings": "Buildings", "context_roads": "Other roads"}
STATUS_COLOURS = {"kept": "#1a9641", "reference": "#2c7bb6", "rejected": "#d7191c", "capped": "#969696"}
SEGMENT_COLOUR, OTHER_SEGMENT_COLOUR = "#e6007e", "#fdae61"
#: what the locator map shows: the benchmark's segments over the other roads and water
LOCATOR_LAYERS = ("Benchmark segments", "Other roads", "Water")


def _load(uri: str, name: str):
    from qgis.core import QgsVectorLayer

    layer = QgsVectorLayer(uri, name, "ogr")
    return layer if layer.isValid() else None


def _simple_style(layer, colour: str, kind: str, width: float = 0.3) -> None:
    from qgis.core import QgsFillSymbol, QgsLineSymbol, QgsSingleSymbolRenderer

    if kind == "fill":
        symbol = QgsFillSymbol.createSimple({"color": colour, "outline_style": "no"})
    else:
        symbol = QgsLineSymbol.createSimple({"line_color": colour, "line_width": str(width), "capstyle": "round"})
    layer.setRenderer(QgsSingleSymbolRenderer(symbol))


def context_layers(segments_gpkg: Path, osm_file: str | None, progress=None) -> list:
    """The context under the map, top layer first: the GeoPackage's ``context_*`` layers, else
    the OSM file's roads, buildings and water (MFP's default styles), else none (a warning)."""
    present = layer_names(segments_gpkg)
    layers = []
    for name, (colour, kind) in CONTEXT_STYLE.items():
        layer = _load(f"{segments_gpkg}|layername={name}", CONTEXT_NAMES[name]) if name in present else None
        if layer is not None and layer.featureCount() != 0:
            _simple_style(layer, colour, kind)
            layers.append(layer)
    if layers:
        return layers[::-1]
    if osm_file:
        from geofidelity_plugin.qgis_side.osm_layers import osm_layers

        return osm_layers(osm_file)
    if progress is not None:
        progress.warning(f"{segments_gpkg} has no context layers (context_roads, …) and no OSM file was given: the "
                         "maps show the segments without their surroundings — run Select segments again, or give "
                         "the OSM file")
    return []


def _segments_layer(segments_gpkg: Path):
    from qgis.core import QgsLineSymbol, QgsRuleBasedRenderer

    layer = _load(f"{segments_gpkg}|layername=segments", "Benchmark segments")
    if layer is None or not layer.featureCount():
        raise InputError(f"{segments_gpkg} has no `segments` layer with features — give the GeoPackage that "
                         "Select segments wrote")
    root = QgsRuleBasedRenderer.Rule(None)
    this = QgsLineSymbol.createSimple({"line_color": SEGMENT_COLOUR, "line_width": "1.4", "capstyle": "round"})
    other = QgsLineSymbol.createSimple({"line_color": OTHER_SEGMENT_COLOUR, "line_width": "0.7", "capstyle": "round"})
    root.appendChild(QgsRuleBasedRenderer.Rule(
        this, 0, 0, "\"segment_id\" = attribute(@atlas_feature, 'segment_id')", "This segment"))
    root.appendChild(QgsRuleBasedRenderer.Rule(other, 0, 0, "ELSE", "Other benchmark segments"))
    layer.setRenderer(QgsRuleBasedRenderer(root))
    _label(layer, SEGMENT_LABEL, line=True, size=7)
    return layer


def _points_layer(coverage_gpkg: Path | None, store: Path):
    """Image points by curation status: the audit's ``coverage_images``, else the store's candidates."""
    from qgis.core import (QgsCategorizedSymbolRenderer, QgsFeature, QgsGeometry, QgsMarkerSymbol, QgsPointXY,
                           QgsRendererCategory, QgsVectorLayer)

    layer = None
    if coverage_gpkg and "coverage_images" in layer_names(coverage_gpkg):
        layer = _load(f"{coverage_gpkg}|layername=coverage_images", "Images")
    if layer is None:
        import sqlite3

        layer = QgsVectorLayer("Point?crs=EPSG:4326&field=segment_id:string&field=status:string"
                               "&field=image_id:string", "Images", "memory")
        db = sqlite3.connect(Path(store).resolve().as_uri() + "?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT segment_id, status, lon, lat, image_id FROM candidates "
                              "WHERE lon IS NOT NULL").fetchall()
        finally:
            db.close()
        features = []
        for sid, status, lon, lat, image_id in rows:
            f = QgsFeature(layer.fields())
            f.setAttributes([sid, status, image_id])
            f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
            features.append(f)
        layer.dataProvider().addFeatures(features)
    categories = [QgsRendererCategory(status, QgsMarkerSymbol.createSimple(
        {"color": colour, "size": "1.8", "outline_color": "white", "outline_width": "0.2"}), f"image {status}")
        for status, colour in STATUS_COLOURS.items()]
    layer.setRenderer(QgsCategorizedSymbolRenderer("status", categories))
    if layer.fields().indexOf("image_id") >= 0:
        _label(layer, POINT_LABEL, line=False, size=6)
    return layer


def map_layers(segments_gpkg: Path, coverage_gpkg: Path | None, store: Path, osm_file: str | None,
               progress=None) -> tuple[list, object]:
    """The map's layers, top first, and the segments layer (the atlas' coverage layer)."""
    from qgis.core import QgsFillSymbol, QgsLineSymbol, QgsSingleSymbolRenderer

    segments = _segments_layer(segments_gpkg)
    top = [_points_layer(coverage_gpkg, store)]
    present = layer_names(coverage_gpkg) if coverage_gpkg else set()
    if "coverage_gaps" in present:
        gaps = _load(f"{coverage_gpkg}|layername=coverage_gaps", "Coverage gaps")
        if gaps is not None:
            gaps.setRenderer(QgsSingleSymbolRenderer(QgsLineSymbol.createSimple(
                {"line_color": "#000000", "line_width": "0.6", "line_style": "dash"})))
            top.append(gaps)  # above the segment: a gap is a stretch of it
    top.append(segments)
    if "coverage_buffers" in present:
        buffers = _load(f"{coverage_gpkg}|layername=coverage_buffers", "Image search buffer")
        if buffers is not None:
            buffers.setRenderer(QgsSingleSymbolRenderer(QgsFillSymbol.createSimple(
                {"color": "255,255,0,50", "outline_color": "#b8a800", "outline_width": "0.2"})))
            top.append(buffers)
    return top + context_layers(segments_gpkg, osm_file, progress), segments


def local_crs(layer):
    """The UTM zone of the layer's centre (metres: a true scale bar)."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject

    to_wgs = QgsCoordinateTransform(layer.crs(), QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance())
    centre = to_wgs.transform(layer.extent().center())
    zone = int((centre.x() + 180) // 6) + 1
    return QgsCoordinateReferenceSystem(f"EPSG:{32600 + zone if centre.y() >= 0 else 32700 + zone}")


def load_template(project, name: str):
    from qgis.core import QgsPrintLayout, QgsReadWriteContext
    from qgis.PyQt.QtXml import QDomDocument

    path = resource("layouts", name)
    doc = QDomDocument()
    if not path.is_file() or not doc.setContent(path.read_text(encoding="utf-8")):
        raise InputError(f"the layout template {path} is missing or not a QGIS template — reinstall the plugin")
    layout = QgsPrintLayout(project)
    _items, ok = layout.loadFromTemplate(doc, QgsReadWriteContext())
    if not ok:
        raise InputError(f"the layout template {path} cannot be loaded — reinstall the plugin")
    return layout


def _item(layout, item_id: str):
    item = layout.itemById(item_id)
    if item is None:
        raise InputError(f"the layout template has no item with id {item_id!r} — restore it in the layout "
                         "designer or reinstall the plugin's resources/layouts")
    return item


def _set_text(layout, item_id: str, text: str) -> None:
    item = layout.itemById(item_id)
    if item is not None:  # a user may delete an optional text from the template
        item.setText(text)


def _prepare(layout, layers: list, crs, extent) -> None:
    """Layers, CRS, a first extent (a template's map has none: an atlas would scale nothing), legend, date."""
    from qgis.core import Qgis

    layout.renderContext().setTextRenderFormat(Qgis.TextRenderFormat.AlwaysText)
    layout_map = _item(layout, "map")
    layout_map.setLayers(layers)
    layout_map.setKeepLayerSet(True)
    layout_map.setCrs(crs)
    size = layout_map.sizeWithUnits()
    layout_map.setExtent(extent)  # resizes the item to the extent's shape: the template's size is restored
    layout_map.attemptResize(size)
    layout_map.zoomToExtent(extent)
    locator = layout.itemById("locator")
    if locator is not None:  # the whole benchmark, the page's map framed
        from geofidelity_plugin.qgis_side.atlas_template import link_locator

        locator.setLayers([layer for layer in layers if layer.name() in LOCATOR_LAYERS])
        locator.setKeepLayerSet(True)
        locator.setCrs(crs)
        size = locator.sizeWithUnits()
        locator.setExtent(extent)
        locator.attemptResize(size)
        locator.zoomToExtent(extent)
        link_locator(locator, layout_map)
    legend = layout.itemById("legend")
    if legend is not None:
        legend.setAutoUpdateModel(False)
        root = legend.model().rootGroup()
        root.removeAllChildren()
        for layer in layers:
            root.addLayer(layer)
        legend.setLegendFilterByMapEnabled(True)  # only what the page's map shows
        legend.setColumnCount(2)
        legend.setSplitLayer(True)
        legend.setResizeToContents(False)
    _set_text(layout, "date", f"Printed {_dt.date.today().isoformat()}")


def render_atlas(pages: list[AtlasSegment], segments_gpkg: Path, coverage_gpkg: Path | None, store: Path,
                 evaluation: Path | None, condition: str | None, out_pdf: Path, work_dir: Path,
                 osm_file: str | None = None, progress=None) -> dict:
    """Write the PDF (cover + one page per segment) to ``out_pdf`` (atomically); returns counts."""
    from qgis.core import QgsLayoutExporter, QgsLayoutItemMap, QgsProject
    from qgis.PyQt.QtCore import QMarginsF, QSizeF
    from qgis.PyQt.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from geofidelity_plugin.core.atomic import atomic_path

    by_id = {p.segment_id: p for p in pages}
    project = QgsProject()
    layers, segments = map_layers(Path(segments_gpkg), coverage_gpkg, store, osm_file, progress)
    project.addMapLayers(layers)
    crs = local_crs(segments)
    project.setCrs(crs)
    cover, layout = load_template(project, COVER_TEMPLATE), load_template(project, SEGMENT_TEMPLATE)
    extent = _extent_in(segments, crs)
    extent.scale(1.15)
    for each in (cover, layout):
        _prepare(each, layers, crs, extent)
    from geofidelity_plugin.core.attribution import credit_lines

    stand_in = any(p.stand_in for p in pages)
    credits = credit_lines(stand_in)
    if any(p.creators for p in pages):
        credits[1] += " — the photographers are named on each segment's page"

    cities = sorted({str(p.facts.get("city")) for p in pages})
    _set_text(cover, "title", f"GeoFidelity atlas — {', '.join(cities)}")
    _set_text(cover, "subtitle", f"{len(pages)} road segments, one page each")
    _set_text(cover, "summary", manifest_summary(evaluation, pages, condition))
    cities_rows = list(table_rows(Path(coverage_gpkg), "coverage_cities", key="city").values()) \
        if coverage_gpkg else []
    _set_text(cover, "cities", city_table_text(cities_rows, coverage_given=bool(coverage_gpkg)))
    _set_text(cover, "credits", "\n".join(credits))
    atlas = layout.atlas()
    atlas.setCoverageLayer(segments)
    atlas.setEnabled(True)
    atlas.setSortFeatures(True)
    atlas.setSortAscending(True)
    atlas.setSortExpression("concat(\"city\", ' / ', \"street_name\")")
    atlas_map = _item(layout, "map")
    atlas_map.setAtlasDriven(True)
    atlas_map.setAtlasScalingMode(QgsLayoutItemMap.AtlasScalingMode.Auto)
    atlas_map.setAtlasMargin(0.6)
    out_pdf = Path(out_pdf)
    rendered = []
    with atomic_path(out_pdf, suffix=".pdf") as tmp:
        writer = QPdfWriter(str(tmp))
        writer.setResolution(300)
        writer.setPageLayout(QPageLayout(QPageSize(QSizeF(*PAGE_MM), QPageSize.Unit.Millimeter),
                                         QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
        writer.setTitle("GeoFidelity atlas")
        writer.setCreator("GeoFidelity")
        painter = QPainter(writer)
        try:
            numbers = page_numbers(_page_order(atlas, layout, by_id))
            for each in (cover, layout):  # "street · p. n" on every map
                _set_variable(each, "geofidelity_pages", json.dumps(numbers))
            _set_text(cover, "index", index_text(pages, numbers))
            total = 1 + len(numbers)
            _set_text(cover, "date", f"Page 1 of {total} · Printed {_dt.date.today().isoformat()}")
            QgsLayoutExporter(cover).renderPage(painter, 0)
            if not atlas.beginRender():
                raise OutputError("QGIS could not start the atlas over the segments layer — check that it has "
                                  "features and a segment_id field")
            for index in range(atlas.count()):
                check_cancel(progress, "drawing the atlas pages")
                atlas.seekTo(index)
                sid = str(layout.reportContext().feature()["segment_id"])
                page = by_id.get(sid)
                if page is None:  # a segment of the GeoPackage that the store does not hold
                    continue
                _fill_page(layout, page, Path(work_dir))
                printed = _dt.date.today().isoformat()
                _set_text(layout, "date", f"Page {len(rendered) + 2} of {total} · Printed {printed}")
                writer.newPage()
                QgsLayoutExporter(layout).renderPage(painter, 0)
                rendered.append(sid)
                if progress is not None:
                    progress.set_progress(100.0 * (index + 1) / max(1, atlas.count()))
        finally:
            atlas.endRender()
            finished = painter.end()  # False: Qt could not finish the PDF (a full disk, a folder gone)
        if not finished:
            raise OutputError(f"Qt could not finish writing the atlas PDF {out_pdf} — the disk may be full or the "
                              "folder not writable; an earlier atlas there is kept: free some space, or choose "
                              "another folder, and run again")
        if not rendered:  # inside the atomic write: no PDF of a cover alone
            raise InputError(f"no segment of {segments_gpkg} is in the store — give the segments GeoPackage the "
                             "store was built from")
    missing = sorted(set(by_id) - set(rendered))
    if missing and progress is not None:
        progress.warning(f"{len(missing)} segment(s) of the store have no page: they are not in {segments_gpkg} "
                         f"(e.g. {missing[0]}) — give the segments GeoPackage the store was built from")
    return {"pages": len(rendered) + 1, "segments": rendered}


def _page_order(atlas, layout, by_id: dict) -> list[str]:
    """The segments in the order the atlas prints them (its own sort), those the store holds."""
    if not atlas.beginRender():
        raise OutputError("QGIS could not start the atlas over the segments layer — check that it has "
                          "features and a segment_id field")
    order = []
    try:
        for index in range(atlas.count()):
            atlas.seekTo(index)
            sid = str(layout.reportContext().feature()["segment_id"])
            if sid in by_id:
                order.append(sid)
    finally:
        atlas.endRender()
    return order


def _set_variable(layout, name: str, value: str) -> None:
    from qgis.core import QgsExpressionContextUtils

    QgsExpressionContextUtils.setLayoutVariable(layout, name, value)


def _extent_in(layer, crs):
    from qgis.core import QgsCoordinateTransform, QgsProject

    return QgsCoordinateTransform(layer.crs(), crs, QgsProject.instance()).transformBoundingBox(layer.extent())


def _fill_page(layout, page: AtlasSegment, work_dir: Path) -> None:
    strips = segment_strips(page, work_dir)
    _set_text(layout, "title", page.street_name)
    _set_text(layout, "subtitle", facts_text(page))
    n_rejected = sum(t.rejected for t in page.references)
    _set_text(layout, "references_title", f"Reference panel: {len(page.references)} curated images"
              + (f", {n_rejected} rejected by the audit (red)" if n_rejected else ""))
    models = [m for m in page.generated if strips.get(m)]
    _set_text(layout, "generated_title", "Generated panels: " + (" · ".join(models) if models else "none"))
    row = compose_row([(m, strips[m]) for m in models], work_dir / f"{strips_key(page)}_generated.png")
    _set_text(layout, "dates_title", dates_title(page))
    chart = segment_dates_chart(page, work_dir)
    for item_id, path in (("references", strips.get("references")), ("generated", row), ("dates", chart)):
        item = layout.itemById(item_id)
        if item is not None:
            item.setPicturePath(str(path) if path else "")
    _set_text(layout, "scores", scores_text(page))
    _set_variable(layout, "geofidelity_score", map_score_label(page))
    _set_variable(layout, "geofidelity_numbers", json.dumps({t.image_id: t.label.lstrip("#")
                                                             for t in page.references if t.image_id}))
    _set_text(layout, "coverage", coverage_text(page))
    _set_text(layout, "credits", "\n".join(page.credits()))
