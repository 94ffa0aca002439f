"""The words on the atlas pages: scores beside the real anchors, coverage figures, the run's
manifest summary for the cover. Plain strings, so the layout only places them."""
from __future__ import annotations

from pathlib import Path

from ..documents import read_json
from ..errors import InputError
from ..evaluation.score_names import LOWER_IS_BETTER
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .data import AtlasSegment

#: scores on the page (method §5–§7), with their labels
SCORE_FIELDS = (("cos_sim", "CosSim"), ("margin_hard", "Δhard"), ("top1", "top-1"),
                ("chance_adjusted_top1", "top-1ca"), ("mmd2", "MMD²"), ("gads", "GADS"))


def _fmt(value) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 100 else f"{value:.0f}"
    return str(value)


def scores_text(page: AtlasSegment) -> str:
    """A small table: one row per model, then the real anchors; one column per score (method §5–§7)."""
    if not page.scores:
        return "Scores: not evaluated — run Evaluate on this store and give its folder"
    rows = [m for m in page.scores if not m.startswith("anchor:")] + \
        [m for m in page.scores if m.startswith("anchor:")]
    keys = [(k, label) for k, label in SCORE_FIELDS if any(page.scores[r].get(k) is not None for r in rows)]
    width = min(24, max(len(_row_name(r)) for r in rows))
    lines = ["Scores".ljust(width) + "".join(f"{label:>8}" for _, label in keys)]
    for r in rows:
        lines.append(_row_name(r)[:width].ljust(width) + "".join(f"{_fmt(page.scores[r].get(k)):>8}" for k, _ in keys))
    higher = [label for k, label in keys if k not in LOWER_IS_BETTER]
    lower = [label for k, label in keys if k in LOWER_IS_BETTER]
    lines.append("↑ higher is better: " + ", ".join(higher) + (f"; ↓ lower: {', '.join(lower)}" if lower else ""))
    lines.append("Δhard > 0: closer to this street than to its closest look-alike")
    if "top-1ca" in higher:
        lines.append("top-1ca: top-1 with the chance level of the gallery taken out")
    return "\n".join(lines)


def map_score_label(page: AtlasSegment) -> str:
    """The segment's label on its own page map: Δhard of the first model (else of the held-out
    real anchor), with the direction that is better."""
    models = [m for m in page.scores if not m.startswith("anchor:")] or \
        [m for m in page.scores if m.startswith("anchor:")]
    for model in models:
        value = page.scores[model].get("margin_hard")
        if isinstance(value, (int, float)):
            return f"Δhard {value:+.3f} ({_row_name(model)})"
    return "not evaluated"


def page_numbers(order: list[str], first_page: int = 2) -> dict[str, int]:
    """Segment id → its page in the atlas (the cover is page 1)."""
    return {sid: n for n, sid in enumerate(order, first_page)}


def index_text(pages: list[AtlasSegment], numbers: dict[str, int], lines: int = 16, columns: int = 2,
               width: int = 34) -> str:
    """The cover's index: page, street and city, in page order, in ``columns`` columns of
    ``lines`` lines; what does not fit ends in "… and N more"."""
    by_id = {p.segment_id: p for p in pages}
    entries = [f"{numbers[sid]:>3}  {by_id[sid].street_name} ({by_id[sid].facts.get('city') or '—'})"
               for sid in sorted(numbers, key=numbers.get) if sid in by_id]
    room = lines * columns
    if len(entries) > room:
        rest = len(entries) - (room - 1)
        entries = entries[:room - 1] + [f"     … and {rest} more (pages {numbers[max(numbers, key=numbers.get)] - rest + 1}–"
                                        f"{max(numbers.values())})"]
    cut = [e if len(e) <= width else e[:width - 1] + "…" for e in entries]
    rows = [cut[i::lines] for i in range(min(lines, len(cut)))]  # column-major: read down, then across
    return "Index (page · street)\n" + "\n".join("".join(cell.ljust(width + 2) for cell in row).rstrip()
                                                   for row in rows)


def _row_name(column: str) -> str:
    return f"real {column[len('anchor:'):]}" if column.startswith("anchor:") else column


def coverage_text(page: AtlasSegment) -> str:
    """The coverage audit's figures for the segment (those the audit wrote), a few short lines."""
    c = page.coverage
    if not c:
        return "Coverage: no coverage audit given — run the coverage audit and give its GeoPackage"
    lines = ["Coverage (audit)"]
    counts = [f"{c['images_kept']} images kept" if c.get("images_kept") is not None else "",
              f"{c['images_per_km']:.1f} / km" if isinstance(c.get("images_per_km"), (int, float)) else "",
              f"{c['sequences']} sequences" if c.get("sequences") is not None else ""]
    lines.append(", ".join(x for x in counts if x))
    if c.get("date_first"):
        span = f" ({c['date_span_days']} days)" if c.get("date_span_days") is not None else ""
        lines.append(f"captured {c['date_first']} … {c.get('date_last') or '?'}{span}")
    gaps = []
    if isinstance(c.get("share_uncovered_20m"), (int, float)):
        gaps.append(f"{100 * c['share_uncovered_20m']:.0f} % of its length > 20 m from an image")
    elif isinstance(c.get("uncovered_fraction"), (int, float)):
        gaps.append(f"{100 * c['uncovered_fraction']:.0f} % of its length uncovered")
    if isinstance(c.get("longest_gap_m"), (int, float)):
        gaps.append(f"longest gap {c['longest_gap_m']:.0f} m")
    lines.append("; ".join(gaps))
    return "\n".join(x for x in lines if x)


def facts_text(page: AtlasSegment) -> str:
    f = page.facts
    length = f.get("length_m")
    parts = [f.get("city"), f.get("neighbourhood"), f.get("road_class"),
             f"{length:.0f} m" if isinstance(length, (int, float)) else None, page.segment_id]
    return " · ".join(str(p) for p in parts if p)


def manifest_summary(evaluation: str | Path | None, pages: list[AtlasSegment], condition: str | None) -> str:
    """Models, conditions, feature model, date and code version of the run (the cover page)."""
    manifest = {}
    if evaluation and (Path(evaluation) / "evaluation.manifest.json").is_file():
        try:  # a damaged manifest costs the cover page its run details, not the atlas
            manifest = read_json(Path(evaluation) / "evaluation.manifest.json", "evaluation manifest",
                                 "run evaluate again")
        except InputError:
            manifest = {}
    models = sorted({m for p in pages for m in p.generated})
    anchors = sorted({m.replace("anchor:", "") for p in pages for m in p.scores if m.startswith("anchor:")})
    features = manifest.get("models") or []
    feature = features[0].get("label") or features[0].get("id") if features and isinstance(features[0], dict) else "—"
    cities = sorted({str(p.facts.get("city")) for p in pages})
    lines = [f"Segments: {len(pages)} in {', '.join(cities)}",
             f"Generative models: {', '.join(models) or '—'}; condition shown: {condition or '—'}",
             f"Real anchors: {', '.join(anchors) or '—'}",
             f"Feature model: {feature}",
             f"Evaluation run: {manifest.get('created_utc', 'not evaluated')}; GeoFidelity "
             f"{manifest.get('geofidelity_version') or _version()}"]
    return "\n".join(lines)


def _version() -> str:
    from ..manifest import __version__

    return __version__


#: the cover's city table: (field of ``coverage_cities``, header, width, format)
CITY_TABLE = (("segments", "Segments", 9, "{:d}"), ("km", "km", 8, "{:.2f}"), ("images", "Images", 8, "{:d}"),
              ("images_per_km", "Images/km", 10, "{:.1f}"),
              ("median_share_uncovered_20m", "Median share > 20 m", 20, "pct"),
              ("segments_gap_over_100m", "Segments gap > 100 m", 21, "{:d}"))
MAX_CITY_ROWS = 6


def _city_cell(value, fmt: str) -> str:
    if value is None or value == "":
        return "—"
    try:
        if fmt == "pct":
            return f"{100 * float(value):.0f} %"
        return fmt.format(int(value) if fmt == "{:d}" else float(value))
    except (TypeError, ValueError):
        return str(value)


def city_dates(row: dict) -> str:
    if not row.get("date_first"):
        return "no capture dates"
    span = f" ({row['date_span_days']} days)" if row.get("date_span_days") is not None else ""
    return f"{row['date_first']} … {row.get('date_last') or '?'}{span}"


def city_table_text(rows: list[dict], coverage_given: bool = True) -> str:
    """The coverage audit's city summary as a fixed-width table for the cover (method §2): segments,
    km, images, images per km, the median share with no image within 20 m, the segments with a gap
    over 100 m and the capture dates. Without the table: a line saying how to get it."""
    if not coverage_given:
        return "City coverage: no coverage audit given — run the coverage audit and give its GeoPackage"
    if not rows:
        return ("City coverage: the coverage GeoPackage has no city summary (an earlier version) — run the "
                "coverage audit again")
    width = min(20, max(4, *(len(str(r.get("city") or "—")) for r in rows))) + 2
    lines = ["City coverage (audit)",
             "City".ljust(width) + "".join(h.rjust(w) for _, h, w, _ in CITY_TABLE) + "  Capture dates"]
    for row in rows[:MAX_CITY_ROWS]:
        lines.append(str(row.get("city") or "—")[:width - 2].ljust(width)
                     + "".join(_city_cell(row.get(k), f).rjust(w) for k, _, w, f in CITY_TABLE)
                     + "  " + city_dates(row))
    if len(rows) > MAX_CITY_ROWS:
        lines.append(f"… and {len(rows) - MAX_CITY_ROWS} more cities: see the audit's city CSV")
    return "\n".join(lines)
