"""The city table: one row per city — name, country, ISO country code, centre lon/lat
(method §1 "Input per city").
"""
from __future__ import annotations

import logging
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import InputError
from ..resources import resource
from ..tables import TableSchema, read_table

log = logging.getLogger("geofidelity")

REQUIRED = ("name", "country", "country_code", "lon", "lat")
_ALIASES = {
    "city": "name", "city_name": "name",
    "iso": "country_code", "iso2": "country_code", "iso_a2": "country_code", "cc": "country_code",
    "country_iso": "country_code",
    "lng": "lon", "long": "lon", "longitude": "lon", "x": "lon",
    "latitude": "lat", "y": "lat",
}
_DECIMAL_COMMA = re.compile(r"\s*[-+]?\d+,\d+\s*")
_MAX_BYTES = 50 * 1024 * 1024
#: the one reader's schema of a city table (docs/method.md §1 "Input per city")
SCHEMA = TableSchema("city table", REQUIRED, aliases=_ALIASES, fold_case=True, delimiters=(",", ";", "\t"),
                     legacy_encodings=True, max_bytes=_MAX_BYTES,
                     fix=f"a city table is a CSV with the header {', '.join(REQUIRED)} and one row per city")


@dataclass(frozen=True)
class City:
    name: str
    country: str
    country_code: str
    lon: float
    lat: float

    @property
    def driving_side(self) -> str:
        return driving_side(self.country_code)


def _left_hand_codes() -> frozenset[str]:
    with open(resource("data", "driving_side.csv"), encoding="utf-8") as fh:
        rows = [line.strip() for line in fh if line.strip() and not line.startswith("#")]
    return frozenset(rows[1:])


_LEFT: frozenset[str] | None = None


def driving_side(country_code: str) -> str:
    """``left`` or ``right`` from the ISO 3166-1 alpha-2 code (method §1 driving side)."""
    global _LEFT
    if _LEFT is None:
        _LEFT = _left_hand_codes()
    return "left" if country_code.upper() in _LEFT else "right"


def make_city(name, country, country_code, lon, lat, where: str = "") -> City:
    """Validate one row; errors say which row and how to fix it."""
    at = f" ({where})" if where else ""
    name = (name or "").strip()
    if not name:
        raise InputError(f"a city has an empty name{at} — fill the 'name' column")
    code = check_country_code(name, country_code, at)
    try:
        lon_f, lat_f = float(lon), float(lat)
    except (TypeError, ValueError):
        raise InputError(f"city {name!r}: centre lon/lat ({lon!r}, {lat!r}) are not numbers{at} — "
                         "give decimal degrees, e.g. lon=24.94 lat=60.17") from None
    if not (math.isfinite(lon_f) and math.isfinite(lat_f)):
        raise InputError(f"city {name!r}: centre lon/lat must be finite numbers{at}")
    if not (-180 <= lon_f <= 180 and -90 <= lat_f <= 90):
        raise InputError(f"city {name!r}: centre ({lon_f}, {lat_f}) is outside lon [-180, 180] / "
                         f"lat [-90, 90]{at} — are lon and lat swapped or projected?")
    return City(name, (country or "").strip() or code, code, lon_f, lat_f)


def check_country_code(name: str, country_code, at: str = "") -> str:
    """The ISO 3166-1 alpha-2 code, upper case, checked against the one country table
    (``resources/data/country_names.csv``): ``XX`` or ``UK`` would give wrong segment ids, prompts
    and driving sides, so each is named and refused."""
    from ..countries import country_from_code, iso_codes

    code = (country_code or "").strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", code):
        raise InputError(f"city {name!r}: country_code {country_code!r} is not an ISO 3166-1 "
                         f"alpha-2 code{at} — use two letters such as FI, US, GB")
    country, iso = country_from_code(code)
    if not iso:
        raise InputError(f"city {name!r}: country_code {code!r} is not an ISO 3166-1 country code{at} — "
                         "use the country's two-letter code, such as FI, US, GB")
    if iso != code:
        raise InputError(f"city {name!r}: country_code {code!r} is not the ISO code of {country}{at} — "
                         f"write {iso}")
    return code


def slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "x"


def id_stem(city: City) -> str:
    """What a city adds to each of its segments' ``segment_id`` (``fi-helsinki``, method §1)."""
    return f"{city.country_code.lower()}-{slug(city.name)}"


def check_distinct_cities(cities: list[City], source: str, lines: list[int] | None = None) -> None:
    """Two rows whose segment ids would be the same (``Helsinki`` and ``helsinki``, FI) are refused:
    their segments would share ids, which no later stage could tell apart. ``lines``: each city's
    line in the table, named beside the clash."""
    first: dict[str, int] = {}
    clashes = []
    for index, city in enumerate(cities):
        earlier = first.setdefault(id_stem(city), index)
        other = cities[earlier]
        if earlier != index:
            where = f" (lines {lines[earlier]} and {lines[index]})" if lines else ""
            clashes.append((f"{other.name!r} and {city.name!r} ({city.country_code})" if other.name != city.name
                            else f"{city.name!r}") + where)
    if clashes:
        raise InputError(f"{source} lists {', '.join(dict.fromkeys(clashes))} more than once (names that differ "
                         "only in case, accents or punctuation give the same segment ids) — keep one row per city")


def _number_text(value):
    """``24,94`` (a decimal comma) → ``24.94``; anything else unchanged."""
    if isinstance(value, str) and _DECIMAL_COMMA.fullmatch(value):
        return value.replace(",", ".")
    return value


def read_city_table(path: str | Path, warn: Callable[[str], None] | None = None) -> list[City]:
    """Read a CSV city table through the one table reader (:mod:`..tables`). Column names are
    case-insensitive; common aliases are accepted (city, iso2, longitude, latitude, …); ``;`` or
    tab separators, decimal commas, UTF-16 and Windows-1252 are read as Excel writes them, the
    encodings with a warning through ``warn``."""
    path = Path(path).expanduser()
    table = read_table(path, SCHEMA, warn=warn or log.warning)
    cities = [make_city(row["name"], row["country"], row["country_code"], _number_text(row["lon"]),
                        _number_text(row["lat"]), where=f"{path.name} line {row.line}") for row in table.rows]
    check_distinct_cities(cities, f"city table {path}", [row.line for row in table.rows])
    return cities
