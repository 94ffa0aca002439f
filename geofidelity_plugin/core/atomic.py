"""Atomic file writes: a crash never leaves a half-written file that a later run trusts.

Everything is written to a temporary sibling (same directory, so ``os.replace`` is atomic on
POSIX) and renamed into place only once complete and flushed.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Iterator


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; rename it onto ``target`` on success.

    On any exception the temporary file is removed and ``target`` is left untouched.
    """
    target = Path(target)
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
        os.replace(tmp_path, target)
    finally:
        for leftover in (tmp_path, Path(str(tmp_path) + "-journal"), Path(str(tmp_path) + "-wal"),
                         Path(str(tmp_path) + "-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


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
