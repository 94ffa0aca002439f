"""`make screenshots`: real QGIS widgets in a real (Xvfb) window — the demo map with the styled
Δhard layer, the inspector dock open on a segment, and the demo project as it opens (layer tree
with its groups beside the canvas, the context under the scores). Every image carries the data's
attribution lines. Writes docs/screenshots/*.png."""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def settle(app, seconds=1.5):
    end = time.time() + seconds
    while time.time() < end:
        app.processEvents()
        time.sleep(0.02)


def with_credits(pixmap, lines, left=False):
    """``pixmap`` as an image with the attribution ``lines`` in a white box, bottom right (left)."""
    from qgis.PyQt.QtCore import QRect, Qt
    from qgis.PyQt.QtGui import QColor, QFont, QFontMetrics, QPainter

    image = pixmap.toImage()
    font = QFont("DejaVu Sans")
    font.setPixelSize(12)
    metrics = QFontMetrics(font)
    width = max(metrics.horizontalAdvance(line) for line in lines) + 16
    height = metrics.height() * len(lines) + 10
    box = QRect(6 if left else image.width() - width - 6, image.height() - height - 6, width, height)
    painter = QPainter(image)
    painter.fillRect(box, QColor(255, 255, 255, 225))
    painter.setFont(font)
    painter.setPen(QColor("#222222"))
    painter.drawText(box.adjusted(8, 5, -8, -5), int(Qt.AlignRight | Qt.AlignVCenter), "\n".join(lines))
    painter.end()
    return image


def project_view(app, demo: Path, out: Path, lines) -> Path:
    """The demo project as QGIS opens it: the canvas reads the saved extent and CRS from the
    project (``theMapCanvas``), the tree shows the groups, the context draws under the scores."""
    from qgis.core import QgsProject
    from qgis.gui import QgsLayerTreeMapCanvasBridge, QgsLayerTreeView, QgsMapCanvas
    from qgis.core import QgsLayerTreeModel
    from qgis.PyQt.QtWidgets import QMainWindow, QSplitter

    project = QgsProject.instance()
    project.clear()
    window = QMainWindow()
    window.resize(1500, 950)
    splitter = QSplitter(window)
    view = QgsLayerTreeView(splitter)
    model = QgsLayerTreeModel(project.layerTreeRoot(), view)
    model.setFlag(QgsLayerTreeModel.AllowNodeChangeVisibility)
    model.setFlag(QgsLayerTreeModel.ShowLegendAsTree)
    view.setModel(model)
    canvas = QgsMapCanvas(splitter)
    canvas.setObjectName("theMapCanvas")  # the name the project's saved view is read into
    bridge = QgsLayerTreeMapCanvasBridge(project.layerTreeRoot(), canvas)
    splitter.addWidget(view)
    splitter.addWidget(canvas)
    splitter.setSizes([430, 1070])
    window.setCentralWidget(splitter)
    if not project.read(str(demo / "geofidelity_demo.qgz")):
        raise SystemExit(f"cannot open {demo / 'geofidelity_demo.qgz'} — run `make demo` first")
    saved = canvas.extent()  # read from the project's saved view
    canvas.setDestinationCrs(project.crs())  # QGIS's own window takes the project CRS this way
    canvas.setExtent(saved)
    window.show()
    settle(app, 1)
    for group in project.layerTreeRoot().children():
        if group.name() == "Scores":
            view.expandAll()  # the score legend reads as sentences: show it
    canvas.refresh()
    settle(app, 4)
    path = out / "project_groups.png"
    with_credits(window.grab(), lines).save(str(path))
    window.close()
    for widget in (bridge, canvas, view, window):
        widget.deleteLater()
    settle(app, 0.3)
    project.clear()
    return path


def main(demo: Path, out: Path) -> int:
    from qgis.core import QgsApplication, QgsProject
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QMainWindow

    from geofidelity_plugin.core.attribution import credit_lines

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], True)
    app.initQgis()
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock

    out.mkdir(parents=True, exist_ok=True)
    project = QgsProject.instance()
    if not project.read(str(demo / "geofidelity_demo.qgz")):
        print(f"cannot open {demo / 'geofidelity_demo.qgz'} — run `make demo` first", file=sys.stderr)
        return 1
    lines = credit_lines(stand_in=True)  # the demo's images are stand-ins
    margin = next(l for l in project.mapLayers().values() if l.name().startswith("GeoFidelity scores"))
    segments = project.mapLayersByName("GeoFidelity segments")[0]
    window = QMainWindow()
    window.resize(1500, 950)
    canvas = QgsMapCanvas(window)
    window.setCentralWidget(canvas)
    canvas.setLayers([margin, segments])
    canvas.setDestinationCrs(margin.crs())
    canvas.setExtent(margin.extent().buffered(0.002))
    dock = InspectorDock(window, canvas)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    window.show()
    canvas.refresh()
    settle(app, 3)
    with_credits(canvas.grab(), lines).save(str(out / "map_margins.png"))
    feature = max(margin.getFeatures(), key=lambda f: f["margin_hard"] or -9)
    dock.show()
    dock.show_feature(margin, feature)
    for _ in range(4):  # the dock reads the store and decodes thumbnails off the GUI thread
        dock.pool.waitForDone(20000)
        app.processEvents()
        dock.loader.wait()
        app.processEvents()
    settle(app, 2)
    with_credits(window.grab(), lines, left=True).save(str(out / "inspector.png"))
    window.close()
    for widget in (dock, canvas, window):
        widget.deleteLater()
    settle(app, 0.3)
    groups = project_view(app, demo, out, lines)
    print(f"screenshots: {out / 'map_margins.png'}, {out / 'inspector.png'}, {groups}")
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
