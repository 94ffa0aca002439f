"""Start QGIS without a GUI, for the CLI demo and batch scripts (not used inside QGIS)."""
from __future__ import annotations

import os
import sys

_APP = None
_PROVIDERS = []  # keep the Python provider alive: the registry does not own its Python half


def start_qgis_for(task: str, instead: str):
    """Start QGIS for a backend command that draws with it (the atlas, the MFP reference render);
    an ``InputError`` that says ``task`` needs QGIS and how to get it, or ``instead``, when this
    Python cannot import it. The warning filters stay the caller's (QGIS's start-up changes them)."""
    import warnings

    from geofidelity_plugin.core.errors import InputError

    try:
        with warnings.catch_warnings():
            return start_qgis()
    except ImportError as exc:
        raise InputError(f"{task} needs QGIS, which this Python cannot import ({exc}) — run the backend in a venv "
                         f"made with --system-site-packages beside Debian's QGIS, {instead}") from None


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
