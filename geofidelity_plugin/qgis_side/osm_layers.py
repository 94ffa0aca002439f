"""The default OSM layers of the MFP reference map and the atlas maps (roads, buildings, water),
loaded by QGIS from an .osm/.osm.pbf file with their styles ``resources/styles/mfp_osm_*.qml``.
Needs qgis only (the render that turns them into a raster is :mod:`.map_render`)."""
from __future__ import annotations

from pathlib import Path

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.map_fidelity.options import OSM_LAYERS
from geofidelity_plugin.core.resources import resource

#: OGR layer and subset of each default OSM layer; drawn bottom to top in this order.
OSM_SOURCES = {
    "water": ("multipolygons", "\"natural\" = 'water' OR \"landuse\" IN ('reservoir', 'basin')"),
    "buildings": ("multipolygons", "\"building\" IS NOT NULL"),
    "roads": ("lines", "\"highway\" IS NOT NULL"),
}
EXTENT_BUFFER_PX = 64


def osm_style(name: str) -> Path:
    return resource("styles", f"mfp_osm_{name}.qml")


def osm_layers(osm_file: str | Path, names=OSM_LAYERS) -> list:
    """The default OSM layers of ``osm_file`` (roads, buildings, water), styled, top layer first."""
    from qgis.core import QgsVectorLayer

    unknown = [n for n in names if n not in OSM_SOURCES]
    if unknown:
        raise InputError(f"unknown OSM layer {unknown[0]!r} — choose among {', '.join(OSM_SOURCES)}")
    if not Path(osm_file).exists():
        raise InputError(f"OSM file {osm_file} not found — give an .osm or .osm.pbf file")
    layers = []
    for name in [n for n in OSM_SOURCES if n in names]:
        ogr_layer, subset = OSM_SOURCES[name]
        layer = QgsVectorLayer(f"{osm_file}|layername={ogr_layer}", f"OSM {name}", "ogr")
        if not layer.isValid():
            raise InputError(f"{osm_file} cannot be read as OSM data by QGIS — give an .osm or .osm.pbf file")
        layer.setSubsetString(subset)
        message, ok = layer.loadNamedStyle(str(osm_style(name)))
        if not ok:
            raise InputError(f"the style {osm_style(name)} cannot be loaded ({message}) — reinstall the plugin")
        layers.append(layer)
    return layers[::-1]  # QgsMapSettings draws the first layer on top
