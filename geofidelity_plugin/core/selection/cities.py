"""The city table: one row per city — name, country, ISO country code, centre lon/lat
(PROTOCOL §1 "Input per city").
"""
from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..resources import resource

REQUIRED = ("name", "country", "country_code", "lon", "lat")
_ALIASES = {
    "city": "name", "city_name": "name",
    "iso": "country_code", "iso2": "country_code", "iso_a2": "country_code", "cc": "country_code",
    "country_iso": "country_code",
    "lng": "lon", "long": "lon", "longitude": "lon", "x": "lon",
    "latitude": "lat", "y": "lat",
}


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
    """``left`` or ``right`` from the ISO 3166-1 alpha-2 code (PROTOCOL §1 driving side)."""
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
    code = (country_code or "").strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", code):
        raise InputError(f"city {name!r}: country_code {country_code!r} is not an ISO 3166-1 "
                         f"alpha-2 code{at} — use two letters such as FI, US, GB")
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


def read_city_table(path: str | Path) -> list[City]:
    """Read a CSV city table. Column names are case-insensitive; common aliases are accepted
    (city, iso2, longitude, latitude, …)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"city table not found: {path} — give a CSV with columns "
                         f"{', '.join(REQUIRED)}")
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        mapping = {}
        for column in header:
            key = column.strip().lower()
            key = _ALIASES.get(key, key)
            if key in REQUIRED and key not in mapping:
                mapping[key] = column
        missing = [c for c in REQUIRED if c not in mapping]
        if missing:
            raise InputError(f"city table {path.name} lacks column(s) {', '.join(missing)}; found "
                             f"{', '.join(header) or 'no header'} — the header must name "
                             f"{', '.join(REQUIRED)}")
        cities = [make_city(*(row.get(mapping[c]) for c in REQUIRED), where=f"{path.name} row {i}")
                  for i, row in enumerate(reader, start=2)]
    if not cities:
        raise InputError(f"city table {path.name} has a header but no rows — add one row per city")
    names = [c.name for c in cities]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"city table {path.name} lists {', '.join(dupes)} more than once — "
                         "keep one row per city")
    return cities
