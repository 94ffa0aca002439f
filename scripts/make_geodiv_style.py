"""Regenerate resources/styles/geodiv_vdi_difference.qml with QGIS itself (docs/method.md,
GeoDiv): city points coloured by model − real overall VDI, diverging around 0 (red: the model's
streets less varied than the real ones), labelled with the city.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/make_geodiv_style.py`` (writes a file
that is committed)."""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsGraduatedSymbolRenderer, QgsMarkerSymbol, QgsPalLayerSettings,
                       QgsRendererRange, QgsTextBufferSettings, QgsTextFormat, QgsVectorLayer,
                       QgsVectorLayerSimpleLabeling)
from qgis.PyQt.QtGui import QColor
from style_fonts import set_label_font  # scripts/style_fonts.py: the one label font

STYLE = Path(__file__).resolve().parent.parent / "resources" / "styles" / "geodiv_vdi_difference.qml"
CLASSES = [(-1.0, -0.2, "#b2182b", "much less varied than real (< −0.2)"),
           (-0.2, -0.05, "#ef8a62", "less varied (−0.2 to −0.05)"),
           (-0.05, 0.05, "#f7f7f7", "about as varied (±0.05)"),
           (0.05, 0.2, "#67a9cf", "more varied (0.05 to 0.2)"),
           (0.2, 1.0, "#2166ac", "much more varied than real (> 0.2)")]


def main() -> int:
    app = QgsApplication([], False)
    app.initQgis()
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=city:string&field=vdi_overall_minus_real:double",
                           "geodiv", "memory")
    ranges = [QgsRendererRange(lo, hi, QgsMarkerSymbol.createSimple(
        {"color": colour, "size": "4.2", "outline_color": "#333333"}), label) for lo, hi, colour, label in CLASSES]
    layer.setRenderer(QgsGraduatedSymbolRenderer("vdi_overall_minus_real", ranges))
    settings = QgsPalLayerSettings()
    settings.fieldName = "city"
    text = QgsTextFormat()
    set_label_font(text)
    text.setSize(9)
    buffer = QgsTextBufferSettings()
    buffer.setEnabled(True)
    buffer.setColor(QColor("white"))
    text.setBuffer(buffer)
    settings.setFormat(text)
    layer.setLabeling(QgsVectorLayerSimpleLabeling(settings))
    layer.setLabelsEnabled(True)
    message, ok = layer.saveNamedStyle(str(STYLE))
    app.exitQgis()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
