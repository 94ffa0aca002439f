"""The QGIS plugin object: registers the ``geofidelity`` Processing provider, the inspector and
the backend's options page.

The plugin is light: it imports only qgis/PyQt, the standard library and stdlib-only core modules.
torch, transformers and diffusers run in the backend process (docs/backend-protocol.md), in the
environment set in *Settings › Options › GeoFidelity*.
"""
from __future__ import annotations


def load_provider_class():
    """The provider class, imported by the name the layout gives it (core/resources.py)."""
    from geofidelity_plugin.core.resources import provider_module

    return provider_module("provider").GeoFidelityProvider


class GeoFidelityPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None

    def initProcessing(self):  # noqa: N802
        from qgis.core import QgsApplication

        provider = load_provider_class()()
        # keep (and later remove) only a provider this plugin registered itself
        self.provider = provider if QgsApplication.processingRegistry().addProvider(provider) else None

    def initGui(self):  # noqa: N802
        self.initProcessing()
        from geofidelity_plugin.qgis_side.gui.backend_options import register_options_page

        register_options_page(self.iface)  # Settings › Options › GeoFidelity
        from qgis.PyQt.QtGui import QIcon
        from qgis.PyQt.QtWidgets import QAction

        from geofidelity_plugin.core.resources import resource

        self.action = QAction(QIcon(str(resource("icons", "geofidelity.svg"))), "GeoFidelity inspector",
                              self.iface.mainWindow())
        self.action.setCheckable(True)
        self.action.setToolTip("Click a road segment to see its panels and scores")
        self.action.toggled.connect(self.toggle_inspector)
        self.iface.addToolBarIcon(self.action)
        self.iface.addPluginToMenu("GeoFidelity", self.action)

    def toggle_inspector(self, on: bool) -> None:
        from qgis.PyQt.QtCore import Qt

        from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
        from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

        canvas = self.iface.mapCanvas()
        if getattr(self, "dock", None) is None:
            self.dock = InspectorDock(self.iface.mainWindow(), canvas)
            # beside the Processing toolbox as a tab of the right dock area: the whole height, not a
            # strip under the toolbox (QGIS ≥ 3.14: addTabifiedDockWidget)
            self.iface.addTabifiedDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock, ["ProcessingToolbox"],
                                             True)
            self.tool = SegmentIdentifyTool(canvas)
            self.tool.setAction(self.action)
            self.tool.segmentIdentified.connect(self.dock.show_feature)
        if on:
            self.dock.show()
            canvas.setMapTool(self.tool)
        elif canvas.mapTool() is self.tool:
            canvas.unsetMapTool(self.tool)

    def unload(self):
        from qgis.core import QgsApplication

        from geofidelity_plugin.qgis_side.gui.backend_options import unregister_options_page

        unregister_options_page(self.iface)

        tool = getattr(self, "tool", None)
        if tool is not None:  # the map tool points at the action: let go of both, in order
            canvas = self.iface.mapCanvas()
            if canvas.mapTool() is tool:
                canvas.unsetMapTool(tool)
            tool.setAction(None)
            self.tool = None
        if getattr(self, "action", None) is not None:
            self.iface.removeToolBarIcon(self.action)
            self.iface.removePluginMenu("GeoFidelity", self.action)
            self.action.deleteLater()
            self.action = None
        if getattr(self, "dock", None) is not None:
            self.dock.stop()  # wait for its background reads; close its read-only store connections
            self.iface.removeDockWidget(self.dock)
            self.dock.deleteLater()
            self.dock = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
