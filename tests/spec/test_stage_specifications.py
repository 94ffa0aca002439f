"""evaluate, import-release, report and select-segments built from their specifications
(docs/architecture.md § One specification per command): the same options in argparse and in the
Processing algorithm, defaults read from the core option tables, result keys defined once."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from geofidelity_plugin.backend.cli import build_parser, main
from geofidelity_plugin.core.evaluation.options import DEFAULT_BATCH_SIZE, DEFAULT_FEATURE_MODEL, EvaluationOptions
from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.core.selection.options import SelectionOptions
from geofidelity_plugin.spec import evaluation, release, report, selection
from geofidelity_plugin.spec.options import argv

ROOT = Path(__file__).resolve().parents[2]

#: spec, the algorithm's module and class, a minimal command line (the required inputs)
SPECS = {
    "evaluate": (evaluation.EVALUATE, "evaluate", "EvaluateAlgorithm", ["--store", "s.sqlite", "--out", "o"]),
    "import-release": (release.IMPORT_RELEASE, "import_release", "ImportReleaseAlgorithm",
                       ["--release", "r", "--store", "s.sqlite"]),
    "report": (report.REPORT, "report", "ReportAlgorithm", ["--evaluation", "e"]),
    "select-segments": (selection.SELECT_SEGMENTS, "select_segments", "SelectSegmentsAlgorithm",
                        ["--cities", "c.csv", "--osm", "x.osm", "--out", "o.gpkg"]),
}


@pytest.mark.parametrize("command", sorted(SPECS))
def test_argparse_defaults_are_the_specifications(command):
    spec, _, _, required = SPECS[command]
    args = build_parser().parse_args([command, *required])
    for opt in spec.options:
        if opt.kind == "flag":
            assert getattr(args, opt.dest) is False
        elif not opt.required:
            assert getattr(args, opt.dest) == opt.default, opt.name


def test_the_defaults_come_from_the_core_option_tables():
    d, s = EvaluationOptions(), SelectionOptions()
    ev = evaluation.EVALUATE
    assert ev.option("FEATURE_MODEL").default == DEFAULT_FEATURE_MODEL
    assert ev.option("BATCH_SIZE").default == DEFAULT_BATCH_SIZE
    assert (ev.option("BOOTSTRAP").default, ev.option("HOLDOUT_SIZE").default) == (d.n_bootstrap, d.holdout_size)
    sel = selection.SELECT_SEGMENTS
    assert (sel.option("RADIUS").default, sel.option("MAX_PER_CITY").default) == (s.radius_m, s.max_per_city)


def test_the_dinov2_id_and_the_batch_size_are_written_once():
    sources = [*(ROOT / "geofidelity_plugin").rglob("*.py"), *(ROOT / "processing_algorithms").rglob("*.py")]
    text = {p: p.read_text(encoding="utf-8") for p in sources}
    assert sum(t.count('"facebook/dinov2-base"') for t in text.values()) == 1
    assert sum(len(re.findall(r"batch_size\b.*\b16\b", t)) for t in text.values()) == 0
    assert sum(len(re.findall(r"(?:BATCH_SIZE|batch_size)\s*=\s*16\b", t)) for t in text.values()) == 1


@pytest.mark.parametrize("command", sorted(SPECS))
def test_the_algorithm_offers_every_option_and_result(command, qgis_app, qgis_processing):
    import importlib

    from qgis.core import Qgis

    spec, module, name, _ = SPECS[command]
    algorithm = getattr(importlib.import_module(f"processing_algorithms.{module}"), name)()
    algorithm.initAlgorithm()
    for opt in spec.options:
        definition = algorithm.parameterDefinition(opt.name)
        assert definition is not None and definition.description() == opt.label, opt.name
        assert definition.help() == opt.help, opt.name
        advanced = bool(definition.flags() & Qgis.ProcessingParameterFlag.Advanced)
        assert advanced == opt.advanced, opt.name
        if (command, opt.name) == ("evaluate", "FEATURE_MODEL"):  # the first model the backend has, else the spec's
            from geofidelity_plugin.qgis_side.feature_models import feature_model_choices

            usable, _ = feature_model_choices()
            assert definition.defaultValue() == (usable[0] if usable else opt.default)
        elif opt.kind in ("number", "integer", "text"):
            assert definition.defaultValue() == opt.default, opt.name
    outputs = {o.name() for o in algorithm.outputDefinitions()}
    assert {res.key for res in spec.results} <= outputs


@pytest.mark.parametrize("command", sorted(SPECS))
def test_the_command_line_of_the_defaults_parses_back(command):
    spec, _, _, required = SPECS[command]
    values = {opt.name: (opt.default if opt.kind != "flag" else bool(opt.default) == opt.inverted)
              for opt in spec.options if not opt.required}
    args = build_parser().parse_args([command, *required, *argv(spec, values)])
    for opt in spec.options:
        if opt.kind != "flag" and not opt.required:
            assert getattr(args, opt.dest) == opt.default, opt.name


def test_the_selection_manifest_records_the_specifications_options(tmp_path, helsinki_pbf):
    out = tmp_path / "segments.gpkg"
    assert main(["select-segments", "--cities", str(resource("data", "demo_cities.csv")), "--osm",
                 str(helsinki_pbf), "--out", str(out), "--min-length", "300", "--max-per-city", "2",
                 "--overpass-retries", "2", "--no-context", "-q"]) == 0
    options = json.loads(out.with_suffix(".manifest.json").read_text(encoding="utf-8"))["options"]
    assert options["overpass_retries"] == 2 and options["no_context"] is True and options["max_per_city"] == 2
    assert options["min_length_m"] == 300 and options["write_context"] is False  # today's keys stay


def test_the_evaluation_manifest_records_the_specifications_options(tmp_path, monkeypatch):
    from eval_fixtures import make_store
    from tiny_models import make_tiny_dinov2

    store, _ = make_store(tmp_path / "b", per_city=1, refs=5, models=("m1",))
    store.close()
    dino = make_tiny_dinov2(tmp_path / "dino")
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "eval"
    assert main(["evaluate", "--store", str(tmp_path / "b" / "store.sqlite"), "--out", str(out), "--feature-model",
                 str(dino), "--bootstrap", "50", "--batch-size", "3", "--device", "cpu", "-q"]) == 0
    options = json.loads((out / "evaluation.manifest.json").read_text(encoding="utf-8"))["options"]
    assert options["batch_size"] == 3 and options["feature_model"] == str(dino) and options["bootstrap"] == 50
    assert options["n_bootstrap"] == 50 and options["precision"] == "fp32"  # today's keys stay
