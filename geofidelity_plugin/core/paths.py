"""Per-user folders (caches), overridable with ``GEOFIDELITY_CACHE_DIR``."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import InputError


def cache_dir() -> Path:
    """The cache folder, created if missing; a setting that points somewhere unusable is an
    error naming the variable to change."""
    if os.environ.get("GEOFIDELITY_CACHE_DIR"):
        base, source = os.environ["GEOFIDELITY_CACHE_DIR"], "GEOFIDELITY_CACHE_DIR"
    elif os.environ.get("XDG_CACHE_HOME"):
        base, source = os.path.join(os.environ["XDG_CACHE_HOME"], "geofidelity"), "XDG_CACHE_HOME"
    else:
        base, source = os.path.join(os.path.expanduser("~/.cache"), "geofidelity"), "HOME"
    path = Path(base)
    if path.exists() and not path.is_dir():
        raise InputError(f"the cache folder {path} (from {source}) is a file, not a folder — point "
                         "GEOFIDELITY_CACHE_DIR at a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from .errors import describe_os_error

        raise InputError(f"the cache folder {path} (from {source}) cannot be used: "
                         f"{describe_os_error(exc, path).split(': ', 1)[1]} — point GEOFIDELITY_CACHE_DIR "
                         "at a writable folder") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise InputError(f"the cache folder {path} (from {source}) is not writable — point "
                         "GEOFIDELITY_CACHE_DIR at a writable folder")
    return path
