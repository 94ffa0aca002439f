"""Checks a benchmark store file when it is opened, before any long work: it must be a file (not
a folder), an SQLite database, intact (SQLite's quick check) and hold the store's tables. Every
failure is an :class:`~geofidelity_plugin.core.errors.InputError` naming the file, what is wrong
and the fix (docs/method.md, "Errors and exit codes"). A file that is not a store is never
initialised or changed.
"""
from __future__ import annotations

import functools
import json
import sqlite3
from pathlib import Path

from ..errors import InputError

SQLITE_MAGIC = b"SQLite format 3\x00"
#: Tables every store has had since its first version; the others are added when missing.
REQUIRED_TABLES = ("segments", "reference_images")

BUILD_HINT = ("give the .sqlite store that fetch-mapillary, import-release or the demo wrote, or build one "
              "with the earlier stages (docs/method.md)")


def _not_a_store(path: Path, what: str) -> InputError:
    return InputError(f"{path} is not a GeoFidelity benchmark store ({what}) — check the path: {BUILD_HINT}")


def damaged(path: Path, detail: str, what: str = "SQLite integrity check failed") -> InputError:
    detail = " ".join(str(detail).split())[:200]
    return InputError(f"the benchmark store {path} is damaged ({what}: {detail}) — "
                      "restore it from a backup, or build it again (import-release, or the earlier stages)")


def check_store_file(path: Path, create: bool) -> bool:
    """Check ``path`` before SQLite opens it; ``True`` when a new store is to be created there."""
    if path.is_dir():
        raise InputError(f"the benchmark store {path} is a folder — give the .sqlite file, e.g. "
                         f"{path / 'benchmark.sqlite'}")
    if not path.exists():
        if create:
            return True
        raise InputError(f"benchmark store not found: {path} — check the path, or import a release "
                         "(import-release) or build one with the earlier stages first")
    if not path.is_file():
        raise InputError(f"the benchmark store {path} is not a regular file — give the .sqlite store file")
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise InputError(f"the benchmark store {path} cannot be read ({exc.strerror or exc}) — check its "
                         "permissions") from None
    if not head:
        if create:
            return True  # an empty file holds nothing that could be lost
        raise _not_a_store(path, "an empty file")
    if head != SQLITE_MAGIC:
        raise _not_a_store(path, "not an SQLite database")
    return False


def check_store_db(db: sqlite3.Connection, path: Path, schema_objects=()) -> bool:
    """The open database passes SQLite's quick check and holds the store's tables; ``True`` when
    it also has every one of ``schema_objects`` (tables and indexes), so nothing is to be added."""
    try:
        result = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
        objects = {row[0]: row[1] for row in db.execute(
            "SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    except sqlite3.DatabaseError as exc:
        raise translate(exc, path) from None
    tables = sorted(name for name, kind in objects.items() if kind == "table")
    if result != ["ok"]:
        raise damaged(path, "; ".join(result[:3]))
    missing = [t for t in REQUIRED_TABLES if t not in tables]
    if missing:
        if not tables:
            raise _not_a_store(path, "an SQLite database with no tables")
        shown = ", ".join(tables[:8]) + (", …" if len(tables) > 8 else "")
        raise _not_a_store(path, f"an SQLite database with the tables {shown} but no {' or '.join(missing)}")
    return all(name in objects for name in schema_objects)


def translate(exc: Exception, path: Path) -> InputError:
    """An SQLite (or decoding) failure while reading the store, as a message for the user."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError):
        if "locked" in text or "busy" in text:
            return InputError(f"the benchmark store {path} is locked by another program for too long — "
                              "wait for the other GeoFidelity run to finish (or close it) and try again")
        if "unable to open" in text:
            return InputError(f"the benchmark store {path} cannot be opened ({text}) — check the path and "
                              "that its folder can be written")
    if not isinstance(exc, sqlite3.DatabaseError):
        return damaged(path, text or type(exc).__name__, "a record cannot be read")
    return damaged(path, text or type(exc).__name__)


def reading(method):
    """Decorate a store read: damage found while reading becomes the store's damage message."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.ProgrammingError, sqlite3.IntegrityError):
            raise  # a misuse or a constraint, not damage
        except (sqlite3.DatabaseError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise translate(exc, self.path) from None

    return wrapper
