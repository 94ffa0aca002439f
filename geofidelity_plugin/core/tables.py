"""The one reader of every CSV table the product reads (docs/method.md, "Errors and exit codes"):
city tables, GeoDiv answers, manual audits, release metadata, prompt sidecars of imported images,
and the evaluation and GeoDiv tables the product wrote and reads back.

A table is read against a small declarative :class:`TableSchema` and either comes back whole —
every data row, with its line number — or is refused with one :class:`InputError` naming the
file, the line and the column, and the fix. The reader checks, in this order: the encoding
(UTF-8 with or without BOM, :mod:`.input_text`), an empty file, quotes left open and cells past
the size limit, the header (unnamed columns that hold values, the same column twice — aliases
included), the required columns, every row's width against the header, filled cells, types,
enumerations (checked against the one table that defines each, :mod:`.enumerations`), keys given
twice (whether the two rows agree or contradict each other), and a header with no rows. It never
drops a row: a blank line is not a row, anything else is either returned or refused. Stdlib only.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Mapping

from .errors import InputError
from .input_text import decode, read_bytes

TYPES = {"int": "a whole number", "float": "a number"}
_INT = re.compile(r"\s*[-+]?\d+\s*")


@dataclass(frozen=True)
class Enumeration:
    """``name``: what a value is (``condition``); ``values``: every allowed value, or ``accepts``
    for a set too large to list (countries); ``listing``: how a message names the allowed values."""

    name: str
    values: tuple[str, ...] = ()
    fold_case: bool = False
    listing: str = ""
    accepts_value: Callable[[str], bool] | None = None

    def accepts(self, value: str) -> bool:
        if self.accepts_value is not None:
            return self.accepts_value(value)
        if self.fold_case:
            return value.lower() in (v.lower() for v in self.values)
        return value in self.values

    def allowed(self) -> str:
        """``'L7' is not {allowed}``."""
        return self.listing or f"a known {self.name} ({', '.join(v or 'empty' for v in self.values)})"


@dataclass(frozen=True)
class TableSchema:
    """What a table must look like.

    ``name``: what the file is, in messages (``city table``); ``required``: columns it must have;
    ``optional``: columns it may have (others are kept as they are); ``key``: the columns that
    identify a row — a second row with the same key is refused (``repeats_ok`` lets a row that
    repeats an earlier one cell for cell through); ``enums``: column → :class:`Enumeration`;
    ``types``: column → ``int`` / ``float`` (``type_of`` decides for columns named by a rule);
    ``filled``: columns whose every cell must be non-empty; ``nulls``: cell texts that mean "no
    value" (never type-checked); ``fix``: what to do about a bad file, appended to every message.
    ``aliases`` (lower case → column) and ``fold_case`` map header spellings onto column names;
    ``delimiters``: the separators tried (the one whose split of the header finds the most
    required columns wins); ``legacy_encodings`` reads UTF-16 and Windows-1252 with a warning;
    ``rows_required``: a header with no rows is refused; ``empty_marker``: a file whose whole text
    is this marker is a table with no rows (``""``: what a writer with no rows and no columns leaves);
    ``key_label`` words a row's key for messages; ``comment``: a record whose first cell starts with
    it is a comment (the tables shipped in ``resources/``), not a row; ``pad_optional``: a row may
    leave out trailing cells of optional columns, read as empty (a hand-written file).
    """

    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    key: tuple[str, ...] = ()
    enums: Mapping[str, Enumeration] = field(default_factory=dict)
    types: Mapping[str, str] = field(default_factory=dict)
    fix: str = "correct the file"
    filled: tuple[str, ...] = ()
    nulls: tuple[str, ...] = ("",)
    aliases: Mapping[str, str] = field(default_factory=dict)
    fold_case: bool = False
    delimiters: tuple[str, ...] = (",",)
    legacy_encodings: bool = False
    rows_required: bool = True
    repeats_ok: bool = False
    empty_marker: str | None = None
    max_bytes: int | None = None
    type_of: Callable[[str], str | None] | None = None
    key_label: Callable[[Mapping[str, str]], str] | None = None
    comment: str | None = None
    pad_optional: bool = False

    def needing(self, *columns: str) -> "TableSchema":
        """The same schema with more required columns (``--group-by`` columns of answers)."""
        return replace(self, required=tuple(dict.fromkeys((*self.required, *columns))))

    def column_type(self, column: str) -> str | None:
        return self.types.get(column) or (self.type_of(column) if self.type_of else None)

    def canonical(self, header_cell: str) -> str:
        name = header_cell.strip()
        low = name.lower()
        if low in self.aliases:
            return self.aliases[low]
        return low if self.fold_case else name


class Row(dict):
    """One data row (column → stripped cell text) and the line it starts on."""

    line: int = 0


@dataclass
class Table:
    path: Path
    columns: list[str]
    rows: list[Row]
    encoding: str = "utf-8"
    delimiter: str = ","


def read_table(path: str | Path, schema: TableSchema, warn: Callable[[str], None] | None = None) -> Table:
    """``path`` read and checked against ``schema``; an :class:`InputError` for anything else."""
    path = Path(path).expanduser()
    raw = read_bytes(path, schema.name, schema.fix, schema.max_bytes)
    decoded = decode(path, raw, schema.name, schema.fix, legacy=schema.legacy_encodings, warn=warn,
                     where=lambda offset: _column_at(raw, offset, schema))
    text = decoded.text
    if schema.empty_marker is not None and text.strip() == schema.empty_marker:
        return Table(path, [], [], decoded.encoding)
    if not text.strip():
        raise InputError(f"{schema.name} {path} is empty — {schema.fix}")
    table = _Reader(path, schema, _delimiter(text, schema)).read(text)
    table.encoding = decoded.encoding
    return table


def _delimiter(text: str, schema: TableSchema) -> str:
    if len(schema.delimiters) == 1:
        return schema.delimiters[0]
    header = text.lstrip("\r\n").splitlines()[0] if text.strip() else ""
    return max(schema.delimiters, key=lambda d: (sum(schema.canonical(c) in schema.required for c in header.split(d)),
                                                 d == schema.delimiters[0]))


def _column_at(raw: bytes, offset: int, schema: TableSchema) -> str:
    """``, column <name>`` of the cell holding byte ``offset`` (for an encoding error)."""
    try:
        head = raw[:offset].decode("utf-8-sig", errors="replace")
        records = list(csv.reader(io.StringIO(head, newline=""), delimiter=_delimiter(head, schema)))
    except csv.Error:
        return ""
    header = [schema.canonical(c) for c in records[0]] if records else []
    index = len(records[-1]) - 1 if records else 0
    if len(records) <= 1:
        return f", in the header (column {index + 1})"
    return f", column {header[index]}" if 0 <= index < len(header) else f", column {index + 1}"


class _Reader:
    """One pass over one table; every refusal goes through :meth:`fail`."""

    def __init__(self, path: Path, schema: TableSchema, delimiter: str):
        self.path, self.schema, self.delimiter = path, schema, delimiter

    def fail(self, line: int | None, problem: str, advice: str = "", column: str | None = None):
        where = f" line {line}" if line else ""
        where += f", column {column}" if column else ""
        fix = f"{advice}; {self.schema.fix}" if advice else self.schema.fix
        raise InputError(f"{self.schema.name} {self.path}{where}: {problem} — {fix}")

    def records(self, text: str):
        """``(first line, cells)`` of every non-blank record, csv errors turned into refusals."""
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=self.delimiter, strict=True)
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                self._csv_error(exc, start, reader.line_num)
            if self.schema.comment and cells and cells[0].lstrip().startswith(self.schema.comment):
                continue
            if cells and not (len(cells) == 1 and not cells[0].strip()):
                yield start, cells

    def _csv_error(self, exc: csv.Error, start: int, end: int):
        text = str(exc)
        if "unexpected end of data" in text or "newline inside string" in text:
            self.fail(start, "a quote opened in this row is never closed (the file ends inside a quoted cell)",
                      'close the quote, or write a quote that is part of a cell twice ("")')
        if "field larger than field limit" in text:
            self.fail(start, f"a cell is longer than {csv.field_size_limit()} characters (often a quote left "
                             "open on this or an earlier line)", "close the quote, or shorten the cell")
        if "expected after" in text:
            self.fail(end, f"a quoted cell is followed by more text before the next {self.delimiter!r}",
                      'quote the whole cell and write each quote inside it twice ("")')
        self.fail(end, f"not a readable CSV ({text})")

    def read(self, text: str) -> Table:
        records = self.records(text)
        header_line, header = next(records, (1, []))
        columns = self._header(header_line, header)
        rows: list[Row] = []
        keys: dict[tuple, Row] = {}
        for line, cells in records:
            row = self._row(line, cells, columns)
            self._check_cells(row)
            if self.schema.key:
                self._check_key(row, keys)
            rows.append(row)
        if not rows and self.schema.rows_required:
            self.fail(None, "has a header but no rows", "add the rows below the header")
        return Table(self.path, [c for c in columns if c is not None], rows, delimiter=self.delimiter)

    def _header(self, line: int, header: list[str]) -> list[str | None]:
        columns: list[str | None] = []
        seen: dict[str, int] = {}
        for index, cell in enumerate(header, start=1):
            name = self.schema.canonical(cell) if cell.strip() else None
            if name is not None and name in seen:
                first = header[seen[name] - 1].strip()
                spelt = f" ({first!r} and {cell.strip()!r})" if first != cell.strip() else ""
                self.fail(line, f"columns {seen[name]} and {index} are both {name!r}{spelt}",
                          "keep one of the two columns (or rename one)")
            if name is not None:
                seen[name] = index
            columns.append(name)
        missing = [c for c in self.schema.required if c not in seen]
        if missing:
            found = ", ".join(c.strip() for c in header if c.strip()) or "none"
            self.fail(line, f"lacks column(s) {', '.join(missing)} (its columns: {found[:300]})",
                      f"the header must name {', '.join(self.schema.required)}")
        return columns

    def _row(self, line: int, cells: list[str], columns: list[str | None]) -> Row:
        if self.schema.pad_optional and len(cells) < len(columns) and \
                all(c in self.schema.optional for c in columns[len(cells):]):
            cells = cells + [""] * (len(columns) - len(cells))
        if len(cells) != len(columns):
            if len(cells) > len(columns):
                extra = next((c for c in cells[len(columns):] if c.strip()), cells[len(columns)])
                problem = (f"has {len(cells)} cells but the header has {len(columns)} columns (the cell "
                           f"{extra[:40]!r} has no column)")
            else:
                problem = (f"has {len(cells)} cells but the header has {len(columns)} columns (no cell for "
                           f"{', '.join(str(c) for c in columns[len(cells):][:5])})")
            self.fail(line, problem, f"give every row one cell per column, and quote a cell that holds a "
                                     f"{self.delimiter!r}")
        row = Row()
        row.line = line
        for index, (name, cell) in enumerate(zip(columns, cells), start=1):
            if name is None:
                if cell.strip():
                    self.fail(line, f"the cell {cell.strip()[:40]!r} is under a column with no name (column "
                                    f"{index})", "name the column in the header, or remove the cell", f"#{index}")
                continue
            row[name] = cell.strip()
        return row

    def _check_cells(self, row: Row) -> None:
        schema = self.schema
        for column in schema.filled:
            if row.get(column, "") == "":
                self.fail(row.line, "the cell is empty", f"fill in the {column} of this row", column)
        for column, value in row.items():
            if value.lower() in schema.nulls and column not in schema.filled:
                continue
            kind = schema.column_type(column)
            if kind is not None and not _is_type(kind, value):
                self.fail(row.line, f"{value[:40]!r} is not {TYPES[kind]}", "correct the cell" + (
                    "" if column in schema.filled else " (or leave it empty for a missing value)"), column)
            enum = schema.enums.get(column)
            if enum is not None and not enum.accepts(value):
                self.fail(row.line, f"{value[:40]!r} is not {enum.allowed()}",
                          f"use one of the values the {enum.name} may take", column)

    def _check_key(self, row: Row, keys: dict[tuple, Row]) -> None:
        schema = self.schema
        key = tuple(_key_value(schema.column_type(c), row.get(c, "")) for c in schema.key)
        earlier = keys.setdefault(key, row)
        if earlier is row:
            return
        label = schema.key_label(row) if schema.key_label else ", ".join(f"{c} {row.get(c, '')!r}" for c in schema.key)
        differ = [c for c in dict.fromkeys((*earlier, *row)) if earlier.get(c) != row.get(c) and c not in schema.key]
        if not differ and schema.repeats_ok:
            return
        how = (f"they differ in {differ[0]} ({earlier.get(differ[0])!r} and {row.get(differ[0])!r})" if differ
               else "the two rows are the same")
        raise InputError(f"{schema.name} {self.path} lines {earlier.line} and {row.line} both give {label}: {how} — "
                         f"keep one of the two rows; {schema.fix}")


def _is_type(kind: str, value: str) -> bool:
    if kind == "int":
        return bool(_INT.fullmatch(value))
    try:
        float(value)
    except ValueError:
        return False
    return "_" not in value


def _key_value(kind: str | None, value: str):
    """A key cell as compared: ``01`` and ``1`` are the same sample index."""
    if kind == "int" and _INT.fullmatch(value):
        return int(value)
    return value


def row_values(table: Table) -> list[dict]:
    """The rows as plain dicts (for code that writes them back or compares them)."""
    return [dict(r) for r in table.rows]
