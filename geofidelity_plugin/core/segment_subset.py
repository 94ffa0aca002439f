"""Which roads a run works on (``--only-segments``; in QGIS the roads of a layer, "Selected
features only" honoured): comma-separated segment ids, or ``@FILE`` with one id per line.

A subset narrows what a stage *does and reports* — the segments fetch searches, the panels
evaluate scores and writes — never what a road's numbers depend on: evaluate still embeds every
reference panel of the store, so the kernel bandwidth, the held-out split and the galleries'
negatives are those of the whole store, and a road's scores in a subset run equal its scores in a
run over every road (docs/method.md, "Working on some roads")."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from .errors import InputError
from .input_text import decode, read_bytes

#: how the user knows the option, on the command line and in QGIS
LABEL = "--only-segments; in QGIS \"Only these roads\""


def parse_only_segments(text) -> frozenset[str] | None:
    """The segment ids of ``text`` (None or empty: every segment)."""
    if text is None:
        return None
    if isinstance(text, (set, frozenset, list, tuple)):
        ids = [str(t).strip() for t in text]
    else:
        raw = str(text).strip()
        if not raw:
            return None
        if raw.startswith("@"):
            path = Path(raw[1:]).expanduser()
            what, fix = f"list of segment ids ({LABEL})", "give a UTF-8 text file with one segment_id per line"
            if not path.exists() and not path.is_symlink():
                raise InputError(f"the list of segment ids {path} ({LABEL}) does not exist — {fix}")
            lines = decode(path, read_bytes(path, what, fix), what, fix).text.splitlines()
            ids = [line.strip() for line in lines if not line.lstrip().startswith("#")]
        else:
            ids = [part.strip() for part in raw.split(",")]
    ids = [i for i in ids if i]
    if not ids:
        raise InputError(f"no segment id given ({LABEL}) — give ids such as seg-1,seg-2, a file as @ids.txt, "
                         "or leave the option out to work on every segment (in QGIS: select at least one road, "
                         "or untick \"Selected features only\")")
    return frozenset(ids)


def check_known(only: frozenset[str] | None, known: Iterable[str], store_name: str) -> None:
    """Refuse ids the store does not have, naming a few of them."""
    if only is None:
        return
    unknown = sorted(only - set(known))
    if unknown:
        shown = ", ".join(unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise InputError(f"{len(unknown)} of the {len(only)} segment ids given ({LABEL}) are not segments of "
                         f"{store_name}: {shown} — pick roads of the segments layer this store was built from")


def recorded(only: frozenset[str] | None) -> list[str] | None:
    """What the run manifest records: the ids themselves, sorted (never a temporary file's path)."""
    return sorted(only) if only is not None else None
