"""On-disk cache of per-image embeddings (method §5: "cached by image content hash + model id
+ preprocessing, so a re-run recomputes only what changed").

A row is keyed by :class:`CacheKey` — the sha256 of the image file's bytes, the model id, the
model revision (hub commit or weights sha256) and a preprocessing signature — and holds a
float32 vector as a BLOB with its dimension and a CRC-32 of the bytes.

Why SQLite: several processes (a QGIS task and a CLI run, or parallel workers) may fill the same
cache. In WAL mode readers never block the writer; each :meth:`FeatureCache.put_many` is one
``BEGIN IMMEDIATE`` transaction, so a writer killed mid-batch leaves nothing of that batch (the
rollback happens at the next open) and a row is either wholly there or absent. On read a row
whose length or CRC does not match, or whose vector holds NaN or infinity, is treated as a miss,
deleted and recomputed — the run says how many — so a poisoned row heals on the next run.

Every cache file carries :data:`APPLICATION_ID` in its SQLite header. A cache of ours that fails
SQLite's quick check at open is deleted and rebuilt, with a warning naming it (it only ever holds
what can be recomputed); a file without the mark — a CSV given by a slip of the option, another
program's database — is never deleted or changed: the run is refused with the fix
(:mod:`..state_files`). A full or read-only disk is said as such, never called damage; a write
that fails during the run (a full disk) is a warning, not a failure of the run. Keep the cache on
a local disk: SQLite's WAL does not work over network file systems.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np

from geofidelity_plugin.core import state_files
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.paths import cache_dir
from geofidelity_plugin.core.store.sqlite_locks import is_busy as _is_busy
from geofidelity_plugin.core.store.sqlite_locks import wait_patiently

log = logging.getLogger("geofidelity")

SCHEMA_VERSION = 1
#: the mark in every feature cache's SQLite header ("GFFC"): a file without it is not ours
APPLICATION_ID = 0x47464643
_CHUNK = 500  # image hashes per SELECT … IN (…), well under SQLite's variable limit

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS embeddings (
    model_id       TEXT    NOT NULL,
    model_revision TEXT    NOT NULL,
    preprocessing  TEXT    NOT NULL,
    image_sha256   TEXT    NOT NULL,
    dim            INTEGER NOT NULL,
    vector         BLOB    NOT NULL,
    crc32          INTEGER NOT NULL,
    created_unix   REAL    NOT NULL,
    PRIMARY KEY (model_id, model_revision, preprocessing, image_sha256)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class CacheKey:
    """What makes an embedding reusable: same bytes, same weights, same preprocessing."""

    image_sha256: str
    model_id: str
    model_revision: str
    preprocessing: str


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    writes: int = 0
    corrupt: int = 0  # rows found but failing the length/CRC check (counted as misses too)


def default_cache_path() -> Path:
    return cache_dir() / "features.sqlite"


class FeatureCache:
    """Embedding cache in one SQLite file; safe to share between threads and processes."""

    def __init__(self, path: str | os.PathLike | None = None, busy_timeout_s: float = 60.0, warn=None,
                 hint: str = ""):
        """``warn``: called with each warning (default: the ``geofidelity`` logger); ``hint``: said
        when the file is not a feature cache (the option the user may have meant)."""
        self.path = Path(path) if path is not None else default_cache_path()
        self.hint = hint
        self.busy_timeout_s = float(busy_timeout_s)
        self.stats = CacheStats()
        self.warn = warn or (lambda message: log.warning("%s", message))
        self._lock = threading.RLock()
        self._told_waiting = False
        self._conn: sqlite3.Connection | None = None
        self._pid: int | None = None
        self._connection()  # fail early on an unwritable path; rebuild a damaged file

    # -- connection -------------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        # a connection inherited through fork() must not be used in the child: open a new one
        self._conn, self._pid = None, os.getpid()
        if self.path.is_dir():
            raise InputError(f"feature cache {self.path} is a folder — remove it or choose another cache "
                             "path (GEOFIDELITY_CACHE_DIR)")
        self._check_ours()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = self._open()
        except sqlite3.DatabaseError as exc:
            if _is_busy(exc):
                raise self._in_use() from None
            self._check_disk(exc)
            if not _is_damage(exc) or not self._rebuild(exc):
                raise InputError(f"feature cache {self.path} cannot be used ({exc}) — choose another cache "
                                 "path") from None
            try:
                conn = self._open()
            except sqlite3.DatabaseError as again:
                if _is_busy(again):
                    raise self._in_use() from None
                self._check_disk(again)
                raise InputError(f"feature cache {self.path} cannot be used ({again}) — choose another cache "
                                 "path") from None
        self._conn = conn
        return conn

    def _check_ours(self) -> None:
        """Before SQLite touches the file: a link, a fifo, a text file or another program's
        database is refused and left as it is (:mod:`..state_files`)."""
        state_files.check_sqlite_cache(self.path, APPLICATION_ID, "feature cache", self.hint)

    def _check_disk(self, exc: Exception) -> None:
        """A full, read-only or failing disk is said as such before anything is called damage."""
        diagnosis = state_files.diagnose_os_error(exc, self.path, "the feature cache")
        if diagnosis:
            raise InputError(diagnosis) from None

    def _in_use(self) -> InputError:
        return InputError(f"the feature cache {self.path} is in use by another run (still locked after "
                          f"{self.busy_timeout_s:g} s) — wait for it to finish, then run again; or give this "
                          "run a cache folder of its own (GEOFIDELITY_CACHE_DIR)")

    def _waiting(self, timeout_s: float) -> None:
        if self._told_waiting:
            return
        self._told_waiting = True  # once a run: a busy cache is not news on every batch
        self.warn(f"the feature cache {self.path} is in use by another run — waiting up to {timeout_s:g} s "
                  "for it to finish…")

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None,
                               check_same_thread=False)
        try:
            wait_patiently(conn, lambda: self._prepare(conn), self.busy_timeout_s, self._waiting)
        except BaseException:
            conn.close()
            raise
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Check the open file and create the tables where they are missing."""
        check = conn.execute("PRAGMA quick_check").fetchall()
        if [row[0] for row in check] != ["ok"]:
            raise sqlite3.DatabaseError("integrity check failed: " + " ".join(str(check[0][0]).split())[:120])
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables - {"meta", "embeddings"}:
            raise InputError(f"{self.path} is not a feature cache (it holds the tables "
                             f"{', '.join(sorted(tables))}) — choose another cache path")
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: no corruption on crash
        if tables != {"meta", "embeddings"} or self._schema_version(conn) != str(SCHEMA_VERSION):
            self._create_schema(conn)
        elif conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # a cache of an earlier version

    def _rebuild(self, exc: Exception) -> bool:
        """Delete a damaged cache file (and its journals) so that it is built again; the cache
        only holds what can be recomputed. Only a file with the cache's mark is deleted: any other
        is refused and left as it is. ``False`` when the file could not be deleted."""
        if self._conn is not None and self._pid == os.getpid():
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn = None
        detail = " ".join(str(exc).split())[:160]
        if state_files.sqlite_application_id(self.path) != APPLICATION_ID:
            raise InputError(f"the feature cache {self.path} cannot be read ({detail}) and does not carry the "
                             "mark of a GeoFidelity feature cache (a cache an earlier version made, or another "
                             "program's file), so it is left as it is — delete it yourself if it is an old "
                             "cache, or give another cache path") from None
        try:
            state_files.remove_owned(self.path, lambda p: state_files.sqlite_application_id(p) == APPLICATION_ID,
                                     "the feature cache")
            for suffix in ("-wal", "-shm", "-journal"):  # SQLite's own files beside it
                state_files.remove_owned(Path(str(self.path) + suffix), what="the feature cache's journal")
        except (OSError, state_files.NotARegularFile) as err:
            log.debug("cannot delete %s: %s", self.path, err)
            return False
        self.warn(f"feature cache {self.path} was damaged ({detail}): deleted; it is rebuilt as images are "
                  "embedded, so their embeddings are computed again")
        return True

    @staticmethod
    def _schema_version(conn: sqlite3.Connection) -> str | None:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return None if row is None else str(row[0])

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # the mark that makes it ours
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {row[0]}, expected {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def __enter__(self) -> "FeatureCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __getstate__(self) -> dict:  # picklable for multiprocessing: the connection stays behind
        return {"path": self.path, "busy_timeout_s": self.busy_timeout_s}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["path"], state["busy_timeout_s"])

    # -- reading ----------------------------------------------------------------------------
    def get_many(self, keys: Iterable[CacheKey]) -> dict[CacheKey, np.ndarray]:
        """The cached vector of every key found (float32, 1-D); absent keys are misses."""
        wanted = list(dict.fromkeys(keys))
        groups: dict[tuple[str, str, str], list[str]] = {}
        for key in wanted:
            groups.setdefault((key.model_id, key.model_revision, key.preprocessing), []).append(
                key.image_sha256)
        found: dict[CacheKey, np.ndarray] = {}
        corrupt: list[CacheKey] = []
        poisoned: list[CacheKey] = []
        with self._lock:
            try:
                conn = self._connection()
                for (model_id, revision, preprocessing), hashes in groups.items():
                    for start in range(0, len(hashes), _CHUNK):
                        chunk = hashes[start:start + _CHUNK]
                        marks = ",".join("?" * len(chunk))
                        rows = conn.execute(
                            "SELECT image_sha256, dim, vector, crc32 FROM embeddings WHERE model_id = ? "
                            f"AND model_revision = ? AND preprocessing = ? AND image_sha256 IN ({marks})",
                            (model_id, revision, preprocessing, *chunk)).fetchall()
                        for sha, dim, blob, crc in rows:
                            key = CacheKey(sha, model_id, revision, preprocessing)
                            if not isinstance(blob, bytes) or len(blob) != 4 * dim or zlib.crc32(blob) != crc:
                                corrupt.append(key)
                                continue
                            vector = np.frombuffer(blob, dtype="<f4").astype(np.float32)
                            if not np.isfinite(vector).all():  # an earlier version's, or a hand-made row
                                poisoned.append(key)
                                continue
                            found[key] = vector
            except sqlite3.DatabaseError as exc:
                if _is_busy(exc):
                    raise self._in_use() from None
                if not _is_damage(exc) or not self._rebuild(exc):
                    raise
                found, corrupt, poisoned = {}, [], []
                self._connection()
            self.stats.corrupt += len(corrupt) + len(poisoned)
            self.stats.hits += len(found)
            self.stats.misses += len(wanted) - len(found)
        if corrupt:
            self.discard(corrupt, "damaged (wrong length, type or checksum)")
        if poisoned:
            self.discard(poisoned, "holding NaN or infinite values")
        return found

    def discard(self, keys: Iterable[CacheKey], why: str) -> int:
        """Delete rows that must not be used (they are recomputed), with a warning."""
        keys = list(dict.fromkeys(keys))
        if not keys:
            return 0
        with self._lock:
            try:
                self._write_many(
                    "DELETE FROM embeddings WHERE model_id = ? AND model_revision = ? AND preprocessing = ? "
                    "AND image_sha256 = ?",
                    [(k.model_id, k.model_revision, k.preprocessing, k.image_sha256) for k in keys])
            except sqlite3.DatabaseError as exc:
                log.debug("feature cache %s: cannot delete rows: %s", self.path, exc)
        self.warn(f"feature cache {self.path}: {len(keys)} cached embedding(s) {why} deleted and recomputed")
        return len(keys)

    def __contains__(self, key: CacheKey) -> bool:
        with self._lock:
            row = self._connection().execute(
                "SELECT 1 FROM embeddings WHERE model_id = ? AND model_revision = ? AND "
                "preprocessing = ? AND image_sha256 = ?",
                (key.model_id, key.model_revision, key.preprocessing, key.image_sha256)).fetchone()
        return row is not None

    def __len__(self) -> int:
        with self._lock:
            return int(self._connection().execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])

    # -- writing ----------------------------------------------------------------------------
    def put_many(self, items: Mapping[CacheKey, np.ndarray] | Iterable[tuple[CacheKey, np.ndarray]]
                 ) -> int:
        """Store vectors in one transaction (all or nothing); returns the number written.

        Vectors with NaN or infinity are not stored: they would poison every later run.
        """
        pairs = items.items() if isinstance(items, Mapping) else items
        rows, now = [], time.time()
        for key, vector in pairs:
            array = np.asarray(vector, dtype="<f4").reshape(-1)
            if not np.isfinite(array).all():
                log.warning("not caching a non-finite embedding for image %s", key.image_sha256[:12])
                continue
            blob = array.tobytes()
            rows.append((key.model_id, key.model_revision, key.preprocessing, key.image_sha256,
                         int(array.size), blob, zlib.crc32(blob), now))
        if not rows:
            return 0
        with self._lock:
            try:
                self._write_many("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            except sqlite3.DatabaseError as exc:  # a full disk, a damaged file: the run goes on
                if _is_busy(exc):
                    raise self._in_use() from None
                why = state_files.diagnose_os_error(exc, self.path, "the feature cache") or \
                    " ".join(str(exc).split())[:120]
                self.warn(f"feature cache {self.path} could not be written ({why}): "
                          f"{len(rows)} embedding(s) not cached, they are computed again next time")
                return 0
            self.stats.writes += len(rows)
        return len(rows)

    def _write_many(self, sql: str, rows: list[tuple]) -> None:
        """``executemany`` in one immediate transaction, rolled back on any failure (hold the lock)."""
        conn = self._connection()
        wait_patiently(conn, lambda: conn.execute("BEGIN IMMEDIATE"), self.busy_timeout_s, self._waiting)
        try:
            conn.executemany(sql, rows)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    def clear(self, model_id: str | None = None) -> int:
        """Delete every row (or those of one model); returns how many went."""
        with self._lock:
            conn = self._connection()
            wait_patiently(conn, lambda: conn.execute("BEGIN IMMEDIATE"), self.busy_timeout_s, self._waiting)
            try:
                if model_id is None:
                    count = conn.execute("DELETE FROM embeddings").rowcount
                else:
                    count = conn.execute("DELETE FROM embeddings WHERE model_id = ?", (model_id,)).rowcount
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return int(count)



def _is_damage(exc: Exception) -> bool:
    """The file is not an SQLite database, fails the integrity check or has another schema."""
    text = str(exc).lower()
    return any(word in text for word in ("not a database", "malformed", "integrity check", "schema version",
                                         "corrupt"))
