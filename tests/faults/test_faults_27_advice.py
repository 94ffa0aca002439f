"""Issue 27: every "fix" command the CLI prints runs as printed and fixes what it says.

A table of cases (:data:`CASES`): each sets up a situation that makes the real command line
(a subprocess, like ``faultkit.run_cli``) fail with a message that advises
``python -m geofidelity_plugin …``; the test cuts that command out of stderr (a command ends at a
backtick, an em dash, a semicolon, a closing parenthesis or the end of the line — how the messages
are written), runs it exactly as printed (``shlex.split``, ``python`` → ``sys.executable``; an
upper-case placeholder the message spells — ``STORE``, ``FOLDER`` — is filled in with the case's
value, nothing else is changed), sees it exit 0, then runs the original command again and sees it
get past that error.

Model downloads go to the fake Hugging Face Hub of ``tests/support/hub_server.py`` (``HF_ENDPOINT``)
serving a tiny DINOv2; the failing command runs offline (``HF_HUB_OFFLINE=1``), the advised
download runs with the offline switches lifted — "on a machine with internet".

Every command runs in the case's own folder (PYTHONPATH = the checkout), as a user runs it from
their folder: an advised relative path (``--out coverage.gpkg``) lands there, never in the
checkout.

The completeness tests read every string of the product source (``geofidelity_plugin/``,
``processing_algorithms/``; docstrings left out) for advised commands: each advised sub-command
is exercised by a case or listed in :data:`NOT_RUN` with the reason, is a real sub-command of
the CLI parser, and every advised command line parses with that parser.
"""
from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import os
import re
import shlex
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from conftest import REPO
from faultkit import no_traceback

pytestmark = pytest.mark.fault

PROG = "python -m geofidelity_plugin"
TINY = "geofidelity-tests/tiny-dinov2"  # a hub id the registry does not know (download_ref keeps it)
#: a command as the messages write it: up to a backtick, an em dash, a semicolon, a ")" or the line's end
COMMAND = re.compile(re.escape(PROG) + r" [^`;)\u2014\n]+")
SOURCES = ("geofidelity_plugin", "processing_algorithms")

#: advised sub-commands no case runs, and why
NOT_RUN = {
    "doctor": "advised only by the backend setup (backend_setup/venv_setup.py) when the doctor fails in a "
              "virtual environment it has just built with pip — building one needs the network",
}

#: advised command lines that are a mention of the command, not a command to run, so they do not
#: parse as written (file → the text after the program name, and why it is allowed)
MENTIONS = {
    ("geofidelity_plugin/core/generation/generators.py", "models download"):
        "'give a token (HF_TOKEN) to `… models download` before the first download' names the command "
        "a gated generator needs; it has no NAME (models download requires one)",
    ("geofidelity_plugin/core/geodiv/vqa.py", "models download"):
        "'a … hub id … that `… models download` has fetched' names the command; it has no NAME "
        "(models download requires one)",
}

#: the start of a command that code completes before printing it (file, the text after the program)
#: → the case that runs the completed command
ASSEMBLED = {
    ("geofidelity_plugin/core/models/registry.py", "models download"): "verify-model-absent",  # download_command()
    ("geofidelity_plugin/core/report/evaluation_folder.py", "evaluate --store {}"): "report-on-release-folder",
}


# ================================================================ running the command line
def _env(tmp: Path, hub_url: str) -> dict:
    env = dict(os.environ)
    for name in ("GEOFIDELITY_DEBUG", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env.update({"HF_ENDPOINT": hub_url, "GEOFIDELITY_MODELS_DIR": str(tmp / "models"),
                "HF_HUB_CACHE": str(tmp / "empty-hf-cache"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                "MPLBACKEND": "Agg"})
    return env


def _online(env: dict) -> dict:
    return {k: v for k, v in env.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}


def _run(argv: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _cli(args, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-m", "geofidelity_plugin", *map(str, args)], env, cwd)


def advised_commands(text: str) -> list[str]:
    return [m.group(0).strip().rstrip(".,:") for m in COMMAND.finditer(text)]


def to_argv(command: str, fill: dict[str, str]) -> list[str]:
    """The command as printed, split like a shell does; ``python`` is this interpreter and a
    placeholder word the message spells is the case's value."""
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "geofidelity_plugin"], command
    return [sys.executable, *words[1:3], *(fill.get(w, w) for w in words[3:])]


def advised_key(words: list[str]) -> str:
    """The advised sub-command of the words after the program: ``models download``, ``evaluate``."""
    return " ".join(words[:2]) if words and words[0] == "models" else (words[0] if words else "")


# ================================================================ shared inputs
@pytest.fixture(scope="module")
def tiny_dinov2(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_dinov2

    return make_tiny_dinov2(tmp_path_factory.mktemp("tiny") / "dinov2")


@pytest.fixture(scope="module")
def hub(tiny_dinov2):
    from hub_server import FakeHub

    with FakeHub() as fake:
        fake.add_folder(TINY, tiny_dinov2)
        yield fake


@pytest.fixture(scope="module")
def release_world(tmp_path_factory, tiny_dinov2, hub):
    """A release imported into a store (its blocks given short line geometries, as a store from
    select-segments has) and its evaluation under the release protocol with the tiny DINOv2."""
    from release_fixture import make_release

    root = tmp_path_factory.mktemp("release")
    make_release(root / "release")
    store = root / "store.sqlite"
    env = _env(root, hub.url)
    out = _cli(["import-release", "--release", root / "release", "--store", store], env, root)
    assert out.returncode == 0, out.stderr[-2000:]
    with sqlite3.connect(store) as con:
        for sid, lon, lat in con.execute("SELECT segment_id, centroid_lon, centroid_lat FROM segments").fetchall():
            con.execute("UPDATE segments SET geometry_wkt = ? WHERE segment_id = ?",
                        (f"LINESTRING ({lon - 0.0004} {lat}, {lon + 0.0004} {lat})", sid))
    release_eval = root / "eval-release"
    out = _cli(["evaluate", "--store", store, "--out", release_eval, "--feature-model", tiny_dinov2,
                "--protocol", "release", "--semantic-model", "none", "--clip-model", "none", "-q"], env, root)
    assert out.returncode == 0, out.stderr[-2000:]
    return {"store": store, "release_eval": release_eval, "root": root}


@pytest.fixture(scope="module")
def paper_eval(release_world, tiny_dinov2, hub) -> Path:
    folder = release_world["root"] / "eval-paper-fixture"
    out = _cli(["evaluate", "--store", release_world["store"], "--out", folder, "--feature-model", tiny_dinov2,
                "--semantic-model", "none", "--clip-model", "none", "-q"], _env(release_world["root"], hub.url),
               release_world["root"])
    assert out.returncode == 0, out.stderr[-2000:]
    return folder


# ================================================================ the table
@dataclass
class Ctx:
    tmp: Path
    env: dict
    fx: dict  # the fixtures a case asked for, by name


@dataclass
class Case:
    id: str
    advice: str  # the advised sub-command, as the completeness test keys it
    source: str  # the product file whose message this is
    setup: Callable[[Ctx], list]  # makes the situation; returns the failing command's arguments
    error: str  # a fragment of the error the message names
    pick: str = ""  # a fragment the advised command must hold (a message can advise two)
    needs: tuple = ()
    fill: Callable[[Ctx], dict] = lambda ctx: {}
    #: the command to run again (default: the original); gets the context, the fix's words and output
    rerun: Callable | None = None
    rerun_exit_zero: bool = True  # else: only past the error


def _mfp_pairs(ctx: Ctx) -> list:
    import numpy as np
    from PIL import Image

    for name in ("gen", "ref"):
        (ctx.tmp / name).mkdir()
    for i in range(2):
        image = np.random.default_rng(i).integers(0, 255, (40, 40, 3), dtype=np.uint8)
        Image.fromarray(image).save(ctx.tmp / "gen" / f"{i}.png")
        Image.fromarray(image).save(ctx.tmp / "ref" / f"{i}.png")
    return ["mfp", "--generated-folder", ctx.tmp / "gen", "--reference-folder", ctx.tmp / "ref", "--model", TINY,
            "--device", "cpu", "--out", ctx.tmp / "out", "-q"]


def _download_then_corrupt(ctx: Ctx) -> list:
    out = _cli(["models", "download", TINY], _online(ctx.env), ctx.tmp)
    assert out.returncode == 0, out.stderr[-2000:]
    blobs = sorted((ctx.tmp / "models").rglob("blobs/*"), key=lambda p: p.stat().st_size)
    blob = blobs[-1]  # the weights
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0x01
    blob.write_bytes(bytes(data))
    assert hashlib.sha256(blob.read_bytes()).hexdigest() != blob.name
    return ["models", "verify", TINY]


def _listed_name(ctx: Ctx, fix: list[str], out: subprocess.CompletedProcess) -> list:
    """``models list`` shows the names: give one of them to the command instead."""
    assert re.search(r"^dinov2-small\s", out.stdout + out.stderr, re.M), (out.stdout + out.stderr)[-2000:]
    return ["models", "verify", "dinov2-small"]


def _fix_out(ctx: Ctx, fix: list[str], out) -> list:
    """"… run `evaluate … --out FOLDER` and report that folder"."""
    return ["report", "--evaluation", fix[fix.index("--out") + 1], "--out", ctx.tmp / "report.html"]


CASES = [
    Case("mfp-hub-model-missing", "models download", "geofidelity_plugin/core/models/resolve.py",
         _mfp_pairs, f"model {TINY} is not in the models folder", pick=TINY,
         rerun_exit_zero=True),
    Case("verify-model-absent", "models download", "geofidelity_plugin/core/models/download.py",
         lambda ctx: ["models", "verify", TINY], "is not in the models folder (absent)", pick=TINY),
    Case("verify-damaged-blob", "models download", "geofidelity_plugin/backend/commands/models.py",
         _download_then_corrupt, "files fail their checksum", pick=TINY),
    Case("download-offline", "models download", "geofidelity_plugin/core/models/download.py",
         lambda ctx: ["models", "download", TINY, "--models-dir", ctx.tmp / "models"],
         "cannot reach the Hugging Face Hub", pick=TINY,
         fill=lambda ctx: {"FOLDER": str(ctx.tmp / "models")}),
    Case("unknown-model-name", "models list", "geofidelity_plugin/core/models/registry.py",
         lambda ctx: ["models", "verify", "not-a-model"], "unknown model 'not-a-model'",
         rerun=_listed_name, rerun_exit_zero=False),
    Case("report-on-release-folder", "evaluate", "geofidelity_plugin/core/report/evaluation_folder.py",
         lambda ctx: ["report", "--evaluation", ctx.fx["release_world"]["release_eval"],
                      "--out", ctx.tmp / "report.html"],
         "holds a finished evaluation under the release protocol", needs=("release_world",), rerun=_fix_out),
    Case("report-coverage-missing", "coverage", "geofidelity_plugin/core/report/coverage.py",
         lambda ctx: ["report", "--evaluation", ctx.fx["paper_eval"], "--coverage", "coverage.gpkg",
                      "--out", ctx.tmp / "report.html"],
         "coverage GeoPackage coverage.gpkg does not exist", needs=("release_world", "paper_eval"),
         fill=lambda ctx: {"STORE": str(ctx.fx["release_world"]["store"])}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_the_advised_command_runs_as_printed_and_fixes_it(case: Case, tmp_path, hub, request):
    ctx = Ctx(tmp_path, _env(tmp_path, hub.url), {name: request.getfixturevalue(name) for name in case.needs})
    args = case.setup(ctx)

    first = _cli(args, ctx.env, tmp_path)
    assert first.returncode == 2 and no_traceback(first.stdout + first.stderr), \
        f"exit {first.returncode}\n{first.stderr[-3000:]}"
    assert case.error.lower() in first.stderr.lower(), first.stderr[-3000:]
    commands = [c for c in advised_commands(first.stderr) if case.pick in c]
    assert commands, f"no `{PROG} …{case.pick}…` in the message:\n{first.stderr[-3000:]}"
    words = shlex.split(commands[0])[3:]
    assert advised_key(words) == case.advice, commands[0]

    fix_argv = to_argv(commands[0], case.fill(ctx))
    fix_env = _online(ctx.env) if case.advice == "models download" else ctx.env  # the rest runs offline
    fix = _run(fix_argv, fix_env, tmp_path)
    assert fix.returncode == 0, f"the advised `{commands[0]}` exited {fix.returncode}:\n{fix.stderr[-3000:]}"

    again_args = case.rerun(ctx, fix_argv, fix) if case.rerun else args
    again = _cli(again_args, ctx.env, tmp_path)
    assert case.error.lower() not in again.stderr.lower(), \
        f"after `{commands[0]}` the same error:\n{again.stderr[-3000:]}"
    assert no_traceback(again.stdout + again.stderr), again.stderr[-3000:]
    if case.rerun_exit_zero:
        assert again.returncode == 0, f"exit {again.returncode} after `{commands[0]}`:\n{again.stderr[-3000:]}"
    else:
        assert again.returncode == 2, again.stderr[-3000:]


def test_the_advised_download_goes_to_the_models_folder_the_command_was_given(tmp_path, hub):
    """Models folder set in the environment (as the plugin's settings do), another one given."""
    env = _env(tmp_path, hub.url)  # GEOFIDELITY_MODELS_DIR = tmp/models
    folder = tmp_path / "my-models"
    first = _cli(["models", "verify", TINY, "--models-dir", folder], env, tmp_path)
    assert first.returncode == 2 and "is not in the models folder" in first.stderr, first.stderr[-2000:]
    (command,) = [c for c in advised_commands(first.stderr) if TINY in c]
    fix = _run(to_argv(command, {}), _online(env), tmp_path)
    assert fix.returncode == 0, fix.stderr[-2000:]
    again = _cli(["models", "verify", TINY, "--models-dir", folder], env, tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]


# ================================================================ completeness
def _strings(path: Path):
    """(line, text) of every string of a module but its docstrings; an f-string's fields are ``{}``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            skip.add(id(node.body[0].value))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


#: in the source: the program (``python`` or an f-string field holding an interpreter's path) and the command
SOURCE_COMMAND = re.compile(r"(?:\bpython|\{\}) -m geofidelity_plugin ([^`;)\u2014\n]*)")


def advised_in_source() -> list[tuple[str, int, list[str]]]:
    """(file, line, words after the program) of every command a product string advises."""
    found = []
    for root in SOURCES:
        for path in sorted((REPO / root).rglob("*.py")):
            for line, text in _strings(path):
                for m in SOURCE_COMMAND.finditer(text):
                    words = m.group(1).split()
                    if words:
                        found.append((path.relative_to(REPO).as_posix(), line, words))
    return found


def _subcommands(parser) -> dict:
    import argparse

    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)] or [None]
    return dict(action.choices) if action else {}


def test_every_advised_subcommand_is_run_by_a_case_or_says_why_not():
    advised = {advised_key(words) for _, _, words in advised_in_source()}
    # the model manager's advice is built by one function: it is found here too
    assert {"models download", "models list", "evaluate", "coverage"} <= advised, advised
    exercised = {case.advice for case in CASES}
    missing = advised - exercised - set(NOT_RUN)
    assert not missing, f"advised sub-commands no case runs and NOT_RUN does not explain: {sorted(missing)}"
    assert not set(NOT_RUN) & exercised, "a sub-command in NOT_RUN is run by a case: take it out of NOT_RUN"
    stale = set(NOT_RUN) - advised
    assert not stale, f"NOT_RUN names sub-commands no message advises any more: {sorted(stale)}"
    assert all(reason.strip() for reason in NOT_RUN.values())
    sources = {path for path, _, _ in advised_in_source()}
    assert all(case.source in sources or "download_command" in (REPO / case.source).read_text(encoding="utf-8")
               for case in CASES), "a case names a file that advises no command"


def test_every_advised_subcommand_is_a_subcommand_of_the_parser():
    from geofidelity_plugin.backend.cli import build_parser

    top = _subcommands(build_parser())
    wrong = []
    for path, line, words in advised_in_source():
        sub = top.get(words[0])
        if sub is None:
            wrong.append(f"{path}:{line}: {words[0]!r} is no command of the CLI")
        elif _subcommands(sub) and (len(words) < 2 or words[1] not in _subcommands(sub)):
            wrong.append(f"{path}:{line}: {' '.join(words[:2])!r} is no action of {words[0]}")
    assert not wrong, "\n".join(wrong)
    for case in CASES:  # and the table's own keys
        words = case.advice.split()
        assert words[0] in top and (len(words) == 1 or words[1] in _subcommands(top[words[0]])), case.advice


def test_every_advised_command_line_parses_as_written():
    """Placeholders (STORE, FOLDER, an f-string's field) are values; an option the parser does not
    know, a missing required one or a missing NAME fails — unless MENTIONS says the text names the
    command rather than advising a run of it, or ASSEMBLED says code completes it (and which case
    runs the completed command)."""
    from geofidelity_plugin.backend.cli import build_parser

    bad, mentions_seen = [], set()
    for path, line, words in advised_in_source():
        argv = [w.replace("{}", "x") for w in words]
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                build_parser().parse_args(argv)
        except SystemExit as exc:
            if exc.code:
                key = (path, " ".join(words))
                if key in MENTIONS or key in ASSEMBLED:
                    mentions_seen.add(key)
                else:
                    bad.append(f"{path}:{line}: `{PROG} {' '.join(words)}` — {err.getvalue().strip().splitlines()[-1]}")
    assert not bad, "advised commands that do not parse:\n" + "\n".join(bad)
    listed = set(MENTIONS) | set(ASSEMBLED)
    assert mentions_seen == listed, f"MENTIONS / ASSEMBLED that no longer fail to parse: {listed - mentions_seen}"
    assert set(ASSEMBLED.values()) <= {case.id for case in CASES}


def test_the_command_cutter_stops_where_the_messages_end_a_command():
    text = (f"run `{PROG} evaluate --store /a/s.sqlite --out /a/e` and report that folder\n"
            f"error: x — download it: `{PROG} models download o/n`: it goes on\n"
            f"download it ({PROG} models download ID; `models list` shows its folder)\n"
            f"or {PROG} doctor — to see why\n{PROG} models list")
    assert advised_commands(text) == [f"{PROG} evaluate --store /a/s.sqlite --out /a/e",
                                      f"{PROG} models download o/n", f"{PROG} models download ID",
                                      f"{PROG} doctor", f"{PROG} models list"]
    assert to_argv(f"{PROG} coverage --store STORE --out coverage.gpkg", {"STORE": "/s"}) == \
        [sys.executable, "-m", "geofidelity_plugin", "coverage", "--store", "/s", "--out", "coverage.gpkg"]
