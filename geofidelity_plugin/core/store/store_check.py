"""Checks a benchmark store file when it is opened, before any long work: it must be a file (not
a folder), an SQLite database, intact (SQLite's quick check) and hold the store's tables. Every
failure is an :class:`~geofidelity_plugin.core.errors.InputError` naming the file, what is wrong
and the fix (docs/method.md, "Errors and exit codes"). A file that is not a store is never
initialised or changed.
"""
from __future__ import annotations

import contextlib
import functools
import json
import re
import sqlite3
from pathlib import Path

from .. import state_files
from ..errors import InputError
from .sqlite_locks import is_busy

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


def check_store_path(path) -> Path:
    """The store path as given: an empty one is refused (``Path("")`` would be the current folder)."""
    if path is None or not str(path).strip():
        raise InputError("no benchmark store was given — give the path of the .sqlite store that "
                         "fetch-mapillary, import-release or the demo wrote")
    return Path(path).expanduser()


def check_store_file(path: Path, create: bool) -> bool:
    """Check ``path`` before SQLite opens it; ``True`` when a new store is to be created there.
    A new store is never made through a link (SQLite would create the link's target, wherever
    it points) nor over a fifo or a device (:mod:`..state_files`)."""
    kind = state_files.path_kind(path)
    if kind == "symbolic link" and (not path.exists() or (create and path.is_file() and not path.stat().st_size)):
        raise InputError(state_files.kind_message(path, kind, "the benchmark store")
                         .replace("give the real path", "give the real path of the store"))
    if kind not in (None, "file", "folder", "symbolic link"):
        raise InputError(state_files.kind_message(path, kind, "the benchmark store"))
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
        diagnosis = state_files.diagnose_os_error(exc, path, "the benchmark store")
        raise InputError(diagnosis or f"the benchmark store {path} cannot be read ({exc.strerror or exc}) — check "
                         "its permissions") from None
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
        if is_busy(exc):
            raise  # the caller waits for the other run
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


@contextlib.contextmanager
def disk_failures(path: Path):
    """SQLite's report of a full, read-only or failing disk during a write, as a message naming
    the store and saying that it is not damaged (the transaction was rolled back)."""
    try:
        yield
    except sqlite3.Error as exc:
        diagnosis = state_files.diagnose_os_error(exc, path, "the benchmark store")
        if diagnosis is None or is_busy(exc):
            raise
        raise InputError(diagnosis) from None


def translate(exc: Exception, path: Path) -> InputError:
    """An SQLite (or decoding) failure while reading the store, as a message for the user: a full,
    read-only or failing disk first (:func:`..state_files.diagnose_os_error`), damage only when
    it is none of those — advice to restore a store that is whole would throw it away."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return InputError(f"the benchmark store {path} is locked by another program for too long — "
                          "wait for the other GeoFidelity run to finish (or close it) and try again")
    diagnosis = state_files.diagnose_os_error(exc, path, "the benchmark store")
    if diagnosis and not ("readonly" in text or "read-only" in text):
        return InputError(diagnosis)
    if isinstance(exc, sqlite3.OperationalError):
        if "locked" in text or "busy" in text:
            return InputError(f"the benchmark store {path} is locked by another program for too long — "
                              "wait for the other GeoFidelity run to finish (or close it) and try again")
        if "readonly" in text or "read-only" in text:
            return InputError(f"the benchmark store {path} cannot be written ({text}) — make the file and its "
                              "folder writable, or copy the store with its image folders to a writable place")
        if "unable to open" in text:
            return InputError(f"the benchmark store {path} cannot be opened ({text}) — check the path and "
                              "that its folder can be written")
    if not isinstance(exc, sqlite3.DatabaseError):
        return damaged(path, text or type(exc).__name__, "a record cannot be read")
    return damaged(path, text or type(exc).__name__)


# -- bringing an older store up to date ------------------------------------------------------------
_CONSTRAINTS = ("PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT")


def _top_level_items(body: str) -> list[str]:
    """``body`` split at the commas outside parentheses."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(body):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    return [item.strip() for item in items if item.strip()]


def schema_columns(schema: str) -> dict[str, list[tuple[str, str]]]:
    """table → [(column, its definition)] of every ``CREATE TABLE IF NOT EXISTS`` in ``schema``."""
    tables = {}
    for match in re.finditer(r"CREATE TABLE IF NOT EXISTS (\w+)\s*\(", schema):
        depth, end = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(schema[end], 0)
            end += 1
        columns = []
        for item in _top_level_items(schema[match.end():end - 1]):
            name, _, definition = item.partition(" ")
            if name.upper() not in _CONSTRAINTS:
                columns.append((name, definition.strip()))
        tables[match.group(1)] = columns
    return tables


def missing_columns(db: sqlite3.Connection, path: Path, tables: dict) -> list[tuple[str, str, str]]:
    """(table, column, definition) of every column of ``tables`` that an existing table of the store
    lacks — a store written by an older version. A column that cannot be added to a table with rows
    (a key, or NOT NULL without a default) means the file is not a store of any version."""
    missing = []
    try:
        for table, columns in tables.items():
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if have:  # a table that is missing altogether is created with the schema
                missing += [(table, name, definition) for name, definition in columns if name not in have]
    except sqlite3.DatabaseError as exc:
        if is_busy(exc):
            raise
        raise translate(exc, path) from None
    for table, name, definition in missing:
        text = definition.upper()
        if "PRIMARY KEY" in text or "UNIQUE" in text or ("NOT NULL" in text and "DEFAULT" not in text):
            raise damaged(path, f"the table {table} has no column {name}", "a column every store has is missing")
    return missing


def add_columns_statements(missing: list[tuple[str, str, str]]) -> list[str]:
    return [f"ALTER TABLE {table} ADD COLUMN {name} {definition}" for table, name, definition in missing]


def read_only_upgrade(path: Path, tables: list[str], missing: list[tuple[str, str, str]], detail: str) -> InputError:
    """The store needs the tables or columns of this version, and its file cannot be written."""
    lacks = [f"the column {table}.{name}" for table, name, _ in missing] + [f"the table {t}" for t in tables]
    shown = ", ".join(lacks[:4]) + (f" and {len(lacks) - 4} more" if len(lacks) > 4 else "")
    return InputError(f"the benchmark store {path} was written by an older GeoFidelity and lacks {shown}; "
                      f"it is brought up to date when opened, but the file cannot be written ({detail}) — make "
                      "it writable (or copy the store with its image folders to a writable place) and run again")


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
