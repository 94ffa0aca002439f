"""Locate the project's ``resources/`` folder (styles, small data).

In the repository it sits beside ``geofidelity_plugin/``; in the installed plugin zip it sits
inside it. Both layouts are supported so that the core works from a clone and from QGIS.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    for candidate in (_PACKAGE / "resources", _PACKAGE.parent / "resources"):
        if (candidate / "data").is_dir():
            return candidate
    raise FileNotFoundError(
        f"the GeoFidelity resources folder was not found next to {_PACKAGE}; "
        "reinstall the plugin (make zip) or run from a full clone")


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
