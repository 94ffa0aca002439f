"""Start QGIS without a GUI, for the CLI demo and batch scripts (not used inside QGIS)."""
from __future__ import annotations

import os
import sys

_APP = None
_PROVIDERS = []  # keep the Python provider alive: the registry does not own its Python half


def start_qgis():
    """Initialise QgsApplication and Processing once; returns the application."""
    global _APP
    if _APP is not None:
        return _APP
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from qgis.core import QgsApplication

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication.instance() or QgsApplication([], False)
    app.initQgis()
    plugins = "/usr/share/qgis/python/plugins"
    if plugins not in sys.path:
        sys.path.append(plugins)
    from processing.core.Processing import Processing

    Processing.initialize()
    _APP = app
    return app


def register_provider():
    """Add the ``geofidelity`` provider to the running registry (idempotent)."""
    from qgis.core import QgsApplication

    registry = QgsApplication.processingRegistry()
    provider = registry.providerById("geofidelity")
    if provider is None:
        from geofidelity_plugin.core.resources import provider_module

        provider = provider_module("provider").GeoFidelityProvider()
        registry.addProvider(provider)
        _PROVIDERS.append(provider)
    return provider
