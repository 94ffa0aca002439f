"""Is a configured location fit for what it is configured as? (docs/method.md, "Errors and exit
codes").

A cache folder, a models folder, a store's folder or an output folder comes from a setting, an
environment variable or an option, and each can be wrong in its own way: a file where a folder
is expected, a symbolic link to something that is gone, a path under a file, a folder the user
cannot write, a read-only disk. :func:`location_problem` tells these apart once, with a remedy
that fits the case; ``doctor`` reports it as a finding and the commands' option checks raise it
(:func:`check_location`), so both say the same thing. Standard library only (the doctor runs
where the heavy libraries are missing).
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import InputError

FOLDER, FILE = "folder", "file"


def _read_only_disk(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # Windows has no statvfs
        return False


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something other than a file or folder"


def _under_a_file(path: Path) -> Path | None:
    """The nearest ancestor of ``path`` that exists and is not a folder (``/x/file.txt/sub``)."""
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _nearest_existing(path: Path) -> Path:
    for parent in (path, *path.parents):
        if parent.exists():
            return parent
    return Path(path.anchor or ".")


def location_problem(path, kind: str = FOLDER, *, writable: bool = False,
                     must_exist: bool = True) -> tuple[str, str] | None:
    """``None`` when ``path`` is usable as a ``kind`` (:data:`FOLDER` or :data:`FILE`), else
    ``(problem, remedy)`` in words: what is wrong with the path, and what to do about it.

    ``must_exist=False``: a missing location is fine (when ``writable``: when it can be created —
    its nearest existing ancestor is a folder this user can write). ``writable``: the folder (for
    a file, the folder it is replaced in; when missing, the folder it would be made in) must be
    writable and not on a read-only disk.
    """
    if path is None or not str(path).strip():
        return "is empty", f"give a {kind}"
    path = Path(path).expanduser()
    if "\x00" in str(path):
        return "holds a NUL byte", f"give a {kind} path without it"
    if path.is_symlink():
        try:
            os.stat(path)
        except FileNotFoundError:
            return (f"is a symbolic link to {os.readlink(path)}, which does not exist",
                    f"create the {kind} it points to, or remove the link")
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return "goes through a symbolic link loop", "remove the loop or give another path"
    blocker = _under_a_file(path)
    if blocker is not None:
        return (f"lies under a file: {blocker} is a file, not a folder",
                "give a path under a folder")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except PermissionError:
        return "cannot be looked at (permission denied)", "fix the permissions of the folders above it"
    except OSError as exc:
        return f"cannot be looked at ({exc.strerror or exc})", f"give another {kind}"
    if mode is None:
        if must_exist:
            return "does not exist", f"create it, or give an existing {kind}"
        if not writable:
            return None
        base = _nearest_existing(path)
        if writable and _read_only_disk(base):
            return f"cannot be created: {base} is on a read-only disk", f"choose a {kind} on a writable disk"
        if not os.access(base, os.W_OK | os.X_OK):
            return (f"cannot be created: {base} is not writable",
                    f"create it yourself, make {base} writable, or choose another {kind}")
        return None
    wanted = stat.S_ISDIR if kind == FOLDER else stat.S_ISREG
    if not wanted(mode):
        what = _kind(mode)
        return (f"is {what}, not a {kind}",
                f"give a {kind}" + (f" (this {what[2:]} is kept as it is)" if what in ("a file", "a folder") else ""))
    folder = path if kind == FOLDER else path.parent
    if not os.access(path, os.R_OK | (os.X_OK if kind == FOLDER else 0)):
        return "cannot be read (permission denied)", "fix its permissions (chmod u+r), or choose another"
    if writable:
        if _read_only_disk(folder):
            return "is on a read-only disk", f"choose a {kind} on a writable disk"
        if not os.access(folder, os.W_OK | os.X_OK):  # a file is replaced through its folder
            return "is read-only for this user", f"make it writable (chmod u+w), or choose another {kind}"
    return None


def check_location(path, kind: str = FOLDER, *, what: str, fix: str | None = None, writable: bool = False,
                   must_exist: bool = True, create: bool = False, setting: str | None = None,
                   missing: str | None = None, error=InputError) -> Path:
    """``path`` as a ``Path`` when :func:`location_problem` finds nothing wrong (a missing folder is
    made when ``create``); else ``error`` (an :class:`InputError` unless told) saying ``the <what>
    <path> (from <setting>) <problem> — <remedy>``, then ``, or <fix>`` (how to change the setting).
    ``missing``: the remedy when the path does not exist, for an input nobody would create empty."""
    found = location_problem(path, kind, writable=writable, must_exist=must_exist and not create)
    target = Path(path).expanduser() if path is not None and str(path).strip() else None
    if found is None and create and kind == FOLDER and target is not None and not target.exists():
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            found = (f"cannot be created ({exc.strerror or exc})", f"create it yourself, or choose another {kind}")
    if found is not None:
        problem, remedy = found
        remedy = missing if missing and problem == "does not exist" else remedy
        origin = f" (from {setting})" if setting else ""
        raise error(f"the {what} {path}{origin} {problem} — {remedy}" + (f", or {fix}" if fix else ""))
    return target
