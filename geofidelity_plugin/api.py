"""GeoFidelity from Python (notebooks, scripts): each function runs one stage exactly as the
``geofidelity`` command does — the same options, checks, manifests and messages — and returns
what it wrote. No QGIS needed, except for the atlas and the MFP reference render.

    >>> from geofidelity_plugin import api as gf
    >>> run = gf.select_segments(cities="cities.csv", osm="helsinki.osm.pbf", out="segments.gpkg")
    >>> run.outputs["OUTPUT"], run.values["SEGMENT_COUNT"]

Options are the command's long options with ``_`` for ``-`` (``min_length=300`` is
``--min-length 300``); ``True`` turns a flag on; a list gives an option's values comma-separated.
``geofidelity <command> --help`` lists them. A run that fails raises :class:`RunFailed` with the
message the command prints (what went wrong and the fix). Guide: docs/install-pip.md.
"""
from __future__ import annotations

import argparse
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Run", "RunFailed", "run", "select_segments", "fetch_mapillary", "curate", "coverage",
           "build_galleries", "import_generated", "import_release", "evaluate", "score_release", "report"]


@dataclass
class Run:
    """What one stage wrote: ``outputs`` (result key → file), ``values`` (counts, paths),
    ``layers`` (the map layers a QGIS driver would load: key → OGR URI) and the run's warnings."""

    command: str
    outputs: dict[str, str] = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    layers: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


class RunFailed(Exception):
    """A stage ended with an error: ``kind`` (input, output, remote, system, memory, cancelled,
    bug), ``message`` (what the CLI prints, fix included) and the CLI's ``exit_code``."""

    def __init__(self, command: str, kind: str, message: str, exit_code: int):
        super().__init__(f"{command}: {message}")
        self.command, self.kind, self.message, self.exit_code = command, kind, message, exit_code


def _subparser(command: str) -> argparse.ArgumentParser:
    from geofidelity_plugin.backend.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    if command not in sub.choices:
        raise ValueError(f"unknown command {command!r} — one of: {', '.join(sorted(sub.choices))}")
    return sub.choices[command]


def argv_for(command: str, options: dict) -> list[str]:
    """The command line of ``command`` with ``options`` (Python names of its long options)."""
    actions = {}
    for action in _subparser(command)._actions:  # noqa: SLF001
        longs = [s for s in action.option_strings if s.startswith("--")]
        if not longs or action.dest == "help":
            continue
        actions[action.dest] = action
        actions[longs[-1][2:].replace("-", "_")] = action
    argv = [command]
    unknown = sorted(set(options) - set(actions))
    if unknown:
        raise TypeError(f"{command}: no option {', '.join(unknown)} — its options: "
                        f"{', '.join(sorted({a.option_strings[-1][2:].replace('-', '_') for a in actions.values()}))}")
    for name, value in options.items():
        if value is None:
            continue
        action = actions[name]
        flag = [s for s in action.option_strings if s.startswith("--")][-1]
        if action.nargs == 0:  # a flag
            if value:
                argv.append(flag)
            continue
        if isinstance(value, (list, tuple, set)):
            value = ",".join(str(v) for v in value)
        argv += [flag, str(value) if not isinstance(value, Path) else str(value)]
    return argv


class _Collector(io.TextIOBase):
    """Reads the protocol lines the run emits (docs/backend-protocol.md)."""

    def __init__(self):
        self.events: list[dict] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                self.events.append(json.loads(line))
        return len(text)


def run(command: str, **options) -> Run:
    """Run the stage ``command`` (a ``geofidelity`` sub-command) with ``options``."""
    import signal

    from geofidelity_plugin.backend import cli
    from geofidelity_plugin.core import events

    argv = argv_for(command, options)
    collector = _Collector()
    previous_stream = events.active()
    try:
        previous_term = signal.getsignal(signal.SIGTERM)
    except ValueError:
        previous_term = None
    events.use_stream(collector)
    raise_errors = cli._Parser.raise_errors  # noqa: SLF001
    cli._Parser.raise_errors = True  # noqa: SLF001 — a usage mistake is an error, not an exit
    try:
        code = cli.main(argv)
    finally:
        cli._Parser.raise_errors = raise_errors  # noqa: SLF001
        events._ACTIVE = previous_stream  # noqa: SLF001
        if previous_term is not None:
            try:
                signal.signal(signal.SIGTERM, previous_term)
            except ValueError:
                pass
    result = Run(command)
    for event in collector.events:
        kind = event.get("event")
        if kind == "output":
            result.outputs[event["key"]] = event["path"]
            if event.get("layer"):
                result.layers[event["key"]] = event["layer"]
        elif kind == "warning":
            result.warnings.append(event.get("message", ""))
        elif kind == "result":
            result.values.update(event.get("values") or {})
        elif kind == "error":
            raise RunFailed(command, event.get("kind", "bug"), event.get("message", ""), event.get("exit_code", code))
    if code:
        raise RunFailed(command, "bug", f"exit {code} without an error message", code)
    return result


def select_segments(cities, out, **options) -> Run:
    """1 · Named OSM road segments per city (``osm=`` a file, ``overpass=`` a URL or ``roads=`` a layer)."""
    return run("select-segments", cities=cities, out=out, **options)


def fetch_mapillary(store, **options) -> Run:
    """2a · Mapillary images along each segment (token: MAPILLARY_ACCESS_TOKEN)."""
    return run("fetch-mapillary", store=store, **options)


def curate(store, **options) -> Run:
    """2b · The reference panels' filter tiers and the cap."""
    return run("curate", store=store, **options)


def coverage(store, out, **options) -> Run:
    """2c · Coverage audit and gaps per segment."""
    return run("coverage", store=store, out=out, **options)


def build_galleries(store, **options) -> Run:
    """3 · Hard-negative retrieval galleries."""
    return run("build-galleries", store=store, **options)


def import_generated(store, folder, **options) -> Run:
    """3b · Record a folder of images made by a generator outside the tool."""
    return run("import-generated", store=store, folder=folder, **options)


def import_release(release, store, **options) -> Run:
    """Load a published GeoFidelity-Bench release into a store."""
    return run("import-release", release=release, store=store, **options)


def evaluate(store, out, **options) -> Run:
    """4 · Score the generated panels (retrieval, CosSim, MMD², DCSF, GADS, statistics)."""
    return run("evaluate", store=store, out=out, **options)


def score_release(release, store, out, **options) -> Run:
    """A published release's images scored by the release's own evaluator (its leaderboard's
    numbers): :func:`import_release` into ``store``, then :func:`evaluate` with
    ``protocol="release"``; ``options`` go to evaluate."""
    import_release(release, store)
    return evaluate(store, out, protocol="release", **options)


def report(evaluation, **options) -> Run:
    """5 · The HTML report of an evaluation folder."""
    return run("report", evaluation=evaluation, **options)
