"""A map tool that only identifies a GeoFidelity segment and emits it; the dock listens."""
from __future__ import annotations

from qgis.core import Qgis, QgsFeature, QgsVectorLayer
from qgis.gui import QgsMapToolIdentify
from qgis.PyQt.QtCore import Qt, pyqtSignal


def is_segment_layer(layer) -> bool:
    return (layer is not None and layer.type() == Qgis.LayerType.Vector
            and layer.fields().indexOf("segment_id") >= 0)


class SegmentIdentifyTool(QgsMapToolIdentify):
    segmentIdentified = pyqtSignal(QgsVectorLayer, QgsFeature)  # noqa: N815 (Qt naming)

    def __init__(self, canvas):
        super().__init__(canvas)
        self.setCursor(Qt.CursorShape.WhatsThisCursor)

    def canvasReleaseEvent(self, event):  # noqa: N802
        layers = [layer for layer in self.canvas().layers() if is_segment_layer(layer)]
        if not layers:
            return
        point = event.originalPixelPoint()  # QMouseEvent.x()/y() are gone in Qt 6
        results = self.identify(point.x(), point.y(), layers, QgsMapToolIdentify.IdentifyMode.TopDownStopAtFirst)
        if results:
            self.segmentIdentified.emit(results[0].mLayer, results[0].mFeature)
