"""The text of a file someone handed us, decoded by one rule (docs/method.md, "Errors and exit
codes"): UTF-8, with or without a byte order mark. Anything else is refused naming the byte offset
and the line, so that the user can find the character their editor or spreadsheet wrote — unless
the caller allows the legacy encodings Excel writes (UTF-16 with a BOM, Windows-1252), which are
then read with a warning naming the encoding. Every table (:mod:`.tables`) and JSON document
(:mod:`.documents`) the product reads is decoded here. Stdlib only.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import InputError

log = logging.getLogger("geofidelity")

#: the fix for a table a person saved in another encoding
SAVE_AS_CSV = "save it as CSV UTF-8 (in Excel: File › Save As › 'CSV UTF-8 (comma delimited)')"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


@dataclass(frozen=True)
class Text:
    """A file's decoded text and the encoding it was read with (``utf-8`` for both with and
    without a BOM; ``bom`` says which)."""

    text: str
    encoding: str = "utf-8"
    bom: bool = False


def position(raw: bytes, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of byte ``offset`` in ``raw`` (any of \\n, \\r\\n, \\r ends a line)."""
    head = raw[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    line = head.count(b"\n") + 1
    start = head.rfind(b"\n") + 1
    column = len(head[start:].decode("utf-8", errors="replace")) + 1
    return line, column


def read_bytes(path: Path, what: str, fix: str, max_bytes: int | None = None) -> bytes:
    """The bytes of ``path``; a missing file, a folder or an unreadable file is an InputError."""
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder, not a file — {fix}")
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise InputError(f"{what} {path} is {size / 1e6:.0f} MB — too large for a {what}; check the path "
                             f"({fix})")
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} not found: {path} — {fix}") from None
    except OSError as exc:
        raise InputError(f"{what} {path} cannot be read ({exc.strerror or exc}) — check that it is a file "
                         "you may read") from None


def decode(path: Path | str, raw: bytes, what: str, fix: str, legacy: bool = False,
           warn: Callable[[str], None] | None = None, where: Callable[[int], str] | None = None) -> Text:
    """``raw`` as text. ``legacy`` allows UTF-16 with a BOM and Windows-1252 (with a warning through
    ``warn`` naming the encoding); otherwise anything but UTF-8 is an InputError naming the byte
    offset. ``where(offset)`` may add where that byte lies (a CSV column)."""
    head = f"{what} {path}"
    if raw.startswith(b"PK\x03\x04"):
        raise InputError(f"{head} is an Excel workbook (or another zip file), not text — {SAVE_AS_CSV}")
    if raw.startswith(_UTF32_BOMS):
        raise InputError(f"{head} is not UTF-8 text: it is UTF-32 (byte order mark at byte 0) — {fix}")
    if raw.startswith(_UTF16_BOMS):
        if not legacy:
            raise InputError(f"{head} is not UTF-8 text: it is UTF-16 (byte order mark at byte 0) — {fix}")
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(f"{head} starts like UTF-16 text but is damaged at byte offset {exc.start} — "
                             f"{fix}") from None
        (warn or log.warning)(f"{head} is UTF-16 text, not UTF-8; it was read as UTF-16 — {SAVE_AS_CSV} to avoid "
                              "this warning")
        return _no_nul(path, what, fix, text, "utf-16", raw, where)
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if not legacy:
            line, column = position(raw, exc.start)
            extra = where(exc.start) if where else ""
            raise InputError(f"{head} is not UTF-8 text: byte 0x{raw[exc.start]:02x} at byte offset {exc.start} "
                             f"(line {line}, character {column}{extra}) is not UTF-8 — {fix}") from None
        bad = raw[exc.start]
        try:
            text, encoding = raw.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:  # the five bytes cp1252 leaves undefined: read as Latin-1
            text, encoding = raw.decode("latin-1"), "latin-1"
        (warn or log.warning)(f"{head} is not UTF-8 (byte 0x{bad:02x} at byte offset {exc.start}); it was read as "
                              f"Windows-1252 ({encoding}, Latin-1), the usual Excel export — check the names, "
                              f"and {SAVE_AS_CSV} to avoid this warning")
        return _no_nul(path, what, fix, text, encoding, raw, where)
    return _no_nul(path, what, fix, text, "utf-8", raw, where, bom)


def _no_nul(path, what, fix, text: str, encoding: str, raw: bytes, where, bom: bool = False) -> Text:
    """A NUL character is never text a person wrote: a binary file, or a damaged one."""
    index = text.find("\x00")
    if index >= 0:
        offset = raw.find(b"\x00") if encoding != "utf-16" else 2 + 2 * index
        line, column = position(raw, offset) if encoding != "utf-16" else (text[:index].count("\n") + 1, 0)
        extra = where(offset) if where and encoding != "utf-16" else ""
        at = f"line {line}" + (f", character {column}" if column else "") + extra
        raise InputError(f"{what} {path} is not a text file: it holds a NUL byte at byte offset {offset} ({at}) — "
                         f"{fix}")
    return Text(text, encoding, bom)
