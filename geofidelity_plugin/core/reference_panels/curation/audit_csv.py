"""The manual audit of a reference panel (method §2): a CSV of ``image_id,decision[,segment_id]``
rows that accepts or rejects single images, read and checked before the store is touched."""
from __future__ import annotations

import csv
from pathlib import Path

from ...errors import InputError


def read_audit_csv(path: str | Path) -> list[tuple[str, str | None, str | None]]:
    """``image_id,decision[,segment_id]`` rows; decision accept / reject / empty (clears). Two
    rows that give one image different decisions (for the same segment, or one of them for every
    segment) are an error naming the image and both rows: no row silently wins."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"audit CSV not found: {path} — give a CSV file with the columns "
                         "image_id,decision[,segment_id]")
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            names = [f.strip() for f in reader.fieldnames or ()]
            if not {"image_id", "decision"} <= set(names):
                raise InputError(f"audit CSV {path} needs columns image_id,decision[,segment_id]; its "
                                 f"header is {','.join(names) or 'empty'}")
            reader.fieldnames = names
            out, seen = [], {}
            for n, row in enumerate(reader, start=2):
                decision = (row.get("decision") or "").strip().lower() or None
                if decision not in ("accept", "reject", None):
                    raise InputError(f"audit CSV {path} row {n}: decision {row['decision']!r} is not "
                                     "accept/reject/empty")
                image_id = (row.get("image_id") or "").strip()
                if image_id:
                    segment_id = (row.get("segment_id") or "").strip() or None
                    _check_audit_conflict(path, seen.setdefault(image_id, []), image_id, n, decision,
                                          segment_id)
                    out.append((image_id, decision, segment_id))
    except UnicodeDecodeError:
        raise InputError(f"audit CSV {path} is not UTF-8 text — save it as CSV UTF-8 with the "
                         "columns image_id,decision[,segment_id]") from None
    except csv.Error as exc:
        raise InputError(f"audit CSV {path} is not a readable CSV ({exc})") from None
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
