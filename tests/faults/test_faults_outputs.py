"""Fault cases of the output-side commands: ``report``, ``export-release``, ``import-release``,
``generate`` and ``import-generated`` (issue 8: every failure is a clear message, nothing
poisons a later run).

Each case runs the real command line in a subprocess (a few run the real ``qgis_process``) and
checks the exit code, a message that names the problem, no traceback, and what is left behind:
no half-written report or release, no store created by a failed import, an existing store
unchanged, and a clean re-run that works once the input is fixed.
"""
from __future__ import annotations

import csv
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from faultkit import (assert_fails_cleanly, assert_no_partial_outputs, assert_qgis_fails_cleanly,
                      assert_store_ok, file_size_limit, run_cli, run_qgis)  # noqa: F401
from release_fixture import make_release

pytestmark = pytest.mark.fault

MANIFEST = "evaluation.manifest.json"
PER_PANEL = "per_panel_scores.csv"
RELEASE_JSON = Path("data/processed/v3/benchmark_v3.json")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tree(folder: Path) -> dict[str, str]:
    """Relative path → sha256 of every file under ``folder``."""
    return {str(p.relative_to(folder)): _sha(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def _ok(out) -> None:
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]


# ====================================================================== report
@pytest.fixture(scope="module")
def evaluation_template(tmp_path_factory) -> Path:
    """A real (small) evaluation folder, written by the evaluate stage's own output code."""
    from eval_fixtures import TableEmbedder, make_store
    from geofidelity_plugin.core.evaluation.evaluate import (EvaluationOptions, evaluate_store,
                                                             evaluation_manifest)
    from geofidelity_plugin.core.evaluation.outputs import write_outputs

    root = tmp_path_factory.mktemp("faults-report")
    store, vectors = make_store(root, per_city=2, refs=5, models=("m1",))
    options = EvaluationOptions(n_bootstrap=20)
    result = evaluate_store(store, TableEmbedder(vectors), options)
    manifest = evaluation_manifest(result, options, store, [{"id": "table-embedder", "label": "Table"}], ["t"])
    write_outputs(root / "evaluation", result, store.segments(), manifest, "m1", "L1")
    store.close()
    return root / "evaluation"


@pytest.fixture
def evaluation(evaluation_template, tmp_path) -> Path:
    folder = tmp_path / "evaluation"
    shutil.copytree(evaluation_template, folder)
    return folder


def _rewrite_csv(path: Path, change) -> None:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    rows = change(rows)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)


def _drop_column(name):
    def change(rows):
        i = rows[0].index(name)
        return [r[:i] + r[i + 1:] for r in rows]
    return change


def _rename_column(old, new):
    def change(rows):
        rows[0][rows[0].index(old)] = new
        return rows
    return change


@pytest.mark.parametrize("breakage,fragments", [
    ("drop_margin_hard", (PER_PANEL, "margin_hard", "evaluate again")),
    ("rename_segment_id", (PER_PANEL, "segment_id", "evaluate again")),
    ("empty", (PER_PANEL, "empty", "evaluate again")),
    ("latin1", (PER_PANEL, "UTF-8", "evaluate again")),
    ("ragged_row", (PER_PANEL, "line 3", "evaluate again")),
    ("deltas_without_mean", ("table_deltas.csv", "mean", "evaluate again")),
])
def test_report_on_a_scores_csv_with_wrong_columns(evaluation_template, evaluation, breakage, fragments):
    per_panel = evaluation / PER_PANEL
    good = per_panel.read_bytes()
    assert b"Alpha" in good
    if breakage == "drop_margin_hard":
        _rewrite_csv(per_panel, _drop_column("margin_hard"))
    elif breakage == "rename_segment_id":
        _rewrite_csv(per_panel, _rename_column("segment_id", "segment"))
    elif breakage == "empty":
        per_panel.write_bytes(b"")
    elif breakage == "latin1":
        per_panel.write_bytes(good.replace(b"Alpha", "Äl\u00e9pha".encode("latin-1")))
    elif breakage == "ragged_row":
        _rewrite_csv(per_panel, lambda rows: rows[:2] + [rows[2] + ["extra", "cells"]] + rows[3:])
    else:
        _rewrite_csv(evaluation / "table_deltas.csv", _drop_column("mean"))
    out = run_cli("report", "--evaluation", evaluation)
    assert_fails_cleanly(out, *fragments)
    assert not (evaluation / "report.html").exists()
    assert not (evaluation / "report_figures").exists()
    assert_no_partial_outputs(evaluation)
    if breakage in ("empty", "rename_segment_id", "ragged_row"):
        return  # the same re-run as the other cases: keep the file fast
    # the fix the message gives: the files as the evaluate stage writes them
    for name in (PER_PANEL, "table_deltas.csv"):
        shutil.copy(evaluation_template / name, evaluation / name)
    _ok(run_cli("report", "--evaluation", evaluation))
    assert (evaluation / "report.html").stat().st_size > 1000


@pytest.mark.parametrize("breakage,fragments", [
    ("no_manifest", (MANIFEST, "incomplete", "run evaluate again")),
    ("staging_left_over", (MANIFEST, "incomplete", "run evaluate again")),
    ("not_an_evaluation", ("not an evaluation folder", MANIFEST, PER_PANEL, "evaluate")),
    ("manifest_not_an_object", (MANIFEST, "run evaluate again")),
])
def test_report_refuses_an_incomplete_or_foreign_folder(evaluation, tmp_path, breakage, fragments):
    folder = evaluation
    if breakage == "no_manifest":
        (evaluation / MANIFEST).unlink()
    elif breakage == "staging_left_over":
        (evaluation / MANIFEST).unlink()
        (evaluation / ".geofidelity-partial-abc123").mkdir()
        (evaluation / ".geofidelity-partial-abc123" / PER_PANEL).write_text("half")
    elif breakage == "not_an_evaluation":
        folder = tmp_path / "photos"
        folder.mkdir()
        (folder / "holiday.jpg").write_bytes(b"jpeg")
    else:
        (evaluation / MANIFEST).write_text("[1, 2, 3]\n")
    out = run_cli("report", "--evaluation", folder)
    assert_fails_cleanly(out, *fragments)
    assert not (folder / "report.html").exists()


def test_report_with_an_unreadable_map_layer_skips_only_the_map(evaluation):
    """A damaged evaluation.gpkg costs the map figure, not the report (and no traceback)."""
    (evaluation / "evaluation.gpkg").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    out = run_cli("report", "--evaluation", evaluation)
    _ok(out)
    text = (evaluation / "report.html").read_text(encoding="utf-8")
    assert "evaluation.gpkg" in text and "Figure skipped" in text
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("where,fragments", [
    ("existing_directory", ("is a folder",)),
    ("under_a_file", ("is a file, not a folder",)),
])
def test_report_out_that_cannot_be_a_file(evaluation, tmp_path, where, fragments):
    if where == "existing_directory":
        target = tmp_path / "taken"
        target.mkdir()
    else:
        (tmp_path / "plain").write_text("x")
        target = tmp_path / "plain" / "report.html"
    out = run_cli("report", "--evaluation", evaluation, "--out", target)
    assert_fails_cleanly(out, str(target), *fragments)
    assert not (tmp_path / "taken" / "report_figures").exists()
    assert not (evaluation / "report_figures").exists()


@pytest.mark.parametrize("earlier_report", [False, True])
def test_report_disk_full_mid_write_leaves_no_partial_report(evaluation, earlier_report):
    if earlier_report:
        _ok(run_cli("report", "--evaluation", evaluation, "--title", "first"))
    before = _tree(evaluation)
    out = run_cli("report", "--evaluation", evaluation, "--title", "second", preexec_fn=file_size_limit(4096))
    assert_fails_cleanly(out, "report", "file size limit")
    assert _tree(evaluation) == before  # no report.html, or the earlier one untouched with its figures
    assert_no_partial_outputs(evaluation)
    _ok(run_cli("report", "--evaluation", evaluation, "--title", "second"))
    assert "second" in (evaluation / "report.html").read_text(encoding="utf-8")


def test_qgis_report_on_a_wrong_columns_csv(qgis_env, evaluation):
    _rewrite_csv(evaluation / PER_PANEL, _drop_column("cos_sim"))
    out = run_qgis(qgis_env, "report", EVALUATION_FOLDER=evaluation, OUTPUT=evaluation / "report.html")
    assert_qgis_fails_cleanly(out, PER_PANEL, "cos_sim", "evaluate again")
    assert not (evaluation / "report.html").exists()


# ====================================================================== export-release
@pytest.fixture
def release_store(tmp_path) -> Path:
    """A store imported (through the core, not the command under test) from a small release."""
    from geofidelity_plugin.core.evaluation.release.release_folder import import_release
    from geofidelity_plugin.core.store.store import BenchmarkStore

    root = make_release(tmp_path / "release")
    with BenchmarkStore(tmp_path / "bench" / "store.sqlite") as store:
        import_release(root, store)
        with store.transaction():  # long prompts: metadata/generated_images.csv grows past 64 kB
            store.db.execute("UPDATE generated_images SET prompt = prompt || ' ' || ?", ("a long prompt " * 200,))
    return tmp_path / "bench" / "store.sqlite"


@pytest.mark.parametrize("where,fragments", [
    ("existing_file", ("is a file",)),
    ("under_a_file", ("is a file, not a folder",)),
])
def test_export_out_that_cannot_be_a_folder(release_store, tmp_path, where, fragments):
    (tmp_path / "plain").write_text("x")
    target = tmp_path / "plain" if where == "existing_file" else tmp_path / "plain" / "release"
    out = run_cli("export-release", "--store", release_store, "--out", target)
    assert_fails_cleanly(out, str(target), *fragments)
    assert (tmp_path / "plain").read_text() == "x"


@pytest.mark.parametrize("earlier_export", [False, True])
def test_export_disk_full_mid_write_publishes_nothing(release_store, tmp_path, earlier_export):
    target = tmp_path / "exported"
    if earlier_export:
        _ok(run_cli("export-release", "--store", release_store, "--out", target))
    before = _tree(target) if target.exists() else {}
    out = run_cli("export-release", "--store", release_store, "--out", target,
                  preexec_fn=file_size_limit(48_000))  # opening the store needs a 32 kB -shm file
    assert_fails_cleanly(out, str(target), "file size limit", "nothing")
    after = _tree(target) if target.exists() else {}
    assert after == before  # no half-written release: no manifest, or the earlier release intact
    if not earlier_export:
        assert not (target / RELEASE_JSON).exists()
    assert_no_partial_outputs(target)
    _ok(run_cli("export-release", "--store", release_store, "--out", target))
    _ok(run_cli("import-release", "--release", target, "--store", tmp_path / "again.sqlite"))
    assert_store_ok(tmp_path / "again.sqlite")


def test_export_with_images_missing_from_the_store_folder(release_store, tmp_path):
    victim = next((tmp_path / "release" / "data/raw/mapillary_v3/b002").glob("*.jpg"))
    victim.unlink()
    out = run_cli("export-release", "--store", release_store, "--out", tmp_path / "exported")
    assert_fails_cleanly(out, "1 image", victim.name, "nothing was exported")
    assert not (tmp_path / "exported" / RELEASE_JSON).exists()
    assert_no_partial_outputs(tmp_path / "exported")


# ====================================================================== import-release
def _break_release(root: Path, breakage: str) -> None:
    manifest = root / RELEASE_JSON
    if breakage == "not_a_release":
        manifest.unlink()
    elif breakage == "json_malformed":
        manifest.write_text(manifest.read_text()[:120])
    elif breakage == "json_without_blocks":
        manifest.write_text(json.dumps({"block": []}))
    elif breakage == "block_without_centroid":
        data = json.loads(manifest.read_text())
        del data["blocks"][1]["centroid"]
        manifest.write_text(json.dumps(data))
    elif breakage == "block_without_city":
        data = json.loads(manifest.read_text())
        data["blocks"][2]["city"] = None
        manifest.write_text(json.dumps(data))
    elif breakage == "reference_csv_without_image_path":
        _rewrite_csv(root / "metadata/reference_images.csv", _drop_column("image_path"))
    elif breakage == "generated_sample_not_a_number":
        _rewrite_csv(root / "metadata/generated_images.csv",
                     lambda rows: rows[:3] + [[("x" if h == "sample_index" else v) for h, v in zip(rows[0], rows[3])]]
                     + rows[4:])
    elif breakage == "images_missing":
        shutil.rmtree(root / "data/raw")
    else:
        raise AssertionError(breakage)


IMPORT_BREAKAGES = [
    ("not_a_release", (str(RELEASE_JSON), "release")),
    ("json_malformed", (str(RELEASE_JSON), "not valid JSON")),
    ("json_without_blocks", (str(RELEASE_JSON), "'blocks'")),
    ("block_without_centroid", ("b002", "centroid")),
    ("block_without_city", ("b003", "city")),
    ("reference_csv_without_image_path", ("reference_images.csv", "image_path")),
    ("generated_sample_not_a_number", ("generated_images.csv", "line 4", "sample_index")),
    ("images_missing", ("data/raw/mapillary_v3", "missing")),
]


@pytest.mark.parametrize("breakage,fragments", IMPORT_BREAKAGES)
def test_failed_import_leaves_no_store(tmp_path, breakage, fragments):
    root = make_release(tmp_path / "release")
    pristine = tmp_path / "pristine"
    shutil.copytree(root, pristine)
    _break_release(root, breakage)
    store_dir = tmp_path / "stores"
    store_dir.mkdir()
    out = run_cli("import-release", "--release", root, "--store", store_dir / "bench.sqlite")
    assert_fails_cleanly(out, *fragments)
    assert list(store_dir.iterdir()) == []  # no empty store, no journal, no temporary file
    shutil.rmtree(root)
    pristine.rename(root)
    _ok(run_cli("import-release", "--release", root, "--store", store_dir / "bench.sqlite"))
    assert_store_ok(store_dir / "bench.sqlite")


def test_import_from_a_missing_release_root(tmp_path):
    store = tmp_path / "bench.sqlite"
    out = run_cli("import-release", "--release", tmp_path / "nowhere", "--store", store)
    assert_fails_cleanly(out, str(tmp_path / "nowhere"), "not found", str(RELEASE_JSON))
    assert list(tmp_path.iterdir()) == []


def test_failed_import_never_touches_an_existing_store(tmp_path):
    root = make_release(tmp_path / "release")
    store = tmp_path / "bench.sqlite"
    _ok(run_cli("import-release", "--release", root, "--store", store))
    before = _sha(store)
    _break_release(root, "block_without_centroid")
    out = run_cli("import-release", "--release", root, "--store", store)
    assert_fails_cleanly(out, "centroid")
    assert _sha(store) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.sqlite", "release"]
    assert_store_ok(store)


@pytest.mark.parametrize("country", ["FIN", 246, None])
def test_import_with_odd_country_values_does_not_crash(tmp_path, country):
    root = make_release(tmp_path / "release")
    manifest = root / RELEASE_JSON
    data = json.loads(manifest.read_text())
    data["blocks"][0]["country"] = country
    manifest.write_text(json.dumps(data))
    _ok(run_cli("import-release", "--release", root, "--store", tmp_path / "bench.sqlite"))
    assert_store_ok(tmp_path / "bench.sqlite")


def test_import_store_path_under_a_file(tmp_path):
    root = make_release(tmp_path / "release")
    (tmp_path / "plain").write_text("x")
    out = run_cli("import-release", "--release", root, "--store", tmp_path / "plain" / "bench.sqlite")
    assert_fails_cleanly(out, "is a file, not a folder")


def test_qgis_import_release_from_a_missing_root(qgis_env, tmp_path):
    missing = tmp_path / "no-release"
    store = tmp_path / "stores" / "bench.sqlite"
    out = run_qgis(qgis_env, "import_release", RELEASE_ROOT=missing, STORE=store)
    assert_qgis_fails_cleanly(out, str(missing), "not found", str(RELEASE_JSON))
    assert not store.exists() and not list(tmp_path.rglob("*.sqlite*"))


def test_qgis_import_release_not_a_release(qgis_env, tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    store = tmp_path / "bench.sqlite"
    out = run_qgis(qgis_env, "import_release", RELEASE_ROOT=folder, STORE=store)
    assert_qgis_fails_cleanly(out, str(RELEASE_JSON), "release")
    assert not list(tmp_path.rglob("*.sqlite*"))


# ====================================================================== generate
SEGMENTS = [{"segment_id": f"hel-{i}", "city": "Helsinki", "country": "Finland", "country_code": "FI",
             "street_name": street, "neighbourhood": hood, "centroid_lon": 24.94 + 0.001 * i,
             "centroid_lat": 60.17 + 0.001 * i}
            for i, (street, hood) in enumerate([("Unioninkatu", "Kluuvi"), ("Annankatu", "Kamppi"),
                                                ("Mikonkatu", "Kluuvi")])]


@pytest.fixture
def gen_store(tmp_path) -> Path:
    from geofidelity_plugin.core.store.store import BenchmarkStore

    with BenchmarkStore(tmp_path / "bench" / "store.sqlite") as store:
        store.put_segments(SEGMENTS)  # generation covers segments with a reference panel only
        store.put_reference_images([{"reference_id": f"{s['segment_id']}:0", "segment_id": s["segment_id"],
                                     "image_path": f"reference/{s['segment_id']}/00.jpg"} for s in SEGMENTS])
    return tmp_path / "bench" / "store.sqlite"


@pytest.fixture
def no_models(tmp_path) -> dict:
    """An environment in which importing torch or diffusers fails loudly: the checks must all
    come before any model is loaded."""
    poison = tmp_path / "poison"
    for name in ("torch", "diffusers"):
        (poison / name).mkdir(parents=True)
        (poison / name / "__init__.py").write_text(f"raise RuntimeError('{name} imported before the checks')\n")
    return {"PYTHONPATH": str(poison)}


@pytest.fixture
def fake_diffusers_folder(tmp_path) -> Path:
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "model_index.json").write_text('{"_class_name": "StableDiffusionPipeline"}')
    return folder


def test_generate_help_says_what_is_accepted():
    out = run_cli("generate", "--help")
    _ok(out)
    text = " ".join(out.stdout.split())
    assert "--custom-folder" in text and "sdxl-base-1.0" in text
    assert "or a hub id" not in text and "/ hub id" not in text


@pytest.mark.parametrize("extra,fragments", [
    (["--generator", "someone/some-model"], ("someone/some-model", "--custom-folder", "download")),
    (["--generator", "dall-e"], ("dall-e", "sdxl-base-1.0", "flux.1-schnell", "hunyuandit-v1.2")),
    (["--generator", "flux.1-schnell", "--steps", "8"], ("--steps", "flux.1-schnell", "--custom-folder")),
    (["--generator", "flux.1-schnell", "--templates", "{L1: nope"], ("prompt templates", "not valid JSON")),
    (["--generator", "flux.1-schnell", "--templates", '["L1"]'], ("prompt templates", "JSON object", "list")),
    (["--generator", "flux.1-schnell", "--templates", '{"L4": "{city}"}'], ("'L4'", "L0, L1, L2")),
    (["--generator", "flux.1-schnell", "--samples", "0"], ("samples", "≥ 1")),
    (["--generator", "mine", "--custom-folder", "{custom}", "--steps", "0"], ("steps", "≥ 1")),
    (["--generator", "mine", "--custom-folder", "{custom}", "--resolution", "1020"], ("multiple of 8", "1020")),
    (["--generator", "mine", "--custom-folder", "{empty}"], ("model_index.json",)),
    (["--generator", "flux.1-schnell", "--out", "{under_file}"], ("is a file, not a folder",)),
])
def test_generate_rejects_bad_options_before_any_model_load(gen_store, no_models, fake_diffusers_folder, tmp_path,
                                                            extra, fragments):
    (tmp_path / "empty").mkdir()
    (tmp_path / "plain").write_text("x")
    fill = {"{custom}": str(fake_diffusers_folder), "{empty}": str(tmp_path / "empty"),
            "{under_file}": str(tmp_path / "plain" / "generations")}
    args = [fill.get(a, a) for a in extra]
    before = _sha(gen_store)
    out = run_cli("generate", "--store", gen_store, "--device", "cpu", *args, env=no_models, timeout=120)
    assert_fails_cleanly(out, *fragments)
    assert "imported before the checks" not in out.stderr
    assert _sha(gen_store) == before
    assert not (gen_store.parent / "generations").exists()


def test_generate_custom_folder_fixed_runs(gen_store, tmp_path):
    """The fix the message gives (a diffusers folder with model_index.json) then generates."""
    from tiny_models import make_tiny_sd

    (tmp_path / "half-copied").mkdir()
    args = ["generate", "--store", gen_store, "--generator", "tiny", "--steps", "2", "--resolution", "32",
            "--samples", "1", "--conditions", "L1", "--device", "cpu", "-q"]
    out = run_cli(*args, "--custom-folder", tmp_path / "half-copied")
    assert_fails_cleanly(out, "model_index.json", str(tmp_path / "half-copied"))
    folder = make_tiny_sd(tmp_path / "tiny-sd")
    _ok(run_cli(*args, "--custom-folder", folder))
    assert len(list((gen_store.parent / "generations" / "tiny" / "L1").rglob("*.jpg"))) == len(SEGMENTS)
    assert_store_ok(gen_store)


# ====================================================================== import-generated
def _images(root: Path, rels) -> None:
    for rel in rels:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (8, 8), (40, 80, 120)).save(path)


def _generated_rows(store: Path) -> int:
    import sqlite3

    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
        return con.execute("SELECT COUNT(*) FROM generated_images").fetchone()[0]


@pytest.mark.parametrize("breakage,fragments", [
    ("missing_folder", ("not found",)),
    ("no_images", ("no images found", "{condition}/{segment_id}/{sample}.jpg")),
    ("unknown_condition_and_segment", ("L7", "ams-404", "not in the benchmark store")),
    ("not_an_image", ("01.jpg", "not an image")),
    ("sidecar_not_utf8", ("prompts.csv", "UTF-8")),
])
def test_import_generated_bad_folder(gen_store, tmp_path, breakage, fragments):
    folder = tmp_path / "made-elsewhere"
    good = ["L1/hel-0/00.jpg", "L1/hel-0/01.jpg", "L0/hel-1/00.jpg"]
    if breakage != "missing_folder":
        folder.mkdir()
    if breakage == "no_images":
        (folder / "L1" / "hel-0").mkdir(parents=True)
        (folder / "L1" / "hel-0" / "notes.txt").write_text("to do")
    elif breakage == "unknown_condition_and_segment":
        _images(folder, good + ["L7/hel-0/00.jpg", "L1/ams-404/00.jpg"])
    elif breakage == "not_an_image":
        _images(folder, good)
        (folder / "L1/hel-0/01.jpg").write_text("<html>404 Not Found</html>")
    elif breakage == "sidecar_not_utf8":
        _images(folder, good)
        (folder / "prompts.csv").write_bytes("segment_id,condition,sample_index,prompt,seed\n"
                                             "hel-0,L1,0,Töölö,1\n".encode("utf-16"))
    out = run_cli("import-generated", "--store", gen_store, "--folder", folder, "--model", "ext")
    assert_fails_cleanly(out, *fragments)
    assert _generated_rows(gen_store) == 0
    assert_store_ok(gen_store)
    # the fix: a folder in the layout the message names
    shutil.rmtree(folder, ignore_errors=True)
    _images(folder, good)
    out = run_cli("import-generated", "--store", gen_store, "--folder", folder, "--model", "ext")
    _ok(out)
    assert _generated_rows(gen_store) == 3
