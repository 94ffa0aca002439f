"""Country names from ISO codes (resources/data/country_names.csv): every code of the table, and
the forms a release may use (alpha-2, alpha-3, aliases, names), give the everyday English name."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from geofidelity_plugin.core.countries import country_from_code, iso_codes
from geofidelity_plugin.core.resources import resource


def _rows():
    with open(resource("data", "country_names.csv"), encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def test_every_code_of_the_table_gives_its_name():
    rows = _rows()
    iso = [r for r in rows if not r["alias_of"]]
    assert len(iso) >= 249 and len({r["alpha_2"] for r in iso}) == len(iso)
    source = Path("/usr/share/iso-codes/json/iso_3166-1.json")  # the table's source (Debian iso-codes)
    if source.is_file():
        debian = {e["alpha_2"] for e in json.loads(source.read_text(encoding="utf-8"))["3166-1"]}
        assert debian <= {r["alpha_2"] for r in iso}  # every ISO 3166-1 code
    for r in iso:
        for code in (r["alpha_2"], r["alpha_3"], r["alpha_2"].lower()):
            if code:
                name, alpha2 = country_from_code(code)
                assert (name, alpha2) == (r["name"], r["alpha_2"]), code
                assert name and len(name) > 3 and "," not in name, code
    assert set(iso_codes()) >= {r["alpha_2"] for r in rows}


@pytest.mark.parametrize("given, expected", [
    ("FI", ("Finland", "FI")), ("fin", ("Finland", "FI")), ("GB", ("United Kingdom", "GB")),
    ("UK", ("United Kingdom", "GB")), ("US", ("United States", "US")), ("KR", ("South Korea", "KR")),
    ("VN", ("Vietnam", "VN")), ("RU", ("Russia", "RU")), ("EL", ("Greece", "GR")), ("XK", ("Kosovo", "XK")),
    ("Finland", ("Finland", "FI")), (" japan ", ("Japan", "JP")), ("Atlantis", ("Atlantis", "")), ("", ("", ""))])
def test_codes_aliases_and_names(given, expected):
    assert country_from_code(given) == expected
