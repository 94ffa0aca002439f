"""Capture dates of a segment's images for the coverage audit (method §2): first and last
capture day, the span in days, and a histogram a reader can take in at a glance.

The histogram counts images per calendar **year**, or per calendar **month** when the dates
span less than two years (:data:`MONTHLY_BELOW_DAYS`): a panel shot within a few months would
otherwise be one bar. Every bin from the first to the last date is listed, empty ones too, so
that a gap in time reads as a gap. Dates are UTC calendar days.
"""
from __future__ import annotations

import datetime as _dt
import json
from collections import Counter

#: below this span (days) the histogram counts months, else years
MONTHLY_BELOW_DAYS = 730


def day_of(ms) -> _dt.date | None:
    """The UTC calendar day of an epoch-milliseconds capture time (``None`` stays ``None``)."""
    if ms is None:
        return None
    try:
        return _dt.datetime.fromtimestamp(int(ms) / 1000, tz=_dt.timezone.utc).date()
    except (TypeError, ValueError, OverflowError, OSError):
        return None


def iso_day(ms) -> str | None:
    """``yyyy-mm-dd`` of an epoch-milliseconds capture time."""
    day = day_of(ms)
    return day.isoformat() if day else None


def date_span(days: list[_dt.date]) -> tuple[str | None, str | None, int]:
    """``(first, last, span_days)``: ISO days and the days between them (0 for one day or none)."""
    if not days:
        return None, None, 0
    first, last = min(days), max(days)
    return first.isoformat(), last.isoformat(), (last - first).days


def histogram_unit(days: list[_dt.date]) -> str:
    """``"month"`` when the dates span less than :data:`MONTHLY_BELOW_DAYS`, else ``"year"``."""
    if not days:
        return "year"
    return "month" if (max(days) - min(days)).days < MONTHLY_BELOW_DAYS else "year"


def _bin(day: _dt.date, unit: str) -> str:
    return f"{day.year:04d}-{day.month:02d}" if unit == "month" else f"{day.year:04d}"


def _bins_between(first: _dt.date, last: _dt.date, unit: str) -> list[str]:
    if unit == "year":
        return [f"{y:04d}" for y in range(first.year, last.year + 1)]
    out, (y, m) = [], (first.year, first.month)
    while (y, m) <= (last.year, last.month):
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def histogram(days: list[_dt.date], unit: str | None = None) -> dict[str, int]:
    """Ordered ``{bin: images}`` from the first to the last date's bin, empty bins included;
    ``unit`` (``"year"`` / ``"month"``) defaults to :func:`histogram_unit`."""
    if not days:
        return {}
    unit = unit or histogram_unit(days)
    counts = Counter(_bin(d, unit) for d in days)
    return {b: counts.get(b, 0) for b in _bins_between(min(days), max(days), unit)}


def histogram_text(counts: dict[str, int]) -> str:
    """The histogram as compact JSON text (a GeoPackage field): ``{"2019": 3, "2020": 0}``."""
    return json.dumps(counts, separators=(",", ":"))
