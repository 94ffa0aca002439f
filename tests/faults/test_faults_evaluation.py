"""Fault cases of the benchmark store and the ``evaluate`` stage (issue 8): a store that is not a
store or is damaged, evaluations that would silently drop what the user asked for, the unbiased
MMD² on one-image panels, output folders that cannot be written, and a feature cache that holds
something it should not. Each case runs the real command line (a few through ``qgis_process``)
with a tiny DINOv2 built from a config, so a run takes seconds.
"""
from __future__ import annotations

import csv
import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from eval_fixtures import make_store
from faultkit import (assert_fails_cleanly, assert_no_partial_outputs, assert_qgis_fails_cleanly,
                      assert_store_ok, file_size_limit, no_traceback, run_cli, run_qgis)  # noqa: F401
from tiny_models import make_tiny_dinov2

pytestmark = pytest.mark.fault

MANIFEST = "evaluation.manifest.json"
PER_PANEL = "per_panel_scores.csv"
MODEL_LOADED = " loaded on "  # the log line of a feature model load


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def dino(tmp_path_factory) -> Path:
    return make_tiny_dinov2(tmp_path_factory.mktemp("dino") / "dino")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A benchmark folder: 3 segments in 3 cities, 5 reference images each, one model × 4
    conditions × 4 images, galleries built."""
    root = tmp_path_factory.mktemp("bench") / "b"
    store, _ = make_store(root, per_city=1, refs=5, models=("m1",))
    store.close()
    return root


@pytest.fixture
def bench(pristine, tmp_path) -> Path:
    """A private copy of the benchmark; returns its store path."""
    shutil.copytree(pristine, tmp_path / "b")
    return tmp_path / "b" / "store.sqlite"


def _env(cache_dir: Path) -> dict:
    return {"GEOFIDELITY_CACHE_DIR": str(cache_dir), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


@pytest.fixture
def env(tmp_path) -> dict:
    return _env(tmp_path / "cache")


@pytest.fixture(scope="module")
def first_run(pristine, dino, tmp_path_factory) -> Path:
    """One good evaluation of the benchmark: its output folder and, in ``cache/``, the feature
    cache it filled (copied by the cases that start from an earlier run)."""
    root = tmp_path_factory.mktemp("first")
    shutil.copytree(pristine, root / "b")
    out = evaluate(root / "b" / "store.sqlite", root / "eval", dino, env=_env(root / "cache"))
    assert_ok(out)
    return root


def start_from(first_run: Path, env: dict, out: Path | None = None) -> None:
    """The state after the first run: its feature cache (and its evaluation folder at ``out``)."""
    shutil.copytree(first_run / "cache", env["GEOFIDELITY_CACHE_DIR"])
    if out is not None:
        shutil.copytree(first_run / "eval", out)


def evaluate(store, out, model, *extra, env, preexec_fn=None):
    return run_cli("evaluate", "--store", store, "--out", out, "--feature-model", model, "--bootstrap", "50",
                   "-q", *extra, env=env, preexec_fn=preexec_fn)


def assert_ok(out) -> None:
    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-3000:]
    assert no_traceback(text), text[-3000:]


def assert_before_model(out) -> None:
    assert MODEL_LOADED not in out.stderr, f"the model was loaded before the failure:\n{out.stderr[-2000:]}"


def sql(store: Path, *statements: str) -> None:
    con = sqlite3.connect(store)
    with con:
        for statement in statements:
            con.execute(statement)
    con.close()


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def read_rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


# --------------------------------------------------------------------------- 1 · the store
def _text(path: Path, real: bytes) -> None:
    path.write_text("segment_id,city\nx,y\n", encoding="utf-8")


def _truncated(size: int):
    def make(path: Path, real: bytes) -> None:
        path.write_bytes(real[:size])
    return make


def _corrupted(path: Path, real: bytes) -> None:
    data = bytearray(real)
    page = 4096
    start = (len(data) // 2) // page * page  # one whole page in the middle: its b-tree header goes
    data[start:start + page] = np.random.default_rng(7).integers(0, 256, page, dtype=np.uint8).tobytes()
    path.write_bytes(bytes(data))


def _folder(path: Path, real: bytes) -> None:
    path.mkdir()


def _missing(path: Path, real: bytes) -> None:
    pass


def _empty_file(path: Path, real: bytes) -> None:
    path.write_bytes(b"")


def _no_tables(path: Path, real: bytes) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 3")
    con.close()
    assert path.stat().st_size > 0


def _other_tables(path: Path, real: bytes) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        con.execute("CREATE TABLE embeddings (image_sha256 TEXT, vector BLOB)")
    con.close()


STORE_CASES = [
    ("text-file", _text, ["is not a GeoFidelity benchmark store", "not an SQLite database"]),
    ("truncated-1k", _truncated(1024), ["is damaged", "integrity check"]),
    ("truncated-4k", _truncated(4096), ["is damaged", "integrity check"]),
    ("corrupted", _corrupted, ["is damaged", "integrity check"]),
    ("folder", _folder, ["is a folder"]),
    ("missing", _missing, ["not found", "import-release"]),
    ("empty-file", _empty_file, ["is not a GeoFidelity benchmark store", "empty"]),
    ("no-tables", _no_tables, ["is not a GeoFidelity benchmark store", "no tables"]),
    ("other-tables", _other_tables, ["is not a GeoFidelity benchmark store", "embeddings"]),
]


@pytest.mark.parametrize("make,fragments", [c[1:] for c in STORE_CASES], ids=[c[0] for c in STORE_CASES])
def test_evaluate_bad_store(bench, tmp_path, dino, env, make, fragments):
    """A store that is not a store fails when it is opened — before the model load — naming the
    file; the file is left exactly as it was."""
    bad = tmp_path / "bad.sqlite"
    make(bad, bench.read_bytes())
    before = bad.read_bytes() if bad.is_file() else None
    out = evaluate(bad, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(bad), *fragments)
    assert_before_model(out)
    assert (bad.read_bytes() if bad.is_file() else None) == before
    assert not (tmp_path / "eval" / MANIFEST).exists()


@pytest.mark.parametrize("make,fragments", [c[1:] for c in STORE_CASES if c[0] in ("text-file", "no-tables",
                                                                                     "other-tables", "corrupted")],
                         ids=["text-file", "no-tables", "other-tables", "corrupted"])
def test_store_creating_command_never_initialises_a_foreign_file(bench, tmp_path, make, fragments):
    """``build-galleries`` opens its store with create=True: an existing file that is not a
    store is refused, never turned into one."""
    bad = tmp_path / "bad.sqlite"
    make(bad, bench.read_bytes())
    before = bad.read_bytes()
    out = run_cli("build-galleries", "--store", bad)
    assert_fails_cleanly(out, str(bad), *fragments)
    assert bad.read_bytes() == before
    assert not any(p.name.startswith("bad.sqlite-") for p in tmp_path.iterdir())


def test_missing_store_then_clean_rerun(bench, tmp_path, dino, env):
    store = tmp_path / "later" / "store.sqlite"
    out = evaluate(store, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(store), "not found")
    assert_before_model(out)
    assert not store.exists()
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    assert_store_ok(bench)


def test_damaged_rows_that_pass_the_quick_check(bench, tmp_path, dino, env):
    """Damage inside a record (a JSON column that no longer parses) is reported as a damaged
    store, not as a crash."""
    sql(bench, "UPDATE segments SET extra_json = '{\"broken' WHERE segment_id = (SELECT MIN(segment_id) FROM segments)")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(bench), "is damaged")
    assert_before_model(out)


# --------------------------------------------------------------------------- 2 · silent drops
def test_holdout_larger_than_every_panel(bench, tmp_path, dino, env):
    out = evaluate(bench, tmp_path / "eval", dino, "--holdout-size", "5", env=env)
    assert_fails_cleanly(out, "--holdout-size", "largest reference panel has 5 images", "4 or less")
    assert_before_model(out)
    assert not (tmp_path / "eval" / MANIFEST).exists()
    out = evaluate(bench, tmp_path / "eval", dino, "--holdout-size", "4", env=env)
    assert_ok(out)
    rows = read_rows(tmp_path / "eval" / "per_panel_scores.csv")
    assert sum(r["model"] == "anchor:held_out_real" for r in rows) == 3


def test_holdout_larger_than_some_panels(bench, tmp_path, dino, env):
    """One segment keeps 3 reference images: it loses its held-out anchor, and the run says so
    on stderr, in the tables and in the manifest."""
    sql(bench, "DELETE FROM reference_images WHERE reference_id IN "
               "(SELECT reference_id FROM reference_images ORDER BY reference_id LIMIT 2)")
    out = evaluate(bench, tmp_path / "eval", dino, "--holdout-size", "4", env=env)
    assert_ok(out)
    assert "warning:" in out.stderr and "1 of 3 segments" in out.stderr, out.stderr
    rows = read_rows(tmp_path / "eval" / "per_panel_scores.csv")
    assert sum(r["model"] == "anchor:held_out_real" for r in rows) == 2
    notes = json.loads((tmp_path / "eval" / MANIFEST).read_text())["notes"]
    assert any("held-out anchor" in n and "1 of 3 segments" in n for n in notes), notes
    assert "1 of 3 segments" in (tmp_path / "eval" / "tables.md").read_text()


def test_no_generated_images(bench, tmp_path, dino, env):
    sql(bench, "CREATE TABLE saved AS SELECT * FROM generated_images", "DELETE FROM generated_images")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(bench), "no generated panels", "generate", "import-generated", "--anchors-only")
    assert_before_model(out)
    assert not (tmp_path / "eval").exists() or not any((tmp_path / "eval").iterdir())
    # asked for explicitly, the real anchors alone are scored, and the outputs say so
    out = evaluate(bench, tmp_path / "anchors", dino, "--anchors-only", env=env)
    assert_ok(out)
    models = {r["model"] for r in read_rows(tmp_path / "anchors" / "per_panel_scores.csv")}
    assert "anchor:held_out_real" in models and all(m.startswith("anchor:") for m in models), models
    notes = json.loads((tmp_path / "anchors" / MANIFEST).read_text())["notes"]
    assert any("only the real anchors" in n for n in notes), notes
    sql(bench, "INSERT INTO generated_images SELECT * FROM saved", "DROP TABLE saved")
    assert_ok(evaluate(bench, tmp_path / "eval", dino, env=env))
    assert_store_ok(bench)


def test_no_reference_panels(bench, tmp_path, dino, env):
    sql(bench, "DELETE FROM reference_images")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(bench), "no reference panels", "curate")
    assert_before_model(out)


def test_no_galleries_then_build_them(bench, tmp_path, dino, env):
    """Without galleries no panel has a negative to be retrieved against: evaluate says to run
    build-galleries, before the model load; after build-galleries it runs."""
    sql(bench, "DELETE FROM galleries")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(bench), "no galleries", "build-galleries")
    assert_before_model(out)
    built = run_cli("build-galleries", "--store", bench)
    assert built.returncode == 0, built.stderr
    assert_ok(evaluate(bench, tmp_path / "eval", dino, env=env))


def test_panels_without_a_gallery_are_reported(bench, tmp_path, dino, env):
    """A segment whose gallery is gone: its generated panels cannot be scored; the run goes on and
    says how many were left out and why, instead of dropping them silently."""
    sql(bench, "DELETE FROM galleries WHERE segment_id = (SELECT MIN(segment_id) FROM segments)")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    assert "warning: 4 generated panels not scored" in out.stderr, out.stderr
    manifest = json.loads((tmp_path / "eval" / MANIFEST).read_text())
    assert any(n.startswith("4 generated panels not scored") and "build-galleries" in n for n in manifest["notes"])
    assert len([s for s in manifest["outputs"]["skipped"] if s.get("model")]) == 4
    assert "4 generated panels not scored" in (tmp_path / "eval" / "tables.md").read_text()


# --------------------------------------------------------------------------- 3 · unbiased MMD²
@pytest.mark.parametrize("one_image", ["reduced-reference", "generated"])
def test_unbiased_mmd_on_one_image_panels(bench, tmp_path, dino, env, one_image):
    """With 5 reference images and a hold-out of 4, the held-out anchor's reduced reference panel
    has one image; a generated panel of one image is the other case. Those panels get no MMD²
    (the U-statistic needs two images), the run goes on and says how many."""
    expected_missing = 3
    if one_image == "generated":
        sql(bench, "DELETE FROM generated_images WHERE condition = 'L1' AND sample_index > 0 AND segment_id = "
                   "(SELECT MIN(segment_id) FROM segments)")
        expected_missing = 4
    out = evaluate(bench, tmp_path / "eval", dino, "--mmd-unbiased", env=env)
    assert_ok(out)
    rows = read_rows(tmp_path / "eval" / "per_panel_scores.csv")
    missing = [r for r in rows if r["mmd2"] == ""]
    assert len(missing) == expected_missing
    assert all(r["dcsf"] == "" for r in missing)
    assert all(float(r["mmd2"]) >= 0 for r in rows if r["mmd2"] != "")
    assert f"{expected_missing} panels" in out.stderr and "warning:" in out.stderr
    notes = json.loads((tmp_path / "eval" / MANIFEST).read_text())["notes"]
    assert any("unbiased MMD²" in n and f"{expected_missing} panels" in n for n in notes), notes
    assert f"{expected_missing} panels" in (tmp_path / "eval" / "tables.md").read_text()
    # the bootstrap tables average what is there
    by_condition = {r["condition"]: r for r in read_rows(tmp_path / "eval" / "table_by_condition.csv")}
    assert float(by_condition["L1"]["mmd2"]) >= 0
    assert float(by_condition["L1"]["mmd2_low"]) <= float(by_condition["L1"]["mmd2_high"])


# --------------------------------------------------------------------------- 4 · outputs
def test_output_folder_under_a_file(bench, tmp_path, dino, env):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    out = evaluate(bench, blocker / "eval", dino, env=env)
    assert_fails_cleanly(out, "is a file")
    assert_before_model(out)
    assert blocker.read_text() == "x"


def test_output_folder_is_a_file(bench, tmp_path, dino, env):
    target = tmp_path / "eval"
    target.write_text("x")
    out = evaluate(bench, target, dino, env=env)
    assert_fails_cleanly(out, str(target), "is a file")
    assert_before_model(out)
    assert target.read_text() == "x"


def test_output_file_blocked_by_a_folder(bench, tmp_path, dino, env):
    target = tmp_path / "eval"
    (target / "per_panel_scores.csv").mkdir(parents=True)
    out = evaluate(bench, target, dino, env=env)
    assert_fails_cleanly(out, "per_panel_scores.csv", "is a folder")
    assert_before_model(out)
    assert not (target / MANIFEST).exists()
    (target / "per_panel_scores.csv").rmdir()
    assert_ok(evaluate(bench, target, dino, env=env))


def test_disk_full_on_the_first_run(bench, tmp_path, dino, env):
    target = tmp_path / "eval"
    out = evaluate(bench, target, dino, env=env, preexec_fn=file_size_limit(64 * 1024))
    assert_fails_cleanly(out, "file size limit")
    assert not (target / MANIFEST).exists()
    assert not (target / "per_panel_scores.csv").exists()
    assert_no_partial_outputs(target)
    assert_store_ok(bench)
    assert_ok(evaluate(bench, target, dino, env=env))
    assert (target / MANIFEST).exists()


def test_disk_full_rerun_keeps_the_earlier_evaluation(bench, tmp_path, dino, env, first_run):
    target = tmp_path / "eval"
    start_from(first_run, env, target)
    before = digest(target)
    assert MANIFEST in before and "per_panel_scores.csv" in before
    out = evaluate(bench, target, dino, "--seed", "3", env=env, preexec_fn=file_size_limit(64 * 1024))
    assert_fails_cleanly(out, "file size limit", str(target))
    assert digest(target) == before
    assert_no_partial_outputs(target)
    assert_store_ok(bench)


# --------------------------------------------------------------------------- 5 · the feature cache
def _cache(env) -> Path:
    return Path(env["GEOFIDELITY_CACHE_DIR"]) / "features.sqlite"


def test_a_text_file_at_the_feature_cache_path_is_refused_and_kept(bench, tmp_path, dino, env, first_run):
    """A file the product did not make is never its to delete (issue 40): refused, named, kept."""
    start_from(first_run, env)
    cache = _cache(env)
    cache.write_text("not a cache\n")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, str(cache), "is not a GeoFidelity feature cache", "give a new cache path")
    assert cache.read_text() == "not a cache\n"


@pytest.mark.parametrize("damage", ["corrupted"])
def test_damaged_feature_cache_is_rebuilt(bench, tmp_path, dino, env, first_run, damage):
    start_from(first_run, env)
    cache = _cache(env)
    _corrupted(cache, cache.read_bytes())
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    assert "warning:" in out.stderr and str(cache) in out.stderr, out.stderr
    assert "computed 63" in out.stdout, out.stdout
    with sqlite3.connect(cache) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0] == 63
    assert read_rows(tmp_path / "eval" / PER_PANEL) == read_rows(first_run / "eval" / PER_PANEL)  # same scores


@pytest.mark.parametrize("bad", ["short-vector", "float64-vector"])
def test_cached_vector_of_the_wrong_shape_is_recomputed(bench, tmp_path, dino, env, first_run, bad):
    import zlib

    start_from(first_run, env)
    cache = _cache(env)
    with sqlite3.connect(cache) as con:
        sha, dim = con.execute("SELECT image_sha256, dim FROM embeddings ORDER BY image_sha256 LIMIT 1").fetchone()
        if bad == "short-vector":  # internally consistent, but not this model's width
            blob = np.arange(dim // 2, dtype="<f4").tobytes()
            new_dim = dim // 2
        else:  # float64 bytes under a float32 dimension
            blob = np.arange(dim, dtype="<f8").tobytes()
            new_dim = dim
        con.execute("UPDATE embeddings SET vector = ?, dim = ?, crc32 = ? WHERE image_sha256 = ?",
                    (blob, new_dim, zlib.crc32(blob), sha))
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    assert "warning:" in out.stderr and str(cache) in out.stderr and "recomputed" in out.stderr, out.stderr
    assert "computed 1," in out.stdout, out.stdout
    with sqlite3.connect(cache) as con:
        rows = con.execute("SELECT dim, length(vector) FROM embeddings").fetchall()
    assert len(rows) == 63 and set(rows) == {(dim, 4 * dim)}
    assert read_rows(tmp_path / "eval" / PER_PANEL) == read_rows(first_run / "eval" / PER_PANEL)  # same scores


# --------------------------------------------------------------------------- qgis_process
def test_qgis_store_is_a_text_file(qgis_env, tmp_path, dino):
    bad = tmp_path / "store.sqlite"
    bad.write_text("not a store\n")
    out = run_qgis(qgis_env, "evaluate", STORE=bad, FEATURE_MODEL=dino, OUTPUT_FOLDER=tmp_path / "eval")
    assert_qgis_fails_cleanly(out, str(bad), "is not a GeoFidelity benchmark store")
    assert bad.read_text() == "not a store\n"


def test_qgis_no_generated_images(qgis_env, bench, tmp_path, dino):
    sql(bench, "DELETE FROM generated_images")
    out = run_qgis(qgis_env, "evaluate", STORE=bench, FEATURE_MODEL=dino, OUTPUT_FOLDER=tmp_path / "eval")
    assert_qgis_fails_cleanly(out, "no generated panels", "import-generated")
    assert MODEL_LOADED not in out.stdout + out.stderr
    assert_store_ok(bench)


def test_qgis_holdout_larger_than_every_panel(qgis_env, bench, tmp_path, dino):
    out = run_qgis(qgis_env, "evaluate", STORE=bench, FEATURE_MODEL=dino, OUTPUT_FOLDER=tmp_path / "eval",
                   HOLDOUT_SIZE=5)
    assert_qgis_fails_cleanly(out, "Held-out anchor size", "largest reference panel has 5 images")
    assert not (tmp_path / "eval" / MANIFEST).exists()
