"""Malformed variants of a valid table or JSON document, and the invariant every reader must keep
(issue 40): a variant is either refused with one message that names the file (the line and
column where the fault lies) and a fix, or read whole — the same rows an independent parse of
the same bytes finds. Never a traceback, never a row dropped, never an input file changed.

A :class:`TableKind` describes a valid base table and which of its columns are keys, enumerations
or numbers; :func:`table_variant` draws one malformed variant of it (with hypothesis) and says
what the reader must do with it; :func:`oracle_rows` parses bytes independently (stdlib ``csv``,
not the product's reader).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

BAD_BYTES = (b"\xff", b"\xfe", b"\x80", b"\xe9", b"\xc3(", b"\xed\xa0\x80")


@dataclass
class TableKind:
    name: str
    header: list[str]
    rows: list[list[str]]
    key: tuple[str, ...] = ()           # a repeated key is refused
    repeats_ok: bool = False            # … unless the row repeats an earlier one cell for cell
    enums: dict[str, str] = field(default_factory=dict)   # column → a value it must not take
    numbers: tuple[str, ...] = ()       # columns that hold numbers
    text: str | None = None             # a free-text column (for very long cells)
    others: dict[str, tuple[str, str]] = field(default_factory=dict)  # column → two values it may take
    rows_required: bool = True
    empty_ok: bool = False              # an empty file is a table with no rows (what a writer with no rows leaves)
    legacy: bool = False                # reads UTF-16 and Windows-1252 (with a warning)
    pads: tuple[str, ...] = ()          # trailing optional columns a row may leave out (read as empty)

    def base(self) -> list[list[str]]:
        return [list(self.header)] + [list(r) for r in self.rows]


@dataclass
class Variant:
    label: str
    data: bytes
    refuse: bool | None                 # True: must be refused; False: must be read; None: either
    lines: tuple[int, ...] = ()         # the line(s) a refusal must name
    column: str | None = None           # the column a refusal must name


def write_rows(rows: list[list[str]], newline: str = "\n") -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator=newline).writerows(rows)
    return buf.getvalue().encode("utf-8")


@st.composite
def table_variant(draw, kind: TableKind, only: tuple[str, ...] = ()) -> Variant:
    """One malformed (or harmlessly different) variant of ``kind``'s base table (of the kinds of
    damage in ``only``, when given)."""
    rows = kind.base()
    n = len(rows) - 1
    i = draw(st.integers(1, n))                     # a data row; it sits on line i + 1
    choices = ["ragged_more", "ragged_less", "dup_column", "dup_row", "contradict_row", "empty", "header_only",
               "bad_byte", "nul", "bom", "utf16", "crlf", "cr", "blank_lines", "truncate", "quote_open", "unquoted"]
    choices += ["bad_enum"] * bool(kind.enums) + ["bad_number"] * bool(kind.numbers) + ["long"] * bool(kind.text)
    how = draw(st.sampled_from([c for c in choices if c in only] if only else choices))
    base = write_rows(rows)
    if how == "ragged_more":
        rows[i] = rows[i] + [draw(st.sampled_from(["extra", "1", "x y"]))]
        return Variant(how, write_rows(rows), True, (i + 1,))
    if how == "ragged_less":
        rows[i] = rows[i][:-1]
        padded = kind.header[-1] in kind.pads
        return Variant(how, write_rows(rows), not padded, () if padded else (i + 1,))
    if how == "dup_column":
        j = draw(st.integers(0, len(kind.header) - 1))
        rows = [r + [r[j]] for r in rows]
        return Variant(how, write_rows(rows), True, (1,))
    if how in ("dup_row", "contradict_row"):
        copy = list(rows[i])
        changeable = [j for j, c in enumerate(kind.header) if c not in kind.key]
        if how == "contradict_row" and changeable:
            j = draw(st.sampled_from(changeable))
            copy[j] = _other_value(kind, kind.header[j], copy[j])
        rows.append(copy)
        same = how == "dup_row" or not changeable
        refuse = bool(kind.key) and not (same and kind.repeats_ok)
        return Variant(how, write_rows(rows), refuse if kind.key else None, (i + 1, len(rows)) if refuse else ())
    if how == "empty":
        return Variant(how, draw(st.sampled_from([b"", b"\n", b"  \r\n", b"\xef\xbb\xbf"])), not kind.empty_ok)
    if how == "header_only":
        return Variant(how, write_rows(rows[:1]), True if kind.rows_required else False)
    if how in ("bad_byte", "nul"):
        offset = draw(st.integers(0, len(base)))
        byte = b"\x00" if how == "nul" else draw(st.sampled_from(BAD_BYTES))
        data = base[:offset] + byte + base[offset:]
        return Variant(how, data, True if how == "nul" or not kind.legacy else None)
    if how == "bom":
        return Variant(how, b"\xef\xbb\xbf" + base, False)
    if how == "utf16":
        return Variant(how, base.decode("utf-8").encode("utf-16"), False if kind.legacy else True)
    if how in ("crlf", "cr"):
        return Variant(how, write_rows(rows, "\r\n" if how == "crlf" else "\r"), False)
    if how == "blank_lines":
        lines = base.split(b"\n")
        at = draw(st.integers(1, len(lines) - 1))
        return Variant(how, b"\n".join(lines[:at] + [b""] + lines[at:]), False)
    if how == "truncate":
        return Variant(how, base[:draw(st.integers(0, len(base)))], None)
    if how in ("quote_open", "unquoted"):
        j = draw(st.integers(0, len(kind.header) - 1))
        text = base.decode("utf-8").split("\n")
        cells = text[i].split(",")
        cells[j] = ('"' + cells[j]) if how == "quote_open" else (cells[j] + '"x')
        text[i] = ",".join(cells)
        return Variant(how, "\n".join(text).encode("utf-8"), None)
    if how == "bad_enum":
        column = draw(st.sampled_from(sorted(kind.enums)))
        rows[i][kind.header.index(column)] = kind.enums[column]
        return Variant(how, write_rows(rows), True, (i + 1,), column)
    if how == "bad_number":
        column = draw(st.sampled_from(kind.numbers))
        rows[i][kind.header.index(column)] = draw(st.sampled_from(["abc", "1,5,", "12 apples", "--1", "1_000"]))
        return Variant(how, write_rows(rows), True, (i + 1,), column)
    size = draw(st.sampled_from([1_000, 100_000, 140_000]))  # "long": below and above csv's cell limit
    rows[i][kind.header.index(kind.text)] = "x" * size
    return Variant(how, write_rows(rows), None)


def _other_value(kind: TableKind, column: str, value: str) -> str:
    """Another value ``column`` may take: a row that contradicts an earlier one."""
    if column in kind.others:
        a, b = kind.others[column]
        return b if value == a else a
    if column in kind.numbers:
        try:
            return str(float(value) + 1)
        except ValueError:
            return "7"
    return value if column in kind.enums else value + "-other"


def decoded(data: bytes, legacy: bool = False) -> str | None:
    """The text an independent reader finds (None: not UTF-8 text, or NUL bytes)."""
    if legacy and data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            if not legacy:
                return None
            text = data.decode("cp1252", errors="replace")
    return None if "\x00" in text else text


def oracle_rows(data: bytes, legacy: bool = False, delimiter: str = ",",
                pads: tuple[str, ...] = ()) -> list[dict] | None:
    """Rows (header → stripped cell) of ``data`` parsed by stdlib ``csv``, blank lines skipped (and
    short rows that leave out only the ``pads`` columns filled with empty cells); None when an
    honest reader cannot read it (not text, ragged, open quote …)."""
    text = decoded(data, legacy)
    if text is None:
        return None
    try:
        records = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
                   if r and not (len(r) == 1 and not r[0].strip())]
    except csv.Error:
        return None
    if not records:
        return None
    header = [h.strip() for h in records[0]]
    records = [r + [""] * (len(header) - len(r)) if len(r) < len(header) and set(header[len(r):]) <= set(pads)
               else r for r in records]
    if any(len(r) != len(header) for r in records[1:]) or len(set(header)) != len(header):
        return None
    return [{h: c.strip() for h, c in zip(header, r)} for r in records[1:]]


def folder_hashes(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` (the inputs must come out unchanged)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def assert_refusal(message: str, path: Path, variant: Variant) -> None:
    """One message that names the file, the line(s) and column the fault is on, and a fix."""
    assert path.name in message, f"{variant.label}: the file is not named: {message}"
    assert " — " in message and message.rsplit(" — ", 1)[1].strip(), f"{variant.label}: no fix: {message}"
    assert "Traceback" not in message
    for line in variant.lines:
        assert str(line) in message, f"{variant.label}: line {line} is not named: {message}"
    if variant.lines and len(variant.lines) == 1:
        assert f"line {variant.lines[0]}" in message, f"{variant.label}: {message}"
    if variant.column:
        assert variant.column in message, f"{variant.label}: column {variant.column} is not named: {message}"


# JSON documents ---------------------------------------------------------------------------------

@st.composite
def json_variant(draw, base: dict) -> tuple[str, bytes, bool | None]:
    """``(label, bytes, refuse)`` — one malformed or harmless variant of the JSON object ``base``."""
    text = json.dumps(base, indent=1)
    how = draw(st.sampled_from(["dup_key", "dup_key_same", "bad_byte", "nul", "bom", "truncate", "empty", "list",
                                "trailing", "crlf", "utf16", "nan"]))
    if how in ("dup_key", "dup_key_same"):
        key = draw(st.sampled_from(sorted(base)))
        value = base[key] if how == "dup_key_same" else "another value"
        return how, (text[:-1].rstrip() + f',\n "{key}": {json.dumps(value)}\n}}').encode("utf-8"), True
    if how in ("bad_byte", "nul"):
        raw = text.encode("utf-8")
        at = draw(st.integers(0, len(raw)))
        return how, raw[:at] + (b"\x00" if how == "nul" else draw(st.sampled_from(BAD_BYTES))) + raw[at:], True
    if how == "bom":
        return how, b"\xef\xbb\xbf" + text.encode("utf-8"), False
    if how == "truncate":
        raw = text.encode("utf-8")
        return how, raw[:draw(st.integers(0, len(raw) - 1))], True
    if how == "empty":
        return how, b"", True
    if how == "list":
        return how, json.dumps([base]).encode("utf-8"), None
    if how == "trailing":
        return how, (text + "\n}").encode("utf-8"), True
    if how == "crlf":
        return how, text.replace("\n", "\r\n").encode("utf-8"), False
    if how == "utf16":
        return how, text.encode("utf-16"), True
    return how, text.replace("}", ', "extra_number": NaN}', 1).encode("utf-8"), None
