"""What one atlas page shows for a road segment, gathered from the store, the coverage audit and
the evaluation folder (method §2 panels, §5–§7 scores beside the real anchors, coverage audit).

Stdlib only (sqlite3, csv, json): the GeoPackages are SQLite files, read here as plain tables;
the QGIS side (:mod:`geofidelity_plugin.qgis_side.atlas_layout`) draws the maps and places what this
module gathered. Reuses the inspector's :class:`~..inspect.segment_view.SegmentReader`, so the
atlas and the dock show the same panels and scores.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..attribution import MAPILLARY, credit_lines, creator_name
from ..errors import InputError
from ..inspect.segment_view import SegmentReader

#: photographers named on a page; the rest are counted ("and N more") and listed in the manifest
MAX_CREDITED = 6


@dataclass
class Thumb:
    path: str
    label: str
    rejected: bool = False
    image_id: str | None = None   # a reference image's id: its point on the page map carries the same number


@dataclass
class AtlasSegment:
    segment_id: str
    facts: dict
    references: list[Thumb]
    generated: dict[str, list[Thumb]]          # model → its panel for the chosen condition
    scores: dict[str, dict]                     # model or "anchor:<name>" → score row
    coverage: dict = field(default_factory=dict)
    creators: list = field(default_factory=list)
    stand_in: str | None = None
    dates: list = field(default_factory=list)   # the audit's ``coverage_dates`` rows (older audits)

    @property
    def street_name(self) -> str:
        return str(self.facts.get("street_name") or self.segment_id)

    @property
    def photographers(self) -> list[str]:
        """Every photographer's user name, sorted (the atlas manifest lists them all)."""
        return sorted({n for n in (creator_name(c) for c in self.creators) if n})

    def credits(self, max_names: int = MAX_CREDITED) -> list[str]:
        """The attribution lines; at most ``max_names`` photographers, then "and N more"."""
        lines = credit_lines(stand_in=bool(self.stand_in))
        names = self.photographers
        if names:
            shown = ", ".join(names[:max_names])
            more = len(names) - max_names
            lines[1] = f"{MAPILLARY} — photos by {shown}" + (f" and {more} more" if more > 0 else "")
        return lines


def table_rows(path: Path, table: str, key: str = "segment_id") -> dict[str, dict]:
    """``key`` → row of a GeoPackage (or SQLite) table without its geometry; ``{}`` when the
    file or table is absent (an older audit: the page then leaves those figures out)."""
    if not path or not Path(path).is_file():
        return {}
    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return {}
    try:
        db.row_factory = sqlite3.Row
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone():
            return {}
        rows = {}
        for row in db.execute(f'SELECT * FROM "{table}"'):
            values = {k: row[k] for k in row.keys() if not isinstance(row[k], bytes)}
            if values.get(key) is not None:
                rows[str(values[key])] = values
        return rows
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path} cannot be read as a GeoPackage ({exc}) — run the coverage audit again") from None
    finally:
        db.close()


def layer_names(path: Path) -> set[str]:
    """The table names of a GeoPackage (``set()`` when missing)."""
    if not path or not Path(path).is_file():
        return set()
    db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError:
        return set()
    finally:
        db.close()


#: the fields of the segments layer the atlas pages are keyed and sorted by
SEGMENT_FIELDS = ("segment_id",)


def check_segments_layer(path: Path) -> None:
    """The segments GeoPackage holds a ``segments`` layer with a ``segment_id`` field: each page
    is found by it (checked before QGIS starts, for the CLI and QGIS alike)."""
    fix = "give the GeoPackage Select segments wrote"
    if not Path(path).is_file() or "segments" not in layer_names(Path(path)):
        raise InputError(f"{path} is not a segments GeoPackage (no `segments` layer) — {fix}")
    db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        fields = {r[1] for r in db.execute('PRAGMA table_info("segments")')}
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path} cannot be read as a GeoPackage ({exc}) — {fix}") from None
    finally:
        db.close()
    lacking = [f for f in SEGMENT_FIELDS if f not in fields]
    if lacking:
        raise InputError(f"the `segments` layer of {path} has no {', '.join(lacking)} field (it has "
                         f"{', '.join(sorted(fields)) or 'none'}) — {fix}, or add a {lacking[0]} field that is "
                         "unique per segment and matches the store")


def creators_by_segment(store: Path) -> dict[str, list]:
    """segment_id → the Mapillary ``creator`` values of its kept candidates (when recorded)."""
    db = sqlite3.connect(Path(store).resolve().as_uri() + "?mode=ro", uri=True)
    out: dict[str, list] = {}
    try:
        for sid, record in db.execute("SELECT segment_id, record_json FROM candidates WHERE record_json IS NOT NULL "
                                      "AND status != 'rejected'"):
            try:
                creator = json.loads(record).get("creator")
            except (ValueError, AttributeError):
                continue
            if creator:
                out.setdefault(sid, []).append(creator)
    except sqlite3.DatabaseError:
        return {}
    finally:
        db.close()
    return out


def segment_creators(db: sqlite3.Connection, segment_id: str) -> list:
    """The creators of one segment's kept images, on an open store connection (the inspector's
    credit line): a key look-up, no scan."""
    out = []
    try:
        rows = db.execute("SELECT record_json FROM candidates WHERE segment_id = ? AND record_json IS NOT NULL "
                          "AND status != 'rejected'", (segment_id,)).fetchall()
    except sqlite3.DatabaseError:
        return []
    for (record,) in rows:
        try:
            creator = json.loads(record).get("creator")
        except (ValueError, AttributeError):
            continue
        if creator:
            out.append(creator)
    return out


def gather(store: str | Path, evaluation: str | Path | None, coverage_gpkg: str | Path | None = None,
           models: list[str] | None = None, condition: str | None = None, progress=None) -> list[AtlasSegment]:
    """One :class:`AtlasSegment` per segment of the store, sorted by city then street name."""
    from ..progress import check_cancel

    reader = SegmentReader(store, evaluation)
    try:
        db = reader.connection()
        ids = [r[0] for r in db.execute("SELECT segment_id FROM segments ORDER BY city, street_name, segment_id")]
        if not ids:
            raise InputError(f"the store {store} holds no segment — run Select segments and load them first")
        coverage = table_rows(Path(coverage_gpkg), "coverage") if coverage_gpkg else {}
        dates = dates_by_segment(coverage_gpkg) if any(
            "date_histogram" not in row for row in coverage.values()) else {}
        creators = creators_by_segment(reader.path)
        pages, seen = [], set()
        for sid in ids:
            check_cancel(progress, "gathering the atlas pages")
            first = reader.view(sid, None, condition)
            seen.update(first.models)
            chosen = [m for m in (models or first.models) if m in first.models]
            generated, scores = {}, {}
            for model in chosen:
                view = first if model == first.model else reader.view(sid, model, condition)
                generated[model] = [Thumb(i.path, i.label) for i in view.generated]
                scores.update(view.scores)
            refs = [Thumb(i.path, f"#{n}", i.audit == "reject", i.label) for n, i in enumerate(first.references, 1)]
            pages.append(AtlasSegment(sid, first.facts, refs, generated, scores, coverage.get(sid, {}),
                                      creators.get(sid, []), first.stand_in, dates.get(sid, [])))
        unknown = sorted(set(models or ()) - seen)
        if unknown:
            raise InputError(f"model {unknown[0]!r} has no generated images in {store} — choose among "
                             f"{', '.join(sorted(seen)) or '(none: run Generate first)'}")
        return pages
    finally:
        reader.close()


def chosen_condition(store: str | Path, condition: str | None) -> str | None:
    """The condition of the generated strip: the given one, else L1, else the first in the store."""
    if condition:
        return condition
    reader = SegmentReader(store)
    try:
        db = reader.connection()
        conditions = [r[0] for r in db.execute("SELECT DISTINCT condition FROM generated_images ORDER BY condition")]
    finally:
        reader.close()
    return "L1" if "L1" in conditions else (conditions[0] if conditions else None)


def dates_by_segment(gpkg: str | Path | None) -> dict[str, list[dict]]:
    """segment_id → its ``coverage_dates`` rows in the audit's order (``{}`` when absent)."""
    if not gpkg or not Path(gpkg).is_file():
        return {}
    db = sqlite3.connect(Path(gpkg).resolve().as_uri() + "?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    out: dict[str, list[dict]] = {}
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'coverage_dates'").fetchone():
            return {}
        for r in db.execute("SELECT segment_id, unit, period, images FROM coverage_dates ORDER BY rowid"):
            out.setdefault(str(r["segment_id"]), []).append(dict(r))
    except sqlite3.DatabaseError:
        return {}
    finally:
        db.close()
    return out
