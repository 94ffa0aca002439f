"""Atomic file writes: a crash never leaves a half-written file that a later run trusts.

Everything is written to a temporary sibling (same directory, so ``os.replace`` is atomic on
POSIX) and renamed into place only once complete and flushed. Every rename and removal goes
through :mod:`.state_files`: a target that is a link, a folder or a fifo is refused, never
followed or replaced.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
from pathlib import Path
from typing import Iterator

from . import state_files
from .parent_watch import check_publish


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; rename it onto ``target`` on success.

    On any exception the temporary file is removed and ``target`` is left untouched. A ``target``
    that is a link (even to a file), a folder or a fifo is refused before anything is written.
    """
    target = Path(target)
    state_files.check_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix or target.suffix or ".tmp",
                               dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    tmp_path.unlink()  # writers (GDAL, fiona) want to create the file themselves
    try:
        yield tmp_path
        if not tmp_path.exists():
            raise OSError(f"nothing was written to the temporary file for {target}")
        _fsync(tmp_path)
        check_complete(tmp_path, target)  # a writer that failed quietly (a full disk) never replaces a good file
        check_publish(target)  # not once the driver that waits for it is gone
        state_files.replace(tmp_path, target)
    except OSError as exc:
        if _is_write_failure(exc, tmp_path, target):
            from .errors import OutputError, describe_os_error

            raise OutputError(state_files.diagnose_os_error(exc, target) or describe_os_error(exc, target)) from exc
        raise
    finally:
        for leftover in (tmp_path, Path(str(tmp_path) + "-journal"), Path(str(tmp_path) + "-wal"),
                         Path(str(tmp_path) + "-shm")):
            state_files.discard_temporary(leftover)


def _pdf_problem(path: Path) -> str | None:
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - 2048))
        tail = fh.read()
    if not tail.rstrip().endswith(b"%%EOF") or b"startxref" not in tail:
        return "it has no PDF trailer (%%EOF)"
    return None


def _png_problem(path: Path) -> str | None:
    with open(path, "rb") as fh:
        head = fh.read(8)
        fh.seek(max(0, path.stat().st_size - 12))
        tail = fh.read()
    return None if head == b"\x89PNG\r\n\x1a\n" and tail[4:8] == b"IEND" else "it has no PNG end chunk"


def _jpeg_problem(path: Path) -> str | None:
    with open(path, "rb") as fh:
        head = fh.read(2)
        fh.seek(max(0, path.stat().st_size - 32))
        tail = fh.read()
    return None if head == b"\xff\xd8" and b"\xff\xd9" in tail else "it has no JPEG end marker"


def _sqlite_problem(path: Path) -> str | None:
    import sqlite3

    with open(path, "rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            return "it has no SQLite header"
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            result = db.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return f"SQLite cannot read it ({exc})"
    return None if result == "ok" else f"SQLite's check says {result}"


def _tiff_problem(path: Path) -> str | None:
    with open(path, "rb") as fh:
        head = fh.read(4)
    return None if head in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+") else "it has no TIFF header"


def _zip_problem(path: Path) -> str | None:
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError) as exc:
        return f"it is not a complete archive ({exc})"
    return None if bad is None else f"its member {bad} is damaged"


#: how a finished file of each kind is known to be complete (the writer's own errors may go unseen:
#: Qt's PDF writer and some encoders carry on after a failed write)
COMPLETE_CHECKS = {".pdf": _pdf_problem, ".png": _png_problem, ".jpg": _jpeg_problem, ".jpeg": _jpeg_problem,
                   ".gpkg": _sqlite_problem, ".tif": _tiff_problem, ".tiff": _tiff_problem, ".qgz": _zip_problem,
                   ".zip": _zip_problem}


def check_complete(path: Path, target: Path | None = None) -> None:
    """Refuse (an :class:`OutputError`) a written file that is empty or, for the kinds of
    :data:`COMPLETE_CHECKS` (by ``target``'s suffix), not complete — before it replaces anything."""
    from .errors import OutputError

    target = Path(target or path)
    size = path.stat().st_size
    check = COMPLETE_CHECKS.get(target.suffix.lower())
    if check is None:
        return
    problem = "it is empty" if size == 0 else check(path)
    if problem:
        raise OutputError(f"the file written for {target} is incomplete ({problem}; {size} bytes) — the disk may be "
                          "full or the writer failed; nothing was replaced (an earlier file there is kept): free "
                          "some space, or choose another folder, and run again")


_WRITE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS)


def _is_write_failure(exc: OSError, tmp: Path, target: Path) -> bool:
    """A failure of this write (not, say, of reading an input inside the ``with`` block)."""
    return exc.errno in _WRITE_ERRNOS or exc.filename in (None, str(tmp), str(target), str(target.parent))


def _fsync(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def write_bytes(target: str | os.PathLike, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: str | os.PathLike, text: str) -> None:
    write_bytes(target, text.encode("utf-8"))


def write_json(target: str | os.PathLike, obj) -> None:
    write_text(target, json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n")


#: the name of every staging folder (and nothing else) starts with this
STAGING_PREFIX = ".geofidelity-partial-"


class StagedFolder:
    """Outputs of one run, written into a hidden staging folder and published together.

    ``path(name)`` gives where to write an output; on success :func:`staged_folder` removes the
    folder's old manifest (the folder is now incomplete), moves every staged file into place, and
    writes the new manifest *last*: a folder whose manifest is missing is incomplete and is never
    trusted (``report`` refuses it). On failure the staging folder is deleted and the earlier
    outputs and manifest stay exactly as they were. Other files in the folder are never touched.
    Before anything moves, every place a file moves to is checked (:mod:`.state_files`): one that
    is a link, a folder or a fifo, or lies in a sub-folder that is a link, refuses the whole
    publication, so nothing is published in part and nothing outside the folder is written.
    """

    def __init__(self, folder: Path, staging: Path):
        self.folder = folder
        self.staging = staging

    def path(self, name: str) -> Path:
        staged = self.staging / name
        staged.parent.mkdir(parents=True, exist_ok=True)
        return staged

    def final(self, name: str) -> Path:
        """Where ``name`` will be once published."""
        return self.folder / name


@contextlib.contextmanager
def staged_folder(folder: str | os.PathLike, manifest_name: str = "manifest.json") -> Iterator[StagedFolder]:
    """Yield a :class:`StagedFolder`; write the manifest to ``stage.path(manifest_name)``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
    try:
        stage = StagedFolder(folder, staging)
        yield stage
        manifest = staging / manifest_name
        if not manifest.exists():
            raise OSError(f"the run wrote no manifest into {staging}")
        check_publish(folder)  # not once the driver that waits for it is gone
        staged = sorted(p for p in staging.rglob("*") if p.is_file() and p != manifest)
        for path in [*staged, manifest]:  # all checked before the first one moves
            target = folder / path.relative_to(staging)
            state_files.check_parents(target, folder)
            state_files.check_target(target)
        state_files.remove_owned(folder / manifest_name, what="the manifest")
        for path in staged:
            _fsync(path)
            target = folder / path.relative_to(staging)
            target.parent.mkdir(parents=True, exist_ok=True)
            state_files.replace(path, target)
        _fsync(manifest)
        (folder / manifest_name).parent.mkdir(parents=True, exist_ok=True)  # a manifest in a sub-folder
        state_files.replace(manifest, folder / manifest_name, "the manifest")
    finally:
        state_files.remove_tree(staging, STAGING_PREFIX)


def remove_stale_staging(folder: str | os.PathLike) -> None:
    """Delete staging folders a killed run left behind (they are never read)."""
    for stale in Path(folder).glob(STAGING_PREFIX + "*"):
        state_files.remove_tree(stale, STAGING_PREFIX)
