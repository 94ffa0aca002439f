"""`make screenshots`: real QGIS widgets in a real (Xvfb) window — the demo map with the styled
Δhard layer, and the inspector dock open on a segment. Writes docs/screenshots/*.png."""
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


def main(demo: Path, out: Path) -> int:
    from qgis.core import QgsApplication, QgsProject
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QMainWindow

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], True)
    app.initQgis()
    from geofidelity_plugin.gui.inspector_dock import InspectorDock

    out.mkdir(parents=True, exist_ok=True)
    project = QgsProject.instance()
    if not project.read(str(demo / "geofidelity_demo.qgz")):
        print(f"cannot open {demo / 'geofidelity_demo.qgz'} — run `make demo` first", file=sys.stderr)
        return 1
    margin = next(l for l in project.mapLayers().values() if l.name().startswith("GeoFidelity Δhard"))
    segments = project.mapLayersByName("GeoFidelity segments")[0]
    window = QMainWindow()
    window.resize(1500, 950)
    canvas = QgsMapCanvas(window)
    window.setCentralWidget(canvas)
    canvas.setLayers([margin, segments])
    canvas.setDestinationCrs(margin.crs())
    canvas.setExtent(margin.extent().buffered(0.002))
    dock = InspectorDock(window)
    window.addDockWidget(Qt.RightDockWidgetArea, dock)
    dock.hide()
    window.show()
    canvas.refresh()
    settle(app, 3)
    canvas.grab().save(str(out / "map_margins.png"))
    feature = max(margin.getFeatures(), key=lambda f: f["margin_hard"] or -9)
    dock.show()
    dock.show_feature(margin, feature)
    for _ in range(4):  # the dock reads the store and decodes thumbnails off the GUI thread
        dock.pool.waitForDone(20000)
        app.processEvents()
        dock.loader.wait()
        app.processEvents()
    settle(app, 2)
    window.grab().save(str(out / "inspector.png"))
    print(f"screenshots: {out / 'map_margins.png'}, {out / 'inspector.png'}")
    window.close()
    for widget in (dock, canvas, window):
        widget.deleteLater()
    settle(app, 0.3)
    project.clear()
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
