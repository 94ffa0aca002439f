"""How QGIS's embedded Python finds GeoFidelity's pip dependencies (torch, transformers,
osmium, …). QGIS embeds the system Python and does not see a virtualenv. We add, in order:

1. every folder in the ``GEOFIDELITY_PYTHONPATH`` environment variable (``os.pathsep``-separated),
2. ``<QGIS profile>/python/geofidelity-deps`` if it exists

in front of the system's own folders — where ``make qgis-deps`` installs
   the pinned packages with ``pip install --target`` (the Deepness plugin's approach).

Debian's geo stack (pyproj, shapely, fiona) always comes from the system: never install pip
wheels of it into these folders (they crash QGIS at exit).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


def dependency_folders() -> list[Path]:
    folders = [Path(p) for p in os.environ.get("GEOFIDELITY_PYTHONPATH", "").split(os.pathsep) if p]
    try:
        from qgis.core import QgsApplication

        folders.append(Path(QgsApplication.qgisSettingsDirPath()) / "python" / "geofidelity-deps")
    except ImportError:
        pass
    return [f for f in folders if f.is_dir()]


def add_dependency_paths() -> list[str]:
    """Put the folders FIRST on ``sys.path``: the pinned packages must win over older Debian
    copies of the same names (e.g. Debian's sympy lacks what torch 2.13 imports)."""
    added = []
    for folder in reversed(dependency_folders()):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
            added.append(str(folder))
    return added
