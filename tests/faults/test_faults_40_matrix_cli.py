"""The fault matrix's sample through the real commands (issue 40; docs/method.md, "Errors and exit
codes"): a few generated variants of each input kind — drawn by hypothesis with a fixed seed, one
per kind of damage named below — run through ``python -m geofidelity_plugin`` in a subprocess.

Each case first asks the product's reader in-process for its verdict, then runs the command: a
refused input gives exit 2 and the same message (file, line, column, fix), never a traceback; an
accepted one gives the correct result (the rows an independent parse finds: imported, scored or
reported) or, where the sample has no later input to give (no OSM file, no store), the error
about that later input — never one about the table. The input folder comes out byte for byte.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from faultkit import no_traceback, run_cli
from geofidelity_plugin.core.errors import InputError
from matrix_counts import record, register
from matrix_inputs import TableKind, folder_hashes, json_variant, oracle_rows, table_variant
from matrix_kinds import AUDIT, CITY, SIDECAR, answers_kind, make_evaluation, release_kind, table_rows

pytestmark = pytest.mark.fault

ONE = settings(max_examples=1, derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", autouse=True)
def _counts(request):
    register(request.config)


def _verdict(read, path: Path) -> str | None:
    """The reader's refusal, or None when it reads the file."""
    try:
        read(path)
    except InputError as exc:
        return str(exc)
    return None


def _case(kind: str, read, path: Path, inputs: Path, command, accepted) -> None:
    """Run ``command()`` on the variant already written to ``path``; ``accepted(out)`` checks the
    result of a file the reader reads."""
    refusal = _verdict(read, path)
    before = folder_hashes(inputs)
    out = command()
    text = out.stdout + out.stderr
    assert no_traceback(text), text[-3000:]
    if refusal is not None:
        assert out.returncode == 2, f"exit {out.returncode}; the reader refuses: {refusal}\n{text[-2000:]}"
        assert refusal[:120] in out.stderr, f"the CLI says something else than the reader:\n{refusal}\n{out.stderr}"
    else:
        accepted(out)
    assert folder_hashes(inputs) == before, "an input file was changed"
    record(kind, "cli")


def _error_line(out) -> str:
    return next((line for line in out.stderr.splitlines() if line.startswith("error:")), "")


# tables -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("damage", ["bad_byte", "ragged_more", "bad_enum", "crlf"])
def test_select_segments_city_table(tmp_path_factory, damage):
    from geofidelity_plugin.core.selection.cities import read_city_table

    @given(variant=table_variant(CITY, (damage,)))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-city")
        path = folder / "in" / "cities.csv"
        path.parent.mkdir()
        path.write_bytes(variant.data)
        osm = folder / "roads.osm.pbf"  # absent: an accepted table gets as far as the OSM file

        def accepted(out):
            assert out.returncode == 2 and "OSM file not found" in _error_line(out), out.stderr[-2000:]
            assert str(path) not in _error_line(out)

        _case("city table", lambda p: read_city_table(p, warn=lambda _: None), path, path.parent,
              lambda: run_cli("select-segments", "--cities", path, "--osm", osm, "--out", folder / "o" / "s.gpkg",
                              "-q"), accepted)

    run()


@pytest.mark.parametrize("damage", ["dup_row", "bad_enum", "bom"])
def test_geodiv_answers(tmp_path_factory, damage):
    from geofidelity_plugin.core.geodiv import questions as qs
    from geofidelity_plugin.core.geodiv.answers import read_answers_csv

    kind = answers_kind("m1")

    @given(variant=table_variant(kind, (damage,)))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-answers")
        path = folder / "in" / "answers.csv"
        path.parent.mkdir()
        path.write_bytes(variant.data)

        def accepted(out):
            assert out.returncode == 0, out.stderr[-2000:]
            written = oracle_rows((folder / "out" / "geodiv_answers.csv").read_bytes())
            assert len(written) == len(oracle_rows(variant.data)), "answers were dropped"

        _case("answers file", lambda p: read_answers_csv(p, ("model",), qs.load()), path, path.parent,
              lambda: run_cli("geodiv", "--answers", path, "--group-by", "model", "--out", folder / "out"), accepted)

    run()


@pytest.mark.parametrize("damage", ["contradict_row", "nul", "header_only"])
def test_curate_audit_csv(tmp_path_factory, damage):
    from geofidelity_plugin.core.reference_panels.curation.audit_csv import read_audit_csv

    @given(variant=table_variant(AUDIT, (damage,)))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-audit")
        path = folder / "in" / "audit.csv"
        path.parent.mkdir()
        path.write_bytes(variant.data)

        def accepted(out):  # no store: a good audit gets as far as the store
            assert out.returncode == 2 and "benchmark store not found" in _error_line(out), out.stderr[-2000:]

        _case("audit CSV", read_audit_csv, path, path.parent,
              lambda: run_cli("curate", "--store", folder / "none.sqlite", "--audit-csv", path, "--siglip-model", "",
                              "--vistas-model", "", "-q"), accepted)

    run()


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    from release_fixture import make_release

    return make_release(tmp_path_factory.mktemp("cli-release") / "release")


@pytest.mark.parametrize("name,damage", [("reference_images.csv", "dup_row"), ("reference_images.csv", "bad_number"),
                                         ("reference_images.csv", "blank_lines"),
                                         ("generated_images.csv", "bad_enum"), ("generated_images.csv", "cr")])
def test_import_release_metadata(release, tmp_path_factory, name, damage):
    from geofidelity_plugin.core.evaluation.release.release_folder import import_release
    from geofidelity_plugin.core.store.store import BenchmarkStore

    kind = release_kind(release, name)

    @given(variant=table_variant(kind, (damage,)))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-release")
        root = folder / "release"
        shutil.copytree(release, root)
        path = root / "metadata" / name
        path.write_bytes(variant.data)

        def read(_):
            with BenchmarkStore(folder / "probe.sqlite") as store:
                return import_release(root, store)

        def accepted(out):
            assert out.returncode == 0, out.stderr[-2000:]
            count = "reference_images" if name.startswith("reference") else "generated_images"
            assert f"{count}: {len(oracle_rows(variant.data))}" in out.stdout, out.stdout

        _case(name, read, path, root, lambda: run_cli("import-release", "--release", root, "--store",
                                                      folder / "bench" / "store.sqlite"), accepted)

    run()


@pytest.fixture(scope="module")
def bench(release, tmp_path_factory) -> Path:
    """A store of the release's blocks (b001 …), for the imported images."""
    store = tmp_path_factory.mktemp("cli-bench") / "store.sqlite"
    out = run_cli("import-release", "--release", release, "--store", store)
    assert out.returncode == 0, out.stderr[-2000:]
    return store


@pytest.mark.parametrize("damage", ["quote_open", "bad_number", "crlf"])
def test_import_generated_sidecar(bench, tmp_path_factory, damage):
    from PIL import Image

    from geofidelity_plugin.core.generation.import_folder import _read_sidecar

    kind = SIDECAR

    @given(variant=table_variant(kind, (damage,)))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-sidecar")
        store = folder / "store.sqlite"
        shutil.copy(bench, store)
        images = folder / "made-elsewhere"
        for segment, condition, sample, *_ in kind.rows:
            path = images / condition / segment / f"{int(sample):02d}.jpg"
            path.parent.mkdir(parents=True, exist_ok=True)
            Image.new("RGB", (8, 8), (40, 80, 120)).save(path)
        sidecar = images / "prompts.csv"
        sidecar.write_bytes(variant.data)

        def accepted(out):
            assert out.returncode == 0, out.stderr[-2000:]
            with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
                stored = {(c, s, i, p) for c, s, i, p in con.execute(
                    "SELECT condition, segment_id, sample_index, prompt FROM generated_images")}
            listed = {(r["condition"], r["segment_id"], int(r["sample_index"]), r["prompt"] or None)
                      for r in oracle_rows(variant.data)}
            assert listed <= stored, f"sidecar rows not recorded: {listed - stored}"

        _case("prompts.csv", lambda p: _read_sidecar(p, "ext"), sidecar, images,
              lambda: run_cli("import-generated", "--store", store, "--folder", images, "--model", "ext"), accepted)

    run()


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory) -> Path:
    return make_evaluation(tmp_path_factory.mktemp("cli-evaluation"))


@pytest.mark.parametrize("damage", ["ragged_less", "bad_number", "bom"])
def test_report_per_panel_scores(evaluation, tmp_path_factory, damage):
    from geofidelity_plugin.core.report.evaluation_folder import PER_PANEL, load_evaluation

    header, rows = table_rows(evaluation / PER_PANEL)
    kind = TableKind(PER_PANEL, header, rows, numbers=("cos_sim", "top1", "margin_hard"), text="city")

    @given(variant=table_variant(kind, (damage,)))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-report") / "evaluation"
        shutil.copytree(evaluation, folder)
        (folder / PER_PANEL).write_bytes(variant.data)
        inputs = {p: p.read_bytes() for p in folder.iterdir() if p.is_file()}

        def accepted(out):
            assert out.returncode == 0 and (folder.parent / "report.html").is_file(), out.stderr[-2000:]

        _case(f"{PER_PANEL} (report)", lambda p: load_evaluation(p.parent), folder / PER_PANEL, folder,
              lambda: run_cli("report", "--evaluation", folder, "--out", folder.parent / "report.html"), accepted)
        assert all(p.read_bytes() == data for p, data in inputs.items())

    run()


# JSON: an option value and a question set ------------------------------------------------------

@pytest.mark.parametrize("damage", ["dup_key", "list"])
def test_road_classes_option(tmp_path_factory, damage):
    folder = tmp_path_factory.mktemp("cli-road-classes")
    cities = folder / "cities.csv"
    cities.write_text("name,country,country_code,lon,lat\nHelsinki,Finland,FI,24.94,60.17\n", encoding="utf-8")
    base = {"main": ["primary", "trunk"], "small": ["residential"]}

    @given(variant=json_variant(base).filter(lambda v: v[0] == damage))
    @ONE
    def run(variant):
        label, raw, refuse = variant
        out = run_cli("select-segments", "--cities", cities, "--osm", folder / "none.osm.pbf", "--out",
                      folder / "o" / "s.gpkg", f"--road-classes={raw.decode('utf-8')}")
        assert no_traceback(out.stdout + out.stderr) and out.returncode == 2, out.stderr[-2000:]
        assert "argument --road-classes" in out.stderr and "road class" in out.stderr, out.stderr[-2000:]
        record("road classes (--road-classes)", "cli")

    run()


@pytest.mark.parametrize("damage", ["dup_key", "bom"])
def test_geodiv_question_set(tmp_path_factory, damage):
    from geofidelity_plugin.core.geodiv import questions as qs
    from geofidelity_plugin.core.geodiv.questions import default_path

    from matrix_inputs import write_rows

    kind = answers_kind("m1")

    @given(variant=json_variant(json.loads(default_path().read_text(encoding="utf-8"))).filter(
        lambda v: v[0] == damage))
    @ONE
    def run(variant):
        folder = tmp_path_factory.mktemp("cli-questions")
        (folder / "in").mkdir()
        questions, answers = folder / "in" / "questions.json", folder / "in" / "answers.csv"
        questions.write_bytes(variant[1])
        answers.write_bytes(write_rows(kind.base()))

        def accepted(out):
            assert out.returncode == 0, out.stderr[-2000:]

        _case("question set", qs.load, questions, folder / "in",
              lambda: run_cli("geodiv", "--questions", questions, "--answers", answers, "--group-by", "model",
                              "--out", folder / "out"), accepted)

    run()
