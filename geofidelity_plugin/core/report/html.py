"""The HTML report of an evaluation folder (method §6–§8).

:func:`write_report` reads what the evaluate stage wrote (``evaluation.manifest.json``,
``per_panel_scores.csv``, ``table_*.csv``, ``failed_images.csv``, ``evaluation.gpkg``) and
writes one self-contained page: inline CSS, no scripts, no fonts or files from elsewhere, and
the figures inside it as PNG data (one file to hand on); the same PNGs are also written to
``report_figures/`` beside it, to reuse in a paper or a slide. Every text from the data is
HTML-escaped. A stand-in run (manifest field ``stand_in``) gets a banner quoting its note, so
a picture of stand-in numbers is never mistaken for a result.
"""
from __future__ import annotations

import html
import json
import logging
import os
import struct
from pathlib import Path
from urllib.parse import quote

from ..atomic import staged_folder
from ..errors import GeoFidelityError, OutputError, describe_os_error
from ..evaluation.score_names import SCORE_DEFINITIONS, column_name
from ..output_paths import check_output_file
from . import figures as fig
from .coverage import attribution_footer, coverage_section, find_coverage
from .evaluation_folder import (EVALUATE_FILES, MANIFEST, PER_PANEL, REQUIRED, TABLES,  # noqa: F401
                                TEXT_COLUMNS, Evaluation, load_evaluation, read_csv)

log = logging.getLogger("geofidelity")

FIGURE_DIR = "report_figures"
MAP_LAYER_MISSING = "evaluation.gpkg is missing, the map figure is skipped — run evaluate again"
_TEXT_COLUMNS = TEXT_COLUMNS


# ------------------------------------------------------------------ formatting
_LABELS = SCORE_DEFINITIONS


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _num(value) -> str:
    return "—" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))


def interval(estimate, low, high) -> str:
    """``0.912 [0.888, 0.934]``; the estimate alone when the interval is missing."""
    if estimate is None:
        return "—"
    if low is None or high is None:
        return _num(float(estimate))
    return f"{estimate:.3f} [{low:.3f}, {high:.3f}]"


def _cell(row: dict, key: str) -> str:
    if f"{key}_low" in row:
        return interval(row.get(key), row.get(f"{key}_low"), row.get(f"{key}_high"))
    return _num(row.get(key))


def _table(rows: list[dict], columns: list[str], row_class=None, cells=None) -> str:
    left = {c: ' class="l"' if c in _TEXT_COLUMNS else "" for c in columns}
    head = "".join(f'<th scope="col"{left[c]} title="{esc(_LABELS.get(c, c))} ({esc(c)})">{esc(column_name(c))}</th>'
                   for c in columns)
    body = []
    for r in rows:
        cls = row_class(r) if row_class else ""
        tds = "".join(f"<td{left[c]}>{_interval_html((cells or {}).get(c, _cell)(r, c))}</td>" for c in columns)
        body.append(f'<tr class="{cls}">{tds}</tr>' if cls else f"<tr>{tds}</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _interval_html(text: str) -> str:
    """The interval of ``0.912 [0.888, 0.934]`` on its own smaller line; same text content."""
    head, sep, tail = text.partition(" [")
    if not sep or not text.endswith("]"):
        return esc(text)
    return f'{esc(head)}<span class="ci"> [{esc(tail)}</span>'


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


# ------------------------------------------------------------------ sections
def _facts(ev: Evaluation) -> str:
    m = ev.manifest
    inputs = m.get("inputs") or {}
    models = {r["model"] for r in ev.rows if not r.get("is_anchor")}
    n_anchor = sum(1 for r in ev.rows if r.get("is_anchor"))
    feature = (m.get("models") or [{}])[0]
    label = feature.get("label") or feature.get("id") or "not recorded"
    detail = ", ".join(str(feature[k]) for k in ("id", "revision") if feature.get(k) and feature[k] != label)
    gamma = m.get("gamma")
    items = [
        ("Stage", f"{m.get('stage', '?')} · created {m.get('created_utc', '?')} · "
                  f"GeoFidelity {m.get('geofidelity_version', '?')}"),
        ("Feature model", label + (f" ({detail})" if detail else "")),
        ("γ (RBF, one per run, §6)", f"{gamma:.6g}" if isinstance(gamma, (int, float)) else "not recorded"),
        ("Panels scored", f"{len(ev.rows)} — {len(ev.rows) - n_anchor} generated panels of "
                          f"{_plural(len(models), 'model')}, {n_anchor} real-anchor panels"),
        ("Targets", f"{_plural(len({r['segment_id'] for r in ev.rows}), 'segment')} in "
                    f"{_plural(len({r['city'] for r in ev.rows}), 'city')}"),
        ("Skipped", f"{len((m.get('outputs') or {}).get('skipped') or [])} panels or targets"),
        ("Failed images", str(len(ev.failed))),
        ("Store", f"{inputs.get('store', '?')} — "
                  + ", ".join(f"{k} {v}" for k, v in (inputs.get("counts") or {}).items())),
        ("Options", " · ".join(f"{k}={v}" for k, v in (m.get("options") or {}).items())),
    ]
    dl = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in items)
    notes = "".join(f"<li>{esc(n)}</li>" for n in m.get("notes") or [] if n != ev.stand_in)
    return f'<dl class="facts">{dl}</dl>' + (f"<h3>Notes</h3><ul>{notes}</ul>" if notes else "")


def _tables(ev: Evaluation) -> str:
    conf = (ev.manifest.get("options") or {}).get("confidence", 0.95)
    boot = (ev.manifest.get("options") or {}).get("n_bootstrap", "?")
    unit = (ev.manifest.get("options") or {}).get("bootstrap_unit", "model-segment")  # older runs: the paper's
    kind = ("city-clustered bootstrap interval (cities resampled with all their segments; Student's t for the "
            "number of cities)" if unit == "city" else "percentile bootstrap interval over model–segment rows")
    parts = [f'<p class="lead">Cells read <code>mean [low, high]</code>: the mean over panels with its '
             f'{conf:.0%} {kind} ({esc(boot)} seeded resamples, method §7).</p>']
    specs = (
        ("by_condition", "By prompt condition (paper Table 5)",
         ["condition", "panels", "cos_sim", "top1", "chance_adjusted_top1", "reciprocal_rank", "margin_hard",
          "margin_mean", "margin_nearest_same_city", "margin_same_neighbourhood", "mmd2", "dcsf", "gads"],
         "Generated panels of all models pooled per prompt condition."),
        ("by_model_L1", "L1 by model beside the real anchors (paper Table 9)",
         ["model", "panels", "cos_sim", "top1", "chance_adjusted_top1", "margin_hard", "margin_nearest_same_city",
          "mmd2"], "Anchors (grey rows) are 4-image real panels scored exactly like a model's panel (§6)."),
        ("city_balanced", "City-balanced summaries",
         ["condition", "panels", "cities", "cos_sim", "top1", "margin_hard"],
         "The mean of the cities' means, so that no city dominates, with its interval over resampled cities (§7)."),
        ("clip_check", "CLIP check", ["panels", "clip_model", "spearman_clip_cos_sim", "spearman_clip_top1",
                                      "auroc_clip_top1", "note"],
         "Spearman of the CLIP image–prompt score against CosSim and top-1; AUROC of CLIP for a top-1 hit (§7)."),
    )
    for name, title, columns, intro in specs:
        rows = ev.tables.get(name, [])
        parts.append(f'<h3 id="table-{name}">{esc(title)}</h3><p>{esc(intro)}</p>')
        if not rows:
            parts.append(f'<p class="note">No rows: {esc(_why_empty(ev, name))}</p>')
            continue
        keep = [c for c in columns if any(r.get(c) is not None for r in rows)]
        dropped = [c for c in columns if c not in keep]
        parts.append(_table(rows, keep, row_class=_row_class))
        if dropped:
            parts.append(f'<p class="note">Without values in this run: {esc(", ".join(map(column_name, dropped)))}.</p>')
        if name == "by_model_L1":
            parts.append(_deltas(ev))
    return "".join(parts)


def _why_empty(ev: Evaluation, name: str) -> str:
    if f"table_{name}.csv" in ev.missing:
        return f"table_{name}.csv is missing from the evaluation folder."
    if name == "clip_check":
        return "the generated images carry no CLIP scores."
    return "nothing to summarise for this table in this run."


def _row_class(row: dict) -> str:
    model = str(row.get("model") or "")
    return "anchor" if model.startswith(fig.ANCHOR_PREFIX) else "mean" if model == "mean of models" else ""


def _clear_of_zero(row: dict) -> str:
    low, high = row.get("low"), row.get("high")
    return "clear" if (low is not None and low > 0) or (high is not None and high < 0) else ""


def _deltas(ev: Evaluation) -> str:
    rows = ev.tables.get("deltas", [])
    out = ['<h3 id="table-deltas">Paired deltas (paper Table 8: L1 minus each control)</h3>',
           "<p>Differences formed per matched (model, segment) unit — per sample in a shared-noise run — then "
           "the units resampled; the city-balanced column resamples cities, then units within each (§7). "
           "Bold: the interval excludes 0.</p>"]
    if not rows:
        return "".join(out) + f'<p class="note">No rows: {esc(_why_empty(ev, "deltas"))}</p>'
    cells = {"metric": lambda r, _: column_name(str(r.get("metric") or "")),
             "mean": lambda r, _: interval(r.get("mean"), r.get("low"), r.get("high")),
             "city_mean": lambda r, _: interval(r.get("city_mean"), r.get("city_low"), r.get("city_high")),
             "cities_positive": lambda r, _: (f"{_num(r.get('cities_positive'))} of {_num(r.get('cities'))}"
                                              if r.get("cities") is not None else "—")}
    columns = ["delta", "metric", "mean", "city_mean", "matched_pairs", "positive_pairs", "cities_positive"]
    out.append(_table(rows, columns + (["note"] if any(r.get("note") for r in rows) else []),
                      row_class=_clear_of_zero, cells=cells))
    return "".join(out)


#: the paired deltas drawn in the figure (the table lists every metric)
PRIMARY_DELTA_METRICS = ("top1", "margin_hard", "cos_sim")

FIGURES = (
    ("margins", "Δhard per panel, by model and prompt condition",
     "Each dot is one panel; boxes span the middle half. Look for the L1 and L2 boxes sitting above L0 and "
     "above the controls, and for how much of each model lies above the line at 0 (a positive Δhard means the "
     "target street beat every hard negative; the paper found no generator with a positive mean). The held-out "
     "real anchor shows where real photos of the street land."),
    ("deltas", "Paired deltas with bootstrap intervals",
     "Look for intervals that clear 0. L1 − L0 above 0: naming the street and neighbourhood moved the images "
     "towards the right street. L1 − controls above 0: the effect needs the correct names, not just any names. "
     "Unless the panels shared noise seeds across conditions (§4), these are associations, not causal ablations."),
    ("city_maps", "Δhard on the map, one panel per city",
     "The model and condition of the map layer. Blue segments are told apart from their hardest negative, red ones "
     "are confused with it; grey rings have no score. Look for spatial clusters: neighbouring streets that share a "
     "look, or a district the model knows."),
    ("clip", "CLIP score against retrieval",
     "If following the prompt (CLIP score) meant depicting the place, the hits would sit to the right and higher "
     "up. A flat cloud says prompt adherence and geographic fidelity are different things."),
    ("anchors", "L1 models beside the real anchors",
     "Held-out real is the ceiling the feature model reaches with real photos of the same street; Random-Same-"
     "Country and Random-Global are floors. Look at where each model falls between them. For orientation, the "
     "paper (§8, DINOv2-B) had held-out real CosSim 0.902, Random-Global 0.333 and a six-model L1 mean of 0.499; "
     "levels depend on the feature model and the data, the ordering is what to compare."),
)


def _city_maps(ev: Evaluation, path: Path) -> Path:
    gpkg = ev.folder / "evaluation.gpkg"
    if not gpkg.is_file():
        raise fig.FigureSkipped(MAP_LAYER_MISSING)
    return fig.city_maps(fig.read_segment_layer(gpkg), path)


def _make_figures(ev: Evaluation, fig_dir: Path) -> dict[str, Path | str]:
    """Figure name → PNG path, or the reason it was skipped."""
    clip_row = (ev.tables.get("clip_check") or [None])[0]
    builders = {
        "margins": lambda p: fig.margin_distributions(ev.rows, p),
        "deltas": lambda p: fig.paired_deltas([d for d in ev.tables.get("deltas", [])
                                               if d.get("metric") in PRIMARY_DELTA_METRICS], p),
        "city_maps": lambda p: _city_maps(ev, p),
        "clip": lambda p: fig.clip_vs_retrieval(ev.rows, p, clip_row),
        "anchors": lambda p: fig.anchors_beside_models(ev.tables.get("by_model_L1", []), p),
    }
    out: dict[str, Path | str] = {}
    for name, build in builders.items():
        path = fig_dir / f"{name}.png"
        try:
            out[name] = build(path)
        except fig.FigureSkipped as skipped:
            log.info("report figure %s skipped: %s", name, skipped)
            fig.discard_stale_figure(path)
            out[name] = str(skipped)
    return out


def _png_size(path: Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])  # IHDR width, height


def _figure_html(made: dict[str, Path | str]) -> str:
    parts = []
    for name, title, caption in FIGURES:
        result = made.get(name)
        parts.append(f'<h3 id="figure-{name}">{esc(title)}</h3>')
        if isinstance(result, Path):
            src = quote(f"{FIGURE_DIR}/{result.name}")  # the figures folder is always beside the page
            width, height = _png_size(result)
            parts.append(f'<figure><img src="{esc(src)}" alt="{esc(title)}" width="{width}" height="{height}">'
                         f"<figcaption>{esc(caption)}</figcaption></figure>")
        else:
            parts.append(f'<p class="note">Figure skipped: {esc(result)}</p>')
    return "".join(parts)


def _list_section(title: str, rows: list[dict], columns: list[str], empty: str) -> str:
    if not rows:
        return f"<h3>{esc(title)}</h3><p>{esc(empty)}</p>"
    table = _table(rows, columns)
    opened = " open" if len(rows) <= 20 else ""
    return f"<h3>{esc(title)}</h3><details{opened}><summary>{_plural(len(rows), 'entry')}</summary>{table}</details>"


def _files(ev: Evaluation, html_dir: Path) -> str:
    names = sorted(p.name for p in ev.folder.iterdir() if p.is_file() and p.suffix in (".csv", ".md", ".json", ".gpkg"))
    links = "".join(f'<li><a href="{esc(quote(Path(os.path.relpath(ev.folder / n, html_dir)).as_posix()))}">'
                    f"{esc(n)}</a></li>" for n in names)
    return f"<ul class='files'>{links}</ul>"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;max-width:1180px;
padding:0 1.2rem 3rem;color:#1d1d1f;line-height:1.45}
h1{margin:1.2rem 0 .2rem}h2{border-bottom:2px solid #d9dde3;padding-bottom:.2rem;margin-top:2.2rem}
.banner{background:#fff1c2;border:3px solid #b7791f;color:#5a3800;padding:.9rem 1.1rem;margin:1rem 0;
font-size:1.15rem;font-weight:700;border-radius:6px}
.banner span{display:block;font-size:.85rem;font-weight:400;margin-top:.3rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.8rem 0}
dl.facts dt{font-weight:600;color:#4a5160}dl.facts dd{margin:0;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}.ci{display:block;font-size:.78em;color:#5c6370}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.86rem;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d9dde3;padding:.25rem .5rem;text-align:right;white-space:nowrap}
th{background:#f1f3f6;cursor:help}td:first-child,th:first-child,td.l,th.l{text-align:left}
tr.anchor td{background:#f4f4f4;color:#4d4d4d}tr.mean td{font-weight:700}tr.clear td{font-weight:700}
figure{margin:.5rem 0 1.5rem}figure img{max-width:100%;height:auto;border:1px solid #e3e6ea}
figcaption{color:#3d4350;font-size:.92rem;max-width:60rem}
.note{color:#6b5b00;font-style:italic}.lead{color:#3d4350}
pre{background:#f6f8fa;border:1px solid #d9dde3;padding:.8rem;overflow:auto;font-size:.8rem}
details{margin:.4rem 0}summary{cursor:pointer;font-weight:600}code{background:#f1f3f6;padding:0 .2rem}
footer.credits{border-top:2px solid #d9dde3;margin-top:2.5rem;color:#3d4350;font-size:.9rem}
footer.credits h2{font-size:1rem;border:0;margin:.8rem 0 .2rem}
table.wrap th{white-space:normal;max-width:8rem;vertical-align:bottom}
"""


def render(ev: Evaluation, made: dict[str, Path | str], html_dir: Path, title: str, extra: str = "") -> str:
    m = ev.manifest
    banner = ""
    if ev.stand_in:
        banner = (f'<div class="banner" role="alert">{esc(ev.stand_in)}<span>These numbers come from stand-in '
                  "panels and show only that the pipeline runs; they are not a benchmark result.</span></div>")
    skipped = [{k: s.get(k) for k in ("model", "condition", "segment_id", "reason")}
               for s in (m.get("outputs") or {}).get("skipped") or []]
    missing = (f'<p class="note">Missing from the folder: {esc(", ".join(ev.missing))}.</p>' if ev.missing else "")
    manifest_text = json.dumps(m, indent=2, sort_keys=True, ensure_ascii=False, default=str)
    return "".join([
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="GeoFidelity">',
        f'<link rel="icon" href="data:,"><title>{esc(title)}</title><style>{_CSS}</style></head><body>',
        f"<header><h1>{esc(title)}</h1><p>Evaluation folder <code>{esc(ev.folder)}</code></p>{banner}</header>",
        f"<main><section><h2>Run</h2>{_facts(ev)}{missing}</section>",
        f"<section><h2>Tables</h2>{_tables(ev)}</section>",
        f"<section><h2>Figures</h2>{_figure_html(made)}</section>",
        extra,
        "<section><h2>Skipped and failed</h2>",
        _list_section("Skipped targets and panels", skipped, ["model", "condition", "segment_id", "reason"],
                      "Nothing was skipped."),
        _list_section("Failed images", ev.failed, ["image_path", "reason"], "No image failed."),
        "</section><section><h2>Files and manifest</h2>", _files(ev, html_dir),
        f"<details><summary>Full run manifest ({esc(MANIFEST)})</summary><pre>{esc(manifest_text)}</pre></details>",
        "</section></main>", attribution_footer(bool(ev.stand_in)), "</body></html>\n",
    ])


def write_report(evaluation_dir: str | Path, out_html: str | Path | None = None, title: str | None = None,
                 warn=None, coverage: str | Path | None = None) -> Path:
    """Write ``report.html`` (default: inside the evaluation folder) and its figures in
    ``report_figures/`` beside it; returns the HTML path. method §6–§8.

    The folder is checked (:func:`~.evaluation_folder.load_evaluation`) and the output path too
    before any figure is drawn: the report must not be one of the files evaluate wrote (the
    manifest, a CSV, ``tables.md``, ``evaluation.gpkg``), which it would destroy; ``report.html``
    or any other new name in the folder is fine. The page and its figures are written into a
    hidden staging folder and published together, the page last, so a failed or killed run
    leaves no partial report and an earlier report stays as it was.

    A missing ``evaluation.gpkg`` is a warning, not an error (``warn``: a callable taking the
    message; default: the log): the tables and the other figures do not need it, so the report
    is written without the map figure, says so on the page, and the warning reads
    "evaluation.gpkg is missing, the map figure is skipped — run evaluate again".

    ``coverage``: the coverage audit's GeoPackage for the coverage section (default: the newest
    audit of the evaluation's store beside the evaluation or the store, :func:`.coverage.find_coverage`)."""
    ev = load_evaluation(evaluation_dir)
    coverage_gpkg = find_coverage(ev.folder, ev.manifest, coverage)
    own = {f"the evaluation's own file {name} (written by evaluate)": ev.folder / name for name in EVALUATE_FILES}
    out = check_output_file(out_html if out_html else ev.folder / "report.html", "report", inputs=own)
    warn = warn or log.warning
    if "evaluation.gpkg" in ev.missing:
        warn(MAP_LAYER_MISSING)
    title = title or "GeoFidelity evaluation report" + (" (STAND-IN data)" if ev.stand_in else "")
    try:
        with staged_folder(out.parent, out.name) as stage:
            fig_dir = stage.staging / FIGURE_DIR
            fig_dir.mkdir()
            made = _make_figures(ev, fig_dir)
            from .geodiv import geodiv_section
            from .paper_tables import paper_tables_section

            extra = (paper_tables_section(ev, _table) + geodiv_section(ev.folder, fig_dir)
                     + coverage_section(coverage_gpkg, fig_dir, warn))
            page = embed_figures(render(ev, made, out.parent.resolve(), title, extra), fig_dir).encode("utf-8")
            stage.path(out.name).write_bytes(page)
    except (OSError, OutputError) as exc:
        raise _not_written(out, exc) from None
    for name, result in made.items():
        if not isinstance(result, Path):  # never leave a stale figure of an earlier run beside the page
            fig.discard_stale_figure(out.parent / FIGURE_DIR / f"{name}.png")
    log.info("report written: %s", out)
    return out


def embed_figures(page: str, fig_dir: Path) -> str:
    """``page`` with each ``<img src="report_figures/NAME.png">`` of a figure in ``fig_dir`` turned
    into the PNG's own data (``data:image/png;base64,…``), so that the page is one file."""
    import base64
    import re
    from urllib.parse import unquote

    def inline(match):
        png = fig_dir / unquote(match.group(2))
        if not png.is_file():
            return match.group(0)
        return f'{match.group(1)}data:image/png;base64,{base64.b64encode(png.read_bytes()).decode("ascii")}"'

    return re.sub(r'(<img src=")' + re.escape(FIGURE_DIR) + r'/([^"]+\.png)"', inline, page)


def _not_written(out: Path, exc: Exception) -> GeoFidelityError:
    """The write failure named by the report's path (not the staging folder's)."""
    cause = exc if isinstance(exc, OSError) else exc.__cause__
    if isinstance(cause, OSError):
        reason = describe_os_error(cause, "-").split(": ", 1)[1]
    else:
        reason = str(exc)
    return OutputError(f"cannot write the report {out}: {reason}; nothing was written (an earlier report "
                       "there is unchanged)")
