"""The report's section for Local Margin, the top-25 %-CLIP miss rate and the field's comparability
metrics (issue 41), from an evaluation folder written by the real engine; and an evaluation folder
written before those tables existed still makes a report, which says the section is absent
instead of calling the folder incomplete."""
from __future__ import annotations

import csv
from html import unescape

import pytest

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
from geofidelity_plugin.core.evaluation.outputs import write_outputs
from geofidelity_plugin.core.report.html import write_report


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("paper-tables")
    store, vectors = make_store(root / "b", per_city=2)
    options = EvaluationOptions(n_bootstrap=100)
    result = evaluate_store(store, TableEmbedder(vectors), options)
    manifest = evaluation_manifest(result, options, store, [{"id": "table-embedder"}], [])
    write_outputs(root / "eval", result, store.segments(), manifest, "m1", "L1")
    store.close()
    return root / "eval"


def test_tables_md_and_the_report_show_the_new_tables(folder):
    tables = (folder / "tables.md").read_text()
    for title in ("### Local Margin", "### Top-25%-CLIP miss rate", "### Comparability with the field"):
        assert title in tables
    page = unescape(write_report(folder).read_text())
    assert "Local Margin, the CLIP top quarter and the field's metrics" in page
    with open(folder / "table_comparability.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["city"] for r in rows} == {"all", "Alpha (FI)", "Beta (GB)", "Gamma (FI)"}
    run_wide = [r for r in rows if r["city"] == "all"]
    assert len(run_wide) == 2 * 4 + 1  # two models × four conditions, and the held-out anchor
    assert f"Per city ({len(rows) - len(run_wide)} rows)" in page
    fd = f"{float(run_wide[0]['fd']):.4g}"
    assert fd in page and fd in tables


def test_a_folder_from_before_the_new_tables_still_makes_a_report(folder, tmp_path):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(folder, old)
    for name in ("local_margin", "clip_top_quarter", "comparability"):
        (old / f"table_{name}.csv").unlink()
    (old / "report.html").unlink(missing_ok=True)
    page = unescape(write_report(old).read_text())
    assert "it was written before evaluate made them" in page
    assert "Missing from the folder" not in page  # the older folder is complete, not incomplete
