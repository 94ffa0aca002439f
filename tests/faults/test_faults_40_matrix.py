"""A generative fault matrix over every table and JSON document the product reads (issue 40;
docs/method.md, "Errors and exit codes").

For each input kind, hypothesis (fixed seed: ``derandomize=True``) draws malformed variants of a
valid base file — bytes that are not UTF-8 at random offsets, BOMs, UTF-16, NUL bytes, ragged rows,
a column twice, a key twice (agreeing or contradicting), empty and header-only files, values
outside an enumeration, text in a number column, very long cells, CRLF and CR line ends, quotes
left open, truncation — and feeds each to the product's own reader in-process. The invariant:
either one :class:`InputError` that names the file (the line and column where the fault lies)
and a fix, or the same rows an independent parse of the bytes finds. Never another exception,
never a row dropped, never an input file changed. ``test_faults_40_matrix_cli.py`` runs a sample
of the same variants through the real commands. The counts per kind are printed at the end of
the run (``matrix_counts``).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geofidelity_plugin.core.errors import InputError
from matrix_counts import record, register
from matrix_inputs import (TableKind, Variant, assert_refusal, folder_hashes, json_variant, oracle_rows,
                           table_variant)
from matrix_kinds import (AUDIT, CITY, GROUPS, SIDECAR, answers_kind, import_release_into, make_evaluation,
                          release_kind, table_rows)

pytestmark = pytest.mark.fault

#: generated cases per kind through the reader (the CLI sample is apart): the whole module runs in
#: well under a minute on two cores
EXAMPLES = 200
MATRIX = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                         HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def _counts(request):
    register(request.config)


def check_table(kind: TableKind, variant: Variant, path: Path, read, inputs: Path, compare: bool = True) -> None:
    """Write ``variant`` to ``path``, read it with ``read`` (returns the rows or a count) and hold
    it to the invariant; ``inputs``: the folder whose files must come out unchanged."""
    path.write_bytes(variant.data)
    before = folder_hashes(inputs)
    try:
        result = read(path)
    except InputError as exc:
        assert variant.refuse is not False, f"{variant.label}: a good file was refused: {exc}"
        assert_refusal(str(exc), path, variant)
    else:
        assert variant.refuse is not True, f"{variant.label}: read although it must be refused: {result!r:.300}"
        expected = [] if kind.empty_ok and variant.label == "empty" else \
            oracle_rows(variant.data, kind.legacy, pads=kind.pads)
        assert expected is not None, f"{variant.label}: read although no honest parse reads it"
        count = result if isinstance(result, int) else len(result)
        assert count == len(expected), f"{variant.label}: {count} rows read, {len(expected)} in the file"
        if compare and not isinstance(result, int) and not kind.legacy:
            assert [dict(r) for r in result] == expected, f"{variant.label}: other rows than the file holds"
    assert folder_hashes(inputs) == before, f"{variant.label}: an input file was changed"
    record(kind.name)


@given(data=st.data())
@MATRIX
def test_city_table(tmp_path_factory, data):
    from geofidelity_plugin.core.selection.cities import read_city_table

    folder = tmp_path_factory.mktemp("city")
    check_table(CITY, data.draw(table_variant(CITY)), folder / "cities.csv",
                lambda p: len(read_city_table(p, warn=lambda _: None)), folder)


@given(data=st.data())
@MATRIX
def test_audit_csv(tmp_path_factory, data):
    from geofidelity_plugin.core.reference_panels.curation.audit_csv import read_audit_csv

    folder = tmp_path_factory.mktemp("audit")
    check_table(AUDIT, data.draw(table_variant(AUDIT)), folder / "audit.csv", lambda p: len(read_audit_csv(p)), folder)


@given(data=st.data())
@MATRIX
def test_prompts_sidecar(tmp_path_factory, data):
    from geofidelity_plugin.core.generation.import_folder import _read_sidecar

    folder = tmp_path_factory.mktemp("sidecar")
    check_table(SIDECAR, data.draw(table_variant(SIDECAR)), folder / "prompts.csv",
                lambda p: len(_read_sidecar(p, "ext")), folder)


@given(data=st.data())
@MATRIX
def test_geodiv_answers(tmp_path_factory, data):
    from geofidelity_plugin.core.geodiv import questions as qs
    from geofidelity_plugin.core.geodiv.answers import read_answers_csv

    kind = answers_kind()
    folder = tmp_path_factory.mktemp("answers")
    check_table(kind, data.draw(table_variant(kind)), folder / "answers.csv",
                lambda p: read_answers_csv(p, (), qs.load()), folder)


@given(data=st.data())
@MATRIX
def test_geodiv_report_table(tmp_path_factory, data):
    from geofidelity_plugin.core.report.geodiv import _read

    folder = tmp_path_factory.mktemp("geodiv")
    check_table(GROUPS, data.draw(table_variant(GROUPS)), folder / "geodiv_groups.csv", _read, folder)


# the release: metadata tables and manifest ------------------------------------------------------

@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    from release_fixture import make_release

    return make_release(tmp_path_factory.mktemp("matrix-release") / "release")


@pytest.mark.parametrize("name,count", [("reference_images.csv", "reference_images"),
                                        ("generated_images.csv", "generated_images")])
def test_release_metadata(release, tmp_path_factory, name, count):
    kind = release_kind(release, name)
    path = release / "metadata" / name
    good = path.read_bytes()

    @given(data=st.data())
    @settings(MATRIX, max_examples=EXAMPLES // 2)
    def run(data):
        variant = data.draw(table_variant(kind))
        try:
            check_table(kind, variant, path,
                        lambda p: import_release_into(release, tmp_path_factory.mktemp("store"))[count], release)
        finally:
            path.write_bytes(good)

    run()


# the evaluation folder a report reads back ------------------------------------------------------

@pytest.fixture(scope="module")
def evaluation(tmp_path_factory) -> Path:
    return make_evaluation(tmp_path_factory.mktemp("matrix-evaluation"))


@pytest.mark.parametrize("reader", ["report", "inspector"])
def test_per_panel_scores(evaluation, tmp_path_factory, reader):
    from geofidelity_plugin.core.inspect.scores_index import ScoresIndex
    from geofidelity_plugin.core.report.evaluation_folder import PER_PANEL, load_evaluation

    header, rows = table_rows(evaluation / PER_PANEL)
    kind = TableKind(f"per_panel_scores.csv ({reader})", header, rows, numbers=("cos_sim", "top1", "margin_hard"),
                     text="city", rows_required=reader == "report")

    def read(path: Path):
        if reader == "report":
            return len(load_evaluation(path.parent).rows)
        index = ScoresIndex(path.parent)
        index.rows("")
        return sum(len(v) for v in index._by_segment.values())

    @given(data=st.data())
    @settings(MATRIX, max_examples=EXAMPLES // 2)
    def run(data):
        folder = tmp_path_factory.mktemp("evaluation")
        shutil.copytree(evaluation, folder, dirs_exist_ok=True)
        check_table(kind, data.draw(table_variant(kind)), folder / PER_PANEL, read, folder)

    run()


# JSON documents and JSON option values ----------------------------------------------------------

def _templates(text: str):
    from geofidelity_plugin.core.generation.prompts import PromptTemplates

    return PromptTemplates.from_json(text)


def _road_classes(text: str):
    from geofidelity_plugin.core.selection.option_checks import parse_road_classes

    return parse_road_classes(text)


JSON_OPTIONS = {
    "prompt templates (--templates)": (_templates, {"L1": "A photo on {street} in the {neighborhood} district of "
                                                          "{city}, {country}.", "suffix": "photo"}),
    "road classes (--road-classes)": (_road_classes, {"main": ["primary", "trunk"], "small": ["residential"]}),
}


@pytest.mark.parametrize("what", list(JSON_OPTIONS))
def test_json_option(what):
    parse, base = JSON_OPTIONS[what]

    @given(variant=json_variant(base))
    @MATRIX
    def run(variant):
        label, raw, refuse = variant
        text = raw.decode("utf-8", errors="replace")  # an option value is text already: a stray byte
        # a stray byte is a replacement character (maybe inside a string); an empty value is no value
        refuse = None if label in ("bad_byte", "bom") or not text.strip() else refuse
        try:
            value = parse(text)
        except InputError as exc:
            message = str(exc)
            assert refuse is not False, f"{label}: a good value was refused: {message}"
            assert what.split(" (")[0][:-2] in message and "Traceback" not in message, message  # "road class" …
        else:
            assert refuse is not True, f"{label}: accepted: {value!r}"
        record(what)

    run()


def _question_set(path: Path):
    from geofidelity_plugin.core.geodiv import questions as qs

    return qs.load(path)


def _evaluation_manifest(path: Path):
    from geofidelity_plugin.core.report.evaluation_folder import load_evaluation

    return load_evaluation(path.parent)


def _release_manifest(path: Path):
    return import_release_into(path.parents[3], path.parents[3].parent)


@pytest.mark.parametrize("what", ["question set", "evaluation manifest", "release manifest"])
def test_json_document(what, release, evaluation, tmp_path_factory):
    from geofidelity_plugin.core.geodiv.questions import default_path

    folder = tmp_path_factory.mktemp("json")
    if what == "question set":
        inputs, path, read = folder, folder / "questions.json", _question_set
        path.write_bytes(default_path().read_bytes())
    elif what == "evaluation manifest":
        inputs = folder / "evaluation"
        shutil.copytree(evaluation, inputs)
        path, read = inputs / "evaluation.manifest.json", _evaluation_manifest
    else:
        inputs = folder / "x" / "release"
        shutil.copytree(release, inputs)
        path, read = inputs / "data/processed/v3/benchmark_v3.json", _release_manifest
    base = json.loads(path.read_text(encoding="utf-8"))

    @given(variant=json_variant(base))
    @settings(MATRIX, max_examples=EXAMPLES // 2)
    def run(variant):
        label, raw, refuse = variant
        path.write_bytes(raw)
        before = folder_hashes(inputs)
        try:
            read(path)
        except InputError as exc:
            message = str(exc)
            assert refuse is not False, f"{label}: a good document was refused: {message}"
            assert path.name in message and " — " in message, message
        else:
            assert refuse is not True, f"{label}: a bad document was read"
        assert folder_hashes(inputs) == before
        (inputs.parent / "store.sqlite").unlink(missing_ok=True)
        record(what)

    run()
