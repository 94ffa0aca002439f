"""The city table: one row per city — name, country, ISO country code, centre lon/lat
(method §1 "Input per city").
"""
from __future__ import annotations

import csv
import io
import logging
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import InputError
from ..resources import resource

log = logging.getLogger("geofidelity")

REQUIRED = ("name", "country", "country_code", "lon", "lat")
_ALIASES = {
    "city": "name", "city_name": "name",
    "iso": "country_code", "iso2": "country_code", "iso_a2": "country_code", "cc": "country_code",
    "country_iso": "country_code",
    "lng": "lon", "long": "lon", "longitude": "lon", "x": "lon",
    "latitude": "lat", "y": "lat",
}
_DELIMITERS = (",", ";", "\t")
_DECIMAL_COMMA = re.compile(r"\s*[-+]?\d+,\d+\s*")
_MAX_BYTES = 50 * 1024 * 1024
_SAVE_AS = "save it as CSV UTF-8 (in Excel: File › Save As › 'CSV UTF-8 (comma delimited)')"


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


def check_distinct_cities(cities: list[City], source: str) -> None:
    """Two rows whose segment ids would be the same (``Helsinki`` and ``helsinki``, FI) are refused:
    their segments would share ids, which no later stage could tell apart."""
    first: dict[str, City] = {}
    clashes = []
    for city in cities:
        other = first.setdefault(id_stem(city), city)
        if other is not city:
            clashes.append(f"{other.name!r} and {city.name!r} ({city.country_code})" if other.name != city.name
                           else f"{city.name!r}")
    if clashes:
        raise InputError(f"{source} lists {', '.join(dict.fromkeys(clashes))} more than once (names that differ "
                         "only in case, accents or punctuation give the same segment ids) — keep one row per city")


def _decode(path: Path, raw: bytes, warn: Callable[[str], None]) -> str:
    """The table's text: UTF-8 (with or without BOM), UTF-16 with a BOM, else Windows-1252 — the
    usual Excel export — with a warning."""
    if raw.startswith(b"PK\x03\x04"):
        raise InputError(f"city table {path} is an Excel workbook (or another zip file), not CSV "
                         f"text — {_SAVE_AS}")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError(f"city table {path} starts like UTF-16 text but is damaged — "
                             f"{_SAVE_AS}") from None
    if b"\x00" in raw:
        raise InputError(f"city table {path} is not a text file (it holds NUL bytes) — {_SAVE_AS}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = raw[exc.start]
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError:  # five bytes cp1252 leaves undefined: read as Latin-1
        text = raw.decode("latin-1")
    warn(f"city table {path} is not UTF-8 (byte 0x{bad:02x}); it was read as Windows-1252 (cp1252, "
         f"Latin-1), the usual Excel export — check the names, and {_SAVE_AS} to avoid this warning")
    return text


def _canonical(column: str) -> str:
    key = column.strip().lower()
    return _ALIASES.get(key, key)


def _delimiter(text: str) -> str:
    """``,``, or ``;`` / tab (Excel in many European locales) when that splits the header better."""
    header = text.split("\n", 1)[0]
    return max(_DELIMITERS, key=lambda d: (sum(_canonical(c) in REQUIRED for c in header.split(d)), d == ","))


def _number_text(value):
    """``24,94`` (a decimal comma) → ``24.94``; anything else unchanged."""
    if isinstance(value, str) and _DECIMAL_COMMA.fullmatch(value):
        return value.replace(",", ".")
    return value


def read_city_table(path: str | Path, warn: Callable[[str], None] | None = None) -> list[City]:
    """Read a CSV city table. Column names are case-insensitive; common aliases are accepted
    (city, iso2, longitude, latitude, …); ``;`` or tab separators and decimal commas are read as
    Excel writes them. ``warn`` receives a warning when the file is not UTF-8."""
    path = Path(path).expanduser()
    expected = f"a CSV with the header {', '.join(REQUIRED)} and one row per city"
    if path.is_dir():
        raise InputError(f"city table {path} is a folder — give {expected}")
    if not path.is_file():
        raise InputError(f"city table not found: {path} — give {expected}")
    if path.stat().st_size > _MAX_BYTES:
        raise InputError(f"city table {path} is {path.stat().st_size / 1e6:.0f} MB — too large for a "
                         f"table of cities; check the path (expected {expected})")
    raw = path.read_bytes()
    if not raw.strip():
        raise InputError(f"city table {path} is empty — give {expected}")
    text = _decode(path, raw, warn or log.warning)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
        header = reader.fieldnames or []
        mapping = {}
        for column in header:
            key = _canonical(column)
            if key in REQUIRED and key not in mapping:
                mapping[key] = column
        missing = [c for c in REQUIRED if c not in mapping]
        if missing:
            raise InputError(f"city table {path} lacks column(s) {', '.join(missing)}; found "
                             f"{', '.join(header) or 'no header'} — the header must name "
                             f"{', '.join(REQUIRED)}")
        cities = []
        for i, row in enumerate(reader, start=2):
            name, country, code, lon, lat = (row.get(mapping[c]) for c in REQUIRED)
            cities.append(make_city(name, country, code, _number_text(lon), _number_text(lat),
                                    where=f"{path.name} row {i}"))
    except csv.Error as exc:
        raise InputError(f"city table {path} is not a readable CSV file ({exc}) — {_SAVE_AS}") from None
    if not cities:
        raise InputError(f"city table {path} has a header but no rows — add one row per city")
    check_distinct_cities(cities, f"city table {path}")
    return cities
