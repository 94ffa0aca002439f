"""Where the plugin's files are: the one place that knows the two layouts.

A repository clone keeps ``resources/`` and ``processing_algorithms/`` beside the
``geofidelity_plugin`` package; the plugin zip (``make zip``) puts them inside it. Which one this
copy is, the build wrote into :mod:`.install_layout` — nothing here looks at the files. Everything
else asks here — :func:`resource` for styles, data and templates, :data:`PROVIDER_PACKAGE` for the
Processing provider — so no other module looks at the layout (docs/architecture.md).
"""
from __future__ import annotations

from pathlib import Path

from .install_layout import INSTALLED

#: the ``geofidelity_plugin`` package folder
PACKAGE = Path(__file__).resolve().parent.parent
#: the folder that holds ``resources/`` and ``processing_algorithms/``: the package itself once
#: installed from the zip, the repository in a clone
PLUGIN_ROOT = PACKAGE if INSTALLED else PACKAGE.parent
#: the import name of the Processing provider in this layout
PROVIDER_PACKAGE = "geofidelity_plugin.processing_algorithms" if INSTALLED else "processing_algorithms"
#: the folder that holds the ``geofidelity_plugin`` package (the backend's PYTHONPATH)
PACKAGE_PARENT = PACKAGE.parent


def resources_dir() -> Path:
    path = PLUGIN_ROOT / "resources"
    if not (path / "data").is_dir():
        raise FileNotFoundError(
            f"the GeoFidelity resources folder was not found next to {PACKAGE}; "
            "reinstall the plugin (make zip) or run from a full clone")
    return path


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def provider_module(name: str = "provider"):
    """A module of the Processing provider, imported by the name this layout gives it."""
    import importlib

    return importlib.import_module(f"{PROVIDER_PACKAGE}.{name}")
