"""Error types whose messages name the problem and the fix, and the one policy that turns any
exception into what a user sees (docs/method.md, "Errors and exit codes").

Every error a user can cause by their input is an :class:`InputError`; an output that cannot be
written is an :class:`OutputError`. The CLI prints :func:`user_message` without a traceback
(exit 2; exit 1 for a bug, with ``--debug`` for the traceback) and the Processing algorithms
raise a ``QgsProcessingException`` with the same text.
"""
from __future__ import annotations

import errno
import pickle
import sqlite3


class GeoFidelityError(Exception):
    """Base class of every error this project raises on purpose."""


class InputError(GeoFidelityError):
    """Bad or missing input: the message says what is wrong and how to fix it."""


class OutputError(GeoFidelityError):
    """An output cannot be written where it was asked for: the message names the path and the fix."""


class RemoteServiceError(GeoFidelityError):
    """A remote API (Overpass, Mapillary) failed after every retry."""


class Cancelled(GeoFidelityError):
    """The user cancelled the run; nothing half-written was left behind."""


#: Exit codes of the command line.
EXIT_OK, EXIT_BUG, EXIT_ERROR, EXIT_CANCELLED = 0, 1, 2, 130

_OS_FIXES = {
    errno.ENOSPC: "no space left on the disk — free some space or choose an output folder on another disk",
    errno.EDQUOT: "disk quota exceeded — free some space or choose an output folder on another disk",
    errno.EFBIG: "file size limit reached — free some space or raise the limit (ulimit -f)",
    errno.EACCES: "permission denied — choose a folder you can write to, or fix its permissions",
    errno.EPERM: "operation not permitted — choose a folder you can write to, or fix its permissions",
    errno.EROFS: "read-only file system — choose an output folder on a writable disk",
    errno.EIO: ("the disk reported an input/output error — check the disk (a failing drive, a removed USB disk, "
                "a network share that went away), then run again"),
    errno.EISDIR: "this is a folder, a file was expected — give a file name",
    errno.ENOTDIR: "a part of this path is a file, not a folder — choose another path",
    errno.ENOENT: "no such file or folder — check the path",
    errno.ENAMETOOLONG: "the path is too long — choose a shorter one",
}


def describe_os_error(exc: OSError, path=None) -> str:
    """``<path>: <what happened> — <fix>`` for a failed read or write."""
    where = path or exc.filename or "a file"
    fix = _OS_FIXES.get(exc.errno) or (exc.strerror or str(exc))
    return f"cannot use {where}: {fix}"


def _describe_sqlite_error(exc: sqlite3.DatabaseError) -> str:
    """SQLite reports a full disk, a read-only file and a damaged file alike as database errors."""
    text = str(exc)
    low = text.lower()
    if "full" in low or "disk i/o" in low:
        return (f"a database could not be written ({text}) — the disk is probably full: free some space "
                "or move the store and caches (GEOFIDELITY_CACHE_DIR) to another disk")
    if "readonly" in low or "read-only" in low:
        return f"a database is read-only ({text}) — make the store's folder writable or copy the store elsewhere"
    if "unable to open" in low:
        return f"a database could not be opened ({text}) — check that its folder exists and is writable"
    if "locked" in low or "busy" in low:
        return f"a database is in use by another run ({text}) — wait for it to finish, then run again"
    return (f"a database file is damaged or is not a GeoFidelity file ({text}) — check the path, or "
            "delete the damaged cache and run again")


#: what torch (CPU allocator, CUDA) and the dynamic loader say when memory runs out
_MEMORY_SIGNS = ("can't allocate memory", "cannot allocate memory", "out of memory",
                 "failed to map segment from shared object")


def is_out_of_memory(exc: BaseException) -> bool:
    """A ``MemoryError``, or a library's own out-of-memory error (``RuntimeError``, ``ImportError``)."""
    if isinstance(exc, MemoryError):
        return True
    return isinstance(exc, (RuntimeError, ImportError)) and any(s in str(exc).lower() for s in _MEMORY_SIGNS)


def describe_missing_package(exc: ImportError) -> str:
    """A backend environment without a package this step needs."""
    import sys

    name = getattr(exc, "name", None) or str(exc)
    return (f"this step needs the Python package '{name}', which the backend environment ({sys.executable}) lacks "
            f"or cannot import ({exc}) — in QGIS run Test backend in Settings › Options › GeoFidelity and, if "
            f"needed, Set up backend… with the full profile; from a shell: pip install -r requirements.lock "
            f"in that environment")


def user_message(exc: BaseException) -> tuple[str, bool]:
    """The text a user sees for ``exc`` and whether it is a foreseen failure (``False``: a bug).
    Printed through :func:`.secrets.scrub` (the CLI's streams, the protocol), which also takes out
    a quoted library's advice to switch a protection off."""
    return _describe(exc)


def _describe(exc: BaseException) -> tuple[str, bool]:
    if isinstance(exc, GeoFidelityError):
        return str(exc), True
    if isinstance(exc, OSError):
        return describe_os_error(exc), True
    if is_out_of_memory(exc):
        return ("out of memory — lower the batch size, process fewer segments at a time, or close other "
                "programs"), True
    if isinstance(exc, sqlite3.DatabaseError):
        return _describe_sqlite_error(exc), True
    if isinstance(exc, ImportError):
        return describe_missing_package(exc), True
    if isinstance(exc, pickle.UnpicklingError):  # torch's weights-only loader refused a pickle
        return refused_pickle_message(exc), True
    return (f"unexpected error ({type(exc).__name__}: {exc}). This is a bug in GeoFidelity: run the "
            "command again with --debug for the details and report it."), False


SAFE_WEIGHTS_FIX = ("use a folder with safetensors weights (model.safetensors) instead — for a hub model, its "
                    "safetensors files; if the model is published only as a pickle, ask its publisher for safetensors")


def refused_pickle_message(exc: BaseException) -> str:
    """torch's weights-only loader refused a pickle (it names something beyond tensors)."""
    first = next((line.strip() for line in str(exc).splitlines()
                  if "GLOBAL" in line or "Unsupported" in line), "")
    detail = f" ({first})" if first else ""
    return (f"a model's weights file is a pickle that holds more than tensors{detail} — GeoFidelity does not "
            f"load it, because loading such a file can run code: {SAFE_WEIGHTS_FIX}")
