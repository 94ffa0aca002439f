"""More fault cases of the output-side commands (``report``, ``export-release``, ``import-release``,
``generate``, ``import-generated``): outputs that are inputs, devices checked before any model
load, stores with nothing to export, and panels that must never mix two runs (docs/method.md,
"Errors and exit codes").

Fixtures and helpers come from :mod:`test_faults_outputs`; every case checks the exit code, a
message naming the problem, no traceback, what is left behind, and a clean re-run.
"""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from faultkit import (assert_fails_cleanly, assert_no_partial_outputs, assert_qgis_fails_cleanly,
                      assert_store_ok, run_cli, run_qgis)
from test_faults_outputs import (MANIFEST, PER_PANEL, _images, _ok, _rewrite_csv, _sha, _tree,  # noqa: F401
                                 evaluation, evaluation_template, gen_store)
from release_fixture import make_release

pytestmark = pytest.mark.fault


# ====================================================================== report
@pytest.mark.parametrize("name", [PER_PANEL, MANIFEST, "table_deltas.csv", "evaluation.gpkg", "via_symlink"])
def test_report_out_that_is_a_file_of_the_evaluation(evaluation, tmp_path, name):
    """Item 6: the report must never replace what evaluate wrote (also through a link)."""
    if name == "via_symlink":
        target = tmp_path / "elsewhere.html"
        target.symlink_to(evaluation / PER_PANEL)
    else:
        target = evaluation / name
    before = _tree(evaluation)
    out = run_cli("report", "--evaluation", evaluation, "--out", target)
    assert_fails_cleanly(out, str(target), "the evaluation's own file", "must not replace an input")
    assert _tree(evaluation) == before  # nothing replaced, no report_figures beside it
    assert not (tmp_path / "report_figures").exists()
    assert_no_partial_outputs(evaluation)
    if name in (PER_PANEL, "via_symlink"):  # the fix: report.html in the folder stays allowed
        _ok(run_cli("report", "--evaluation", evaluation, "--out", evaluation / "report.html"))
        assert (evaluation / PER_PANEL).read_bytes().startswith(b"model,")


def test_qgis_report_out_that_is_the_scores_csv(qgis_env, evaluation):
    before = _sha(evaluation / PER_PANEL)
    out = run_qgis(qgis_env, "report", EVALUATION_FOLDER=evaluation, OUTPUT=evaluation / PER_PANEL)
    assert_qgis_fails_cleanly(out, PER_PANEL, "the evaluation's own file")
    assert _sha(evaluation / PER_PANEL) == before and not (evaluation / "report_figures").exists()


def test_report_without_evaluation_gpkg_warns_and_skips_only_the_map(evaluation):
    """Item 25 (decided: a warning): the tables and other figures do not need the layer."""
    gpkg = evaluation / "evaluation.gpkg"
    kept = gpkg.read_bytes()
    gpkg.unlink()
    out = run_cli("report", "--evaluation", evaluation)
    _ok(out)
    assert "warning: evaluation.gpkg is missing, the map figure is skipped — run evaluate again" in out.stderr
    assert "Traceback" not in out.stderr and "segment_scores" not in out.stderr
    page = (evaluation / "report.html").read_text(encoding="utf-8")
    assert "Figure skipped: evaluation.gpkg is missing" in page and "Missing from the folder" in page
    assert (evaluation / "report_figures" / "margins.png").is_file()
    assert not (evaluation / "report_figures" / "city_maps.png").exists()
    gpkg.write_bytes(kept)  # the fix: the layer back (as evaluate writes it) brings the map back
    out = run_cli("report", "--evaluation", evaluation)
    _ok(out)
    assert "warning" not in out.stderr and (evaluation / "report_figures" / "city_maps.png").is_file()


def _set_cell(path: Path, line: int, column: str, value: str) -> None:
    def change(rows):
        rows[line - 1][rows[0].index(column)] = value
        return rows
    _rewrite_csv(path, change)


@pytest.mark.parametrize("name,column,value", [
    (PER_PANEL, "cos_sim", "abc"),
    (PER_PANEL, "margin_hard", "0,42"),
    ("table_deltas.csv", "low", "n/a"),
])
def test_report_text_in_a_numeric_column(evaluation, name, column, value):
    """Item 34 (decided: an error naming file, line and column; an empty cell is allowed)."""
    _set_cell(evaluation / name, 3, column, value)
    out = run_cli("report", "--evaluation", evaluation)
    assert_fails_cleanly(out, name, "line 3", f"column {column}", repr(value), "not a number", "leave it empty")
    assert not (evaluation / "report.html").exists() and not (evaluation / "report_figures").exists()
    assert_no_partial_outputs(evaluation)
    _set_cell(evaluation / name, 3, column, "")  # the fix the message gives
    _ok(run_cli("report", "--evaluation", evaluation))
    assert (evaluation / "report.html").is_file()


@pytest.mark.parametrize("name", [MANIFEST, PER_PANEL])
def test_report_given_a_file_of_the_folder(evaluation, name):
    out = run_cli("report", "--evaluation", evaluation / name)
    message = assert_fails_cleanly(out, f"give the evaluation folder {evaluation}", "not a file in it")
    assert "run the evaluate stage first" not in message
    assert not (evaluation / "report.html").exists()


# ====================================================================== export-release
@pytest.mark.parametrize("content,fragments", [
    ("nothing", ("has no segments", "nothing to export")),
    ("segments_only", ("no reference images", "nothing to export")),
])
def test_export_of_a_store_with_nothing_to_export(tmp_path, content, fragments):
    """Item 30: an empty release that import-release would refuse is never written."""
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from test_faults_outputs import SEGMENTS

    store = tmp_path / "bench" / "store.sqlite"
    with BenchmarkStore(store) as s:
        if content == "segments_only":
            s.put_segments(SEGMENTS)
    before = _sha(store)
    target = tmp_path / "exported"
    out = run_cli("export-release", "--store", store, "--out", target)
    assert_fails_cleanly(out, str(store), *fragments)
    assert not target.exists()
    assert _sha(store) == before
    assert_store_ok(store)


# ====================================================================== import-release
def test_import_release_negative_seed_everywhere(tmp_path, qgis_env):
    """Item 9: the CLI, the core and Processing all refuse a negative seed, naming it."""
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into

    root = make_release(tmp_path / "release")
    store = tmp_path / "stores" / "bench.sqlite"
    assert_fails_cleanly(run_cli("import-release", "--release", root, "--store", store, "--seed", "-1"),
                         "--seed", "≥ 0")
    with pytest.raises(InputError) as err:
        import_release_into(root, store, -1)
    assert "seed" in str(err.value) and "-1" in str(err.value) and "≥ 0" in str(err.value)
    out = run_qgis(qgis_env, "import_release", RELEASE_ROOT=root, STORE=store, SEED=-1)
    assert_qgis_fails_cleanly(out, "--seed", "≥ 0", "-1")  # the backend's check: the store is never opened
    assert not list(tmp_path.rglob("*.sqlite*"))  # no store, no journal
    _ok(run_cli("import-release", "--release", root, "--store", store, "--seed", "0"))
    assert_store_ok(store)


# ====================================================================== generate
def _poisoned_diffusers(tmp_path: Path) -> dict:
    """diffusers fails loudly when imported: the device check must come before any pipeline load
    (torch itself may be imported, to ask it about CUDA)."""
    poison = tmp_path / "poison"
    (poison / "diffusers").mkdir(parents=True)
    (poison / "diffusers" / "__init__.py").write_text("raise RuntimeError('diffusers imported before the checks')\n")
    return {"PYTHONPATH": str(poison)}


@pytest.mark.parametrize("device,fragments", [
    ("quantum", ("unknown device 'quantum'", "cpu, cuda")),
    ("cuda:99", ("'cuda:99'", "cpu")),  # no machine has 100 GPUs; a CPU-only PyTorch says it has none
])
def test_generate_unusable_device_before_any_load(gen_store, tmp_path, device, fragments):
    """Items 10 and 11."""
    before = _sha(gen_store)
    out = run_cli("generate", "--store", gen_store, "--generator", "flux.1-schnell", "--device", device,
                  env=_poisoned_diffusers(tmp_path), timeout=120)
    assert_fails_cleanly(out, *fragments)
    assert "imported before the checks" not in out.stderr
    assert _sha(gen_store) == before
    assert not (gen_store.parent / "generations").exists()
    assert_store_ok(gen_store)


def test_qgis_generate_unknown_device(qgis_env, gen_store):
    before = _sha(gen_store)
    out = run_qgis(qgis_env, "generate_panels", STORE=gen_store, GENERATOR=0, DEVICE="quantum")
    assert_qgis_fails_cleanly(out, "unknown device 'quantum'")
    assert _sha(gen_store) == before and not (gen_store.parent / "generations").exists()


def _panels(store: Path) -> dict[tuple, list[tuple]]:
    """(model, condition, segment) → [(sample, image_path, steps)] as recorded."""
    import json

    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT model, condition, segment_id, sample_index, image_path, prompt_meta "
                           "FROM generated_images ORDER BY 1, 2, 3, 4").fetchall()
    out: dict[tuple, list[tuple]] = {}
    for model, condition, segment, sample, path, meta in rows:
        steps = json.loads(meta or "{}").get("generation", {}).get("steps")
        out.setdefault((model, condition, segment), []).append((sample, path, steps))
    return out


def test_generate_again_with_other_settings_never_mixes_a_panel(gen_store, tmp_path):
    """A re-run with other settings and fewer samples replaces whole panels (no leftover sample
    of the earlier run), and files of the earlier run no record points to are removed."""
    from tiny_models import make_tiny_sd

    folder = make_tiny_sd(tmp_path / "tiny-sd")
    args = ["generate", "--store", gen_store, "--generator", "tiny", "--custom-folder", folder, "--resolution", "32",
            "--conditions", "L1", "--device", "cpu", "-q"]
    _ok(run_cli(*args, "--steps", "2", "--samples", "2"))
    assert {k: [s for s, _, steps in v if steps == 2] for k, v in _panels(gen_store).items()} == {
        ("tiny", "L1", f"hel-{i}"): [0, 1] for i in range(3)}
    refused = run_cli(*args, "--steps", "3", "--samples", "1")  # other settings: refused, naming the field
    assert_fails_cleanly(refused, "steps 2 → 3", "--force")
    _ok(run_cli(*args, "--steps", "3", "--samples", "1", "--force"))
    panels = _panels(gen_store)
    assert sorted(panels) == [("tiny", "L1", f"hel-{i}") for i in range(3)]
    assert all([(s, steps) for s, _, steps in rows] == [(0, 3)] for rows in panels.values()), panels
    made = sorted(p.relative_to(gen_store.parent).as_posix() for p in (gen_store.parent / "generations").rglob("*.jpg"))
    assert made == [f"generations/tiny/L1/hel-{i}/00.jpg" for i in range(3)]
    assert_store_ok(gen_store)
    out = run_cli(*args, "--steps", "3", "--samples", "1")  # the same settings again: all kept
    _ok(out)
    assert "0 images generated, 3 kept" in out.stdout


# ====================================================================== import-generated
def _imported(store: Path) -> dict[tuple, list[tuple]]:
    return {k: [(s, Path(p).parent.parent.parent.name) for s, p, _ in v] for k, v in _panels(store).items()}


@pytest.mark.parametrize("earlier", ["imported", "generated"])
def test_import_generated_over_existing_panels(gen_store, tmp_path, earlier):
    """Item 31: refused (naming how many panels, and some), then replaced whole with --replace."""
    from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage

    first, second = tmp_path / "first", tmp_path / "second"
    _images(first, [f"L1/hel-0/{s:02d}.jpg" for s in range(4)] + ["L0/hel-1/00.jpg", "L0/hel-1/01.jpg"])
    if earlier == "imported":
        _ok(run_cli("import-generated", "--store", gen_store, "--folder", first, "--model", "ext"))
    else:  # the same panels made by `generate` under that model name
        with BenchmarkStore(gen_store) as store:
            store.put_generated([GeneratedImage("ext", c, s, int(p.stem), str(p), seed=7, origin="generated")
                                 for p in sorted(first.rglob("*.jpg")) for c, s in [p.parts[-3:-1]]])
    _ok(run_cli("import-generated", "--store", gen_store, "--folder", first, "--model", "ext"))  # same files: no change
    recorded = _imported(gen_store)
    _images(second, ["L1/hel-0/00.jpg", "L1/hel-0/01.jpg", "L1/hel-2/00.jpg"])
    out = run_cli("import-generated", "--store", gen_store, "--folder", second, "--model", "ext")
    assert_fails_cleanly(out, "already has images of ext for 1 of the 2 panel(s)", "ext/L1/hel-0", "4 earlier images",
                         "--replace", "nothing was imported")
    assert _imported(gen_store) == recorded
    assert_store_ok(gen_store)
    _ok(run_cli("import-generated", "--store", gen_store, "--folder", second, "--model", "ext", "--replace"))
    after = _imported(gen_store)
    assert after[("ext", "L1", "hel-0")] == [(0, "second"), (1, "second")]  # whole panel replaced, no sample 2, 3
    assert after[("ext", "L1", "hel-2")] == [(0, "second")]
    assert after[("ext", "L0", "hel-1")] == [(0, "first"), (1, "first")]  # other panels untouched
    assert_store_ok(gen_store)


def test_qgis_import_generated_over_existing_panels(qgis_env, gen_store, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    _images(first, [f"L1/hel-0/{s:02d}.jpg" for s in range(3)])
    _images(second, ["L1/hel-0/00.jpg"])
    _ok(run_cli("import-generated", "--store", gen_store, "--folder", first, "--model", "ext"))
    out = run_qgis(qgis_env, "import_generated", STORE=gen_store, FOLDER=second, MODEL_NAME="ext")
    assert_qgis_fails_cleanly(out, "ext/L1/hel-0", "Replace existing panels")
    assert _imported(gen_store)[("ext", "L1", "hel-0")] == [(0, "first"), (1, "first"), (2, "first")]
    out = run_qgis(qgis_env, "import_generated", STORE=gen_store, FOLDER=second, MODEL_NAME="ext", REPLACE="true")
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert _imported(gen_store)[("ext", "L1", "hel-0")] == [(0, "second")]
    assert_store_ok(gen_store)
