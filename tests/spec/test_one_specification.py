"""One specification per command (docs/architecture.md): an option added to a command's
specification reaches argparse, the Processing algorithm's parameters, the command line the
algorithm sends to the backend and the run manifest — with no other edit."""
from __future__ import annotations

import json

import pytest

from geofidelity_plugin.backend.cli import build_parser, main
from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.spec import coverage as coverage_spec
from geofidelity_plugin.spec.options import CommandSpec, Option, argv

PLANTED = Option("MIN_KEPT", "--min-kept", "integer", "Images kept at least (planted)", help="a planted option",
                 default=3, rule="non-negative-count")


@pytest.fixture
def planted(monkeypatch):
    monkeypatch.setattr(coverage_spec, "COVERAGE", coverage_spec.COVERAGE.with_option(PLANTED))
    return coverage_spec.COVERAGE


def test_the_planted_option_reaches_argparse(planted):
    args = build_parser().parse_args(["coverage", "--store", "s.sqlite", "--out", "c.gpkg", "--min-kept", "5"])
    assert args.min_kept == 5
    assert build_parser().parse_args(["coverage", "--store", "s.sqlite", "--out", "c.gpkg"]).min_kept == 3
    with pytest.raises(SystemExit):  # the rule is argparse's too
        build_parser().parse_args(["coverage", "--store", "s", "--out", "c.gpkg", "--min-kept", "-1"])


def test_the_planted_option_reaches_the_processing_algorithm(planted, qgis_app, qgis_processing):
    from qgis.core import QgsProcessingContext

    from processing_algorithms.coverage_audit import CoverageAuditAlgorithm
    from geofidelity_plugin.qgis_side.processing_spec import command_line

    algorithm = CoverageAuditAlgorithm()
    algorithm.initAlgorithm()
    definition = algorithm.parameterDefinition("MIN_KEPT")
    assert definition is not None and definition.description() == PLANTED.label
    assert definition.defaultValue() == 3 and definition.help() == PLANTED.help
    args, plain = command_line(algorithm, planted, {"STORE": "s.sqlite", "OUTPUT": "/tmp/c.gpkg", "MIN_KEPT": 7},
                               QgsProcessingContext())
    assert plain["MIN_KEPT"] == 7 and args[args.index("--min-kept") + 1] == "7"
    # without the planted option the algorithm never heard of it
    assert CommandSpec(planted.command, planted.help, planted.options[:-1], planted.results).options[-1].name != \
        "MIN_KEPT"


def test_the_planted_option_reaches_the_run_manifest(planted, tmp_path, helsinki_pbf):
    segments, store = tmp_path / "segments.gpkg", tmp_path / "store.sqlite"
    assert main(["select-segments", "--cities", str(resource("data", "demo_cities.csv")), "--osm",
                 str(helsinki_pbf), "--out", str(segments), "--min-length", "300", "--max-per-city", "2",
                 "-q"]) == 0
    assert main(["build-galleries", "--store", str(store), "--segments", str(segments)]) == 0
    out = tmp_path / "coverage.gpkg"
    assert main(["coverage", "--store", str(store), "--out", str(out), "--min-kept", "5", "-q"]) == 0
    manifest = json.loads((tmp_path / "coverage.manifest.json").read_text(encoding="utf-8"))
    assert manifest["options"]["min_kept"] == 5


def test_argv_leaves_out_empty_values_and_unset_flags():
    spec = CommandSpec("x", "x", (Option("A", "--a", "text", "A"), Option("B", "--b", "flag", "B"),
                                  Option("C", "--c", "flag", "C", default=True, inverted=True),
                                  Option("D", "--d", "number", "D", default=1.5)))
    assert argv(spec, {"A": "", "B": False, "C": True, "D": 2.0}) == ["--d", "2.0"]
    assert argv(spec, {"A": "v", "B": True, "C": False, "D": 2.0}) == ["--a", "v", "--b", "--c", "--d", "2.0"]
