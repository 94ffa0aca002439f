"""The QGIS plugin object: registers the ``geofidelity`` Processing provider."""
from __future__ import annotations

from .dependencies import add_dependency_paths


def load_provider_class():
    """The provider lives in ``processing_algorithms`` — inside the plugin folder once
    installed from the zip, beside the package in a repository clone."""
    from pathlib import Path

    if (Path(__file__).resolve().parent / "processing_algorithms").is_dir():
        from .processing_algorithms.provider import GeoFidelityProvider
    else:  # repository layout
        from processing_algorithms.provider import GeoFidelityProvider
    return GeoFidelityProvider


class GeoFidelityPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None

    def initProcessing(self):  # noqa: N802
        from qgis.core import QgsApplication

        add_dependency_paths()
        self.provider = load_provider_class()()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self):  # noqa: N802
        self.initProcessing()

    def unload(self):
        from qgis.core import QgsApplication

        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
