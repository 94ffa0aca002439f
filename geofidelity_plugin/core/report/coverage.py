"""The coverage section of the report and the credit lines at its foot (method §2, "coverage
audit"; method §1 data sources).

The section reads what the coverage audit wrote (``coverage`` command, 'Coverage audit' in
QGIS): the GeoPackage's ``coverage``, ``coverage_cities`` and ``coverage_images`` layers and the
run manifest beside it. The GeoPackage is the one given (``--coverage``), else the newest one
whose manifest names the same store as the evaluation — looked for in the evaluation folder and
in the store's folder — so that a coverage audit of another store is never shown. No audit
found: no section, and the page says how to add one.
"""
from __future__ import annotations

import html
import logging
import math
from pathlib import Path
from urllib.parse import quote

from ..attribution import credit_lines
from ..documents import read_json
from ..errors import InputError
from geofidelity_plugin.core.reference_panels.coverage.dates import histogram, histogram_unit
from . import figures as fig

log = logging.getLogger("geofidelity")

FIGURE = "coverage_dates.png"
HOW = ("run the coverage audit (`python -m geofidelity_plugin coverage --store STORE --out coverage.gpkg`, or "
       "'2c · Coverage audit' in QGIS) and give its GeoPackage to the report (--coverage)")
SEGMENT_COLUMNS = ("segment_id", "street_name", "city", "images", "images_per_km", "sequences", "date_first",
                   "date_last", "date_span_days", "share_uncovered_20m", "longest_gap_m", "gaps")
CITY_COLUMNS = ("city", "segments", "km", "images", "images_per_km", "median_share_uncovered_20m",
                "segments_gap_over_100m", "date_first", "date_last", "date_span_days")
_TITLES = {"images": "images covering the segment (kept + reference)", "images_per_km": "images per km",
           "sequences": "distinct Mapillary sequences", "date_span_days": "days from the first to the last capture",
           "share_uncovered_20m": "share of the segment with no image within the gap radius",
           "median_share_uncovered_20m": "median over the city's segments of the share with no image within "
                                         "the gap radius",
           "longest_gap_m": "longest stretch with no image within the gap radius, m",
           "segments_gap_over_100m": "segments with a gap longer than 100 m", "km": "length of the segments, km"}
_PERCENT = {"share_uncovered_20m", "median_share_uncovered_20m"}
_TEXT = {"segment_id", "street_name", "city", "date_first", "date_last"}


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _manifest_of(gpkg: Path) -> dict:
    path = gpkg.with_name(f"{gpkg.stem}.manifest.json")
    try:
        return read_json(path, "coverage manifest", "run coverage again")
    except InputError:
        return {}


def _same_file(a, b) -> bool:
    try:
        return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()
    except (OSError, RuntimeError, TypeError):
        return False


def find_coverage(evaluation_dir: Path, manifest: dict, explicit=None) -> Path | None:
    """The coverage GeoPackage to show: ``explicit`` (must exist), else the newest audit of the
    evaluation's store found beside the evaluation or the store; ``None`` when there is none."""
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise InputError(f"coverage GeoPackage {path} does not exist — {HOW}, or leave --coverage out")
        return path
    store = (manifest.get("inputs") or {}).get("store")
    if not store:
        return None
    folders = {Path(evaluation_dir), Path(store).expanduser().parent}
    found = []
    for folder in folders:
        for gpkg in sorted(folder.glob("*.gpkg")) if folder.is_dir() else []:
            m = _manifest_of(gpkg)
            if m.get("stage") == "coverage" and _same_file((m.get("inputs") or {}).get("store", ""), store):
                found.append((str(m.get("created_utc", "")), gpkg))
    return max(found)[1] if found else None


def read_coverage(gpkg: Path) -> dict:
    """``{"segments", "cities", "images", "manifest"}`` as plain rows."""
    import fiona
    import fiona.errors

    out = {"manifest": _manifest_of(gpkg)}
    try:
        layers = fiona.listlayers(gpkg)
        for key, layer in (("segments", "coverage"), ("cities", "coverage_cities"), ("images", "coverage_images")):
            if layer not in layers:
                raise InputError(f"{gpkg} has no {layer!r} layer (written by an earlier version) — run the coverage "
                                 "audit again to rewrite it")
            with fiona.open(gpkg, layer=layer) as src:
                out[key] = [dict(f["properties"]) for f in src]
    except (fiona.errors.FionaError, OSError, ValueError) as exc:
        raise InputError(f"{gpkg} cannot be read as the coverage audit's GeoPackage ({type(exc).__name__}: {exc}) "
                         "— run the coverage audit again to rewrite it") from None
    return out


def _cell(row: dict, key: str) -> str:
    value = row.get(key)
    if value is None or value == "":
        return "—"
    if key in _PERCENT:
        return f"{100 * float(value):.0f} %"
    if isinstance(value, float):
        return f"{value:.1f}" if key != "km" else f"{value:.2f}"
    return str(value)


def _table(rows: list[dict], columns: tuple[str, ...]) -> str:
    left = {c: ' class="l"' if c in _TEXT else "" for c in columns}
    head = "".join(f'<th scope="col"{left[c]} title="{esc(_TITLES.get(c, c))}">{esc(c).replace("_", "_<wbr>")}</th>' for c in columns)
    body = "".join("<tr>" + "".join(f"<td{left[c]}>{esc(_cell(r, c))}</td>" for c in columns) + "</tr>"
                   for r in rows)
    return f'<div class="scroll"><table class="wrap"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def city_dates(data: dict) -> dict[str, dict[str, int]]:
    """City → capture-date histogram of the images that cover its segments (kept, reference),
    binned like a segment's (per year; per month under a two-year span)."""
    import datetime as dt

    city_of = {s.get("segment_id"): s.get("city") or "" for s in data["segments"]}
    days: dict[str, list] = {}
    for image in data["images"]:
        if image.get("status") in ("kept", "reference") and image.get("captured_at"):
            try:
                day = dt.date.fromisoformat(str(image["captured_at"])[:10])
            except ValueError:
                continue
            days.setdefault(city_of.get(image.get("segment_id"), ""), []).append(day)
    return {city: histogram(d, histogram_unit(d)) for city, d in sorted(days.items())}


def date_figure(by_city: dict[str, dict[str, int]], out_path: Path) -> Path:
    """Bars of images per capture year (or month), one panel per city."""
    by_city = {c: h for c, h in by_city.items() if h}
    if not by_city:
        raise fig.FigureSkipped("no covering image has a capture date")
    cols = min(len(by_city), 3)
    with fig._figure(max(5.5, 3.6 * cols), 2.8 * math.ceil(len(by_city) / cols)) as figure:
        axes = fig._grid(figure, len(by_city), 3)
        for ax, (city, counts) in zip(axes, by_city.items()):
            labels = list(counts)
            ax.bar(range(len(labels)), list(counts.values()), color=fig.MODEL_COLOUR)
            step = max(1, len(labels) // 8)
            ax.set_xticks(range(0, len(labels), step), labels[::step], rotation=45 if len(labels) > 4 else 0)
            unit = "month" if len(labels[0]) > 4 else "year"
            ax.set_title(f"{city or '(no city)'} · {sum(counts.values())} images")
            ax.set_xlabel(f"capture {unit}")
            ax.set_ylabel("images")
        figure.suptitle("Capture dates of the images covering the segments")
        return fig._save(figure, out_path)


def coverage_section(gpkg: Path | None, fig_dir: Path, warn=None) -> str:
    """The section's HTML (a note saying how to add it when there is no audit); an audit that
    cannot be read is a warning (``warn``, default: the log) and a note, not a failed report."""
    if gpkg is None:
        return (f'<section id="coverage"><h2>Coverage</h2><p class="note">No coverage audit of this store was '
                f"found — {esc(HOW)}.</p></section>")
    try:
        data = read_coverage(gpkg)
    except InputError as exc:
        (warn or log.warning)(f"coverage section skipped: {exc}")
        return f'<section id="coverage"><h2>Coverage</h2><p class="note">{esc(exc)}</p></section>'
    options = (data["manifest"].get("options") or {})
    gap = float(options.get("gap_radius_m") or 20)
    radius = float(options.get("radius_m") or 30)
    segments = sorted(data["segments"], key=lambda s: (str(s.get("city")), str(s.get("segment_id"))))
    for s in segments:
        s["images"] = (s.get("images_kept") or 0) + (s.get("images_reference") or 0)
    parts = ['<section id="coverage"><h2>Coverage</h2>',
             f'<p class="lead">From the coverage audit <code>{esc(gpkg)}</code>: images per km of the segment '
             f"(kept and imported reference images), distinct sequences, first and last capture day, and the share "
             f"of the segment with no image within {gap:g} m; the longest gap is the longest such stretch "
             f"(the buffer drawn on the map is {radius:g} m). docs/method.md, coverage audit.</p>",
             "<h3>Per city</h3>", _table(data["cities"], CITY_COLUMNS),
             "<h3>Per segment</h3>", _table(segments, SEGMENT_COLUMNS)]
    path = fig_dir / FIGURE
    try:
        made = date_figure(city_dates(data), path)
        width, height = fig_png_size(made)
        src = quote(f"{fig_dir.name}/{made.name}")
        parts.append(f'<figure><img src="{esc(src)}" alt="capture dates per city" width="{width}" '
                     f'height="{height}"><figcaption>Images per capture year — per month where a city\'s images '
                     "span under two years — of the images covering the segments.</figcaption></figure>")
    except fig.FigureSkipped as skipped:
        fig.discard_stale_figure(path)
        parts.append(f'<p class="note">Figure skipped: {esc(skipped)}</p>')
    parts.append("</section>")
    return "".join(parts)


def fig_png_size(path: Path) -> tuple[int, int]:
    import struct

    return struct.unpack(">II", path.read_bytes()[16:24])


def attribution_footer(stand_in: bool) -> str:
    """The credit lines (OpenStreetMap, Mapillary, and the stand-in note) at the foot of the page."""
    lines = "".join(f"<li>{esc(line)}</li>" for line in credit_lines(stand_in=stand_in))
    return f'<footer class="credits" id="attribution"><h2>Data credits</h2><ul>{lines}</ul></footer>'
