"""Every command's specification against what the two processes really offer: each option is on
the backend's command line with the specification's default and choices, and each is a parameter
of exactly one Processing algorithm of the provider, with the same default (docs/architecture.md)."""
from __future__ import annotations

import argparse
import importlib
import pkgutil

import pytest

import geofidelity_plugin.spec as spec_package
from geofidelity_plugin.backend.cli import build_parser
from geofidelity_plugin.spec.options import CommandSpec


def _specifications() -> list[CommandSpec]:
    found = []
    for info in pkgutil.iter_modules(spec_package.__path__):
        module = importlib.import_module(f"{spec_package.__name__}.{info.name}")
        found += [v for v in vars(module).values() if isinstance(v, CommandSpec)]
    return found


SPECS = _specifications()


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:  # noqa: SLF001 (argparse keeps its sub-parsers here)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            return action.choices[command]
    raise AssertionError("the command line has no sub-commands")


def test_every_command_is_specified_once():
    commands = [s.command for s in SPECS]
    assert len(commands) == len(set(commands)) and len(commands) >= 8, commands


def _actions(parser: argparse.ArgumentParser) -> list:
    """A parser's actions and those of its own sub-commands (``models list --models-dir``)."""
    out = []
    for action in parser._actions:  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for sub in action.choices.values():
                out += _actions(sub)
        else:
            out.append(action)
    return out


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.command)
def test_argparse_offers_the_specification(spec):
    actions = _actions(_subparser(spec.command))
    for opt in spec.options:
        action = next((a for a in actions if opt.flag in a.option_strings), None)
        assert action is not None, f"{spec.command}: {opt.flag} is not on the command line"
        assert action.dest == opt.dest
        if isinstance(action, argparse._AppendAction):  # noqa: SLF001 (a repeatable flag: --model A --model B)
            continue
        if opt.kind != "flag" and not opt.required:
            assert action.default == (list(opt.default or ()) if opt.multiple else opt.default), opt.flag
        if opt.choices:
            assert list(action.choices) == list(opt.choices), opt.flag


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.command)
def test_one_algorithm_offers_the_specification(spec, qgis_provider):
    names = {opt.name for opt in spec.options}
    matching = [alg for alg in qgis_provider.algorithms()
                if names <= {p.name() for p in alg.parameterDefinitions()}]
    assert len(matching) == 1, f"{spec.command}: algorithms offering {sorted(names)}: {[a.id() for a in matching]}"
    algorithm = matching[0]
    for opt in spec.options:
        definition = algorithm.parameterDefinition(opt.name)
        assert definition.description() == opt.label, opt.name
        if opt.kind in ("number", "integer") and opt.default is not None:
            assert float(definition.defaultValue()) == pytest.approx(float(opt.default)), opt.name


def test_number_boxes_show_their_default_in_a_few_decimals(qgis_provider):
    """A number's spin box shows as many decimals as its default needs (1 to 4), not QGIS's six."""
    from qgis.core import QgsProcessingParameterNumber

    seen = 0
    for alg in qgis_provider.algorithms():
        for param in alg.parameterDefinitions():
            if not isinstance(param, QgsProcessingParameterNumber) or param.dataType() != 1:  # 1: Double
                continue
            shown = (param.metadata().get("widget_wrapper") or {}).get("decimals")
            assert shown is not None and 1 <= shown <= 4, (alg.name(), param.name(), shown)
            if param.defaultValue() is not None:
                default = float(param.defaultValue())
                assert round(default, shown) == pytest.approx(default), (alg.name(), param.name(), default, shown)
            seen += 1
    assert seen >= 10
