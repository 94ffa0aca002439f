"""Regenerate the ``.qml`` styles in resources/styles with QGIS itself.

Run: ``make styles`` (needs QGIS; writes files that are committed).
"""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsCategorizedSymbolRenderer, QgsLineSymbol,
                       QgsPalLayerSettings, QgsRendererCategory, QgsTextBufferSettings,
                       QgsTextFormat, QgsVectorLayer, QgsVectorLayerSimpleLabeling)
from qgis.PyQt.QtGui import QColor
from style_fonts import set_label_font  # scripts/style_fonts.py: the one label font

STYLES = Path(__file__).resolve().parent.parent / "resources" / "styles"
sys.path.insert(0, str(STYLES.parent.parent))
from geofidelity_plugin.core.evaluation.score_names import SCORE_NAMES  # noqa: E402  (the legend names the score)

#: road classes in purples, greys and a green: no red or blue, which the score layers use for
#: "loses" and "wins"; the width says the rank of the road
CLASS_COLOURS = [("primary", "#4a1486", 1.6), ("secondary", "#8c6bb1", 1.2),
                 ("residential", "#636363", 0.9), ("pedestrian", "#238b45", 0.9),
                 ("other", "#a6a6a6", 0.7)]


def _labels(field: str) -> QgsVectorLayerSimpleLabeling:
    settings = QgsPalLayerSettings()
    settings.fieldName = field
    settings.placement = QgsPalLayerSettings.Curved
    fmt = QgsTextFormat()
    set_label_font(fmt)
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
    """Δhard = s(target) − max s(negatives): diverging around 0 (method §6 margins)."""
    from qgis.core import QgsGraduatedSymbolRenderer, QgsMarkerSymbol, QgsRendererRange

    ranges = []
    for low, high, colour, label in MARGIN_CLASSES:
        if points:
            symbol = QgsMarkerSymbol.createSimple({"color": colour, "size": "3.2", "outline_color": "#333333"})
        else:
            symbol = QgsLineSymbol.createSimple({"color": colour, "width": "1.6", "capstyle": "round"})
        ranges.append(QgsRendererRange(low, high, symbol, f"{SCORE_NAMES['margin_hard']} {label}"))
    renderer = QgsGraduatedSymbolRenderer("margin_hard", ranges)
    _size_by_panel(renderer, points)
    layer.setRenderer(renderer)
    layer.setLabeling(_labels("street_name"))
    layer.setLabelsEnabled(True)
    name = "segment_margin_hard_points.qml" if points else "segment_margin_hard.qml"
    layer.saveNamedStyle(str(STYLES / name))


def _size_by_panel(renderer, points: bool = False) -> None:
    """Line width (or marker size) grows with the reference panel's size: thin = few images."""
    from qgis.core import QgsProperty, QgsSymbolLayer

    expression = 'scale_linear(coalesce("n_reference", 0), 0, 70, 0.6, 2.8)' if not points else \
        'scale_linear(coalesce("n_reference", 0), 0, 70, 2.0, 5.0)'
    key = QgsSymbolLayer.PropertySize if points else QgsSymbolLayer.PropertyStrokeWidth
    ranges = renderer.ranges()  # copies: change each symbol, then give it back to the renderer
    for index, item in enumerate(ranges):
        symbol = item.symbol().clone()
        symbol.symbolLayer(0).setDataDefinedProperty(key, QgsProperty.fromExpression(expression))
        renderer.updateRangeSymbol(index, symbol)


def alternative_scores(layer: QgsVectorLayer) -> None:
    """Alternative looks of the per-segment scores: top-1, CosSim, GADS (method §6)."""
    from qgis.core import QgsGraduatedSymbolRenderer, QgsRendererRange

    specs = {
        "top1": [(-0.01, 0.5, "#d73027", "target not ranked first"), (0.5, 1.01, "#1a9850", "target ranked first")],
        "cos_sim": [(-1.0, 0.4, "#f7fbff", "< 0.40"), (0.4, 0.6, "#c6dbef", "0.40 – 0.60"),
                    (0.6, 0.8, "#6baed6", "0.60 – 0.80"), (0.8, 0.9, "#2171b5", "0.80 – 0.90"),
                    (0.9, 1.01, "#08306b", "≥ 0.90 (held-out real ≈ 0.90)")],
        "gads": [(0.0, 0.1, "#1a9850", "< 0.10 (close layout)"), (0.1, 0.2, "#a6d96a", "0.10 – 0.20"),
                 (0.2, 0.35, "#fdae61", "0.20 – 0.35"), (0.35, 1.01, "#d73027", "≥ 0.35 (different layout)")],
    }
    for field_name, bands in specs.items():
        ranges = [QgsRendererRange(lo, hi, QgsLineSymbol.createSimple({"color": c, "width": "1.6",
                                                                          "capstyle": "round"}),
                                   f"{SCORE_NAMES[field_name]} {label}")
                  for lo, hi, c, label in bands]
        renderer = QgsGraduatedSymbolRenderer(field_name, ranges)
        _size_by_panel(renderer)
        layer.setRenderer(renderer)
        layer.setLabeling(_labels("street_name"))
        layer.setLabelsEnabled(True)
        layer.saveNamedStyle(str(STYLES / f"segment_{field_name}.qml"))


STATUS_COLOURS = [("kept", "#1a9850"), ("rejected", "#d73027"), ("capped", "#fdae61"), ("fetched", "#4575b4"),
                  ("download_failed", "#000000")]


def images_by_status(layer: QgsVectorLayer) -> None:
    """Reference images: colour by curation status, an arrow pointing along the compass angle."""
    from qgis.core import QgsMarkerSymbol, QgsProperty, QgsSymbolLayer

    categories = []
    for value, colour in STATUS_COLOURS:
        symbol = QgsMarkerSymbol.createSimple({"name": "arrow", "color": colour, "size": "3.6",
                                               "outline_color": "#222222", "outline_width": "0.2"})
        symbol.symbolLayer(0).setDataDefinedProperty(
            QgsSymbolLayer.PropertyAngle, QgsProperty.fromExpression('coalesce("compass_angle", 0)'))
        categories.append(QgsRendererCategory(value, symbol, value))
    layer.setRenderer(QgsCategorizedSymbolRenderer("status", categories))
    layer.saveNamedStyle(str(STYLES / "reference_images_status.qml"))


def coverage_lines(layer: QgsVectorLayer) -> None:
    """Coverage per segment: width grows with the images kept; colour by uncovered share."""
    from qgis.core import QgsGraduatedSymbolRenderer, QgsRendererRange

    bands = [(0.0, 0.1, "#1a9850", "< 10 % uncovered"), (0.1, 0.3, "#a6d96a", "10–30 %"),
             (0.3, 0.6, "#fdae61", "30–60 %"), (0.6, 1.0001, "#d73027", "> 60 % uncovered")]
    ranges = [QgsRendererRange(lo, hi, QgsLineSymbol.createSimple({"color": c, "width": "1.4"}), label)
              for lo, hi, c, label in bands]
    layer.setRenderer(QgsGraduatedSymbolRenderer("uncovered_fraction", ranges))
    layer.setLabeling(_labels("street_name"))
    layer.setLabelsEnabled(True)
    layer.saveNamedStyle(str(STYLES / "coverage_by_images.qml"))


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    STYLES.mkdir(parents=True, exist_ok=True)
    layer = QgsVectorLayer("LineString?crs=EPSG:4326&field=road_class:string&field=street_name:string",
                           "segments", "memory")
    segments_by_class(layer)
    fields = ("field=margin_hard:double&field=top1:double&field=cos_sim:double&field=gads:double"
              "&field=n_reference:integer&field=street_name:string")
    scores = QgsVectorLayer(f"LineString?crs=EPSG:4326&{fields}", "scores", "memory")
    margin_diverging(scores)
    alternative_scores(QgsVectorLayer(f"LineString?crs=EPSG:4326&{fields}", "scores", "memory"))
    point_scores = QgsVectorLayer(f"Point?crs=EPSG:4326&{fields}", "scores", "memory")
    margin_diverging(point_scores, points=True)
    images_by_status(QgsVectorLayer("Point?crs=EPSG:4326&field=status:string&field=compass_angle:double",
                                    "images", "memory"))
    coverage_lines(QgsVectorLayer("LineString?crs=EPSG:4326&field=uncovered_fraction:double&field=street_name:string",
                                  "coverage", "memory"))
    # coverage_gaps.qml (by gap length): scripts/make_coverage_styles.py
    print("styles written to", STYLES)
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
