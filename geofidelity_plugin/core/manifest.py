"""Run manifests: every run writes, beside its outputs, the options, thresholds, seeds, inputs
(with content hashes), model ids/revisions and library versions needed to reproduce it.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import importlib.metadata
import platform
import sys
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from . import atomic

__version__ = "0.2.0"

_LIBRARIES = ("numpy", "scipy", "shapely", "pyproj", "fiona", "osmium", "torch", "transformers",
              "diffusers", "safetensors", "Pillow", "ImageHash", "astral", "requests")

#: Words whose values never go into a manifest (tokens, passwords).
_SECRET_WORDS = ("token", "password", "secret", "authcfg", "api_key", "apikey")


def library_versions() -> dict[str, str]:
    versions = {"python": sys.version.split()[0], "platform": platform.platform(),
                "python_environment": sys.prefix}  # which backend environment ran (a venv of its own, or not)
    for name in _LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    try:  # only when running inside QGIS; the core never imports qgis itself
        qgis_core = sys.modules.get("qgis.core")
        if qgis_core is not None:
            versions["qgis"] = qgis_core.Qgis.version()
    except AttributeError:
        pass
    return versions


def file_sha256(path: str | Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            digest.update(block)
    return digest.hexdigest()


def _clean(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    if isinstance(value, dict):
        return {str(k): ("<redacted>" if any(w in str(k).lower() for w in _SECRET_WORDS) else _clean(v))
                for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_clean(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def _network_facts() -> dict:
    """Certificates and proxy as the run used them (no credentials: core/network.py)."""
    from .network import facts

    return facts()


def build_manifest(stage: str, options: Any, inputs: dict[str, Any] | None = None,
                   outputs: dict[str, Any] | None = None, models: list[dict] | None = None,
                   notes: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """Return a manifest dict; option names containing secret words are redacted."""
    return {
        "geofidelity_version": __version__,
        "stage": stage,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "options": _clean(options),
        "inputs": _clean(inputs or {}),
        "outputs": _clean(outputs or {}),
        "models": _clean(models or []),
        "notes": list(notes or []),
        "libraries": library_versions(),
        "network": _network_facts(),
        **_clean(extra),
    }


def write_manifest(path: str | Path, manifest: dict[str, Any]) -> Path:
    path = Path(path)
    atomic.write_json(path, manifest)
    return path
