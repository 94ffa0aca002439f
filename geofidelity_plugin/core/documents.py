"""The one reader of every JSON document the product reads (docs/method.md, "Errors and exit
codes"): option values typed as JSON (prompt templates, road classes), question sets, release
manifests, and the manifests the product wrote and reads back.

A document is decoded by :mod:`.input_text` (UTF-8, with or without BOM), parsed with the line and
column of any syntax error, and refused when one object gives a key twice — JSON parsers keep the
last value and drop the first without a word, so ``{"L1": "a", "L1": "b"}`` would silently lose a
template. The top-level value must be of the expected kind (an object, by default). Stdlib only.
"""
from __future__ import annotations

import json
from pathlib import Path

from .errors import InputError
from .input_text import decode, read_bytes

_KINDS = {dict: "a JSON object", list: "a JSON list"}


class _RepeatedKey(ValueError):
    def __init__(self, key: str, first, second):
        super().__init__(key)
        self.key, self.first, self.second = key, first, second


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key, out[key], value)
        out[key] = value
    return out


def _line_of_second(text: str, key: str) -> int | None:
    quoted = json.dumps(key)
    first = text.find(quoted)
    second = text.find(quoted, first + len(quoted)) if first >= 0 else -1
    return text.count("\n", 0, second) + 1 if second >= 0 else None


def parse_json_text(text: str, what: str, fix: str, expect: type | tuple | None = dict, where: str = ""):
    """The value of the JSON ``text``; ``what`` names it in messages (``prompt templates``), ``where``
    adds a file name. A syntax error, a key given twice in one object or a top-level value of
    another kind than ``expect`` is an :class:`InputError` ending with ``fix``."""
    head = f"{what} {where}".rstrip()
    try:
        value = json.loads(text, object_pairs_hook=_pairs)
    except _RepeatedKey as exc:
        line = _line_of_second(text, exc.key)
        at = f" (line {line})" if line and where else ""
        how = "with the same value" if exc.first == exc.second else \
            f"with two values ({json.dumps(exc.first)[:60]} and {json.dumps(exc.second)[:60]})"
        raise InputError(f"{head}: one object gives the key {exc.key!r} twice{at}, {how} — keep one of them; "
                         f"{fix}") from None
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}"
        raise InputError(f"{head} is not valid JSON (text not JSON from {at}: {exc.msg}) — {fix}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{head} is not valid JSON ({exc}) — {fix}") from None
    if expect is not None and not isinstance(value, expect):
        wanted = _KINDS.get(expect, "a JSON value of another kind") if isinstance(expect, type) else \
            " or ".join(_KINDS.get(k, k.__name__) for k in expect)
        raise InputError(f"{head} is not {wanted} (it is a {type(value).__name__}) — {fix}")
    return value


def read_json(path: str | Path, what: str, fix: str, expect: type | tuple | None = dict, max_bytes: int | None = None):
    """The JSON document in ``path``: decoded, parsed and checked as :func:`parse_json_text` does;
    a missing, unreadable, non-UTF-8 or empty file is an :class:`InputError` too."""
    path = Path(path).expanduser()
    raw = read_bytes(path, what, fix, max_bytes)
    text = decode(path, raw, what, fix).text
    if not text.strip():
        raise InputError(f"{what} {path} is empty — {fix}")
    return parse_json_text(text, what, fix, expect, where=str(path))
