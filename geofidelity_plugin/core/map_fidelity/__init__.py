"""MFP — map feature perception (method §10): score a generated map against a reference map
with a DINO-family ViT, tile by tile, and train generators with the same terms as a loss.

Qgis-free. ``options`` is stdlib only; ``vit``, ``metric``, ``loss`` and ``run`` import numpy and
(lazily, except ``loss``) torch. The reference map is rendered by QGIS in
``geofidelity_plugin.qgis_side.map_render``, outside this package.
"""
