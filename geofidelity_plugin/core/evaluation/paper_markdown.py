"""The sections of ``tables.md`` for the summary paper's statistics and the field's comparability
metrics (method §6–§7; the tables themselves: :mod:`.paper_tables`). Plain text formatting only,
so that the evaluation's writer (:mod:`.outputs`) reads it without the statistics behind it."""
from __future__ import annotations

#: the tables of :mod:`.paper_tables` (each written as ``table_<name>.csv``)
PAPER_TABLE_NAMES = ("local_margin", "clip_top_quarter", "comparability")
_LOCAL = ["condition", "model", "panels", "local_margin", "city_mean", "local_margin_n", "cities"]
_TOP = ["condition", "clip_model", "panels", "top_quarter", "miss_rate_top_quarter", "miss_rate_all"]
_FIELD = ["model", "condition", "n_generated", "n_reference", "fd", "kid", "kid_rbf", "precision", "recall",
          "density", "coverage", "vendi"]
#: a mean's interval columns (the cell reads ``mean [low, high]``)
_INTERVALS = {"local_margin": ("local_margin_low", "local_margin_high"), "city_mean": ("city_low", "city_high")}


def _cell(row: dict, key: str, digits: str) -> str:
    value = row.get(key)
    if value is None:
        return "—"
    if not isinstance(value, float):
        return str(value).replace("|", "/")
    low, high = (row.get(k) for k in _INTERVALS.get(key, ("", "")))
    if low is not None and high is not None:
        return f"{value:.3f} [{low:.3f}, {high:.3f}]"
    return format(value, digits)


def _table(title: str, rows: list[dict], columns: list[str], digits: str = ".3f") -> str:
    if not rows:
        return f"### {title}\n\n(no rows)\n"
    columns = columns + [c for c in ("interval_note", "note") if any(r.get(c) for r in rows)]
    lines = [f"### {title}", "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(r, c, digits) for c in columns) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def paper_tables_markdown(tables: dict[str, list[dict]]) -> str:
    """The three sections (the comparability table's run-wide rows; its per-city rows are in
    ``table_comparability.csv``)."""
    return "\n".join([
        "",
        _table("Local Margin: target minus the best same-city negative (over panels, then city-balanced)",
               tables.get("local_margin", []), _LOCAL),
        _table("Top-25%-CLIP miss rate", tables.get("clip_top_quarter", []), _TOP),
        _table("Comparability with the field: FD, KID, PRDC, Vendi in the run's feature space (all cities; per "
               "city in table_comparability.csv)",
               [r for r in tables.get("comparability", []) if r.get("city") == "all"], _FIELD, ".4g"),
    ])
