"""GeoFidelity QGIS plugin: does a text-to-image model draw the named street it was asked for?

QGIS calls :func:`classFactory`; everything heavy is imported lazily so that QGIS starts fast
and the toolbox opens even where torch & co. are missing. The qgis-free library is
``geofidelity_plugin.core``; ``python -m geofidelity_plugin`` is the command line.
"""


def classFactory(iface):  # noqa: N802 (QGIS's name)
    from .qgis_side.plugin import GeoFidelityPlugin

    return GeoFidelityPlugin(iface)
