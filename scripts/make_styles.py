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


MARGIN_CLASSES = [(-2.0, -0.10, "#b2182b", "< −0.10 (loses clearly)"),
                  (-0.10, -0.02, "#ef8a62", "−0.10 … −0.02"),
                  (-0.02, 0.0, "#fddbc7", "−0.02 … 0 (just loses)"),
                  (0.0, 0.02, "#d1e5f0", "0 … 0.02 (just wins)"),
                  (0.02, 0.10, "#67a9cf", "0.02 … 0.10"),
                  (0.10, 2.0, "#2166ac", "> 0.10 (beats every negative)")]


def margin_diverging(layer: QgsVectorLayer, points: bool = False) -> None:
    """Δhard = s(target) − max s(negatives): diverging around 0 (PROTOCOL §6 margins)."""
    from qgis.core import QgsGraduatedSymbolRenderer, QgsMarkerSymbol, QgsRendererRange

    ranges = []
    for low, high, colour, label in MARGIN_CLASSES:
        if points:
            symbol = QgsMarkerSymbol.createSimple({"color": colour, "size": "3.2", "outline_color": "#333333"})
        else:
            symbol = QgsLineSymbol.createSimple({"color": colour, "width": "1.6", "capstyle": "round"})
        ranges.append(QgsRendererRange(low, high, symbol, label))
    renderer = QgsGraduatedSymbolRenderer("margin_hard", ranges)
    layer.setRenderer(renderer)
    layer.setLabeling(_labels("street_name"))
    layer.setLabelsEnabled(True)
    name = "segment_margin_hard_points.qml" if points else "segment_margin_hard.qml"
    layer.saveNamedStyle(str(STYLES / name))


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    STYLES.mkdir(parents=True, exist_ok=True)
    layer = QgsVectorLayer("LineString?crs=EPSG:4326&field=road_class:string&field=street_name:string",
                           "segments", "memory")
    segments_by_class(layer)
    scores = QgsVectorLayer("LineString?crs=EPSG:4326&field=margin_hard:double&field=street_name:string",
                            "scores", "memory")
    margin_diverging(scores)
    point_scores = QgsVectorLayer("Point?crs=EPSG:4326&field=margin_hard:double&field=street_name:string",
                                  "scores", "memory")
    margin_diverging(point_scores, points=True)
    print("styles written to", STYLES)
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
