"""The ``geofidelity`` Processing provider: one module per algorithm, each a thin layer that
turns QGIS inputs into plain objects, calls ``geofidelity_plugin.core`` and loads the results.

It imports only the QGIS room (:mod:`geofidelity_plugin.qgis_side`; what it needs of the core
comes through :mod:`geofidelity_plugin.qgis_side.provider_support`) and the specification
(:mod:`geofidelity_plugin.spec`) — ``tests/layout/test_import_rules.py`` holds it to that.
"""
from geofidelity_plugin.qgis_side.provider_support import resources_dir

RESOURCES = resources_dir()
