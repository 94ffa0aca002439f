"""Load the plugin the way QGIS's desktop does and report which heavy libraries got imported.

Run in a fresh interpreter (``python tests/plugin_light_check.py``): start a GUI QgsApplication
offscreen, build pytest-qgis's stand-in ``iface``, call ``classFactory(iface)`` and ``initGui()``,
open every algorithm's Processing dialog (or, where no dialog can be built, create and initialise
the algorithm), toggle the inspector, then print one JSON object on the last stdout line:
``{"heavy": [...], "also_loaded": [...], "dialogs": [...], "initialised_only": {...},
"algorithms": n}``.
The plugin must stay light (issue 9): the backend libraries run in their own process.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "transformers", "diffusers", "safetensors", "accelerate", "osmium", "PIL", "scipy", "imagehash")
ALSO_WATCHED = ("numpy", "shapely", "pyproj")  # reported, not refused (QGIS itself may load them)


def start_gui_qgis():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from pytest_qgis.mock_qgis_classes import MockMessageBar  # before the application, as pytest-qgis does
    from pytest_qgis.qgis_interface import QgisInterface
    from qgis.core import QgsApplication
    from qgis.gui import QgsGui, QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], True)
    app.initQgis()
    QgsGui.editorWidgetRegistry().initEditors()
    plugins = os.path.join(app.pkgDataPath(), "python", "plugins")
    if plugins not in sys.path:
        sys.path.append(plugins)
    from processing.core.Processing import Processing

    Processing.initialize()
    window = QMainWindow()
    iface = QgisInterface(QgsMapCanvas(window), MockMessageBar(), window)
    import qgis.utils

    qgis.utils.iface = iface  # what the Processing dialogs read
    return app, iface, window


def open_dialogs(provider) -> tuple[list[str], dict[str, str]]:
    """Every algorithm's dialog, built and closed; the ids of those that could only be initialised."""
    from processing.gui.AlgorithmDialog import AlgorithmDialog

    built, initialised_only = [], {}
    for alg in provider.algorithms():
        try:
            dialog = AlgorithmDialog(alg.create(), False, None)
            dialog.close()
            dialog.deleteLater()
            built.append(alg.id())
        except Exception as exc:  # noqa: BLE001 — recorded: the report says which fell back, and why
            instance = alg.createInstance()
            instance.initAlgorithm()
            initialised_only[alg.id()] = f"{type(exc).__name__}: {exc}"
    return built, initialised_only


def main() -> int:
    sys.path.insert(0, str(REPO))
    app, iface, window = start_gui_qgis()
    import geofidelity_plugin
    from qgis.core import QgsApplication

    plugin = geofidelity_plugin.classFactory(iface)
    plugin.initGui()
    provider = QgsApplication.processingRegistry().providerById("geofidelity")
    if provider is None:
        print(json.dumps({"error": "initGui registered no geofidelity provider"}))
        return 1
    dialogs, initialised_only = open_dialogs(provider)
    plugin.action.setChecked(True)
    plugin.action.setChecked(False)
    app.processEvents()
    heavy = sorted(name for name in HEAVY if name in sys.modules)
    report = {"heavy": heavy, "also_loaded": sorted(name for name in ALSO_WATCHED if name in sys.modules),
              "dialogs": dialogs, "initialised_only": initialised_only,
              "algorithms": len(provider.algorithms())}
    plugin.unload()
    print(json.dumps(report))
    sys.stdout.flush()
    os._exit(0)  # skip QGIS's own teardown: what is measured is printed


if __name__ == "__main__":
    sys.exit(main())
