"""Country names from ISO 3166-1 codes (``resources/data/country_names.csv``), so that a release
whose blocks carry only a code ("FI") still gets prompts that read "Helsinki, Finland."
(method §4). Stdlib only.
"""
from __future__ import annotations

from functools import lru_cache

from .resources import resource
from .tables import TableSchema, read_table


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """code (alpha-2, alpha-3, numeric or a listed alias, upper case) → (alpha-2, name); name → alpha-2."""
    schema = TableSchema("country table", ("alpha_2", "alpha_3", "numeric", "name", "alias_of"), key=("alpha_2",),
                         comment="#",
                         fix="the plugin's installation is damaged: install it again")
    rows = read_table(resource("data", "country_names.csv"), schema).rows
    by_code: dict[str, tuple[str, str]] = {}
    for r in rows:
        if not r["alias_of"]:
            by_code[r["alpha_2"]] = (r["alpha_2"], r["name"])
            if r["alpha_3"]:
                by_code[r["alpha_3"]] = (r["alpha_2"], r["name"])
            if r["numeric"]:  # ISO 3166-1 numeric, kept without its leading zeros ("40" and "040": Austria)
                by_code[str(int(r["numeric"]))] = (r["alpha_2"], r["name"])
    for r in rows:
        if r["alias_of"]:
            by_code[r["alpha_2"]] = by_code[r["alias_of"]]
    by_name = {name.casefold(): a2 for a2, name in by_code.values()}
    return by_code, by_name


def iso_codes() -> list[str]:
    """Every code the table knows (alpha-2, alpha-3, numeric and aliases)."""
    return sorted(_table()[0])


def country_from_code(value: str) -> tuple[str, str]:
    """``(country name, ISO alpha-2 code)`` for a code or a name as a dataset gives it.

    A known code (alpha-2, alpha-3, numeric such as 246, or an alias such as UK) gives the table's name; a country
    name gives itself and its code; anything else is kept as the name, with an empty code."""
    text = (value or "").strip()
    by_code, by_name = _table()
    hit = by_code.get(str(int(text)) if text.isdigit() and len(text) <= 3 else text.upper())
    if hit is not None:
        return hit[1], hit[0]
    code = by_name.get(text.casefold())
    if code is not None:
        return by_code[code][1], code
    return text, ""
