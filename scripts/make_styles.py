"""Regenerate the ``.qml`` styles in resources/styles with QGIS itself.

Run: ``make styles`` (needs QGIS; writes files that are committed).
"""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsCategorizedSymbolRenderer, QgsLineSymbol,
                       QgsPalLayerSettings, QgsRendererCategory, QgsTextBufferSettings,
                       QgsTextFormat, QgsVectorLayer, QgsVectorLayerSimpleLabeling)
from qgis.PyQt.QtGui import QColor

STYLES = Path(__file__).resolve().parent.parent / "resources" / "styles"

CLASS_COLOURS = [("primary", "#d7301f", 1.6), ("secondary", "#fc8d59", 1.2),
                 ("residential", "#4575b4", 0.9), ("pedestrian", "#1a9850", 0.9),
                 ("other", "#7f7f7f", 0.7)]


def _labels(field: str) -> QgsVectorLayerSimpleLabeling:
    settings = QgsPalLayerSettings()
    settings.fieldName = field
    settings.placement = QgsPalLayerSettings.Curved
    fmt = QgsTextFormat()
    fmt.setSize(8)
    buffer = QgsTextBufferSettings()
    buffer.setEnabled(True)
    buffer.setSize(0.8)
    buffer.setColor(QColor("white"))
    fmt.setBuffer(buffer)
    settings.setFormat(fmt)
    return QgsVectorLayerSimpleLabeling(settings)


def segments_by_class(layer: QgsVectorLayer) -> None:
    categories = []
    for value, colour, width in CLASS_COLOURS:
        symbol = QgsLineSymbol.createSimple({"color": colour, "width": str(width), "capstyle": "round"})
        categories.append(QgsRendererCategory(value, symbol, value))
    layer.setRenderer(QgsCategorizedSymbolRenderer("road_class", categories))
    layer.setLabeling(_labels("street_name"))
    layer.setLabelsEnabled(True)
    layer.saveNamedStyle(str(STYLES / "segments_by_class.qml"))


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    STYLES.mkdir(parents=True, exist_ok=True)
    layer = QgsVectorLayer("LineString?crs=EPSG:4326&field=road_class:string&field=street_name:string",
                           "segments", "memory")
    segments_by_class(layer)
    print("styles written to", STYLES)
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
