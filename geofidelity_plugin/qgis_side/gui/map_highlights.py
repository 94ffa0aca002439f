"""The clicked road and its gallery negatives, drawn over the map with ``QgsHighlight`` for the
inspector: the layer's selection — which a later "Selected features only" run reads — is never
touched."""
from __future__ import annotations

TARGET_RGBA = (230, 0, 126, 220)
NEGATIVE_RGBA = (255, 150, 0, 200)
HIGHLIGHT_WIDTH = 5


def highlight_gallery(canvas, layer, target: str, negatives: set[str]) -> list:
    """One shown highlight per feature of ``layer`` whose segment_id is ``target`` (magenta) or
    one of ``negatives`` (orange); the caller keeps them and clears them with :func:`clear_highlights`."""
    from qgis.core import QgsFeatureRequest
    from qgis.gui import QgsHighlight
    from qgis.PyQt.QtGui import QColor

    ids = sorted({target, *negatives})
    quoted = ",".join("'" + i.replace("'", "''") + "'" for i in ids)
    request = QgsFeatureRequest().setFilterExpression(f'"segment_id" IN ({quoted})')
    highlights = []
    for feature in layer.getFeatures(request):
        highlight = QgsHighlight(canvas, feature, layer)
        highlight.setColor(QColor(*(TARGET_RGBA if feature["segment_id"] == target else NEGATIVE_RGBA)))
        highlight.setWidth(HIGHLIGHT_WIDTH)
        highlight.show()
        highlights.append(highlight)
    return highlights


def clear_highlights(highlights: list) -> None:
    for highlight in highlights:
        highlight.hide()
        if highlight.scene() is not None:
            highlight.scene().removeItem(highlight)
