"""Issue 27, outputs: a disk that fills up while the atlas PDF or the coverage GeoPackage is
written never replaces the earlier file with a broken one (``core.atomic.check_complete`` and
the writers' own failure checks); an output path that names a file another stage reads (the
segments GeoPackage) is refused before any work (``core.output_paths.check_not_other_data``);
a path that is not UTF-8 text is refused before any work (``_check_text``).

The full disk is ``RLIMIT_FSIZE`` (``faultkit.file_size_limit``): a per-file limit, set between
the sizes of the small files a run writes and the size of the output it must not leave broken.
"""
from __future__ import annotations

import hashlib
import shutil
import sqlite3

import pytest

from conftest import REPO
from faultkit import assert_fails_cleanly, assert_no_partial_outputs, file_size_limit, run_cli

pytestmark = pytest.mark.fault


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """Segments on the Helsinki extract, the demo's stand-in store, a coverage audit and an atlas."""
    from geofidelity_plugin.backend.demo_data import build_demo_store

    out = tmp_path_factory.mktemp("outputs27")
    run = run_cli("select-segments", "--cities", REPO / "resources" / "data" / "demo_cities.csv", "--osm",
                  REPO / "data" / "external" / "osm" / "Helsinki.osm.pbf", "--min-length", 300, "--min-spacing",
                  300, "--out", out / "segments.gpkg", "-q", timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    build_demo_store(out / "benchmark.sqlite", out / "segments.gpkg")
    run = run_cli("coverage", "--store", out / "benchmark.sqlite", "--out", out / "coverage.gpkg", "-q")
    assert run.returncode == 0, run.stderr[-2000:]
    run = run_cli("atlas", "--store", out / "benchmark.sqlite", "--segments", out / "segments.gpkg",
                  "--coverage", out / "coverage.gpkg", "--out", out / "atlas.pdf", "-q", timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return out


@pytest.fixture
def copy(bench, tmp_path):
    folder = tmp_path / "bench"
    shutil.copytree(bench, folder)
    return folder


def _biggest_other_file(folder, *outputs) -> int:
    names = {o.name for o in outputs}
    return max(p.stat().st_size for p in folder.rglob("*") if p.is_file() and p.name not in names)


def test_atlas_on_a_full_disk_keeps_the_earlier_pdf(copy):
    pdf = copy / "atlas.pdf"
    before, size = _digest(pdf), pdf.stat().st_size
    limit = size // 2  # the PDF cannot be finished; a manifest, a picture of a page can
    (copy / "tmp").mkdir()
    out = run_cli("atlas", "--store", copy / "benchmark.sqlite", "--segments", copy / "segments.gpkg",
                  "--coverage", copy / "coverage.gpkg", "--out", pdf, "-q", timeout=600,
                  env={"TMPDIR": str(copy / "tmp")}, preexec_fn=file_size_limit(limit))
    assert_fails_cleanly(out, str(pdf), "disk")
    assert _digest(pdf) == before  # the earlier atlas, byte for byte
    assert_no_partial_outputs(copy)
    out = run_cli("atlas", "--store", copy / "benchmark.sqlite", "--segments", copy / "segments.gpkg",
                  "--coverage", copy / "coverage.gpkg", "--out", pdf, "-q", timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]  # a clean re-run works
    assert pdf.read_bytes().rstrip().endswith(b"%%EOF")


def test_coverage_on_a_full_disk_keeps_the_earlier_geopackage(copy):
    gpkg = copy / "coverage.gpkg"
    before = _digest(gpkg)
    # above the store's -shm/-wal and the small CSV and manifest, below the GeoPackage
    limit = max(64 * 1024, gpkg.stat().st_size // 3)
    assert limit < gpkg.stat().st_size
    out = run_cli("coverage", "--store", copy / "benchmark.sqlite", "--out", gpkg, "-q",
                  preexec_fn=file_size_limit(limit))
    assert_fails_cleanly(out, str(gpkg))
    assert "disk" in out.stderr.lower() or "full" in out.stderr.lower(), out.stderr
    assert _digest(gpkg) == before
    with sqlite3.connect(f"file:{gpkg}?mode=ro", uri=True) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert_no_partial_outputs(copy)


def test_coverage_out_that_is_the_segments_geopackage_is_refused_before_work(copy):
    segments = copy / "segments.gpkg"
    before = _digest(segments)
    out = run_cli("coverage", "--store", copy / "benchmark.sqlite", "--out", segments, "-q")
    assert_fails_cleanly(out, str(segments), "segments GeoPackage", "another file name")
    assert _digest(segments) == before


def test_coverage_may_replace_its_own_earlier_geopackage(copy):
    out = run_cli("coverage", "--store", copy / "benchmark.sqlite", "--out", copy / "coverage.gpkg", "-q")
    assert out.returncode == 0, out.stderr[-2000:]


def test_atlas_out_that_is_another_benchmark_store_is_refused(copy, tmp_path):
    other = tmp_path / "other.sqlite"
    shutil.copy(copy / "benchmark.sqlite", other)
    before = _digest(other)
    out = run_cli("atlas", "--store", copy / "benchmark.sqlite", "--segments", copy / "segments.gpkg", "--out", other)
    assert_fails_cleanly(out, str(other), "benchmark store")
    assert _digest(other) == before


def test_an_output_path_that_is_not_utf8_is_refused_before_work(copy):
    bad = str(copy) + "/cover\udcffage.gpkg"  # the byte 0xFF in the file name (surrogate escape)
    files = sorted(p.name for p in copy.iterdir())
    out = run_cli("coverage", "--store", copy / "benchmark.sqlite", "--out", bad, "-q")
    assert_fails_cleanly(out, "not UTF-8", "coverage GeoPackage")
    assert sorted(p.name for p in copy.iterdir()) == files  # nothing written, not even a manifest
