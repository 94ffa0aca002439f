"""Write an ``evaluate --protocol release`` run (docs/method.md §6 Release protocol): the rows as
the release's ``raw_results.csv``, its four summaries, the same summaries as Markdown with the
run's notes, the failed images and the manifest — staged and published together, manifest last.
"""
from __future__ import annotations

import json
from pathlib import Path

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.errors import OutputError, describe_os_error
from geofidelity_plugin.core.evaluation.outputs import MANIFEST_NAME
from geofidelity_plugin.core.evaluation.release.protocol import SUMMARIES, SUMMARY_METRICS, split_unused_options
from geofidelity_plugin.core.evaluation.statistics.tables import to_csv

RAW_RESULTS = "raw_results.csv"
#: output key → file name
RELEASE_FILES = {"raw_results": RAW_RESULTS, "tables_md": "tables.md", "failed_images": "failed_images.csv",
                 "manifest": MANIFEST_NAME, **{f"summary_{n}": f"summary_{n}.csv" for n in SUMMARIES}}


def _cell(value) -> str:
    if value is None:
        return "—"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def summaries_markdown(summaries: dict[str, list[dict]], notes: list[str], stand_in_note: str | None) -> str:
    parts = ["# GeoFidelity evaluation — release protocol", "",
             "> The published release's own evaluator (docs/method.md §6 Release protocol): mean ± standard "
             "deviation over rows (blocks).", ""]
    if stand_in_note:
        parts += [f"> **{stand_in_note}**", ""]
    parts += [line for note in notes for line in (f"> Note: {note}", "")]
    for name, keys in SUMMARIES.items():
        rows = summaries.get(name, [])
        parts += [f"### Summary by {' × '.join(keys)}", ""]
        if not rows:
            parts += ["(no rows)", ""]
            continue
        header = [*keys, "rows", *SUMMARY_METRICS]
        parts += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for r in rows:
            cells = [_cell(r.get(k)) for k in (*keys, "rows")]
            cells += [f"{_cell(r.get(f'{m}_mean'))} ± {_cell(r.get(f'{m}_std'))}" for m in SUMMARY_METRICS]
            parts.append("| " + " | ".join(cells) + " |")
        parts.append("")
    return "\n".join(parts)


def write_release_outputs(out_dir: str | Path, result, manifest: dict, stand_in_note: str | None = None
                          ) -> dict[str, Path]:
    """Write every output of a release-protocol evaluation into ``out_dir``; key → path."""
    out = Path(out_dir)
    paths = {key: out / name for key, name in RELEASE_FILES.items()}
    from geofidelity_plugin.core.vision.unusable_images import failed_kinds

    manifest = dict(split_unused_options(manifest), protocol="release", stand_in=stand_in_note,
                    failed_image_kinds=failed_kinds(result.failed_images),
                    outputs={**manifest.get("outputs", {}), **{k: str(v) for k, v in paths.items()}})
    try:
        with atomic.staged_folder(out, MANIFEST_NAME) as stage:
            def text(key: str, content: str) -> None:
                stage.path(RELEASE_FILES[key]).write_text(content, encoding="utf-8")

            text("raw_results", to_csv(result.rows))
            for name in SUMMARIES:
                text(f"summary_{name}", to_csv(result.summaries.get(name, [])) or "(no rows)\n")
            text("tables_md", summaries_markdown(result.summaries, result.notes, stand_in_note))
            from geofidelity_plugin.core.vision.unusable_images import failed_rows  # with each one's kind

            text("failed_images", to_csv(failed_rows(result.failed_images)) or "image_path,reason,kind\n")
            text("manifest", json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n")
    except OSError as exc:
        reason = describe_os_error(exc, out).split(": ", 1)[1]
        raise OutputError(f"cannot write the evaluation outputs in {out}: {reason}; nothing in it was changed") from None
    return paths
