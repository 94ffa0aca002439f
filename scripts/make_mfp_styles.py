"""Regenerate the MFP styles in resources/styles with QGIS itself (method §10):

- ``mfp_osm_roads.qml``, ``mfp_osm_buildings.qml``, ``mfp_osm_water.qml`` — the default look of
  the QGIS-rendered reference map: OSM Carto's colours, sizes in pixels (like a web map tile), so
  that a road is as many pixels wide at every ground resolution;
- ``mfp_tiles.qml`` — the per-tile grid layer, graduated on ``mfp``, half transparent, each tile
  labelled with its MFP.

Run: ``make styles`` (needs QGIS; writes files that are committed).
"""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsCategorizedSymbolRenderer, QgsFillSymbol, QgsGraduatedSymbolRenderer,
                       QgsLineSymbol, QgsPalLayerSettings, QgsRendererCategory, QgsRendererRange,
                       QgsSimpleLineSymbolLayer, QgsTextBufferSettings, QgsTextFormat, QgsUnitTypes,
                       QgsVectorLayer, QgsVectorLayerSimpleLabeling)
from qgis.PyQt.QtGui import QColor
from style_fonts import set_label_font  # scripts/style_fonts.py: the one label font

STYLES = Path(__file__).resolve().parent.parent / "resources" / "styles"
PIXELS = QgsUnitTypes.RenderPixels
CASING = "#a8a39b"

#: highway values → (fill colour, width in px); "" is every other value
ROADS = [(("motorway", "motorway_link", "trunk", "trunk_link"), "#e892a2", 8.0),
         (("primary", "primary_link"), "#fcd6a4", 7.0),
         (("secondary", "secondary_link"), "#f7fabf", 6.0),
         (("tertiary", "tertiary_link", "unclassified", "residential", "living_street", "pedestrian"), "#ffffff", 5.0),
         (("service", "track"), "#ffffff", 3.0),
         (("footway", "path", "cycleway", "steps", "bridleway", "corridor"), "#fa8072", 1.5),
         (("",), "#ffffff", 2.0)]

#: MFP classes of the tile layer: (low, high, colour, label)
MFP_CLASSES = [(-1e9, 0.0, "#d73027", "< 0 (another look: colours, style)"),
               (0.0, 0.5, "#f46d43", "0 … 0.5"), (0.5, 0.8, "#fdae61", "0.5 … 0.8"),
               (0.8, 0.9, "#fee090", "0.8 … 0.9"), (0.9, 0.95, "#e0f3f8", "0.9 … 0.95"),
               (0.95, 0.99, "#91bfdb", "0.95 … 0.99"), (0.99, 1.0 + 1e-9, "#4575b4", "0.99 … 1 (identical: 1)")]


def road_symbol(fill: str, width: float) -> QgsLineSymbol:
    symbol = QgsLineSymbol()
    symbol.deleteSymbolLayer(0)
    for colour, w in ((CASING, width + 1.5), (fill, width)):
        line = QgsSimpleLineSymbolLayer(QColor(colour), w)
        line.setWidthUnit(PIXELS)
        line.setPenCapStyle(0x20)  # Qt.RoundCap
        line.setPenJoinStyle(0x80)  # Qt.RoundJoin
        symbol.appendSymbolLayer(line)
    return symbol


def roads() -> None:
    layer = QgsVectorLayer("LineString?field=highway:string", "roads", "memory")
    categories = [QgsRendererCategory(list(values) if values != ("",) else "", road_symbol(colour, width),
                                      ", ".join(values) or "other")
                  for values, colour, width in ROADS]
    renderer = QgsCategorizedSymbolRenderer("highway", categories)
    layer.setRenderer(renderer)
    layer.saveNamedStyle(str(STYLES / "mfp_osm_roads.qml"))


def polygons(name: str, fill: str, outline: str | None) -> None:
    layer = QgsVectorLayer("Polygon", name, "memory")
    props = {"color": fill, "outline_style": "no" if outline is None else "solid",
             "outline_color": outline or fill, "outline_width": "1", "outline_width_unit": "Pixel"}
    layer.renderer().setSymbol(QgsFillSymbol.createSimple(props))
    layer.saveNamedStyle(str(STYLES / f"mfp_osm_{name}.qml"))


def tiles() -> None:
    layer = QgsVectorLayer("Polygon?field=mfp:double", "mfp_tiles", "memory")
    ranges = []
    for low, high, colour, label in MFP_CLASSES:
        fill = QColor(colour)
        fill.setAlpha(140)
        symbol = QgsFillSymbol.createSimple({"color": fill.name(QColor.HexArgb), "outline_color": "#333333",
                                             "outline_width": "0.2"})
        symbol.symbolLayer(0).setColor(fill)
        ranges.append(QgsRendererRange(low, high, symbol, label))
    layer.setRenderer(QgsGraduatedSymbolRenderer("mfp", ranges))
    settings = QgsPalLayerSettings()
    settings.isExpression = True
    settings.fieldName = "format_number(\"mfp\", 3)"
    settings.placement = QgsPalLayerSettings.OverPoint
    fmt = QgsTextFormat()
    set_label_font(fmt)
    fmt.setSize(8)
    buffer = QgsTextBufferSettings()
    buffer.setEnabled(True)
    buffer.setSize(0.8)
    buffer.setColor(QColor("white"))
    fmt.setBuffer(buffer)
    settings.setFormat(fmt)
    layer.setLabeling(QgsVectorLayerSimpleLabeling(settings))
    layer.setLabelsEnabled(True)
    layer.saveNamedStyle(str(STYLES / "mfp_tiles.qml"))


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    roads()
    polygons("buildings", "#d9d0c9", "#c4b6ab")
    polygons("water", "#aad3df", None)
    tiles()
    print(f"MFP styles written to {STYLES}")
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
