"""Regenerate the coverage audit's ``.qml`` styles in resources/styles with QGIS itself
(method §2, "coverage audit"): gaps graduated by length, image points by curation status, the
segment buffers as a light outline. Legends read as sentences; labels use "DejaVu Sans".

Run: ``make styles`` (needs QGIS; writes files that are committed).
"""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsCategorizedSymbolRenderer, QgsFillSymbol, QgsGraduatedSymbolRenderer,
                       QgsLineSymbol, QgsMarkerSymbol, QgsPalLayerSettings, QgsRendererCategory, QgsRendererRange,
                       QgsSingleSymbolRenderer, QgsTextBufferSettings, QgsTextFormat, QgsVectorLayer,
                       QgsVectorLayerSimpleLabeling)
from qgis.PyQt.QtGui import QColor, QFont

STYLES = Path(__file__).resolve().parent.parent / "resources" / "styles"
FONT = "DejaVu Sans"

#: (low, high, colour, width mm, legend) of the gaps, by gap_length_m
GAP_BANDS = [(0.0, 20.0, "#fdd49e", 1.4, "gap under 20 m with no image"),
             (20.0, 50.0, "#fdbb84", 1.8, "gap of 20–50 m with no image"),
             (50.0, 100.0, "#fc8d59", 2.2, "gap of 50–100 m with no image"),
             (100.0, 200.0, "#e34a33", 2.8, "gap of 100–200 m with no image"),
             (200.0, 1e9, "#b30000", 3.4, "gap over 200 m with no image")]

#: (status, colour, marker, legend) of the image points
STATUS_STYLES = [("kept", "#1a9850", "circle", "image kept in the reference panel"),
                 ("reference", "#4575b4", "circle", "imported reference image"),
                 ("capped", "#fdae61", "circle", "image left out by the cap (passed every filter)"),
                 ("rejected", "#d73027", "cross2", "image rejected by a curation filter"),
                 ("fetched", "#9e9e9e", "circle", "image fetched, not curated yet"),
                 ("download_failed", "#000000", "cross2", "image whose download failed")]


def _text_format(size: float) -> QgsTextFormat:
    fmt = QgsTextFormat()
    fmt.setFont(QFont(FONT))
    fmt.setSize(size)
    buffer = QgsTextBufferSettings()
    buffer.setEnabled(True)
    buffer.setSize(0.8)
    buffer.setColor(QColor("white"))
    fmt.setBuffer(buffer)
    return fmt


def coverage_gaps(layer: QgsVectorLayer) -> None:
    """Gaps graduated by length; the long ones (≥ 50 m) labelled with their metres."""
    ranges = [QgsRendererRange(lo, hi, QgsLineSymbol.createSimple(
        {"color": colour, "width": str(width), "capstyle": "flat"}), label)
        for lo, hi, colour, width, label in GAP_BANDS]
    layer.setRenderer(QgsGraduatedSymbolRenderer("gap_length_m", ranges))
    settings = QgsPalLayerSettings()
    settings.isExpression = True
    settings.fieldName = "CASE WHEN \"gap_length_m\" >= 50 THEN format_number(\"gap_length_m\", 0) || ' m' END"
    settings.placement = QgsPalLayerSettings.Line
    settings.setFormat(_text_format(7))
    layer.setLabeling(QgsVectorLayerSimpleLabeling(settings))
    layer.setLabelsEnabled(True)
    layer.saveNamedStyle(str(STYLES / "coverage_gaps.qml"))


def coverage_images(layer: QgsVectorLayer) -> None:
    """Image points by curation status; rejected ones as red crosses, never mistaken for kept."""
    categories = []
    for value, colour, marker, label in STATUS_STYLES:
        symbol = QgsMarkerSymbol.createSimple({"name": marker, "color": colour, "size": "2.4",
                                               "outline_color": colour if marker == "cross2" else "#222222",
                                               "outline_width": "0.5" if marker == "cross2" else "0.2"})
        categories.append(QgsRendererCategory(value, symbol, label))
    layer.setRenderer(QgsCategorizedSymbolRenderer("status", categories))
    layer.saveNamedStyle(str(STYLES / "coverage_images_status.qml"))


def coverage_buffers(layer: QgsVectorLayer) -> None:
    """The buffer each segment's coverage is read in: a light outline, no fill."""
    symbol = QgsFillSymbol.createSimple({"color": "0,0,0,0", "style": "no", "outline_color": "#8c96a0",
                                         "outline_width": "0.3", "outline_style": "dash"})
    layer.setRenderer(QgsSingleSymbolRenderer(symbol))
    layer.saveNamedStyle(str(STYLES / "coverage_buffers.qml"))


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    STYLES.mkdir(parents=True, exist_ok=True)
    coverage_gaps(QgsVectorLayer("LineString?crs=EPSG:4326&field=gap_length_m:double&field=segment_id:string",
                                 "gaps", "memory"))
    coverage_images(QgsVectorLayer("Point?crs=EPSG:4326&field=status:string", "images", "memory"))
    coverage_buffers(QgsVectorLayer("Polygon?crs=EPSG:4326&field=buffer_m:double", "buffers", "memory"))
    print("coverage styles written to", STYLES)
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
