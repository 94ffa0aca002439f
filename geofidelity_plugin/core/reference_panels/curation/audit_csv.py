"""The manual audit of a reference panel (method §2): a CSV of ``image_id,decision[,segment_id]``
rows that accepts or rejects single images, read by the one table reader and checked before the
store is touched."""
from __future__ import annotations

from pathlib import Path

from ...enumerations import DECISION
from ...errors import InputError
from ...tables import TableSchema, read_table

#: the audit's columns; a decision is accept, reject or empty (which clears an earlier one); a row may
#: leave out the segment_id cell (every segment)
AUDIT = TableSchema("audit CSV", ("image_id", "decision"), optional=("segment_id",), filled=("image_id",),
                    enums={"decision": DECISION}, pad_optional=True,
                    fix="an audit CSV needs columns image_id,decision[,segment_id], one row per image (and "
                        "segment), saved as CSV UTF-8")


def read_audit_csv(path: str | Path) -> list[tuple[str, str | None, str | None]]:
    """``image_id,decision[,segment_id]`` rows; decision accept / reject / empty (clears). Two
    rows that give one image different decisions (for the same segment, or one of them for every
    segment) are an error naming the image and both rows: no row silently wins. A repeat that
    agrees is harmless, so it is read; the reader's key check cannot say this (an empty
    segment_id stands for every segment), so the conflict check is here."""
    out, seen = [], {}
    for row in read_table(path, AUDIT).rows:
        decision = row["decision"].lower() or None
        image_id, segment_id = row["image_id"], row.get("segment_id") or None
        _check_audit_conflict(Path(path), seen.setdefault(image_id, []), image_id, row.line, decision, segment_id)
        out.append((image_id, decision, segment_id))
    return out


def _check_audit_conflict(path: Path, earlier: list, image_id: str, row: int, decision, segment_id) -> None:
    for other_row, other_decision, other_segment in earlier:
        overlap = segment_id is None or other_segment is None or segment_id == other_segment
        if overlap and other_decision != decision:
            where = f" for segment {segment_id or other_segment}" if (segment_id or other_segment) else ""
            raise InputError(f"audit CSV {path} gives image {image_id} two decisions{where}: "
                             f"{other_decision or 'empty'} in row {other_row} and {decision or 'empty'} "
                             f"in row {row} — keep one row per image (and segment)")
    earlier.append((row, decision, segment_id))
