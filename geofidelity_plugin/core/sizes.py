"""Sizes of memory as people type them (``1GB``, ``512 MB``, ``7.5GiB``): the one reader every
memory option uses (``--max-memory``, ``--vram-budget``), so that each refuses the same texts —
``inf``, ``nan``, exponents, negative numbers, sizes no machine has — with a message, never a
traceback. Stdlib only."""
from __future__ import annotations

import math
import re

from .errors import InputError

_UNITS = {"B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
#: plain decimal digits and a binary unit (K, KB, KiB …; GB means GiB, as on a card's box)
_SIZE = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)([KMGT]?)(I?B)?$")
#: more than any machine holds (1 PiB): a typo, not a budget
MAX_BYTES = 1 << 50


def parse_size(text, what: str, example: str, bare: str = "B", units: str = "BKMGT") -> int:
    """Bytes of ``text``. ``bare``: the unit of a number without one (``B`` or ``G``); ``units``:
    the unit letters accepted. Raises :class:`InputError` naming ``what`` with ``example``."""
    raw = re.sub(r"\s+", "", str(text)).upper()
    match = _SIZE.match(raw)
    unit = (match.group(2) or ("B" if match.group(3) else bare)) if match else ""
    if not match or unit not in units or (match.group(3) == "IB" and not match.group(2)):
        raise InputError(f"cannot read the {what} {text!r} as a size — write it like {example}")
    value = float(match.group(1)) * _UNITS[unit]
    if not math.isfinite(value) or value > MAX_BYTES:
        raise InputError(f"the {what} {text!r} is more than any machine holds — write it like {example}")
    return int(value)
