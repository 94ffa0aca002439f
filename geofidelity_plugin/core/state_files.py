"""The one writer of product state: stores, caches, locks, manifests and outputs are created,
replaced and removed through these helpers only (docs/method.md, "Errors and exit codes").

Three rules, each kept here so that no writer has to remember them:

- **Never through a link, never over something else.** A path is written only where nothing is
  yet or where a regular file is; a symbolic link (dangling or not), a folder, a fifo or a device
  is refused with a message naming it — so that a link planted in a shared folder cannot make a
  run overwrite a file elsewhere, and a fifo cannot stall it. Files are created with
  ``O_NOFOLLOW``/``O_EXCL``; a rename onto a path is preceded by an ``lstat`` of that path.
- **Never delete or overwrite what the product did not make.** Caches and locks carry a signature
  (an SQLite ``application_id``, a first line) that is checked before one is evicted or reused:
  a file without it — a CSV given by a slip of the option, another program's database — is left
  exactly as it is and the run is refused with the fix.
- **An OS failure is named as what it is** (a full disk, a quota, a read-only disk, an I/O error,
  a permission) before anything is called damaged: the advice to rebuild or restore a file that
  is whole would throw good data away (:func:`diagnose_os_error`).
"""
from __future__ import annotations

import codecs
import contextlib
import errno
import os
import shutil
import sqlite3
import stat
from pathlib import Path
from typing import Callable

from .errors import OutputError, describe_os_error

SQLITE_MAGIC = b"SQLite format 3\x00"
#: where SQLite keeps the application id in a database's header (4 bytes, big-endian)
_APP_ID_OFFSET = 68

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class NotOurs(OutputError):
    """A file where the product keeps state that the product did not make: it is left as it is."""


class NotARegularFile(OutputError):
    """A link, folder, fifo or device where the product would write a file."""


# -- what is at a path ------------------------------------------------------------------------
def path_kind(path: str | os.PathLike) -> str | None:
    """``None`` when nothing is at ``path``; else ``"file"`` (regular), ``"symbolic link"``,
    ``"folder"``, ``"fifo"``, ``"socket"``, ``"device"`` — the link itself, never its target."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None  # a parent is a file: there is nothing at the path (the write fails and says so)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link loop on the way
            return "symbolic link"
        raise
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


def kind_message(path: str | os.PathLike, kind: str, what: str = "the file") -> str:
    """Why ``path`` (a ``kind`` of :func:`path_kind` other than a regular file) is not written."""
    if kind == "symbolic link":
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        dangling = "" if os.path.exists(path) else ", which points at nothing"
        return (f"{what} {path} is a symbolic link (to {target}{dangling}) — GeoFidelity never writes through a "
                "link, so that a link cannot make a run overwrite another file: remove the link, or give the "
                "real path")
    if kind == "folder":
        return f"{what} {path} is a folder where a file is to be written — give a file path, or move the folder away"
    return (f"{what} {path} is a {kind}, not a regular file — GeoFidelity writes only regular files: remove it, "
            "or give another path")


def check_target(path: str | os.PathLike, what: str = "the file") -> Path:
    """``path`` may be created or replaced: nothing is there, or a regular file. Anything else is
    refused (:class:`NotARegularFile`) before a byte is written."""
    kind = path_kind(path)
    if kind not in (None, "file"):
        raise NotARegularFile(kind_message(path, kind, what))
    return Path(path)


def check_parents(path: str | os.PathLike, top: str | os.PathLike, what: str = "the file") -> None:
    """No folder between ``top`` and ``path`` is a link (or a file): a sub-folder of an output
    folder that is a link would carry the file out of it."""
    path, top = Path(path), Path(top)
    for parent in reversed(path.relative_to(top).parents):
        folder = top / parent
        if folder == top:
            continue
        kind = path_kind(folder)
        if kind not in (None, "folder"):
            raise NotARegularFile(kind_message(folder, kind, f"the folder of {what} {path},"))


def replace(source: str | os.PathLike, target: str | os.PathLike, what: str = "the file") -> None:
    """Rename the finished ``source`` onto ``target`` (atomic on one disk), once ``target`` is
    known to be absent or a regular file."""
    check_target(source, "the temporary file")
    check_target(target, what)
    os.replace(source, target)


def open_new(path: str | os.PathLike, what: str = "the file", mode: int = 0o644) -> int:
    """A descriptor of a file created at ``path`` by this call (``O_EXCL``: nothing was there,
    not even a dangling link). ``FileExistsError`` when something is; the caller decides."""
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, mode)


def open_existing(path: str | os.PathLike, what: str = "the file") -> int:
    """A read-write descriptor of the regular file at ``path``, never through a link and never
    a fifo (opened without blocking, checked, then made blocking again)."""
    check_target(path, what)
    try:
        fd = os.open(path, os.O_RDWR | _NOFOLLOW | _CLOEXEC | _NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # made a link since the check
            raise NotARegularFile(kind_message(path, "symbolic link", what)) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotARegularFile(kind_message(path, path_kind(path) or "special file", what))
    if _NONBLOCK:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~_NONBLOCK)
    return fd


def open_for_writing(path: str | os.PathLike, what: str = "the file"):
    """``path`` open for reading and writing (``r+b``, at offset 0, nothing truncated): created by
    this call when nothing is there, else the regular file that is — never through a link."""
    try:
        fd = open_new(path, what)
    except FileExistsError:
        fd = open_existing(path, what)
    return os.fdopen(fd, "r+b")


# -- removal ----------------------------------------------------------------------------------
def remove_owned(path: str | os.PathLike, is_ours: Callable[[Path], bool] | None = None,
                 what: str = "the file", not_ours: str = "", links: bool = False) -> bool:
    """Delete the regular file ``path`` when ``is_ours(path)`` says the product made it (no test:
    a name only the product gives, such as its own temporary files). ``False`` when nothing was
    there. A link (unless ``links``: a layout made of links, removed as links, never their
    targets), a folder or a fifo, and a file that is not ours, are left as they are and refused
    (:class:`NotARegularFile`, :class:`NotOurs` with ``not_ours`` as the fix)."""
    path = Path(path)
    kind = path_kind(path)
    if kind is None:
        return False
    if kind == "symbolic link" and links:
        os.unlink(path)  # the link itself: unlink never follows one
        return True
    if kind != "file":
        raise NotARegularFile(kind_message(path, kind, what))
    if is_ours is not None and not is_ours(path):
        raise NotOurs(f"{what} {path} was not made by GeoFidelity — it is left as it is"
                      + (f": {not_ours}" if not_ours else ""))
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    return True


def discard_temporary(path: str | os.PathLike) -> None:
    """Remove a temporary file of this run (a random name it chose); a link there is removed as
    a link (``unlink`` never follows one), a folder is left."""
    if path_kind(path) not in (None, "folder"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def remove_tree(folder: str | os.PathLike, prefix: str) -> bool:
    """Delete a folder the product made (its name starts with ``prefix``) and what it holds; a
    link of that name is removed as a link, and links inside are never followed."""
    folder = Path(folder)
    if not folder.name.startswith(prefix):
        raise NotOurs(f"{folder} is not a folder GeoFidelity made (no {prefix} name) — it is left as it is")
    kind = path_kind(folder)
    if kind is None:
        return False
    if kind != "folder":
        discard_temporary(folder)
        return True
    shutil.rmtree(folder, ignore_errors=True)
    return True


# -- signatures -------------------------------------------------------------------------------
def read_head(path: str | os.PathLike, size: int = 100) -> bytes | None:
    """The first ``size`` bytes of the regular file ``path`` (``None`` for anything else or when
    it cannot be read) — never through a link, never blocking on a fifo."""
    if path_kind(path) != "file":
        return None
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK)
    except OSError:
        return None
    try:
        return os.read(fd, size)
    except OSError:
        return None
    finally:
        os.close(fd)


def sqlite_application_id(path: str | os.PathLike) -> int | None:
    """The ``application_id`` in the header of the SQLite file ``path`` (0 when none was set);
    ``None`` when it is no SQLite file. Read from the bytes, so it works on a damaged file too."""
    head = read_head(path)
    if not head or not head.startswith(SQLITE_MAGIC) or len(head) < _APP_ID_OFFSET + 4:
        return None
    return int.from_bytes(head[_APP_ID_OFFSET:_APP_ID_OFFSET + 4], "big")


def cache_entry_is_ours(path: str | os.PathLike, *signatures: bytes) -> bool:
    """An entry of a cache folder (at a name only the cache gives) that the cache wrote: it starts
    with one of ``signatures``, is empty, or holds bytes that are no text at all — what a disk
    fault leaves of an entry. A text file of someone else's that found its way there is not."""
    head = read_head(path, 512)
    if head is None:
        return False
    if not head.strip() or any(head.startswith(s) for s in signatures):
        return True
    try:  # a character cut at the end of the head is no damage
        text = codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return True
    return "\x00" in text


def describe_content(path: str | os.PathLike) -> str:
    """What a file that is not ours looks like, in a few words, for the refusal."""
    head = read_head(path, 512)
    if head is None:
        return "it cannot be read"
    if not head:
        return "it is empty"
    if head.startswith(SQLITE_MAGIC):
        return "another program's SQLite database"
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "it is not an SQLite database"
    first = text.splitlines()[0] if text.splitlines() else ""
    kind = "a CSV table" if first.count(",") >= 1 or first.count(";") >= 1 else "a text file"
    return f"{kind}, starting {first[:60]!r}"


def check_sqlite_cache(path: str | os.PathLike, application_id: int, what: str, hint: str = "") -> None:
    """Before SQLite opens the cache file ``path``: nothing is there, an empty file, or an SQLite
    file marked ``application_id`` (or unmarked: a cache an earlier version made, checked by its
    tables once open). A link, a fifo, a text file or another program's database is refused —
    ``<path> is not a GeoFidelity <what> (…) (<hint>) — give a new cache path`` — and left as it is."""
    kind = path_kind(path)
    if kind is None:
        return
    if kind != "file":
        raise NotARegularFile(kind_message(path, kind, f"the {what}"))
    if read_head(path) == b"":
        return  # an empty file holds nothing that could be lost
    found = sqlite_application_id(path)
    if found in (0, application_id):
        return
    content = describe_content(path) if found is None else \
        f"an SQLite database of another program, application id {found:#x}"
    raise NotOurs(f"{path} is not a GeoFidelity {what} ({content}){f' ({hint})' if hint else ''} — it is left as "
                  "it is: give a new cache path (a file that does not exist yet), or the cache GeoFidelity made")


# -- diagnosis --------------------------------------------------------------------------------
#: the errno values that say the disk or its permissions failed — not the file
ENVIRONMENT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO, errno.EACCES,
                                errno.EPERM})

#: what SQLite says for each of them (it reports no errno)
_SQLITE_SIGNS = (("database or disk is full", errno.ENOSPC), ("disk i/o error", errno.EIO),
                 ("attempt to write a readonly database", errno.EROFS), ("readonly", errno.EROFS),
                 ("read-only", errno.EROFS))


def os_errno(exc: BaseException) -> int | None:
    """The errno of an OS failure, from an ``OSError`` or from SQLite's words for one."""
    if isinstance(exc, OSError):
        return exc.errno if exc.errno in ENVIRONMENT_ERRNOS else None
    low = str(exc).lower()
    if isinstance(exc, sqlite3.Error):
        for sign, number in _SQLITE_SIGNS:
            if sign in low:
                return number
    return None


def diagnose_os_error(exc: BaseException, path: str | os.PathLike | None = None, what: str | None = None) -> str | None:
    """``cannot use <path>: <what failed> — <fix>`` when ``exc`` (an ``OSError`` or SQLite's report)
    is a full disk, a quota, a size limit, a read-only disk, an I/O error or a permission; ``None``
    for anything else — only then may a caller call the file damaged. ``what`` (``"the benchmark
    store"``) is said not to be damaged."""
    number = os_errno(exc)
    if number is None:
        return None
    if isinstance(exc, OSError):
        text = describe_os_error(exc, path)
    elif number == errno.EIO:  # SQLite says the same for a full disk, a size limit and a failing disk
        text = (f"cannot use {path or 'a database'}: the disk could not be read or written (SQLite: "
                f"{' '.join(str(exc).split())[:80]}) — the disk may be full, a file size limit reached (ulimit -f) "
                "or the disk failing: free some space and check the disk, then run again")
    else:
        text = (describe_os_error(OSError(number, os.strerror(number)), path)
                + f" (SQLite: {' '.join(str(exc).split())[:80]})")
    if what:
        if number in (errno.EROFS, errno.EACCES, errno.EPERM):
            text += f"; {what} was not changed"
        elif number == errno.EIO:
            text += (f"; this does not show that {what} is damaged — do not delete or rebuild it before the "
                     "disk is checked")
        else:
            text += f"; {what} is not damaged — do not delete or rebuild it"
    return text
