"""Read and check the evaluation folder a report is made of (docs/method.md, "Errors and exit
codes").

The evaluate stage writes its manifest (``evaluation.manifest.json``) last: a folder without it
is incomplete (evaluate failed or was killed) and is refused, as is a folder that is not an
evaluation folder at all. Every CSV is checked before anything is drawn: it must be UTF-8 text,
not empty, every row as wide as the header, hold the columns the report reads, and a number in
every cell of a numeric column (empty cells are missing values). A text in a numeric column
(``cos_sim`` = ``abc``) is an error, not a silently missing value: the file was changed after
evaluate wrote it, and a report must not quietly leave out a panel's score. Each failure is an
:class:`~geofidelity_plugin.core.errors.InputError` that names the file, the line and column
where there is one, what is wrong, and the fix (correct the file, or run evaluate again).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..documents import read_json
from ..errors import InputError
from ..tables import TableSchema, read_table

MANIFEST = "evaluation.manifest.json"
PER_PANEL = "per_panel_scores.csv"
FAILED = "failed_images.csv"
REQUIRED = (MANIFEST, PER_PANEL)
TABLES = ("by_condition", "by_model_L1", "deltas", "city_balanced", "clip_check")
#: tables read when present and never reported missing: folders written before evaluate made them lack them
LATER_TABLES = ("local_margin", "clip_top_quarter", "comparability")
#: the columns the report reads from each CSV (others are shown when present)
COLUMNS = {
    PER_PANEL: ("model", "condition", "segment_id", "city", "is_anchor", "cos_sim", "top1", "margin_hard"),
    "table_by_condition.csv": ("condition",),
    "table_by_model_L1.csv": ("model",),
    "table_deltas.csv": ("delta", "metric", "mean"),
    "table_city_balanced.csv": ("condition",),
    "table_clip_check.csv": (),
    "table_local_margin.csv": ("condition", "model"),
    "table_clip_top_quarter.csv": ("condition",),
    "table_comparability.csv": ("model", "condition", "city"),
    FAILED: ("image_path", "reason"),
}
TEXT_COLUMNS = {"model", "condition", "segment_id", "city", "country_code", "delta", "metric",
                "image_path", "reason", "street_name", "neighbourhood", "clip_model", "note", "pairing"}
#: columns whose every non-empty cell must be a number (the scores and counts evaluate writes)
NUMERIC_COLUMNS = {"n_generated", "n_reference", "cos_sim", "mmd2", "dcsf", "gads", "diversity_generated",
                   "diversity_reference", "similarity_target", "gallery_size", "rank", "top1", "reciprocal_rank",
                   "chance_adjusted_top1", "clip_score", "panels", "cities", "mean", "low", "high",
                   "matched_pairs", "positive_pairs", "cities_positive", "local_margin", "local_margin_n",
                   "city_mean", "fd", "kid", "kid_std", "kid_rbf", "kid_rbf_std", "kid_subset_size", "precision",
                   "recall", "density", "coverage", "vendi", "dim", "top_quarter", "miss_rate_top_quarter",
                   "miss_rate_all"}
_NUMERIC_PREFIXES = ("margin_", "spearman_", "auroc_")
#: the files of an evaluation folder written by evaluate, which a report must never replace
EVALUATE_FILES = (MANIFEST, PER_PANEL, FAILED, "evaluation.gpkg", "tables.md",
                  *(f"table_{n}.csv" for n in TABLES + LATER_TABLES))
_EVALUATE = "`python -m geofidelity_plugin evaluate --store STORE --out FOLDER` or the plugin's Evaluate algorithm"
FIX = f"run the evaluate stage first ({_EVALUATE}) and give its output folder"


def again(folder: Path) -> str:
    return f"run evaluate again ({_EVALUATE.replace('FOLDER', str(folder))}) to rewrite the folder"


@dataclass
class Evaluation:
    """Everything the report shows, read from one evaluation folder."""

    folder: Path
    manifest: dict
    rows: list[dict]
    tables: dict[str, list[dict]]
    failed: list[dict]
    missing: list[str] = field(default_factory=list)

    @property
    def stand_in(self) -> str | None:
        return self.manifest.get("stand_in") or None


def is_numeric(column: str) -> bool:
    """A score or count column: every non-empty cell must be a number."""
    base = column[:-4] if column.endswith("_low") else column[:-5] if column.endswith("_high") else column
    return base in NUMERIC_COLUMNS or base.startswith(_NUMERIC_PREFIXES)


def _typed(column: str, value: str):
    if value == "" or value is None:
        return None
    if column in TEXT_COLUMNS:
        return value
    if value in ("True", "False"):
        return value == "True"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def read_csv(path: Path, required: tuple[str, ...] | None = None) -> list[dict]:
    """Rows of one of the evaluation's CSVs with numbers as numbers; ``(no rows)`` → [].

    ``required``: the columns that must be in the header (default: those the report reads
    from a file of that name)."""
    path = Path(path)
    required = COLUMNS.get(path.name, ()) if required is None else required
    schema = TableSchema("evaluation table", tuple(required), type_of=_number_column, empty_marker="(no rows)",
                         rows_required=False,
                         fix=f"the file was changed after evaluate wrote it, or written by another tool; "
                             f"{again(path.parent)}")
    return [{k: _typed(k, v) for k, v in row.items()} for row in read_table(path, schema).rows]


def _number_column(column: str) -> str | None:
    return "float" if is_numeric(column) else None


def _is_incomplete(folder: Path) -> bool:
    """Traces of a run of evaluate that did not finish."""
    return any(folder.glob(".geofidelity-partial-*")) or any(
        (folder / name).exists() for name in (PER_PANEL, "evaluation.gpkg", "tables.md", FAILED)) \
        or any(folder.glob("table_*.csv"))


def _refuse_release_folder(folder: Path) -> None:
    """A finished ``evaluate --protocol release`` folder is complete, not "incomplete": it has no
    per-panel table to draw. The fix is the paper evaluation of the same store, spelt out from the
    folder's own manifest so that it runs as written."""
    try:
        manifest = read_json(folder / MANIFEST, "evaluation manifest", again(folder), expect=None)
    except InputError:
        return  # load_evaluation names what is wrong with it
    options = manifest.get("options") if isinstance(manifest, dict) else None
    protocol = manifest.get("protocol") if isinstance(manifest, dict) else None
    if isinstance(options, dict):
        protocol = protocol or options.get("protocol")
    if protocol != "release":
        return
    store = (manifest.get("inputs") or {}).get("store") or "STORE"
    command = f"python -m geofidelity_plugin evaluate --store {store}"
    model = options.get("feature_model") if isinstance(options, dict) else None
    if model:
        command += f" --feature-model {model}"
    command += f" --out {folder.parent / (folder.name + '-paper')}"
    raise InputError(f"{folder} holds a finished evaluation under the release protocol (raw_results.csv, its "
                     "summaries and tables.md); the report draws the paper evaluation's tables and map — run "
                     f"`{command}` and report that folder")


def load_evaluation(evaluation_dir: str | Path) -> Evaluation:
    """Read and check an evaluation folder; refuse an incomplete or foreign one."""
    folder = Path(evaluation_dir).expanduser()
    if folder.is_file() and (folder.parent / MANIFEST).is_file():
        raise InputError(f"{folder} is a file of the evaluation folder {folder.parent} — give the evaluation "
                         f"folder {folder.parent}, not a file in it")
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise InputError(f"evaluation folder {folder} {what} — {FIX}")
    _refuse_release_folder(folder)
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    if missing and _is_incomplete(folder):
        raise InputError(f"evaluation folder {folder} is incomplete: {', '.join(missing)} missing (evaluate "
                         f"failed or was interrupted before it finished) — {again(folder)}")
    if missing:
        raise InputError(f"{folder} is not an evaluation folder: {', '.join(missing)} missing — {FIX}")
    manifest = read_json(folder / MANIFEST, "evaluation manifest", again(folder))
    rows = read_csv(folder / PER_PANEL)
    if not rows:
        raise InputError(f"{folder / PER_PANEL} has no scored panel — {again(folder)}")
    absent = [f"table_{n}.csv" for n in TABLES if not (folder / f"table_{n}.csv").is_file()]
    tables = {n: [] if f"table_{n}.csv" in absent else read_csv(folder / f"table_{n}.csv") for n in TABLES}
    tables.update({n: read_csv(folder / f"table_{n}.csv") for n in LATER_TABLES
                   if (folder / f"table_{n}.csv").is_file()})
    failed_csv = folder / FAILED
    if failed_csv.is_file():
        failed = read_csv(failed_csv)
    else:
        listed = (manifest.get("outputs") or {}).get("failed_images")
        failed = [{"image_path": p, "reason": r} for p, r in sorted(listed.items())] if isinstance(listed, dict) else []
    if not (folder / "evaluation.gpkg").is_file():
        absent.append("evaluation.gpkg")
    return Evaluation(folder, manifest, rows, tables, failed, absent)
