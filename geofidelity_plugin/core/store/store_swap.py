"""Build or change a benchmark store under a temporary name and move it into place only when the
whole step succeeded (docs/method.md, "Errors and exit codes"): a failed or cancelled step
leaves no new store behind and never changes an existing one.

Used by steps that write many tables from one input (importing a release), where a failure
half-way through must not leave an empty or half-filled store that a later run trusts.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Iterator

from .. import state_files
from ..output_paths import check_output_file
from . import writer_lock
from .store import BenchmarkStore

PREFIX = ".geofidelity-partial-"
log = logging.getLogger("geofidelity")


def _missing_ancestors(folder: Path) -> list[Path]:
    """The folders above ``folder`` (itself included) that do not exist yet, deepest first."""
    missing = []
    for parent in (folder, *folder.parents):
        if parent.exists():
            break
        missing.append(parent)
    return missing


@contextlib.contextmanager
def replacing_store(store_path: str | os.PathLike) -> Iterator[BenchmarkStore]:
    """Yield an open store under a temporary name beside ``store_path``: a copy of the existing
    store, or a new one. On success it is closed and renamed onto ``store_path``; on any
    failure it is deleted, with any folder this call created, and ``store_path`` is untouched.

    The store's writer lock (:mod:`.writer_lock`) is held from the copy to the rename, so no other
    run writes the store in between (its writes would be lost with the old file).
    """
    target = check_output_file(store_path, "benchmark store", writes="store")
    created = _missing_ancestors(target.parent)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with writer_lock.writing(target, warn=lambda message: log.warning("%s", message)):
            with _replacing(target) as store:
                yield store
    except BaseException:
        for folder in created:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


@contextlib.contextmanager
def _replacing(target: Path) -> Iterator[BenchmarkStore]:
    fd, name = tempfile.mkstemp(prefix=f"{PREFIX}{target.stem}-", suffix=".sqlite", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        if target.exists():
            with BenchmarkStore(target, create=False) as old:
                copy = sqlite3.connect(str(tmp))
                try:
                    old.db.backup(copy)
                finally:
                    copy.close()
        with BenchmarkStore(tmp, writer=False) as store:
            yield store
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        state_files.replace(tmp, target, "the benchmark store")
    except BaseException:
        for leftover in (tmp, *(Path(f"{tmp}{s}") for s in ("-wal", "-shm", "-journal"))):
            state_files.discard_temporary(leftover)
        raise
