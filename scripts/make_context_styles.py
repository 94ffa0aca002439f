"""Regenerate the map-context styles in resources/styles with QGIS itself (docs/method.md, §1
context layers): quiet colours that sit under the scores, after the usual OSM map look.

- ``context_roads.qml`` — every other highway, thin grey, wider for the main roads;
- ``context_water.qml`` — water areas, light blue;
- ``context_green.qml`` — parks and green landuse, light green;
- ``context_buildings.qml`` — buildings, light grey.

No labels: the street names are the segments' labels. Run: ``make styles`` (writes committed files).
"""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsFillSymbol, QgsLineSymbol, QgsRuleBasedRenderer,
                       QgsSingleSymbolRenderer, QgsVectorLayer)

STYLES = Path(__file__).resolve().parent.parent / "resources" / "styles"
MAIN_ROADS = ("motorway", "trunk", "primary", "secondary", "tertiary",
              "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link")
PATHS = ("footway", "path", "cycleway", "steps", "bridleway", "corridor", "track")


def _line(colour: str, width: float, style: str = "solid"):
    return QgsLineSymbol.createSimple({"color": colour, "width": str(width), "capstyle": "round",
                                       "joinstyle": "round", "line_style": style})


def _fill(colour: str, outline: str, width: float = 0.1):
    return QgsFillSymbol.createSimple({"color": colour, "outline_color": outline,
                                       "outline_width": str(width), "outline_style": "solid"})


def roads(layer: QgsVectorLayer) -> None:
    root = QgsRuleBasedRenderer.Rule(None)
    values = ", ".join(f"'{v}'" for v in MAIN_ROADS)
    paths = ", ".join(f"'{v}'" for v in PATHS)
    for label, expression, symbol in [
            ("footways and paths", f'"highway" IN ({paths})', _line("#c8c8c8", 0.2, "dash")),
            ("other streets", f'"highway" NOT IN ({values}) AND "highway" NOT IN ({paths})', _line("#b4b4b4", 0.35)),
            ("main roads", f'"highway" IN ({values})', _line("#9a9a9a", 0.6))]:
        root.appendChild(QgsRuleBasedRenderer.Rule(symbol, 0, 0, expression, label))
    layer.setRenderer(QgsRuleBasedRenderer(root))
    layer.saveNamedStyle(str(STYLES / "context_roads.qml"))


def water(layer: QgsVectorLayer) -> None:
    layer.setRenderer(QgsSingleSymbolRenderer(_fill("#aad3df", "#8cb8c8")))
    layer.saveNamedStyle(str(STYLES / "context_water.qml"))


def green(layer: QgsVectorLayer) -> None:
    layer.setRenderer(QgsSingleSymbolRenderer(_fill("#cde6c0", "#b5d6a5")))
    layer.saveNamedStyle(str(STYLES / "context_green.qml"))


def buildings(layer: QgsVectorLayer) -> None:
    layer.setRenderer(QgsSingleSymbolRenderer(_fill("#e0dcd8", "#c4bdb6")))
    layer.saveNamedStyle(str(STYLES / "context_buildings.qml"))


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    roads(QgsVectorLayer("MultiLineString?crs=EPSG:4326&field=highway:string", "roads", "memory"))
    polygons = "MultiPolygon?crs=EPSG:4326&field=kind:string"
    water(QgsVectorLayer(polygons, "water", "memory"))
    green(QgsVectorLayer(polygons, "green", "memory"))
    buildings(QgsVectorLayer("MultiPolygon?crs=EPSG:4326&field=building:string", "buildings", "memory"))
    print("context styles written to", STYLES)
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
