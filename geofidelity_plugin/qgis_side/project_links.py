"""The links of a GeoFidelity layer to its benchmark store and evaluation folder, kept so that a
project still finds its own files when the whole folder is copied or moved.

A layer's data source is saved relative to the project by QGIS; its custom properties are saved as
they are. So each link is kept twice: as the absolute path (``geofidelity/store``) and relative to
the layer's own data file (``geofidelity/store_from_layer``). Reading a link tries, in order:
the relative one (a copied or moved folder: the copy's own store, never the original's), the
absolute path, and a file of that name beside the project. Standard library and qgis only.
"""
from __future__ import annotations

import os
from pathlib import Path

STORE_PROPERTY = "geofidelity/store"
EVALUATION_PROPERTY = "geofidelity/evaluation"
LINKS = (STORE_PROPERTY, EVALUATION_PROPERTY)
FROM_LAYER = "_from_layer"


def layer_folder(layer) -> Path | None:
    """The folder of the file a layer reads (a GeoPackage, say); None for a layer without one."""
    path = layer.source().split("|")[0]
    return Path(path).parent if path and Path(path).exists() else None


def set_links(layer, properties: dict) -> None:
    """Set the layer's custom properties; each link also relative to the layer's data file."""
    base = layer_folder(layer)
    for key, value in properties.items():
        layer.setCustomProperty(key, value)
        if key in LINKS and value and base is not None:
            try:
                layer.setCustomProperty(key + FROM_LAYER, os.path.relpath(str(value), str(base)))
            except ValueError:  # another drive (Windows): only the absolute path can say where it is
                layer.removeCustomProperty(key + FROM_LAYER)


def resolve_link(layer, key: str, project=None) -> str | None:
    """The path a link of ``layer`` names in this copy of the project (see the module's text);
    the recorded value itself when none of the candidates exists (the dock then says it is missing)."""
    from qgis.core import QgsProject

    value = layer.customProperty(key) or None
    relative = layer.customProperty(key + FROM_LAYER) or None
    base = layer_folder(layer)
    home = (project or QgsProject.instance()).absolutePath()
    candidates = []
    if relative and base is not None:
        candidates.append(Path(os.path.normpath(base / relative)))
    if value:
        path = Path(value)
        candidates.append(path if path.is_absolute() or not home else Path(home) / path)
        if home:
            candidates.append(Path(home) / path.name)
    for candidate in candidates:
        if candidate.exists():
            return str(candidate)
    return value
