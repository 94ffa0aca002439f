"""Waiting for an SQLite file that another run is using (the benchmark store, the feature cache).

SQLite makes a second writer wait for the first; without a word that wait looks like a hang. The
first attempt here waits only a moment; when the file is still locked, the user is told at once
that this run waits for another one, and the attempt is repeated with the rest of the time. If the
lock outlasts that, the caller reports it (docs/method.md, "Errors and exit codes").
"""
from __future__ import annotations

import sqlite3
import time

#: How long a lock may last before the user is told that this run is waiting.
FIRST_WAIT_S = 1.0
#: How long a run waits by default for a file that another run is using.
DEFAULT_LOCK_TIMEOUT_S = 60.0


def is_busy(exc: BaseException) -> bool:
    """A lock held by another connection for longer than the busy timeout (not damage)."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def set_busy_timeout(conn: sqlite3.Connection, seconds: float) -> None:
    conn.execute(f"PRAGMA busy_timeout = {max(0, int(seconds * 1000))}")


def wait_patiently(conn: sqlite3.Connection, action, timeout_s: float, on_wait, first_wait_s: float = FIRST_WAIT_S):
    """Run ``action()``; while the database is locked call ``on_wait(timeout_s)`` once and keep
    trying until ``timeout_s`` has passed in all. The last busy error is raised to the caller."""
    start = time.monotonic()
    set_busy_timeout(conn, min(first_wait_s, timeout_s / 2))  # a short timeout also warns first
    warned = False
    try:
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                left = timeout_s - (time.monotonic() - start)
                if not is_busy(exc) or left <= 0:
                    raise
                if not warned:
                    on_wait(timeout_s)
                    warned = True
                set_busy_timeout(conn, left)
                time.sleep(0.05)  # a lock reported without a wait (WAL) is tried again, not spun on
    finally:
        set_busy_timeout(conn, timeout_s)
