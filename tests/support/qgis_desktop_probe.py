"""Run by the real QGIS desktop app (``qgis --code``) in tests/test_project_file.py: once the
project given with ``--project`` is loaded and drawn, write what a user sees — canvas extent and
CRS, the layer tree, the message bar, the styles of each layer — to $GF_PROBE_OUT, then quit."""
import json
import os
import time

from qgis.core import QgsProject
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface

OUT = os.environ["GF_PROBE_OUT"]
EXPECTED = os.environ["GF_PROBE_PROJECT"]
STARTED = time.time()


def _tree(node):
    return [{"name": child.name(), "checked": child.itemVisibilityChecked(),
             "children": [c.name() for c in child.children()]} for child in node.children()]


def wait_for_project():
    """``--code`` may run before the project is read: wait for it, then let it draw."""
    loaded = os.path.realpath(QgsProject.instance().fileName() or "/nonexistent") == os.path.realpath(EXPECTED)
    if not loaded and time.time() - STARTED < 60:
        QTimer.singleShot(500, wait_for_project)
        return
    QTimer.singleShot(int(os.environ.get("GF_PROBE_SETTLE_MS", "2000")), probe)


def probe():
    project = QgsProject.instance()
    canvas = iface.mapCanvas()
    extent = canvas.extent()
    data = {
        "file": project.fileName(),
        "canvas_crs": canvas.mapSettings().destinationCrs().authid(),
        "project_crs": project.crs().authid(),
        "extent": [extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum()],
        "scale": canvas.scale(),
        "tree": _tree(project.layerTreeRoot()),
        "messages": [{"title": item.title(), "text": item.text(), "level": int(item.level())}
                     for item in iface.messageBar().items()],
        "layers": {layer.name(): {"valid": layer.isValid(), "styles": layer.styleManager().styles(),
                                  "current": layer.styleManager().currentStyle()}
                   for layer in project.mapLayers().values()},
        "copyright": project.readEntry("CopyrightLabel", "/Label")[0],
    }
    with open(OUT + ".part", "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=1)
    os.replace(OUT + ".part", OUT)
    os._exit(0)  # QGIS's own exit asks about unsaved changes


QTimer.singleShot(500, wait_for_project)
