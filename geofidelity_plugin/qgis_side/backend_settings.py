"""Where the GeoFidelity backend lives: the Python executable of the environment that holds
torch, transformers and diffusers, a models folder and the default device.

Configured once, like GRASS or WhiteboxTools: *Settings › Options › GeoFidelity* (the page with
*Test backend* and *Set up backend…*), also listed under *Settings › Options › Processing ›
Providers › GeoFidelity*. Both views read and write the same ``QgsSettings`` keys. The
``GEOFIDELITY_BACKEND_PYTHON`` environment variable, when set, wins (batch runs, tests).
Imports only qgis and the standard library.
"""
from __future__ import annotations

import os
from pathlib import Path

PYTHON_KEY = "GEOFIDELITY_BACKEND_PYTHON"
MODELS_KEY = "GEOFIDELITY_MODELS_DIR"
DEVICE_KEY = "GEOFIDELITY_DEFAULT_DEVICE"
SETTINGS_PREFIX = "Processing/Configuration/"  # where ProcessingConfig keeps provider settings
DESCRIPTIONS = {
    PYTHON_KEY: "Backend Python executable (an environment with torch; empty: the checkout's .venv)",
    MODELS_KEY: "Models folder (local model folders and the Hugging Face cache; empty: the default cache)",
    DEVICE_KEY: "Default device: cpu, cuda, cuda:N or mps (empty: the GPU when there is one)",
}


def plugin_folder() -> Path:
    """The folder that holds the ``geofidelity_plugin`` package (put on the backend's
    PYTHONPATH so it runs the very same version of the code as this plugin)."""
    from geofidelity_plugin.core.resources import PACKAGE_PARENT

    return PACKAGE_PARENT


def checkout_venv_python() -> Path | None:
    """``.venv/bin/python`` of the checkout the plugin runs from (the repository itself, or
    ``build/plugins/geofidelity_plugin`` made by ``make plugin`` inside it)."""
    here = Path(__file__).resolve()
    for folder in here.parents:
        for candidate in (folder / ".venv" / "bin" / "python", folder / ".venv" / "Scripts" / "python.exe"):
            if candidate.is_file() and (folder / "Makefile").is_file() and (folder / "geofidelity_plugin").is_dir():
                return candidate
    return None


def _settings():
    from qgis.core import QgsSettings

    return QgsSettings()


def get(key: str) -> str:
    value = _settings().value(SETTINGS_PREFIX + key, "")
    return str(value or "").strip()


def set_value(key: str, value: str) -> None:
    _settings().setValue(SETTINGS_PREFIX + key, value)
    try:  # keep Processing's cached copy (Options › Processing › Providers) in step
        from processing.core.ProcessingConfig import ProcessingConfig

        if key in ProcessingConfig.settings:
            ProcessingConfig.settings[key].value = value
    except ImportError:
        pass


def backend_python() -> tuple[str | None, str]:
    """The backend executable and where the choice came from (for messages)."""
    env = os.environ.get("GEOFIDELITY_BACKEND_PYTHON", "").strip()
    if env:
        return env, "the GEOFIDELITY_BACKEND_PYTHON environment variable"
    configured = get(PYTHON_KEY)
    if configured:
        return configured, "Settings › Options › GeoFidelity"
    venv = checkout_venv_python()
    if venv is not None:
        return str(venv), "the checkout's .venv (default)"
    return None, "nothing configured"


def models_dir() -> str:
    return os.environ.get("GEOFIDELITY_MODELS_DIR", "").strip() or get(MODELS_KEY)


def default_device() -> str:
    return get(DEVICE_KEY)


def register_processing_settings(provider) -> list:
    """List the settings under *Options › Processing › Providers › GeoFidelity*."""
    try:
        from processing.core.ProcessingConfig import ProcessingConfig, Setting
    except ImportError:
        return []
    names = []
    kinds = {PYTHON_KEY: Setting.FILE, MODELS_KEY: Setting.FOLDER, DEVICE_KEY: Setting.STRING}
    for key, description in DESCRIPTIONS.items():
        ProcessingConfig.addSetting(Setting(provider.name(), key, description, "", valuetype=kinds[key]))
        names.append(key)
    ProcessingConfig.readSettings()
    return names


def unregister_processing_settings(names: list) -> None:
    try:
        from processing.core.ProcessingConfig import ProcessingConfig
    except ImportError:
        return
    for key in names:
        ProcessingConfig.removeSetting(key)
