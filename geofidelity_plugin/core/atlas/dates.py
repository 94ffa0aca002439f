"""The capture-date histogram of a segment as a small bar chart for its atlas page (coverage
audit, method §2): one bar per bin of the audit — per year, or per month under a two-year span —
empty bins kept as empty slots so that a gap in time reads as a gap. Drawn with PIL into the
atlas's working folder, like the thumbnail strips; the layout places it as a picture.

The bins are the audit's own (the ``date_histogram`` field of the ``coverage`` layer, else the
``coverage_dates`` table): this module never re-bins the dates.
"""
from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path

from .data import dates_by_segment  # noqa: F401 (public here too)
from .fonts import _font

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


def _label_step(labels: list[str], slot: float, font) -> int:
    """Label every k-th bin so that the labels do not overlap."""
    widest = max(font.getbbox(t)[2] - font.getbbox(t)[0] for t in labels) + 10
    return max(1, math.ceil(widest / max(slot, 1.0)))


def draw_histogram(counts: dict[str, int], out_path: str | Path, size: tuple[int, int] = SIZE) -> Path | None:
    """Draw ``counts`` (ordered bins → images) as bars, each with its count above it; the bin
    labels under them (thinned when crowded). ``None`` (nothing written) when no bin has an image."""
    from PIL import Image, ImageDraw

    from ..atomic import atomic_path

    if not counts or not any(counts.values()):
        return None
    width, height = size
    font = _font(FONT_PX)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    labels, values = list(counts), list(counts.values())
    plot_w, plot_h = width - 2 * SIDE, height - TOP - BOTTOM
    slot, peak = plot_w / len(values), max(values)
    bar = max(2, min(MAX_BAR, round(slot * 0.7)))
    base = TOP + plot_h
    step = _label_step(labels, slot, font)
    for i, (label, n) in enumerate(zip(labels, values)):
        centre = SIDE + slot * (i + 0.5)
        x0 = round(centre - bar / 2)
        h = round(plot_h * n / peak)
        if h:
            draw.rectangle([x0, base - h, x0 + bar - 1, base - 1], fill=BAR_RGB)
        if n and slot >= 18:
            draw.text((centre, base - h - 3), str(n), fill=TEXT_RGB, font=font, anchor="ms")
        if i % step == 0:
            draw.text((centre, base + 6), label, fill=TEXT_RGB, font=font, anchor="mt")
    draw.line([SIDE, base, width - SIDE, base], fill=AXIS_RGB, width=2)
    out_path = Path(out_path)
    with atomic_path(out_path, suffix=".png") as tmp:
        image.save(tmp, format="PNG")
    return out_path


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


def segment_dates_chart(page, folder: str | Path) -> Path | None:
    """The page's chart in ``folder``; ``None`` for a segment without dated images."""
    if not page.coverage:
        return None
    _unit, counts = histogram_of(page.coverage, page.dates)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in page.segment_id)
    return draw_histogram(counts, Path(folder) / f"{safe}_dates.png")
