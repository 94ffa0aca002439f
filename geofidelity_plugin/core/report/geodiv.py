"""The GeoDiv section of the report (docs/method.md, GeoDiv): VDI, SEVI and Vendi per group
beside the real baseline, the SEVI-mean-versus-diversity view, and the questions where each
model collapses most. Read from ``<evaluation>/geodiv/`` when a GeoDiv run wrote there."""
from __future__ import annotations

import html
import json
import math
from pathlib import Path
from urllib.parse import quote

from ..documents import read_json
from ..tables import TableSchema, read_table

FOLDER = "geodiv"
_GROUP_COLUMNS = ("vdi_entity", "vdi_background", "vdi_overall", "affluence_mean", "affluence_diversity",
                  "maintenance_mean", "maintenance_diversity", "vendi", "images")


def _fix(folder: Path) -> str:
    return f"run geodiv again with --out {folder} (or remove that folder to leave GeoDiv out of the report)"


def _read(path: Path, required: tuple[str, ...] = ()) -> list[dict]:
    """A GeoDiv table (none when the run did not write it), read by the one table reader: the
    numeric columns the section draws must hold numbers."""
    if not path.exists():
        return []
    schema = TableSchema("GeoDiv table", required, rows_required=False, fix=_fix(path.parent), empty_marker="",
                         type_of=lambda c: "float" if c in _GROUP_COLUMNS or c == "diversity" else None)
    return [dict(row) for row in read_table(path, schema).rows]


def _f(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _fmt(value) -> str:
    v = _f(value)
    return "—" if math.isnan(v) else (f"{v:.3f}" if not float(v).is_integer() or "." in str(value) else str(value))


def _table(rows: list[dict], columns: list[str]) -> str:
    head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in columns)
    numeric = set(_GROUP_COLUMNS) | {"diversity"}

    def cell(r, c):
        return _fmt(r.get(c)) if c in numeric else str(r.get(c, ""))

    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell(r, c))}</td>" for c in columns) + "</tr>" for r in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _scatter(groups: list[dict], path: Path) -> Path | None:
    """SEVI mean (affluence) against VDI overall, one point per group, the real baseline marked."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    points = [(g, _f(g.get("affluence_mean")), _f(g.get("vdi_overall"))) for g in groups]
    points = [p for p in points if not (math.isnan(p[1]) or math.isnan(p[2]))]
    if not points:
        return None
    fig = Figure(figsize=(6, 4), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for g, x, y in points:
        real = g.get("model") == "real"
        ax.scatter([x], [y], marker="*" if real else "o", s=120 if real else 40, color="black" if real else "tab:blue")
        ax.annotate(" ".join(str(g.get(k, "")) for k in ("model", "city") if g.get(k)), (x, y), fontsize=7)
    ax.set_xlabel("mean affluence rating (SEVI, 1–5)")
    ax.set_ylabel("VDI overall (0 all alike – 1 evenly spread)")
    fig.tight_layout()
    fig.savefig(path)
    return path


def _bars(groups: list[dict], metric: str, path: Path) -> Path | None:
    """``metric`` per place (country, else city) and model: the paper's diversity-by-country view."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    place = "country" if any(g.get("country") for g in groups) else "city"
    places = sorted({g.get(place, "") for g in groups})
    models = sorted({g.get("model", "") for g in groups}, key=lambda m: (m != "real", m))
    if not any(not math.isnan(_f(g.get(metric))) for g in groups):
        return None
    fig = Figure(figsize=(max(5, 1.2 * len(places) * len(models) / 2), 3.8), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 0.8 / len(models)
    for j, model in enumerate(models):
        values = []
        for p in places:  # mean over the model's groups at that place (conditions …)
            v = [_f(g.get(metric)) for g in groups if g.get(place, "") == p and g.get("model", "") == model]
            v = [x for x in v if not math.isnan(x)]
            values.append(sum(v) / len(v) if v else math.nan)
        ax.bar([i + j * width for i in range(len(places))], values, width, label=model,
               color="black" if model == "real" else None)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(places))], places)
    ax.set_ylabel(metric)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    return path


def _img(fig_dir: Path, path: Path | None, alt: str, caption: str) -> str:
    if path is None:
        return ""
    src = quote(f"{fig_dir.name}/{path.name}")
    return (f'<figure><img src="{html.escape(src)}" alt="{html.escape(alt)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def geodiv_section(evaluation_dir, fig_dir: Path) -> str:
    """The section's HTML, or "" when the evaluation folder has no GeoDiv run."""
    folder = Path(evaluation_dir) / FOLDER
    groups = _read(folder / "geodiv_groups.csv")
    if not groups:
        return ""
    manifest = {}
    if (folder / "geodiv_manifest.json").exists():
        manifest = read_json(folder / "geodiv_manifest.json", "GeoDiv manifest", _fix(folder))
    labels = [c for c in ("model", "condition", "city", "country") if c in groups[0]]
    columns = labels + [c for c in _GROUP_COLUMNS if c in groups[0]]
    models = manifest.get("models") or []
    stand_in = any("stand-in" in json.dumps(m).lower() for m in models)
    parts = ['<section id="geodiv"><h2>GeoDiv diversity</h2>',
             "<p class=\"lead\">Per group: VDI (normalised Hill number of the VQA answers, 0 all alike – 1 evenly "
             "spread, per axis), SEVI (mean 1–5 affluence and maintenance rating and its diversity) and the Vendi "
             "score of the panels' embeddings; rows of model <code>real</code> are the reference panels "
             "(docs/method.md, GeoDiv).</p>"]
    if stand_in:
        parts.append('<p class="note">VDI and SEVI here come from a tiny random VQA model (a stand-in): they show '
                     "that the pipeline runs, not how diverse the panels are. The Vendi score uses real "
                     "embeddings.</p>")
    parts.append(_table(groups, columns))
    for metric in ("vdi_overall", "vendi"):
        parts.append(_img(fig_dir, _bars(groups, metric, fig_dir / f"geodiv_{metric}_by_place.png"),
                          f"{metric} by place and model", f"{metric} per country (or city) and model, averaged "
                          "over the model's prompt conditions; black: the real reference panels."))
    scatter = _scatter(groups, fig_dir / "geodiv_sevi_vdi.png")
    if scatter is not None:
        src = quote(f"{fig_dir.name}/{scatter.name}")
        parts.append(f'<figure><img src="{html.escape(src)}" alt="SEVI mean against VDI">'
                     "<figcaption>Mean affluence against overall VDI per group; the star is the real "
                     "baseline.</figcaption></figure>")
    if (folder / "geodiv_convergence.png").exists():
        from .. import atomic

        atomic.write_bytes(fig_dir / "geodiv_convergence.png", (folder / "geodiv_convergence.png").read_bytes())
        src = quote(f"{fig_dir.name}/geodiv_convergence.png")
        parts.append(f'<figure><img src="{html.escape(src)}" alt="ranking convergence">'
                     "<figcaption>How the ranking of the groups by overall VDI settles with the number of images "
                     "per group (Spearman ρ with the all-image ranking; band: 5–95 % of the draws).</figcaption>"
                     "</figure>")
    questions = [q for q in _read(folder / "geodiv_questions.csv", ("axis", "diversity"))
                 if q.get("axis") in ("entity", "background")]
    if questions:
        parts.append("<h3>Where each model collapses most</h3>")
        worst = []
        for model in sorted({q.get("model", "") for q in questions}):
            mine = sorted((q for q in questions if q.get("model", "") == model and not math.isnan(_f(q["diversity"]))),
                          key=lambda q: _f(q["diversity"]))
            worst += mine[:3]
        parts.append(_table(worst, [c for c in ("model", "city", "question_id", "axis", "votes", "counts",
                                                "diversity") if c in questions[0]]))
    parts.append("</section>")
    return "".join(parts)
