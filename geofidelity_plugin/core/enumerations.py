"""The closed sets of values a table cell may hold, each taken from the one place that defines it
(docs/method.md, "Errors and exit codes"): prompt conditions and levels from :mod:`.conditions`,
countries from the country table of :mod:`.countries`, audit decisions from here. A schema of
:mod:`.tables` names an :class:`Enumeration` per column; the reader refuses any other value,
naming the file, line, column and what is allowed. Stdlib only.
"""
from __future__ import annotations

from .tables import Enumeration  # noqa: F401 (defined beside the reader that checks it)


def _conditions() -> tuple[str, ...]:
    from .conditions import CONDITIONS

    return CONDITIONS


def _known_country(value: str) -> bool:
    from .countries import country_from_code

    return bool(country_from_code(value)[1])


CONDITION = Enumeration("prompt condition", _conditions())
#: the release's ``level`` column holds a condition (RELEASE_FORMAT.md)
LEVEL = Enumeration("level", _conditions())
COUNTRY = Enumeration("country", listing="a country the country table knows (an ISO 3166-1 code such as FI, "
                                         "GB, US, or its English name)", accepts_value=_known_country)
#: a manual audit's decision (method §2): empty clears an earlier decision
DECISION = Enumeration("decision", ("accept", "reject", ""), fold_case=True, listing="accept/reject/empty")
