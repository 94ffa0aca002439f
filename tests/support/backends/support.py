"""What the backend-process tests share: an evaluable store on disk, a stand-in backend
executable, a feedback that records (and can cancel), and SQLite's own integrity check."""
from __future__ import annotations

import os
import re
import sqlite3
import stat
import sys
import time
from pathlib import Path


HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]


def venv_python() -> str:
    """The project's backend Python (the checkout's .venv), else the one running the tests."""
    candidate = REPO / ".venv" / "bin" / "python"
    return str(candidate) if candidate.exists() else sys.executable


def make_evaluable(root: Path, per_city: int) -> tuple[Path, Path]:
    """A benchmark store (3 cities × ``per_city`` segments, 7 reference images each, one model
    with 4 conditions × 4 images per segment) and a tiny DINOv2 saved to disk."""
    from eval_fixtures import make_store
    from tiny_models import make_tiny_dinov2

    store, _ = make_store(root, per_city=per_city, refs=7, models=("m1",))
    store.close()
    return root / "store.sqlite", make_tiny_dinov2(root / "dinov2")


def backend_wrapper(folder: Path, body: str) -> Path:
    """An executable shell script to configure as the backend Python; ``body`` ends with an
    ``exec`` of the real Python (``$PY``) on whatever it should run."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "backend-python"
    path.write_text(f'#!/bin/sh\nPY="{venv_python()}"\n{body}\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def fake_backend(folder: Path, script: str) -> Path:
    """A wrapper that runs ``tests/backends/<script>`` with the backend's arguments."""
    return backend_wrapper(folder, f'exec "$PY" "{HERE / script}" "$@"')


def integrity(path: Path) -> list:
    """``PRAGMA integrity_check`` of a SQLite file: ``[("ok",)]`` when it is sound."""
    db = sqlite3.connect(str(path))
    try:
        return db.execute("PRAGMA integrity_check").fetchall()
    finally:
        db.close()


def gone(pid: int, within_s: float = 5.0) -> bool:
    """True when neither the process nor any member of its process group is left, allowing
    ``within_s`` for members that were signalled with it to finish exiting (a member that has just
    died is still counted until the system reaps it; one that ignores the signal stays and fails)."""
    deadline = time.monotonic() + within_s
    while True:
        left = False
        for probe in (os.kill, os.killpg):
            try:
                probe(pid, 0)
            except ProcessLookupError:
                continue
            left = True
            break
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def __getattr__(name: str):
    """``RecordingFeedback`` (the one recording feedback, tests/support/recording.py), imported
    when asked for: it needs QGIS, and the qgis-free tests use this module too."""
    if name == "RecordingFeedback":
        from recording import RecordingFeedback

        return RecordingFeedback
    raise AttributeError(name)
