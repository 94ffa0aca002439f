"""The atlas per segment (``geofidelity:atlas``): the qgis-free part — per-segment data, thumbnail
strips, page texts. The QGIS layout is :mod:`geofidelity_plugin.qgis_side.atlas_layout`."""
