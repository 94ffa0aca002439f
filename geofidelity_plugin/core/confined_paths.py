"""Paths read from a data file stay inside the folder they belong to (docs/method.md, "Errors and
exit codes").

A release's ``metadata/*.csv``, a ``prompts.csv`` sidecar or a manifest names image files
relative to its own root. What such a file says is data, not a command: an absolute path
(``/etc/passwd``, ``C:\\x``, ``\\\\server\\x``), a ``..`` that climbs out, a symbolic link whose
target lies elsewhere, or something that is not a regular file (a folder, a named pipe, a
device) would let a downloaded dataset make the product read — and a later export publish —
files it was never given. :func:`confine` is the one gate every importer passes such a path
through; :func:`check_inside` is the matching gate for exporters, which copy only files that
live inside the folders a store owns. Standard library only.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path, PureWindowsPath

from .errors import InputError

_SEPARATORS = re.compile(r"[\\/]+")
_DRIVE = re.compile(r"^[A-Za-z]:")


def _where(source, line, column) -> str:
    """``<file> line <n>, column <c>: `` — the place in a data file a refusal points at."""
    if source is None:
        return ""
    place = str(source)
    if line is not None:
        place += f" line {line}"
    if column is not None:
        place += f"{',' if line is not None else ''} column {column}"
    return place + ": "


def _shown(text: str) -> str:
    """The value as a user can read it back: NUL and other control bytes escaped, long values cut."""
    shown = repr(text[:160] + ("…" if len(text) > 160 else ""))
    return shown


def is_absolute_anywhere(text: str) -> bool:
    """Absolute on POSIX or on Windows: ``/x``, ``\\x``, ``C:\\x``, ``C:x`` (drive-relative) and
    ``\\\\server\\share`` alike — a data file written on one system is read on the other."""
    return (text.startswith(("/", "\\")) or bool(_DRIVE.match(text)) or bool(PureWindowsPath(text).anchor)
            or Path(text).is_absolute())


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _escaping_link(root: Path, parts: list[str], root_real: str) -> Path | None:
    """The first symbolic link on the way from ``root`` through ``parts`` whose target leaves the root."""
    here = root
    for part in parts:
        here = here / part
        if here.is_symlink() and not _inside(os.path.realpath(here), root_real):
            return here
    return None


def confine(root, relative, *, what: str = "path", source=None, line=None, column=None,
            fix: str | None = None, must_exist: bool = False) -> Path:
    """``root / relative`` when ``relative`` (read from a data file: ``source`` at ``line``,
    ``column``) stays inside ``root`` and names a regular file; else an :class:`InputError` naming
    the place, the value and ``fix``.

    Refused: an empty value or one holding a NUL byte; an absolute path in POSIX or Windows form;
    a ``..`` step; a path that names the root itself; a symbolic link anywhere on the way whose
    target leaves the root (a link that stays inside is fine); a folder, named pipe, device or
    socket. A path that does not exist is returned as it is (the caller counts missing files)
    unless ``must_exist``. The path returned is ``root`` joined with the cleaned parts, links
    left as they are.
    """
    fix = fix or f"give a path relative to {root} that stays inside it and names an image file"
    if not isinstance(relative, (str, os.PathLike)):
        raise InputError(f"{_where(source, line, column)}the {what} {relative!r} is not a path — {fix}")
    text = os.fspath(relative)
    text = os.fsdecode(text) if isinstance(text, bytes) else text
    candidate, problem = _resolve(Path(root), text, must_exist)
    if problem:
        raise InputError(f"{_where(source, line, column)}the {what} {_shown(text)} {problem} — {fix}")
    return candidate


def path_problem(root, relative, *, must_exist: bool = False) -> str | None:
    """What :func:`confine` would refuse in ``relative`` (``None``: nothing), for callers that
    count refused files instead of stopping at the first."""
    text = os.fsdecode(os.fspath(relative)) if isinstance(relative, (str, bytes, os.PathLike)) else None
    if text is None:
        return "is not a path"
    return _resolve(Path(root), text, must_exist)[1]


def _resolve(root: Path, text: str, must_exist: bool) -> tuple[Path | None, str | None]:
    if "\x00" in text:
        return None, "holds a NUL byte, which no file name can contain"
    if not text.strip():
        return None, "is empty"
    if is_absolute_anywhere(text):
        return None, "is an absolute path; only paths relative to the folder it belongs to are read"
    parts = [p for p in _SEPARATORS.split(text) if p not in ("", ".")]
    if ".." in parts:
        return None, "climbs out of its folder with '..'"
    if not parts:
        return None, "names the folder itself, not a file in it"
    root_real = os.path.realpath(root)
    candidate = root.joinpath(*parts)
    real = os.path.realpath(candidate)
    if not _inside(real, root_real):
        link = _escaping_link(root, parts, root_real)
        named = (f"goes through the symbolic link {link}, which" if link is not None and link != candidate
                 else "is a symbolic link that")
        return None, f"{named} points outside {root} (to {real}); files outside it are never read"
    try:
        mode = os.stat(candidate).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return (None, f"does not exist under {root}") if must_exist else (candidate, None)
    except OSError as exc:
        return None, f"cannot be looked at ({exc.strerror or exc})"
    if not stat.S_ISREG(mode):
        return None, f"is {_kind_of(mode)}, not a file"
    return candidate, None


def joined(root, relative: str) -> Path:
    """``root`` joined with ``relative``'s parts as :func:`confine` joins them (either separator,
    ``.`` and empty parts dropped), unchecked: for matching a path with one :func:`confine` gave."""
    return Path(root).joinpath(*[p for p in _SEPARATORS.split(str(relative)) if p not in ("", ".")])


def confinement_problem(path, roots) -> str | None:
    """``None`` when ``path`` is a regular file whose real location (links followed) lies inside
    one of ``roots``, else what is wrong with it, in words."""
    real = os.path.realpath(path)
    reals = [os.path.realpath(r) for r in roots if r]
    if not any(_inside(real, r) for r in reals):
        shown = f" (a link to {real})" if real != os.path.abspath(path) else ""
        return f"{path}{shown} lies outside the store's folders"
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(mode):
        return f"{path} is {_kind_of(mode)}, not a file"
    return None


def check_inside(path, roots, *, what: str = "file", fix: str | None = None) -> Path:
    """The real location of ``path`` when :func:`confinement_problem` finds nothing wrong; else an
    :class:`InputError`. Exporters copy from the returned path, so a link swapped in later is not
    followed out of the roots."""
    problem = confinement_problem(path, roots)
    if problem:
        raise InputError(f"the {what} {problem} — " + (fix or "only files inside "
                         + ", ".join(str(r) for r in roots if r) + " are copied"))
    return Path(os.path.realpath(path))


def copy_inside(src, dst, roots) -> Path:
    """Publish ``src`` as ``dst`` (a hard link where the disk allows, else a copy) when it is a
    file inside ``roots`` (:func:`check_inside`), reading it from its real location; ``dst`` is a
    new path the caller's staging folder handed out. Returns the real source."""
    real = check_inside(src, roots)
    try:
        os.link(real, dst, follow_symlinks=False)
    except OSError:
        shutil.copyfile(real, dst)
    return real
