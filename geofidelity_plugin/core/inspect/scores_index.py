"""The per-panel scores of one evaluation folder, indexed by segment, for the inspector.

``per_panel_scores.csv`` (method §5–§7 scores, one row per model × condition × segment and per
real anchor × segment) is read once and kept as segment_id → rows; a click looks its segment up
in memory. The file is read again only when it changes (a new evaluation into the same folder).
Stdlib only: the QGIS side reads it without the backend's scientific stack.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..tables import TableSchema, read_table

SCORES_FILE = "per_panel_scores.csv"
SCORE_KEYS = ("cos_sim", "top1", "rank", "reciprocal_rank", "chance_adjusted_top1", "margin_hard", "margin_mean",
              "margin_nearest_same_city", "margin_same_city_other_neighbourhood",
              "margin_same_driving_side_other_city", "margin_random_other_city", "margin_same_neighbourhood",
              "gallery_size", "mmd2", "dcsf", "gads")
REQUIRED_COLUMNS = ("model", "condition", "segment_id")
#: the file as the one table reader checks it (evaluate writes ``(no rows)`` for an empty table)
SCORES_TABLE = TableSchema("per-panel scores file", REQUIRED_COLUMNS, types=dict.fromkeys(SCORE_KEYS, "float"),
                           empty_marker="(no rows)", rows_required=False,
                           fix="it is not a per-panel scores file as Evaluate writes it: run Evaluate into this "
                               "folder again")


@dataclass(frozen=True)
class ScoreRow:
    model: str          # a model, or "anchor:<name>" for a real anchor
    condition: str
    is_anchor: bool
    scores: dict        # SCORE_KEYS → float or None


def _num(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


class ScoresIndex:
    """segment_id → :class:`ScoreRow` of ``<evaluation_dir>/per_panel_scores.csv``.

    ``loads`` counts the reads of the file, so that a caller (or a test) can see that two
    segments cost one read. Safe to share between threads."""

    def __init__(self, evaluation_dir: str | Path):
        self.path = Path(evaluation_dir) / SCORES_FILE
        self.loads = 0
        self._signature = None
        self._by_segment: dict[str, list[ScoreRow]] = {}
        self._lock = threading.Lock()

    def rows(self, segment_id: str) -> list[ScoreRow]:
        """The rows of ``segment_id``; :class:`InputError` when the file is missing or damaged."""
        with self._lock:
            self._refresh()
            return list(self._by_segment.get(segment_id, ()))

    def _refresh(self) -> None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self._forget()
            raise InputError(f"no {SCORES_FILE} in {self.path.parent} — run Evaluate into this folder "
                             "(or load the layer of a finished evaluation)") from None
        except OSError as exc:
            self._forget()
            raise InputError(f"{self.path} cannot be read ({exc.strerror or exc}) — check its permissions") from None
        signature = (st.st_ino, st.st_size, st.st_mtime_ns)
        if signature == self._signature:
            return
        self._forget()
        self._by_segment = self._read()
        self._signature = signature

    def _forget(self) -> None:
        self._signature, self._by_segment = None, {}

    def _read(self) -> dict[str, list[ScoreRow]]:
        self.loads += 1
        by_segment: dict[str, list[ScoreRow]] = {}
        for row in read_table(self.path, SCORES_TABLE).rows:
            by_segment.setdefault(row["segment_id"], []).append(ScoreRow(
                row["model"], row["condition"], row.get("is_anchor") in ("True", "true", "1"),
                {k: _num(row.get(k)) for k in SCORE_KEYS}))
        return by_segment
