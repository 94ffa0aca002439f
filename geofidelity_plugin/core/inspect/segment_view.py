"""Everything the inspector dock shows for one road segment (click a road to see its panels and
scores): the segment's facts, its reference panel with the manual audit flags (method §2), one
sample of each gallery negative (§3), the generated panel of a chosen model and condition (seeds,
prompts), its scores with the margin per negative kind (§5–§7), and the real anchors beside them.

A :class:`SegmentReader` is bound to one benchmark store (and evaluation folder) and answers a
click with the rows of that segment only: every query is an index look-up on a read-only
connection, and the scores file is read once per evaluation (:mod:`.scores_index`). Stdlib only
(no QGIS, no numpy): the dock runs it in a worker thread inside QGIS.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..documents import read_json
from ..errors import InputError
from ..store.store_check import BUILD_HINT, REQUIRED_TABLES, check_store_file, check_store_path, translate
from .scores_index import SCORE_KEYS, ScoresIndex

__all__ = ["ImageItem", "SegmentView", "SegmentReader", "SCORE_KEYS", "NEGATIVE_KINDS", "evaluation_store_path",
           "linked_store"]

#: The gallery's negative kinds in the protocol's order (method §3) — the same names as
#: ``core.evaluation.galleries.ALL_KINDS``, repeated here because that module needs numpy.
NEGATIVE_KINDS = ("nearest_same_city", "same_city_other_neighbourhood", "same_driving_side_other_city",
                  "random_other_city", "same_neighbourhood")
FACT_KEYS = ("segment_id", "street_name", "neighbourhood", "city", "country_code", "road_class", "driving_side",
             "length_m", "centroid_lon", "centroid_lat")
NEGATIVE_SAMPLES = 4


@dataclass
class ImageItem:
    path: str
    label: str
    tooltip: str = ""
    reference_id: str | None = None
    audit: str | None = None


@dataclass
class SegmentView:
    segment_id: str
    facts: dict
    references: list[ImageItem]
    negatives: dict[str, tuple[str, list[ImageItem]]]   # kind → (segment_id, sample images)
    generated: list[ImageItem]
    scores: dict[str, dict]                             # "model" / anchor name → score row
    models: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    stand_in: str | None = None
    model: str | None = None
    condition: str | None = None
    notes: list[str] = field(default_factory=list)       # what could not be shown, and the fix


def evaluation_store_path(evaluation_dir: str | Path) -> Path | None:
    """The store an evaluation was run on (from its manifest), if recorded and present."""
    manifest = Path(evaluation_dir) / "evaluation.manifest.json"
    try:
        store = read_json(manifest, "evaluation manifest", "run evaluate again")["inputs"]["store"]
    except (InputError, KeyError, TypeError):
        return None
    return Path(store) if store and Path(store).exists() else None


def linked_store(store: str | None, evaluation_dir: str | None) -> str | None:
    """The store a layer links to: its own property, else the one its evaluation was run on."""
    if store:
        return str(store)
    found = evaluation_store_path(evaluation_dir) if evaluation_dir else None
    return str(found) if found else None


def _pairs(db):
    """The (model, condition) pairs of the generated images. The table's key starts with
    (model, condition): each next pair is one seek (``MIN`` after the previous one), so no
    generated image of another segment is read."""
    model = db.execute("SELECT MIN(model) FROM generated_images").fetchone()[0]
    while model is not None:
        condition = db.execute("SELECT MIN(condition) FROM generated_images WHERE model = ?", (model,)).fetchone()[0]
        while condition is not None:
            yield model, condition
            condition = db.execute("SELECT MIN(condition) FROM generated_images WHERE model = ? AND condition > ?",
                                   (model, condition)).fetchone()[0]
        model = db.execute("SELECT MIN(model) FROM generated_images WHERE model > ?", (model,)).fetchone()[0]


class SegmentReader:
    """Reads one segment at a time from the store at ``store_path`` and the scores of
    ``evaluation_dir``. The connection is read-only, opened on first use and again when the file
    is replaced; it may be used from any one thread at a time (the reader holds a lock)."""

    def __init__(self, store_path: str | Path, evaluation_dir: str | Path | None = None,
                 lock_timeout_s: float = 5.0):
        self.path = check_store_path(store_path)
        self.evaluation_dir = Path(evaluation_dir) if evaluation_dir else None
        self.scores = ScoresIndex(self.evaluation_dir) if self.evaluation_dir else None
        self.lock_timeout_s = lock_timeout_s
        self._db: sqlite3.Connection | None = None
        self._identity = None
        self._tables: set[str] = set()
        self._root: Path | None = None
        self._lock = threading.RLock()

    # -- the connection --------------------------------------------------------------------------
    def connection(self) -> sqlite3.Connection:
        """The open read-only connection (opened, or opened again if the file was replaced)."""
        with self._lock:
            try:
                st = os.stat(self.path)
                identity = (st.st_dev, st.st_ino)
            except OSError:
                identity = None
            if self._db is not None and identity == self._identity:
                return self._db
            self.close()
            check_store_file(self.path, create=False)  # missing, a folder, not SQLite: a message
            uri = self.path.resolve().as_uri() + "?mode=ro"
            try:
                db = sqlite3.connect(uri, uri=True, timeout=self.lock_timeout_s, check_same_thread=False)
            except sqlite3.DatabaseError as exc:
                raise translate(exc, self.path) from None
            db.row_factory = sqlite3.Row
            try:
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            except sqlite3.DatabaseError as exc:
                db.close()
                raise translate(exc, self.path) from None
            missing = [t for t in REQUIRED_TABLES if t not in tables]
            if missing:
                db.close()
                raise InputError(f"{self.path} is not a GeoFidelity benchmark store (an SQLite database without "
                                 f"the {' or '.join(missing)} table) — check the path: {BUILD_HINT}")
            self._db, self._identity, self._tables = db, identity, tables
            self._root = self.path.parent.resolve()
            return db

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
            self._db, self._identity = None, None

    def _absolute(self, stored: str) -> str:
        p = Path(stored)
        return str(p if p.is_absolute() else self._root / p)

    # -- one segment -----------------------------------------------------------------------------
    def view(self, segment_id: str, model: str | None = None, condition: str | None = None) -> SegmentView:
        """What the dock shows for ``segment_id``; :class:`InputError` for a missing or damaged
        store or an unknown segment. A missing or damaged scores file is a note, not an error."""
        with self._lock:
            try:
                db = self.connection()
                facts = self._facts(db, segment_id)
                references = self._references(db, segment_id)
                negatives = self._negatives(db, segment_id)
                generated = self._generated(db, segment_id)
                stand_in = self._meta(db, "stand_in")
            except (sqlite3.ProgrammingError, sqlite3.IntegrityError):
                raise
            except (sqlite3.DatabaseError, ValueError) as exc:  # a file damaged since it was opened
                self.close()
                raise translate(exc, self.path) from None
        models = sorted({m for m, _ in generated})
        model = model if model in models else (models[0] if models else None)
        conditions = sorted({c for m, c in generated if m == model})
        condition = condition if condition in conditions else ("L1" if "L1" in conditions else
                                                               (conditions[0] if conditions else None))
        scores, notes = self._scores(segment_id, model, condition)
        return SegmentView(segment_id, facts, references, negatives, generated.get((model, condition), []), scores,
                           models, conditions, stand_in, model, condition, notes)

    def _facts(self, db, segment_id: str) -> dict:
        row = db.execute("SELECT * FROM segments WHERE segment_id = ?", (segment_id,)).fetchone()
        if row is None:
            raise InputError(f"segment {segment_id!r} is not in {self.path.name} — pick a segment of this benchmark")
        seg = dict(row)
        seg.update(json.loads(seg.pop("extra_json", None) or "{}"))
        return {k: seg.get(k) for k in FACT_KEYS}

    def _references(self, db, segment_id: str) -> list[ImageItem]:
        out = []
        for r in db.execute("SELECT * FROM reference_images WHERE segment_id = ? ORDER BY reference_id",
                            (segment_id,)):
            captured = f" · captured {r['captured_at_ms']}" if r["captured_at_ms"] else ""
            out.append(ImageItem(self._absolute(r["image_path"]), r["image_id"] or r["reference_id"],
                                 f"{r['reference_id']}{captured}", r["reference_id"], r["audit"]))
        return out

    def _negatives(self, db, segment_id: str) -> dict[str, tuple[str, list[ImageItem]]]:
        """kind → (negative segment, a few of its kept reference images)."""
        if "galleries" not in self._tables:
            return {}
        chosen = {row["kind"]: row["negative_segment_id"] for row in db.execute(
            "SELECT kind, negative_segment_id FROM galleries WHERE segment_id = ?", (segment_id,))}
        kinds = [k for k in NEGATIVE_KINDS if chosen.get(k)] + sorted(set(chosen) - set(NEGATIVE_KINDS))
        negatives = {}
        for kind in kinds:
            sample = [ImageItem(self._absolute(r["image_path"]), r["image_id"] or r["reference_id"])
                      for r in db.execute("SELECT reference_id, image_id, image_path FROM reference_images "
                                          "WHERE segment_id = ? AND (audit IS NULL OR audit != 'reject') "
                                          "ORDER BY reference_id LIMIT ?", (chosen[kind], NEGATIVE_SAMPLES))]
            negatives[kind] = (chosen[kind], sample)
        return negatives

    def _generated(self, db, segment_id: str) -> dict[tuple[str, str], list[ImageItem]]:
        """(model, condition) → this segment's generated panel, one key look-up per pair."""
        if "generated_images" not in self._tables:
            return {}
        panels = {}
        for pair in _pairs(db):
            images = [ImageItem(self._absolute(g["image_path"]), f"sample {g['sample_index']}",
                                f"seed {g['seed'] if g['seed'] is not None else 'unknown'}\n{g['prompt'] or ''}")
                      for g in db.execute("SELECT sample_index, image_path, seed, prompt FROM generated_images "
                                          "WHERE model = ? AND condition = ? AND segment_id = ? ORDER BY sample_index",
                                          (*pair, segment_id))]
            if images:
                panels[pair] = images
        return panels

    def _meta(self, db, key: str):
        if "meta" not in self._tables:
            return None
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def _scores(self, segment_id: str, model: str | None, condition: str | None) -> tuple[dict, list[str]]:
        """The chosen panel's scores and the real anchors' (method §5–§7), from the scores index."""
        if self.scores is None:
            return {}, []
        try:
            rows = self.scores.rows(segment_id)
        except InputError as exc:
            return {}, [str(exc)]
        return {r.model: dict(r.scores) for r in rows
                if r.is_anchor or (r.model == model and r.condition == condition)}, []
