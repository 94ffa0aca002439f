"""The ``geofidelity`` Processing provider: one module per algorithm, each a thin layer that
turns QGIS inputs into plain objects, calls ``geofidelity_plugin.core`` and loads the results.

Works from a repository clone (``processing_algorithms`` beside the package) and from the
installed plugin zip (``geofidelity_plugin/processing_algorithms``).
"""
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
