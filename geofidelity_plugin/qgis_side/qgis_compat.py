"""The one place for names that differ between the QGIS versions the plugin supports (3.40 to
4.x). Everything else uses names valid on all of them (docs/architecture.md)."""
from __future__ import annotations


def legend_component():
    """The enum of a layout legend's text parts: ``Qgis.LegendComponent`` from QGIS 3.42 (the only
    name on QGIS 4), ``QgsLegendStyle.Style`` before it."""
    from qgis.core import Qgis, QgsLegendStyle

    scoped = getattr(Qgis, "LegendComponent", None)
    return scoped if scoped is not None else getattr(QgsLegendStyle, "Style")
