"""``generate`` and ``import-generated`` written once (geofidelity_plugin/spec/generation.py):
argparse, the Processing algorithms and the command line they send read the same options, and
the command hands one :class:`GenerationRequest` and its executor to ``generate_store``."""
from __future__ import annotations

import pytest

from geofidelity_plugin.backend.cli import build_parser
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.generation import options as o
from geofidelity_plugin.core.generation.request import GenerationRequest
from geofidelity_plugin.spec import generation as spec
from geofidelity_plugin.spec.options import Option

PLANTED = Option("GUIDANCE_RESCALE", "--guidance-rescale", "number", "Guidance rescale (planted)",
                 help="a planted option", default=0.5)


def _args(*extra):
    return build_parser().parse_args(["generate", "--store", "s.sqlite", "--generator", "sdxl-base-1.0", *extra])


def test_argparse_defaults_are_the_core_options():
    args = _args()
    assert (args.samples, args.seed, args.plan, args.precision, args.batch_forward, args.plan_probe) == (
        o.DEFAULT_SAMPLES, o.DEFAULT_SEED, o.PLAN_CHOICES[0], o.PRECISION_CHOICES[0], o.BATCH_FORWARD_CHOICES[0],
        o.PLAN_PROBE_CHOICES[0])
    assert args.conditions == list(o.CONDITIONS)
    # a registered generator's settings are the protocol's: the custom ones have no default here
    assert (args.custom_folder, args.steps, args.guidance, args.dtype, args.resolution) == (None,) * 5
    assert _args("--conditions", "L1", "L2").conditions == ["L1", "L2"]
    for bad in (["--samples", "0"], ["--seed", "-1"], ["--plan", "nowhere"], ["--conditions", "L9"],
                ["--plan-probe", "always"]):
        with pytest.raises(SystemExit):
            _args(*bad)


def test_the_command_builds_one_request_and_picks_its_executor():
    from geofidelity_plugin.backend.commands.generation import generation_request
    from geofidelity_plugin.backend.commands.generation import generation_executor
    from geofidelity_plugin.core.generation.prompts import PromptTemplates

    args = _args("--samples", "2", "--vram-budget", "12GB", "--plan", "model-offload", "--out", "gens",
                 "--templates", '{"L1": "On {street} in {neighborhood}, {city}."}', "--fp8-denoiser", "--conditions", "L1")
    request = generation_request(args)
    assert request == GenerationRequest("sdxl-base-1.0", samples=2, conditions=("L1",), vram_budget="12GB",
                                        plan="model-offload", out_dir="gens", fp8_denoiser=True,
                                        templates=PromptTemplates(l1="On {street} in {neighborhood}, {city}."),
                                        precision="auto", batch_forward="auto", plan_probe="auto")
    assert request.to_dict()["templates"]["l1"] == "On {street} in {neighborhood}, {city}."
    checked = request.validate("cuda")
    assert checked.runner_options() == {"plan": "model-offload", "vram_budget": 12 * 1024 ** 3, "fp8_denoiser": True,
                                        "precision": None, "batch_forward": "auto", "plan_probe": "auto"}
    assert generation_request(_args("--plan-probe", "off")).validate("cuda").runner_options()["plan_probe"] == "off"
    assert generation_executor(args) is None  # one process: generate_store's LocalExecutor
    ray_executor = pytest.importorskip("geofidelity_plugin.core.scaleout.generation").RayExecutor
    executor = generation_executor(_args("--ray", "--ray-workers", "3"))
    assert isinstance(executor, ray_executor) and (executor.ray, executor.workers) == ("local", 3)


def test_the_request_checks_say_what_they_said_before():
    with pytest.raises(InputError, match="samples must be a whole number ≥ 1, not 0"):
        GenerationRequest("sdxl-base-1.0", samples=0).validate()
    with pytest.raises(InputError, match="sequential"):
        GenerationRequest("sdxl-base-1.0", plan="sequential").validate("cpu")
    with pytest.raises(InputError):  # a registered generator's settings are refused, not ignored
        GenerationRequest("sdxl-base-1.0", steps=3).validate()


def test_the_algorithms_offer_the_spec(qgis_app, qgis_processing):
    from qgis.core import QgsProcessingContext

    from processing_algorithms.generate_panels import GeneratePanelsAlgorithm, ImportGeneratedAlgorithm

    algorithm = GeneratePanelsAlgorithm()
    algorithm.initAlgorithm()
    for opt in spec.algorithm_options():
        definition = algorithm.parameterDefinition(opt.name)
        assert definition is not None and definition.description() == opt.label, opt.name
        assert definition.help() == opt.help, opt.name
    assert algorithm.parameterDefinition("STEPS").defaultValue() == o.CUSTOM_DEFAULTS["steps"]
    assert algorithm.parameterDefinition("SAMPLES").defaultValue() == o.DEFAULT_SAMPLES
    assert [algorithm.outputDefinition(r.key) is not None for r in spec.GENERATE.results] == [True] * 4
    imported = ImportGeneratedAlgorithm()
    imported.initAlgorithm()
    from geofidelity_plugin.qgis_side.processing_spec import command_line

    args, _ = command_line(imported, spec.IMPORT_GENERATED, {"STORE": "s.sqlite", "FOLDER": "/tmp",
                                                             "MODEL_NAME": "ext", "REPLACE": True},
                           QgsProcessingContext())
    assert args == ["--store", "s.sqlite", "--folder", "/tmp", "--model", "ext", "--replace"]


@pytest.fixture
def planted(monkeypatch):
    monkeypatch.setattr(spec, "GENERATE", spec.GENERATE.with_option(PLANTED))
    return spec.GENERATE


def test_a_planted_option_reaches_argparse_and_the_algorithm(planted, qgis_app, qgis_processing):
    from processing_algorithms.generate_panels import GeneratePanelsAlgorithm

    assert _args("--guidance-rescale", "0.7").guidance_rescale == 0.7
    assert _args().guidance_rescale == 0.5
    algorithm = GeneratePanelsAlgorithm()
    algorithm.initAlgorithm()
    definition = algorithm.parameterDefinition("GUIDANCE_RESCALE")
    assert definition is not None and definition.defaultValue() == 0.5 and definition.help() == PLANTED.help
