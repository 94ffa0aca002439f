"""The report's GeoDiv section (docs/method.md, GeoDiv), from the tables a GeoDiv run writes."""
from __future__ import annotations

import json

from geofidelity_plugin.core.geodiv import questions as qs
from geofidelity_plugin.core.geodiv.workflow import GeoDivOptions, score_run
from geofidelity_plugin.core.report.geodiv import geodiv_section

SET = qs.parse({"questions": [
    {"id": "bg", "axis": "background", "question": "?", "options": ["trees", "hills", "water"]},
    {"id": "surface", "axis": "entity", "question": "?", "options": ["asphalt", "dirt"]},
    {"id": "affluence", "axis": "affluence", "question": "?", "options": ["1", "2", "3", "4", "5"]}]})


def _answers():
    rows = []
    for i in range(6):
        for model, bg, surface, aff in (("real", "trees hills water".split()[i % 3], "asphalt dirt".split()[i % 2],
                                         str(2 + i % 3)), ("sdxl", "trees", "asphalt", "2")):
            for q, a in (("bg", bg), ("surface", surface), ("affluence", aff)):
                rows.append({"image_id": f"{model}{i}", "question_id": q, "answer": a, "model": model,
                             "city": "Lagos", "segment_id": f"s{i}"})
    return rows


def test_section_shows_groups_scatter_and_collapse(tmp_path):
    folder = tmp_path / "evaluation"
    paths, groups = score_run(_answers(), SET, folder / "geodiv", GeoDivOptions(("model", "city")))
    diff = (folder / "geodiv" / "geodiv_model_minus_real.csv").read_text().splitlines()
    assert "vdi_overall_paired_low" in diff[0]
    figures = tmp_path / "report_figures"
    figures.mkdir()
    page = geodiv_section(folder, figures)
    assert '<section id="geodiv">' in page and "<td>real</td>" in page and "<td>sdxl</td>" in page
    assert (figures / "geodiv_sevi_vdi.png").stat().st_size > 5_000
    assert (figures / "geodiv_vdi_overall_by_place.png").stat().st_size > 5_000
    assert "geodiv_vdi_overall_by_place.png" in page
    assert "Where each model collapses most" in page and "stand-in" not in page
    assert geodiv_section(tmp_path / "nothing", figures) == ""
    (folder / "geodiv" / "geodiv_manifest.json").write_text(json.dumps({"models": [
        {"label": "tiny random VLM (stand-in: …)"}]}))
    assert "a stand-in" in geodiv_section(folder, figures)
