"""The capture-date histogram of a segment for its atlas page (coverage audit, method §2): the
bins of the audit — per year, or per month under a two-year span — the chart's title and its
geometry. Qt draws the chart inside QGIS (``qgis_side/atlas_pictures.py``); the layout places it
as a picture.

The bins are the audit's own (the ``date_histogram`` field of the ``coverage`` layer, else the
``coverage_dates`` table): this module never re-bins the dates.
"""
from __future__ import annotations

import json

BAR_RGB = (44, 123, 182)
AXIS_RGB = (150, 150, 150)
TEXT_RGB = (60, 60, 60)
#: the picture, in pixels (about 117 × 17 mm at 300 dpi: the template's ``dates`` item)
SIZE = (1380, 200)
TOP, BOTTOM, SIDE = 34, 40, 8  # room for the counts above the bars, the bin labels under them
FONT_PX = 26
MAX_BAR = 120  # px: a few bins stay bars, not blocks
NO_DATES = "no capture dates"


def histogram_of(row: dict, dates_rows: list[dict] | None = None) -> tuple[str, dict[str, int]]:
    """``(unit, {bin: images})`` of a segment: its ``date_histogram`` field (JSON text), else its
    rows of the ``coverage_dates`` table; ``("year", {})`` when the audit recorded no date."""
    unit = str(row.get("date_unit") or "year")
    text = row.get("date_histogram")
    counts: dict = {}
    if text:
        try:
            counts = json.loads(text)
        except ValueError:
            counts = {}
    if not isinstance(counts, dict) or not counts:
        counts = {str(r["period"]): r.get("images") for r in dates_rows or ()}
        unit = str((dates_rows or [{}])[0].get("unit") or unit)
    clean = {}
    for period, n in counts.items():
        try:
            clean[str(period)] = max(0, int(n or 0))
        except (TypeError, ValueError):
            continue
    return unit, clean


def dates_title(page) -> str:
    """The line over the chart: the unit of the bins, or :data:`NO_DATES`; empty without an audit."""
    if not page.coverage:
        return ""
    unit, counts = histogram_of(page.coverage, page.dates)
    if not any(counts.values()):
        if page.coverage.get("date_first") and "date_histogram" not in page.coverage and not page.dates:
            return "Capture dates: this audit has no histogram (an earlier version) — run the coverage audit again"
        return f"Capture dates: {NO_DATES}"
    return f"Capture dates: images per {unit} ({sum(counts.values())} dated images)"
