"""Per-user folders (caches), overridable with ``GEOFIDELITY_CACHE_DIR``."""
from __future__ import annotations

import os
from pathlib import Path

from .locations import FOLDER, check_location


def cache_location() -> tuple[Path, str]:
    """The cache folder as configured, and the setting it comes from (unchecked: ``doctor``
    reports what is wrong with it, :func:`cache_dir` refuses it)."""
    if os.environ.get("GEOFIDELITY_CACHE_DIR"):
        return Path(os.environ["GEOFIDELITY_CACHE_DIR"]).expanduser(), "GEOFIDELITY_CACHE_DIR"
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "geofidelity", "XDG_CACHE_HOME"
    return Path(os.path.expanduser("~/.cache")) / "geofidelity", "HOME"


def cache_dir() -> Path:
    """The cache folder, created if missing; a setting that points somewhere unusable (a file,
    a dangling link, a path under a file, a read-only folder) is an error naming the variable to
    change (the one check of a configured location, :mod:`.locations`)."""
    path, source = cache_location()
    return check_location(path, FOLDER, what="cache folder", setting=source, writable=True, create=True,
                          fix="point GEOFIDELITY_CACHE_DIR at a writable folder")
