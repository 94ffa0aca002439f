"""The benchmark store: segments, reference panels, galleries and generated panels of one
benchmark in a single SQLite file beside the images (method §2–§4 inputs of §5–§7).

SQLite's atomic commits make it safe against a crash mid-write: every public write is one
transaction, so a killed run leaves either the old or the new rows, never half of them. Image
paths are stored relative to the store's folder when they lie inside it, so a benchmark folder
can be moved or shared as a whole.
"""
from __future__ import annotations

import json
import logging
import re
import sqlite3
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..errors import InputError
from . import writer_lock
from .sqlite_locks import DEFAULT_LOCK_TIMEOUT_S, is_busy, wait_patiently
from .store_check import (add_columns_statements, check_store_db, check_store_file, check_store_path,
                          disk_failures, missing_columns, read_only_upgrade, reading, schema_columns, translate)

log = logging.getLogger("geofidelity")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS segments (
    segment_id TEXT PRIMARY KEY, city TEXT NOT NULL, country TEXT, country_code TEXT,
    street_name TEXT, neighbourhood TEXT, road_class TEXT, driving_side TEXT,
    centroid_lon REAL NOT NULL, centroid_lat REAL NOT NULL, geometry_wkt TEXT, extra_json TEXT);
CREATE TABLE IF NOT EXISTS reference_images (
    reference_id TEXT PRIMARY KEY, segment_id TEXT NOT NULL REFERENCES segments(segment_id),
    image_id TEXT, image_path TEXT NOT NULL, lon REAL, lat REAL, captured_at_ms INTEGER,
    audit TEXT CHECK (audit IN ('accept', 'reject') OR audit IS NULL), note TEXT);
CREATE INDEX IF NOT EXISTS reference_by_segment ON reference_images(segment_id);
CREATE TABLE IF NOT EXISTS galleries (
    segment_id TEXT NOT NULL, kind TEXT NOT NULL, negative_segment_id TEXT NOT NULL,
    PRIMARY KEY (segment_id, kind));
CREATE TABLE IF NOT EXISTS candidates (
    segment_id TEXT NOT NULL, image_id TEXT NOT NULL, lon REAL, lat REAL, captured_at_ms INTEGER,
    compass_angle REAL, sequence TEXT, image_path TEXT, status TEXT NOT NULL DEFAULT 'fetched',
    tier INTEGER, reason TEXT, audit TEXT CHECK (audit IN ('accept', 'reject') OR audit IS NULL),
    record_json TEXT, measures_json TEXT, PRIMARY KEY (segment_id, image_id));
CREATE TABLE IF NOT EXISTS generated_images (
    model TEXT NOT NULL, condition TEXT NOT NULL, segment_id TEXT NOT NULL,
    sample_index INTEGER NOT NULL, image_path TEXT NOT NULL, seed INTEGER, prompt TEXT,
    prompt_meta TEXT, origin TEXT, clip_score REAL,
    PRIMARY KEY (model, condition, segment_id, sample_index));
"""

#: every table and index of the schema; a store lacking one is brought up to date when opened
SCHEMA_OBJECTS = tuple(re.findall(r"CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)", SCHEMA))
#: table → [(column, definition)]; a store lacking a column gains it when opened
SCHEMA_COLUMNS = schema_columns(SCHEMA)


def _insert(table: str, verb: str = "INSERT") -> str:
    """``INSERT INTO table (every column) VALUES (?, …)``: columns by name, so that a column added
    to an older store (at the end of its table) gets its own value."""
    names = [name for name, _ in SCHEMA_COLUMNS[table]]
    return f"{verb} INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"

SEGMENT_COLUMNS = ("segment_id", "city", "country", "country_code", "street_name", "neighbourhood",
                   "road_class", "driving_side", "centroid_lon", "centroid_lat", "geometry_wkt")


@dataclass(frozen=True)
class GeneratedImage:
    model: str
    condition: str
    segment_id: str
    sample_index: int
    image_path: str
    seed: int | None = None
    prompt: str | None = None
    prompt_meta: str | None = None
    origin: str | None = None
    clip_score: float | None = None


class BenchmarkStore:
    """Open (or create) ``path``; ``root`` for relative image paths is its folder."""

    def __init__(self, path: str | Path, create: bool = True, lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S,
                 warn=None, writer: bool | None = None):
        """Open the store at ``path`` (``create``: a new one where there is none).

        The file is checked first (:mod:`.store_check`): a folder, a file that is not an SQLite
        database, a damaged database or one without the store's tables is refused with a message
        naming the file — never initialised — before any long work starts. A store written by an
        older version gains the tables and columns added since. While another run holds the file
        locked, ``warn`` (default: the log) says at once that this run waits, for up to
        ``lock_timeout_s`` seconds.

        ``writer``: a run that writes the store passes ``True`` and holds the store's writer lock
        (:mod:`.writer_lock`) from here until :meth:`close` — a second writer waits, then is refused
        with this run named. ``None`` (the default) takes it at the first write and holds it
        until :meth:`close`; ``False`` never takes it (a temporary copy whose caller holds the lock
        of the store it replaces).
        """
        self.path = check_store_path(path)
        self.lock_timeout_s = float(lock_timeout_s)
        self.warn = warn or (lambda message: log.warning("%s", message))
        self._writer, self._lock_key = writer, None
        new = check_store_file(self.path, create)
        if new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        if writer:
            self._take_writer_lock()
        self.root = self.path.parent.resolve()
        try:
            self.db = sqlite3.connect(str(self.path), timeout=self.lock_timeout_s, isolation_level=None)
        except sqlite3.DatabaseError as exc:
            self._give_back_writer_lock()
            raise translate(exc, self.path) from None
        except BaseException:
            self._give_back_writer_lock()
            raise
        self.db.row_factory = sqlite3.Row
        try:
            wait_patiently(self.db, lambda: self._bring_up_to_date(new), self.lock_timeout_s, self._waiting)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            self._give_back_writer_lock()
            if is_busy(exc):
                raise InputError(f"the benchmark store {self.path} is still locked by another run after "
                                 f"{self.lock_timeout_s:g} s — wait for that run to finish (or close the program "
                                 "that holds the file) and try again") from None
            raise translate(exc, self.path) from None
        except BaseException:
            self.db.close()
            self._give_back_writer_lock()
            raise

    def _take_writer_lock(self) -> None:
        """The store-level writer lock (:mod:`.writer_lock`), held until :meth:`close`. A folder in
        which no lock file can be made (read-only) takes no lock: no run can write the store there."""
        if self._lock_key is not None or self._writer is False:
            return
        try:
            self._lock_key = writer_lock.acquire(self.path, self.lock_timeout_s, self.warn)
        except OSError as exc:
            log.debug("no writer lock for %s: %s", self.path, exc)

    def _give_back_writer_lock(self) -> None:
        if self._lock_key is not None:
            writer_lock.release(self._lock_key)
            self._lock_key = None

    def _waiting(self, timeout_s: float) -> None:
        self.warn(f"the benchmark store {self.path} is locked by another run — waiting up to {timeout_s:g} s "
                  "for it to finish…")

    def _bring_up_to_date(self, new: bool) -> None:
        """Check the open file and add what this version's schema has and the file lacks, in one
        transaction: a new store has all its tables or none."""
        complete = not new and check_store_db(self.db, self.path, SCHEMA_OBJECTS)
        missing = [] if new else missing_columns(self.db, self.path, SCHEMA_COLUMNS)
        if not complete or missing:
            lacking = [] if new else [t for t in SCHEMA_COLUMNS if not self.db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (t,)).fetchone()]
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if "readonly" in str(exc) or "read-only" in str(exc):
                    raise read_only_upgrade(self.path, lacking, missing, str(exc)) from None
                raise
            try:
                for statement in [*SCHEMA.split(";"), *add_columns_statements(missing)]:
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute("COMMIT")
            except BaseException as exc:
                self.db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc):
                    raise read_only_upgrade(self.path, lacking, missing, str(exc)) from None
                raise
            if missing:
                self.warn(f"the benchmark store {self.path} was brought up to date: added "
                          + ", ".join(f"{table}.{name}" for table, name, _ in missing))
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:  # a read-only store keeps its journal mode
            if "readonly" not in str(exc):
                raise

    def close(self) -> None:
        try:
            self.db.close()
        finally:
            self._give_back_writer_lock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self._take_writer_lock()  # every write holds the store's writer lock (a no-op once held)
        with disk_failures(self.path):  # a full disk named as such, never as damage
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                with suppress(sqlite3.OperationalError):  # SQLite may have rolled back already
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    # -- paths -------------------------------------------------------------------------------
    def relative(self, path: str | Path) -> str:
        """Absolute paths inside the store's folder become relative; a relative path is taken
        as already relative to the store's folder (as stored)."""
        if not Path(path).is_absolute():
            return str(path)
        p = Path(path).resolve()
        try:
            return str(p.relative_to(self.root))
        except ValueError:
            return str(p)

    def absolute(self, stored: str) -> Path:
        p = Path(stored)
        return p if p.is_absolute() else self.root / p

    # -- meta --------------------------------------------------------------------------------
    def set_meta(self, key: str, value) -> None:
        with self.transaction():
            self.db.execute(_insert("meta", "INSERT OR REPLACE"), (key, json.dumps(value)))

    @reading
    def meta(self, key: str, default=None):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    # -- segments ----------------------------------------------------------------------------
    def put_segments(self, segments: Iterable[dict]) -> int:
        rows = []
        for s in segments:
            extra = {k: v for k, v in s.items() if k not in SEGMENT_COLUMNS and k != "geometry"}
            wkt = s.get("geometry_wkt") or (s["geometry"].wkt if s.get("geometry") is not None else None)
            rows.append(tuple(s.get(c) for c in SEGMENT_COLUMNS[:-1]) + (wkt, json.dumps(extra, default=str)))
        with self.transaction():
            self.db.executemany(_insert("segments", "INSERT OR REPLACE"), rows)
        return len(rows)

    @reading
    def segments(self) -> list[dict]:
        out = []
        for row in self.db.execute("SELECT * FROM segments ORDER BY segment_id"):
            d = dict(row)
            d.update(json.loads(d.pop("extra_json") or "{}"))
            out.append(d)
        return out

    # -- reference panels ----------------------------------------------------------------------
    def put_reference_images(self, rows: Iterable[dict]) -> int:
        """Insert or update reference images; an existing manual audit flag is kept."""
        data = [(r["reference_id"], r["segment_id"], r.get("image_id"), self.relative(r["image_path"]),
                 r.get("lon"), r.get("lat"), r.get("captured_at_ms"), r.get("audit"), r.get("note"))
                for r in rows]
        with self.transaction():
            self.db.executemany(
                _insert("reference_images") + " ON CONFLICT(reference_id) DO UPDATE "
                "SET segment_id=excluded.segment_id, image_id=excluded.image_id, image_path=excluded.image_path, "
                "lon=excluded.lon, lat=excluded.lat, captured_at_ms=excluded.captured_at_ms, "
                "audit=COALESCE(reference_images.audit, excluded.audit)", data)
        return len(data)

    def set_audit(self, reference_id: str, decision: str | None) -> None:
        """Manual audit (method §2 tier 8) of one reference image; mirrored onto its Mapillary
        candidate (``<segment_id>:<image_id>``) so that the next curation honours it."""
        if decision not in ("accept", "reject", None):
            raise InputError(f"audit decision must be 'accept', 'reject' or empty, not {decision!r}")
        with self.transaction():
            cur = self.db.execute("UPDATE reference_images SET audit = ? WHERE reference_id = ?",
                                  (decision, reference_id))
            cand = self.db.execute("UPDATE candidates SET audit = ? WHERE segment_id || ':' || image_id = ?",
                                   (decision, reference_id))
            if cur.rowcount == 0 and cand.rowcount == 0:
                raise InputError(f"no reference image {reference_id!r} in {self.path.name}")

    def set_candidate_audit(self, image_id: str, decision: str | None, segment_id: str | None = None) -> int:
        """Audit a fetched image by Mapillary id (all its segments unless ``segment_id``)."""
        if decision not in ("accept", "reject", None):
            raise InputError(f"audit decision must be 'accept', 'reject' or empty, not {decision!r}")
        where = "image_id = ?" + (" AND segment_id = ?" if segment_id else "")
        args = (decision, image_id) + ((segment_id,) if segment_id else ())
        with self.transaction():
            n = self.db.execute(f"UPDATE candidates SET audit = ? WHERE {where}", args).rowcount
            self.db.execute(f"UPDATE reference_images SET audit = ? WHERE {where}",
                            args)
        return n

    # -- Mapillary candidates (stage 2) --------------------------------------------------------
    def put_candidates(self, rows: Iterable[dict]) -> int:
        """Insert or update fetched images; the manual audit flag is never overwritten."""
        data = [(r["segment_id"], str(r["image_id"]), r.get("lon"), r.get("lat"), r.get("captured_at_ms"),
                 r.get("compass_angle"), r.get("sequence"),
                 self.relative(r["image_path"]) if r.get("image_path") else None, r.get("status", "fetched"),
                 r.get("tier"), r.get("reason"), r.get("audit"), json.dumps(r.get("record") or {}, default=str),
                 json.dumps(r.get("measures") or {}, default=str)) for r in rows]
        with self.transaction():
            self.db.executemany(
                _insert("candidates") + " ON CONFLICT(segment_id, image_id) DO UPDATE "
                "SET lon=excluded.lon, lat=excluded.lat, captured_at_ms=excluded.captured_at_ms, "
                "compass_angle=excluded.compass_angle, sequence=excluded.sequence, "
                "image_path=COALESCE(excluded.image_path, candidates.image_path), status=excluded.status, "
                "tier=excluded.tier, reason=excluded.reason, audit=COALESCE(candidates.audit, excluded.audit), "
                "record_json=excluded.record_json, measures_json=excluded.measures_json", data)
        return len(data)

    @reading
    def candidates(self, segment_id: str | None = None) -> list[dict]:
        sql = "SELECT * FROM candidates" + (" WHERE segment_id = ?" if segment_id else "") + " ORDER BY segment_id, image_id"
        out = []
        for row in self.db.execute(sql, (segment_id,) if segment_id else ()):
            d = dict(row)
            d["record"] = json.loads(d.pop("record_json") or "{}")
            d["measures"] = json.loads(d.pop("measures_json") or "{}")
            d["abs_path"] = str(self.absolute(d["image_path"])) if d["image_path"] else None
            out.append(d)
        return out

    def replace_segment_references(self, segment_id: str, rows: list[dict], prefix: str = "",
                                   decided: Iterable[str] | None = None) -> None:
        """Make ``rows`` the reference panel of ``segment_id`` (curation output), keeping audit
        flags of images that stay. ``decided``: the image ids the caller decided on — only those
        may leave the panel (others, which it cannot rebuild, stay); ``None``: any may."""
        with self.transaction():
            keep = [r["reference_id"] for r in rows]
            marks = ",".join("?" * len(keep)) or "''"
            sql = f"DELETE FROM reference_images WHERE segment_id = ? AND reference_id NOT IN ({marks})"
            args = [segment_id, *keep]
            if decided is not None:
                ids = sorted(decided)
                id_marks = ",".join("?" * len(ids)) or "''"
                sql += f" AND image_id IN ({id_marks})"
                args += ids
            self.db.execute(sql, args)
        self.put_reference_images(rows)

    @reading
    def reference_panels(self, include_rejected: bool = False) -> dict[str, list[dict]]:
        """segment_id → reference images (ordered by reference_id), rejected ones left out."""
        panels: dict[str, list[dict]] = {}
        for row in self.db.execute("SELECT * FROM reference_images ORDER BY segment_id, reference_id"):
            if row["audit"] == "reject" and not include_rejected:
                continue
            d = dict(row)
            d["abs_path"] = str(self.absolute(d["image_path"]))
            panels.setdefault(d["segment_id"], []).append(d)
        return panels

    # -- galleries -----------------------------------------------------------------------------
    def put_galleries(self, galleries: dict[str, dict[str, str | None]], replace: bool = True) -> int:
        rows = [(sid, kind, neg) for sid, kinds in galleries.items() for kind, neg in kinds.items() if neg]
        with self.transaction():
            if replace:
                self.db.execute("DELETE FROM galleries")
            self.db.executemany(_insert("galleries", "INSERT OR REPLACE"), rows)
        return len(rows)

    @reading
    def galleries(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for row in self.db.execute("SELECT * FROM galleries ORDER BY segment_id, kind"):
            out.setdefault(row["segment_id"], {})[row["kind"]] = row["negative_segment_id"]
        return out

    # -- generated panels ----------------------------------------------------------------------
    def put_generated(self, images: Iterable[GeneratedImage]) -> int:
        data = [(g.model, g.condition, g.segment_id, int(g.sample_index), self.relative(g.image_path),
                 g.seed, g.prompt, g.prompt_meta, g.origin, g.clip_score) for g in images]
        with self.transaction():
            self.db.executemany(_insert("generated_images", "INSERT OR REPLACE"), data)
        return len(data)

    @reading
    def generated_panels(self) -> dict[tuple[str, str, str], list[dict]]:
        """(model, condition, segment_id) → images ordered by sample index."""
        panels: dict[tuple[str, str, str], list[dict]] = {}
        for row in self.db.execute("SELECT * FROM generated_images ORDER BY model, condition, segment_id, sample_index"):
            d = dict(row)
            d["abs_path"] = str(self.absolute(d["image_path"]))
            panels.setdefault((d["model"], d["condition"], d["segment_id"]), []).append(d)
        return panels

    @reading
    def counts(self) -> dict[str, int]:
        return {t: self.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("segments", "reference_images", "galleries", "generated_images", "candidates")}
