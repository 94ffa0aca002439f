"""The report's section for the summary paper's statistics and the field's comparability metrics
(docs/method.md §6 "Local Margin", "Comparability with the field"; §7): Local Margin, the
top-25 %-CLIP miss rate, and FD, KID, PRDC and Vendi of each model × condition — over all
cities, with the per-city rows folded away. Evaluation folders written before these tables
existed simply lack them, and the section says so."""
from __future__ import annotations

import html

#: the tables of this section (``table_<name>.csv``), in order
SECTION_TABLES = ("local_margin", "clip_top_quarter", "comparability")
_COMPARABILITY = ["model", "condition", "n_generated", "n_reference", "fd", "kid", "kid_rbf", "precision", "recall",
                  "density", "coverage", "vendi"]


def _short(value) -> str:
    if value is None:
        return "—"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def interval(estimate, low, high) -> str:
    """``0.912 [0.888, 0.934]`` as the report's other tables write it; the estimate alone without one."""
    if estimate is None:
        return "—"
    if low is None or high is None:
        return f"{estimate:.3f}"
    return f"{estimate:.3f} [{low:.3f}, {high:.3f}]"


def paper_tables_section(ev, table) -> str:
    """The section's HTML for the evaluation ``ev`` (:class:`~.evaluation_folder.Evaluation`);
    ``table(rows, columns, cells=…)`` draws a table as the rest of the report does."""
    parts = ["<section><h2>Local Margin, the CLIP top quarter and the field's metrics</h2>"]
    if not any(ev.tables.get(name) for name in SECTION_TABLES):
        return "".join(parts) + ('<p class="note">This evaluation folder has none of these tables (it was written '
                                 "before evaluate made them) — run evaluate again to add them.</p></section>")
    local = ev.tables.get("local_margin") or []
    parts.append("<h3>Local Margin</h3><p>Target similarity minus the best same-city negative (§6), over panels "
                 "and city-balanced (§7). Above 0: the panel beats every same-city street of its gallery.</p>")
    cells = {"local_margin": lambda r, _: interval(r.get("local_margin"), r.get("local_margin_low"),
                                                   r.get("local_margin_high")),
             "city_mean": lambda r, _: interval(r.get("city_mean"), r.get("city_low"), r.get("city_high"))}
    columns = ["condition", "model", "panels", "local_margin", "city_mean", "local_margin_n", "cities"]
    parts.append(table(local, columns + (["note"] if any(r.get("note") for r in local) else []), cells=cells)
                 if local else '<p class="note">No rows.</p>')
    top = ev.tables.get("clip_top_quarter") or []
    parts.append("<h3>Top-25 %-CLIP miss rate</h3><p>Among the quarter of model panels with the highest CLIP "
                 "image–prompt score, the share whose target is not ranked first (§7); beside it the share over "
                 "all scored panels.</p>")
    notes = (ev.manifest.get("notes") or [])
    skipped = next((n for n in notes if n.startswith("top-25%-CLIP miss rate skipped")), None)
    parts.append(table(top, ["condition", "clip_model", "panels", "top_quarter", "miss_rate_top_quarter",
                              "miss_rate_all"] + (["note"] if any(r.get("note") for r in top) else []))
                 if top else f'<p class="note">{esc(skipped or "No rows.")}</p>')
    rows = ev.tables.get("comparability") or []
    parts.append("<h3>Comparability with the field</h3><p>Fréchet distance, KID (polynomial and RBF kernel), "
                 "precision/recall/density/coverage (k = 5) and Vendi of each model × condition against the "
                 "reference panels of its targets, in the run's feature space (§6); the held-out real anchor is "
                 "the real-against-real baseline. An empty cell is below that metric's minimum sample (the note "
                 "says which).</p>")
    short = {c: (lambda r, key: _short(r.get(key))) for c in _COMPARABILITY[2:]}
    for scope, chosen in (("all cities", [r for r in rows if r.get("city") == "all"]),
                          ("per city", [r for r in rows if r.get("city") != "all"])):
        if not chosen:
            continue
        columns = _COMPARABILITY[:2] + (["city"] if scope == "per city" else []) + _COMPARABILITY[2:]
        columns += ["note"] if any(r.get("note") for r in chosen) else []
        drawn = table(chosen, columns, cells=short)
        parts.append(drawn if scope == "all cities" else
                     f"<details><summary>Per city ({len(chosen)} rows)</summary>{drawn}</details>")
    if not rows:
        parts.append('<p class="note">No rows.</p>')
    return "".join(parts) + "</section>"
