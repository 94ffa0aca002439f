"""The ``geofidelity`` Processing provider: one module per algorithm, each a thin layer that
turns QGIS inputs into plain objects, calls ``geofidelity_plugin.core`` and loads the results.

It imports the QGIS room (:mod:`geofidelity_plugin.qgis_side`) and the option tables; where it
sits in a clone and in the zip is known in one place, :mod:`geofidelity_plugin.core.resources`.
"""
from geofidelity_plugin.core.resources import resources_dir

RESOURCES = resources_dir()
