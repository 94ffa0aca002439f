"""Where the GeoFidelity backend lives: the Python executable of the environment that holds
torch, transformers and diffusers, a models folder and the default device.

Configured once, like GRASS or WhiteboxTools, on *Settings › Options › GeoFidelity* (the page with
*Test backend* and *Set up backend…*), the one place that saves them: plain ``QgsSettings`` keys
(public API), not Processing's own settings — the Processing options page would save its stale
copy over them. The ``GEOFIDELITY_BACKEND_PYTHON`` environment variable, when set, wins (batch
runs, tests). Imports only qgis and the standard library.
"""
from __future__ import annotations

import os
from pathlib import Path

PYTHON_KEY = "GEOFIDELITY_BACKEND_PYTHON"
MODELS_KEY = "GEOFIDELITY_MODELS_DIR"
DEVICE_KEY = "GEOFIDELITY_DEFAULT_DEVICE"
RAY_KEY = "GEOFIDELITY_RAY_CLUSTER"  # see ray_option.py
# where Processing's provider settings kept them up to 0.2.0: the same keys, so that values carry over
SETTINGS_PREFIX = "Processing/Configuration/"
DESCRIPTIONS = {
    PYTHON_KEY: "Backend Python executable (an environment with torch; empty: the checkout's .venv)",
    MODELS_KEY: "Models folder (local model folders and the Hugging Face cache; empty: the default cache)",
    DEVICE_KEY: "Default device: cpu, cuda, cuda:N or mps (empty: the GPU when there is one)",
    RAY_KEY: ("Ray cluster for generation and embeddings: empty (one process), local (start Ray on this "
              "machine) or an address such as HOST:6379 or ray://HOST:10001"),
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

