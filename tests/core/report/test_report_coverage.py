"""The report's coverage section and its data credits (method §2 coverage audit; method §1 data
sources): the city and segment tables and the capture-date figure read from the coverage audit
of the evaluation's store, never from an audit of another store, and the OpenStreetMap and
Mapillary credits (with the stand-in note for stand-in images) at the foot of every report."""
from __future__ import annotations

import json
import shutil
from html import unescape
from pathlib import Path

import pytest
from PIL import Image

from geofidelity_plugin.core import attribution
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.reference_panels.coverage.audit import audit_store
from geofidelity_plugin.core.reference_panels.coverage.layers import write_coverage_outputs
from geofidelity_plugin.core.report.html import write_report
from geofidelity_plugin.core.store.store import BenchmarkStore

from coverage_fixture import build_hand_store

PER_PANEL = ("model,condition,segment_id,city,is_anchor,cos_sim,top1,margin_hard\n"
             "m1,L1,a,Testville,False,0.81,1,0.05\nm1,L1,b,Testville,False,0.62,0,-0.03\n")


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    return build_hand_store(tmp_path_factory.mktemp("hand_store"))


def _evaluation(folder: Path, store: Path, stand_in: str | None = None) -> Path:
    folder.mkdir(parents=True)
    manifest = {"stage": "evaluate", "inputs": {"store": str(store)}, "options": {}}
    if stand_in:
        manifest["stand_in"] = stand_in
    (folder / "evaluation.manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "per_panel_scores.csv").write_text(PER_PANEL, encoding="utf-8")
    return folder


def _coverage_beside(store: Path, name: str = "coverage.gpkg") -> Path:
    from geofidelity_plugin.core.manifest import build_manifest, write_manifest

    with BenchmarkStore(store, create=False) as s:
        audit = audit_store(s)
    gpkg, _ = write_coverage_outputs(store.parent / name, audit)
    write_manifest(gpkg.with_name(f"{gpkg.stem}.manifest.json"),
                   build_manifest("coverage", {"radius_m": 30.0, "gap_radius_m": 20.0}, inputs={"store": str(store)}))
    return gpkg


def _text(page: str) -> str:
    import re

    return unescape(re.sub(r"<[^>]+>", " ", page))


def test_report_shows_the_coverage_of_its_store(store_path, tmp_path):
    store = tmp_path / "benchmark.sqlite"
    shutil.copy(store_path, store)
    gpkg = _coverage_beside(store)
    report = write_report(_evaluation(tmp_path / "evaluation", store))
    page = report.read_text(encoding="utf-8")
    section = page[page.index('<section id="coverage">'):]
    section = section[:section.index("</section>")]
    text = " ".join(_text(section).split())
    assert str(gpkg) in text and "no image within 20 m" in text
    # the city table: Testville 2 segments, 0.30 km, 5 images, 16.7 / km, median 57 % uncovered, 787 days
    assert "Testville 2 0.30 5 16.7 57 % 0 2019-03-10 2021-05-05 787" in text
    assert "Othertown 1 0.15 0 0.0 100 % 1 — — 0" in text
    # the segment table: a — 4 images, 20 / km, 2 sequences, 555 days, 54 % uncovered, longest gap 74 m, 2 gaps
    assert "a Long Street Testville 4 20.0 2 2019-03-10 2020-09-15 555 54 % 74.0 2" in text
    figure = report.parent / "report_figures" / "coverage_dates.png"
    import base64

    assert f'src="data:image/png;base64,{base64.b64encode(figure.read_bytes()).decode()}"' in section  # in the page
    with Image.open(figure) as im:
        assert im.format == "PNG" and im.width > 300


def test_an_audit_of_another_store_is_not_shown_and_a_given_one_must_exist(store_path, tmp_path):
    store = tmp_path / "benchmark.sqlite"
    shutil.copy(store_path, store)
    other = tmp_path / "other" / "benchmark.sqlite"
    other.parent.mkdir()
    shutil.copy(store_path, other)
    stray = _coverage_beside(other)
    shutil.copy(stray, tmp_path / "coverage.gpkg")  # beside our store, but its manifest names the other store
    shutil.copy(stray.with_name("coverage.manifest.json"), tmp_path / "coverage.manifest.json")
    evaluation = _evaluation(tmp_path / "evaluation", store)
    page = write_report(evaluation).read_text(encoding="utf-8")
    assert "No coverage audit of this store was found" in page and "Testville 2 0.30" not in _text(page)
    page = write_report(evaluation, coverage=stray).read_text(encoding="utf-8")  # given: shown
    assert str(stray) in page
    with pytest.raises(InputError, match="does not exist — run the coverage audit"):
        write_report(evaluation, coverage=tmp_path / "missing.gpkg")


def test_every_report_ends_with_the_data_credits(store_path, tmp_path):
    plain = write_report(_evaluation(tmp_path / "plain", store_path)).read_text(encoding="utf-8")
    footer = _text(plain[plain.index('<footer class="credits"'):])
    assert attribution.OSM in footer and attribution.MAPILLARY in footer and attribution.STAND_IN not in footer
    standin = write_report(_evaluation(tmp_path / "standin", store_path, stand_in="STAND-IN DATA: test")
                           ).read_text(encoding="utf-8")
    footer = _text(standin[standin.index('<footer class="credits"'):])
    assert attribution.STAND_IN in footer and "© OpenStreetMap contributors (ODbL)" in footer


def test_report_command_takes_the_coverage_option(store_path, tmp_path):
    import subprocess
    import sys

    other = tmp_path / "elsewhere" / "benchmark.sqlite"
    other.parent.mkdir()
    shutil.copy(store_path, other)
    gpkg = _coverage_beside(other, "audit.gpkg")
    evaluation = _evaluation(tmp_path / "evaluation", store_path)
    run = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "report", "--evaluation", str(evaluation),
                          "--coverage", str(gpkg)], cwd=Path(__file__).resolve().parents[3], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    page = (evaluation / "report.html").read_text(encoding="utf-8")
    assert str(gpkg) in page and (evaluation / "report_figures" / "coverage_dates.png").is_file()


def test_an_unreadable_audit_is_a_warning_and_a_note(store_path, tmp_path):
    broken = tmp_path / "broken.gpkg"
    broken.write_bytes(b"not a GeoPackage")
    warnings = []
    page = write_report(_evaluation(tmp_path / "evaluation", store_path), coverage=broken,
                        warn=warnings.append).read_text(encoding="utf-8")
    assert [w for w in warnings if "coverage" in w and "run the coverage audit again" in w] == warnings[-1:]
    assert "cannot be read as the coverage audit" in _text(page) and '<footer class="credits"' in page
