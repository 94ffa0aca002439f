"""Options and commands as data (docs/architecture.md § One specification per command).

An :class:`Option` is written once and read three times: by ``argparse`` in the backend
(:func:`add_arguments`), by the Processing algorithm that offers it in QGIS (the parameter is built
in :mod:`geofidelity_plugin.qgis_side.processing_spec` from the same fields; the command line it
sends back is :func:`argv`), and by the run manifest (:func:`recorded`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: option kinds: what the value is, on the command line and in QGIS
#: ``segment_ids``: on the command line a text (ids, or @FILE); in QGIS a layer whose features'
#: ``segment_id`` values (the selected ones, when "Selected features only" is ticked) become that text
KINDS = ("number", "integer", "text", "flag", "choice", "file", "folder", "file_out", "folder_out", "segment_ids")


@dataclass(frozen=True)
class Option:
    """One option of one command.

    ``name`` is the Processing parameter (``RADIUS``), ``flag`` the command-line option
    (``--radius``), ``dest`` the attribute argparse gives it and the key the manifest records.
    ``rule`` is a rule of :mod:`geofidelity_plugin.core.option_checks` (``positive``, ``count``, …)
    that both sides check. ``inverted``: a ``flag`` whose QGIS checkbox says the opposite of the
    flag (checked "Keep …" = no ``--rebuild``). ``extension``/``file_filter``: what a file picker
    offers. ``record``: whether the run manifest lists it (paths are recorded as inputs instead).
    """

    name: str
    flag: str
    kind: str
    label: str
    help: str = ""
    default: Any = None
    choices: tuple = ()
    rule: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    required: bool = False
    advanced: bool = False
    inverted: bool = False
    extension: str = ""
    file_filter: str = ""
    record: bool = True
    field: str = ""
    multiple: bool = False
    #: in QGIS, a file that is a map layer: ``vector`` or ``raster`` (a layer of the project or a file)
    layer: str = ""
    #: the ``name`` of the option of the same command that bounds this one from above (a min/max
    #: pair such as ``--luma-min``/``--luma-max``): both sides refuse min > max (:func:`check_ranges`)
    at_most: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r} (one of {', '.join(KINDS)})")
        if not self.flag.startswith("--"):
            raise ValueError(f"option {self.name}: the command-line flag {self.flag!r} must start with --")

    @property
    def is_distance(self) -> bool:
        """A number in metres (its label ends "(m)"): in QGIS a distance widget."""
        return self.kind == "number" and self.label.endswith(" (m)")

    @property
    def dest(self) -> str:
        return self.field or self.flag[2:].replace("-", "_")


@dataclass(frozen=True)
class Result:
    """One result the command reports on its last protocol line (docs/backend-protocol.md):
    ``kind`` ``number`` (a value event) or ``file`` (an output event)."""

    key: str
    label: str
    kind: str = "number"


@dataclass(frozen=True)
class CommandSpec:
    """A backend command: its sub-command name, its options in the order both sides show them,
    and its results."""

    command: str
    help: str
    options: tuple[Option, ...]
    results: tuple[Result, ...] = field(default=())

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(f"{self.command} has no option {name}")

    def with_option(self, option: Option) -> "CommandSpec":
        """The same command with one more option (extensions, tests)."""
        return CommandSpec(self.command, self.help, self.options + (option,), self.results)

    def result(self, key: str) -> Result:
        for res in self.results:
            if res.key == key:
                return res
        raise KeyError(f"{self.command} reports no result {key}")


def _argparse_type(opt: Option):
    if opt.rule:
        from geofidelity_plugin.core.option_checks import argparse_number

        return argparse_number(opt.rule)
    return {"number": float, "integer": int}.get(opt.kind, str)


def _help(opt: Option) -> str:
    text = opt.help or opt.label
    if opt.kind not in ("flag",) and opt.default not in (None, ""):
        text += " (default %(default)s)"
    return text


def add_arguments(parser, spec: CommandSpec) -> None:
    """The options of ``spec`` on an ``argparse`` (sub-)parser; its min/max pairs are checked
    once the command line is parsed (:func:`check_ranges`)."""
    add_options(parser, spec.options)
    if any(opt.at_most for opt in spec.options):
        _check_ranges_when_parsed(parser, spec.options)


def range_pairs(options) -> list[tuple[Option, Option]]:
    """The (min, max) pairs declared among ``options`` (``Option.at_most``)."""
    by_name = {opt.name: opt for opt in options}
    return [(opt, by_name[opt.at_most]) for opt in options if opt.at_most]


def range_problem(options, values: dict) -> str | None:
    """What is wrong with the first declared min/max pair of ``options`` whose minimum exceeds
    its maximum in ``values`` (``dest`` → value), or ``None``."""
    for low, high in range_pairs(options):
        a, b = values.get(low.dest), values.get(high.dest)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > b:
            return (f"{low.flag} {a:g} is above {high.flag} {b:g}, so no value lies in the range ("
                    f"{low.label.rstrip(' ≥')} from {low.flag} to {high.flag}) — give {low.flag} at most "
                    f"{high.flag}, e.g. {low.flag} {low.default:g} {high.flag} {high.default:g} (the defaults)")
    return None


def check_ranges(options, values: dict) -> None:
    """An :class:`~geofidelity_plugin.core.errors.InputError` for a min/max pair given the wrong
    way round (:func:`range_problem`): the core's own check, for callers that skip the command line."""
    problem = range_problem(options, values)
    if problem:
        from geofidelity_plugin.core.errors import InputError

        raise InputError(problem)


def _check_ranges_when_parsed(parser, options) -> None:
    """Make ``parser`` refuse (``parser.error``: exit 2, or an error event) a min/max pair given
    the wrong way round, right after parsing — argparse has no hook for checks across options."""
    parse = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        namespace, rest = parse(args, namespace)
        problem = range_problem(options, vars(namespace))
        if problem:
            parser.error(problem)
        return namespace, rest

    parser.parse_known_args = parse_known_args


def add_options(parser, options) -> None:
    """Some options on an ``argparse`` (sub-)parser, each under its ``dest``."""
    for opt in options:
        if opt.kind == "flag":
            parser.add_argument(opt.flag, dest=opt.dest, action="store_true", help=_help(opt))
            continue
        kwargs: dict[str, Any] = {"help": _help(opt), "dest": opt.dest}
        if opt.required:
            kwargs["required"] = True
        else:
            kwargs["default"] = opt.default
        if opt.choices:
            kwargs["choices"] = list(opt.choices)
        if opt.multiple:
            kwargs["nargs"] = "+"
            kwargs["default"] = list(opt.default or ())
        if opt.kind in ("number", "integer"):
            kwargs["type"] = _argparse_type(opt)
        parser.add_argument(opt.flag, **kwargs)


def argv(spec: CommandSpec, values: dict) -> list[str]:
    """The command line for ``values`` (option name → plain value, as QGIS gave them): flags
    only when set, empty optional values left out, everything else as text."""
    return argv_of(spec.options, values)


def argv_of(options, values: dict) -> list[str]:
    out: list[str] = []
    for opt in options:
        if opt.name not in values:
            continue
        value = values[opt.name]
        if opt.kind == "flag":
            if bool(value) != opt.inverted:
                out.append(opt.flag)
            continue
        if value is None or (isinstance(value, str) and not value.strip()):
            if opt.required:
                raise ValueError(f"{opt.label} is required")
            continue
        if opt.multiple:
            items = [str(v) for v in value]
            if items:
                out += [opt.flag, *items]
            continue
        out += [opt.flag, str(value)]
    return out


def recorded(args, spec: CommandSpec) -> dict:
    """The options of a run as the manifest records them (``dest`` → value)."""
    return {opt.dest: getattr(args, opt.dest, opt.default) for opt in spec.options if opt.record}


#: an Option's ``minimum`` that lets QGIS pass any value, so that the backend's own check names the
#: option in its words (``--seed … must be a whole number ≥ 0``) instead of QGIS's "Incorrect
#: parameter value"
UNCHECKED_MINIMUM = -2147483647
