"""Write the QGIS project of a GeoFidelity run (the demo's, and any project the plugin saves):
the layers in groups a geographer reads top to bottom, styled from resources/styles, with the
canvas extent and CRS stored so that the project opens where the data is, and the attributions
the data's licences ask for (docs/method.md, data sources).

Groups, top to bottom: **Scores** (one per-segment scores layer with the style variants Δhard —
current —, top-1, CosSim and GADS), **Reference images** (image points by curation status, the
search buffer), **Coverage** (per segment, gaps), **Segments** (by class), **Context** (other
roads, buildings, green, water; optionally the online OpenStreetMap tiles, unchecked). A layer a
GeoPackage does not hold is skipped with a note.

QGIS side: imports qgis.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from geofidelity_plugin.core import attribution
from geofidelity_plugin.core.atomic import atomic_path
from geofidelity_plugin.core.errors import OutputError
from geofidelity_plugin.core.evaluation.score_names import SCORE_NAMES
from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.qgis_side.project_links import set_links

SCORE_STYLES = (("Δhard", "segment_margin_hard.qml"), ("top-1", "segment_top1.qml"),
                ("CosSim", "segment_cos_sim.qml"), ("GADS", "segment_gads.qml"))
GROUPS = ("Scores", "Reference images", "Coverage", "Segments", "Context")
#: context layers top to bottom (roads over buildings over green over water)
CONTEXT = (("context_roads", "OSM other roads", "context_roads.qml"),
           ("context_buildings", "OSM buildings", "context_buildings.qml"),
           ("context_green", "OSM parks and green", "context_green.qml"),
           ("context_water", "OSM water", "context_water.qml"))
OSM_TILES_URL = "type=xyz&url=https://tile.openstreetmap.org/{z}/{x}/{y}.png&zmax=19&zmin=0"
EXTENT_MARGIN = 0.08  # of the data's larger side, on every side


@dataclass
class ProjectInputs:
    """What goes into a project: GeoPackages (any may be None) and how the scores are named."""

    title: str = "GeoFidelity"
    segments: Path | None = None
    coverage: Path | None = None
    scores_uri: str | None = None  # "…/evaluation.gpkg|layername=segment_scores"
    scores_name: str = "GeoFidelity scores"
    properties: dict = field(default_factory=dict)  # custom properties of the data layers (the store …)
    stand_in: bool = False  # the images are stand-ins: names and credits say so
    osm_tiles: bool = False  # add the online OpenStreetMap tile layer (unchecked)
    crs: str = "utm"  # the project's CRS: "utm" (the data's UTM zone: true shapes and scale bars) or "layers"


@dataclass
class ProjectResult:
    path: Path
    groups: dict[str, list[str]]
    notes: list[str]


def _image_style() -> Path:
    own = resource("styles", "coverage_images_status.qml")
    return own if own.exists() else resource("styles", "reference_images_status.qml")


def _layer(uri: str, name: str, notes: list[str]):
    """The vector layer at ``uri``, or None (with a note) when its GeoPackage lacks it."""
    from qgis.core import QgsVectorLayer

    source, *rest = uri.split("|", 1)
    uri = "|".join([str(Path(source).expanduser().resolve())] + rest)  # the project stores it relative to itself
    layer = QgsVectorLayer(uri, name, "ogr")
    if not layer.isValid():
        notes.append(f"{name}: not in {uri.split('|')[0]} — skipped")
        return None
    return layer


def _style(layer, qml: str | Path) -> None:
    path = qml if isinstance(qml, Path) else resource("styles", qml)
    message, ok = layer.loadNamedStyle(str(path))
    if not ok:
        raise OutputError(f"the style {path} cannot be loaded ({message}) — reinstall the plugin")


def _credit(layer, lines: list[str]) -> None:
    """The layer's attribution (shown by QGIS Server and the layer properties) and its metadata rights."""
    layer.setAttribution("; ".join(lines))
    metadata = layer.metadata()
    metadata.setRights(list(lines))
    metadata.setLicenses([line for line in lines if "ODbL" in line or "CC BY" in line])
    layer.setMetadata(metadata)


#: the names the score fields go by in the attribute table, forms and map tips (method §6)
SCORE_ALIASES = SCORE_NAMES
#: the map tip of a score layer: the street, then its primary score and what it means
SCORE_MAP_TIP = ('<b>[% "street_name" %]</b> — [% "city" %]<br>'
                 'Δhard <b>[% format_number("margin_hard", 3) %]</b> (above 0: this street beats its closest '
                 'look-alike)<br>top-1 [% format_number("top1", 2) %] · CosSim [% format_number("cos_sim", 3) %]'
                 '<br><i>[% "model" %], [% "condition" %]</i>')


def present_scores(layer, variants: bool = True) -> None:
    """A score layer as the demo project and the Evaluate dialog both show it: the four style
    variants (Δhard current; ``variants=False`` keeps the style it has — a point layer's), readable
    field names and a map tip."""
    if variants:
        add_score_styles(layer)
    for index, field in enumerate(layer.fields()):
        if field.name() in SCORE_ALIASES:
            layer.setFieldAlias(index, SCORE_ALIASES[field.name()])
    layer.setMapTipTemplate(SCORE_MAP_TIP)
    layer.setDisplayExpression('"street_name"')


def add_score_styles(layer) -> None:
    """Δhard, top-1, CosSim and GADS as style variants of one layer; Δhard current (method §6)."""
    manager = layer.styleManager()
    _style(layer, SCORE_STYLES[0][1])
    manager.renameStyle(manager.currentStyle(), SCORE_STYLES[0][0])
    for name, qml in SCORE_STYLES[1:]:
        manager.addStyleFromLayer(name)
        manager.setCurrentStyle(name)
        _style(layer, qml)
    manager.setCurrentStyle(SCORE_STYLES[0][0])


def _gpkg_layers(inputs: ProjectInputs, notes: list[str]) -> dict[str, list]:
    """Layers per group, top to bottom; absent GeoPackages and layers are skipped with a note."""
    osm = [attribution.OSM]
    images = attribution.credit_lines(stand_in=inputs.stand_in)
    stand = " (STAND-IN)" if inputs.stand_in else ""
    groups: dict[str, list] = {name: [] for name in GROUPS}

    def add(group, gpkg, table, name, qml, credits, data=True):
        if gpkg is None:
            return None
        layer = _layer(f"{gpkg}|layername={table}", name, notes)
        if layer is not None:
            _style(layer, qml)
            _credit(layer, credits)
            if data:
                set_links(layer, inputs.properties)
            groups[group].append(layer)
        return layer

    if inputs.scores_uri:
        layer = _layer(inputs.scores_uri, inputs.scores_name, notes)
        if layer is not None:
            present_scores(layer)
            _credit(layer, images)
            set_links(layer, inputs.properties)
            groups["Scores"].append(layer)
    add("Reference images", inputs.coverage, "coverage_images", f"GeoFidelity images by status{stand}",
        _image_style(), images)
    add("Reference images", inputs.coverage, "coverage_buffers", "GeoFidelity search buffer", "coverage_buffers.qml",
        osm)
    add("Coverage", inputs.coverage, "coverage", "GeoFidelity coverage" + (" (STAND-IN positions)" if stand else ""),
        "coverage_by_images.qml", images)
    add("Coverage", inputs.coverage, "coverage_gaps", f"GeoFidelity coverage gaps{stand}", "coverage_gaps.qml", images)
    add("Segments", inputs.segments, "segments", "GeoFidelity segments", "segments_by_class.qml", osm)
    for table, name, qml in CONTEXT:
        add("Context", inputs.segments, table, name, qml, osm, data=False)
    return groups


def data_extent(layers, crs, transform_context):
    """The union of the layers' extents in ``crs`` (an empty rectangle when there is none)."""
    from qgis.core import QgsCoordinateTransform, QgsRectangle

    extent = QgsRectangle()
    extent.setMinimal()
    for layer in layers:
        if layer.featureCount() == 0:
            continue
        rect = QgsCoordinateTransform(layer.crs(), crs, transform_context).transformBoundingBox(layer.extent())
        extent.combineExtentWith(rect)
    return extent


def utm_crs(lon: float, lat: float):
    """The UTM zone of (lon, lat) (WGS84): metric, true shapes, for scale bars and lengths."""
    from qgis.core import QgsCoordinateReferenceSystem

    zone = min(int((lon + 180.0) // 6.0) + 1, 60)
    return QgsCoordinateReferenceSystem(f"EPSG:{(32600 if lat >= 0 else 32700) + zone}")


def _canvas_element(doc, extent, crs) -> None:
    """The ``<mapcanvas name="theMapCanvas">`` QGIS desktop reads on open: extent and CRS."""
    root = doc.documentElement()
    for old in [root.childNodes().at(i) for i in range(root.childNodes().count())]:
        if old.isElement() and old.toElement().tagName() == "mapcanvas":
            root.removeChild(old)
    canvas = doc.createElement("mapcanvas")
    canvas.setAttribute("name", "theMapCanvas")
    canvas.setAttribute("annotationsVisible", "1")
    units = doc.createElement("units")
    units.appendChild(doc.createTextNode("meters" if not crs.isGeographic() else "degrees"))
    canvas.appendChild(units)
    box = doc.createElement("extent")
    for tag, value in (("xmin", extent.xMinimum()), ("ymin", extent.yMinimum()),
                       ("xmax", extent.xMaximum()), ("ymax", extent.yMaximum())):
        element = doc.createElement(tag)
        element.appendChild(doc.createTextNode(repr(float(value))))
        box.appendChild(element)
    canvas.appendChild(box)
    rotation = doc.createElement("rotation")
    rotation.appendChild(doc.createTextNode("0"))
    canvas.appendChild(rotation)
    destination = doc.createElement("destinationsrs")
    crs.writeXml(destination, doc)
    canvas.appendChild(destination)
    tile = doc.createElement("rendermaptile")
    tile.appendChild(doc.createTextNode("0"))
    canvas.appendChild(tile)
    root.appendChild(canvas)


def _copyright_decoration(project, lines: list[str]) -> None:
    """QGIS's copyright label decoration (View ▸ Decorations ▸ Copyright Label), bottom right."""
    from qgis.core import QgsReadWriteContext, QgsTextFormat
    from qgis.PyQt.QtGui import QColor, QFont
    from qgis.PyQt.QtXml import QDomDocument

    text = QgsTextFormat()
    text.setFont(QFont("DejaVu Sans"))
    text.setSize(8)
    text.setColor(QColor("#333333"))
    doc = QDomDocument()
    doc.appendChild(text.writeXml(doc, QgsReadWriteContext()))
    project.writeEntry("CopyrightLabel", "/Enabled", True)
    project.writeEntry("CopyrightLabel", "/Label", "\n".join(lines))
    project.writeEntry("CopyrightLabel", "/Placement", 3)  # bottom right
    project.writeEntry("CopyrightLabel", "/MarginH", 0)
    project.writeEntry("CopyrightLabel", "/MarginV", 0)
    project.writeEntry("CopyrightLabel", "/Font", doc.toString())


def build_project(inputs: ProjectInputs, project=None):
    """A ``QgsProject`` holding the grouped, styled layers; ``(project, groups, notes, extent)``."""
    from qgis.core import QgsProject, QgsRasterLayer, QgsReferencedRectangle

    project = project or QgsProject()
    project.setTitle(inputs.title)
    notes: list[str] = []
    groups = _gpkg_layers(inputs, notes)
    data_layers = groups["Scores"] + groups["Coverage"] + groups["Segments"] + groups["Reference images"]
    if not data_layers and not groups["Context"]:
        raise OutputError(f"no layer could be loaded for the project {inputs.title!r} — run the selection "
                          "step first (it writes the segments GeoPackage)")
    if inputs.osm_tiles:
        tiles = QgsRasterLayer(OSM_TILES_URL, "OpenStreetMap tiles (online)", "wms")
        if tiles.isValid():
            _credit(tiles, [attribution.OSM])
            groups["Context"].append(tiles)
        else:
            notes.append("OpenStreetMap tiles: the XYZ layer could not be created — skipped")
    root = project.layerTreeRoot()
    for name in GROUPS:
        if not groups[name]:
            notes.append(f"group {name}: no layer — left out")
            continue
        group = root.addGroup(name)
        for layer in groups[name]:
            project.addMapLayer(layer, False)
            node = group.addLayer(layer)
            if layer.name().startswith(("GeoFidelity search buffer", "OpenStreetMap tiles")):
                node.setItemVisibilityChecked(False)
        # one view of the segment lines at a time: the scores when there are any
        hidden = (bool(groups["Scores"]) and name in ("Coverage", "Segments")) or \
            (bool(groups["Segments"]) and name == "Coverage")
        group.setItemVisibilityChecked(not hidden)
        group.setExpanded(name in ("Scores", "Reference images"))
    extent_layers = data_layers or groups["Context"]
    wgs84 = data_extent(extent_layers, _wgs84(), project.transformContext())
    if wgs84.xMinimum() > wgs84.xMaximum():  # still "minimal": every layer empty — WGS84, no saved view
        notes.append("every layer is empty: the project opens with QGIS's default view")
        project.setCrs(_wgs84())
        extent = None
    else:
        if inputs.crs not in ("utm", "layers"):
            raise ValueError(f"project CRS must be 'utm' or 'layers', not {inputs.crs!r}")
        crs = utm_crs(wgs84.center().x(), wgs84.center().y()) if inputs.crs == "utm" else extent_layers[0].crs()
        project.setCrs(crs)
        extent = data_extent(extent_layers, crs, project.transformContext())
        extent = extent.buffered(EXTENT_MARGIN * max(extent.width(), extent.height(), 100.0))
        project.viewSettings().setDefaultViewExtent(QgsReferencedRectangle(extent, crs))
    project.setEllipsoid("EPSG:7030")
    _copyright_decoration(project, attribution.credit_lines(stand_in=inputs.stand_in))
    return project, {name: [layer.name() for layer in groups[name]] for name in GROUPS}, notes, extent


def _wgs84():
    from qgis.core import QgsCoordinateReferenceSystem

    return QgsCoordinateReferenceSystem("EPSG:4326")


def write_project(path: str | Path, inputs: ProjectInputs) -> ProjectResult:
    """Build the project and write it atomically to ``path`` (.qgz), canvas extent included."""
    path = Path(path)
    project, groups, notes, extent = build_project(inputs)

    def add_canvas(doc):
        if extent is not None:
            _canvas_element(doc, extent, project.crs())

    project.writeProject.connect(add_canvas)
    try:
        # a temporary name of the product's own in the same folder (same relative paths), published
        # only once complete: never through a link, never over a folder (core/atomic.py)
        with atomic_path(path, suffix=path.suffix or ".qgz") as tmp:
            if not project.write(str(tmp)):
                raise OutputError(f"could not write the QGIS project {path} ({project.error() or 'no reason given'})"
                                  " — check that the folder is writable and the disk is not full")
            if tmp.suffix == ".qgz":
                _rename_members(tmp, tmp.stem, path.stem)
    finally:
        project.writeProject.disconnect(add_canvas)
    return ProjectResult(path, groups, notes)


def _rename_members(archive: Path, old_stem: str, new_stem: str) -> None:
    """QGIS names the .qgs inside a .qgz after the file: give it the final name."""
    import zipfile

    with zipfile.ZipFile(archive) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in members:
            name = info.filename
            if Path(name).stem == old_stem:
                name = new_stem + Path(name).suffix
            target.writestr(name, data)
