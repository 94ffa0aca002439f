"""Issue 40, cases 5 and 9: the QGIS side never loses the backend's last word.

The plugin's real runner (``qgis_side/backend_runner.py`` over ``core/child_streams.py`` and
``core/child_process.py``) drives scripted hostile backends (``tests/support/backends/scripted.py``):

- a stderr flood before the result: the result stands, the log is bounded, and a failure quotes the
  flood's *last* lines (it ended "without a result" when the log was slower than the flood);
- an ``error`` line fails the run whatever follows it (a ``result`` after it was shown as success);
- a backend that never says hello is ended at the stated limit, and none outlives its driver, not
  even one that never runs GeoFidelity's code (``qgis_process`` killed with SIGKILL left it running);
- ``--events jsonl`` with standard output closed, read-only or with its reader gone: ``error:`` and
  exit 2, never a traceback (and a quiet exit 2 when stderr is gone too).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from qgis.core import QgsProcessingException

from backends.support import HERE, RecordingFeedback, fake_backend, gone
from faultkit import assert_fails_cleanly, no_traceback, run_cli

pytestmark = pytest.mark.fault

HELLO = ["hello"]
RESULT = ["event", {"event": "result", "exit_code": 0, "values": {"PANELS": 7}, "outputs": []}]
ERROR = ["event", {"event": "error", "kind": "input", "exit_code": 2,
                   "message": "the store has no generated panels — run generate first"}]
PROGRESS = ["event", {"event": "progress", "fraction": 0.5, "stage": "extracting features"}]
OUTPUT = ["event", {"event": "output", "key": "TABLES", "path": "/tmp/tables"}]
GARBAGE = [["out", "Loading weights 100%|██████████| 12/12"], ["out", "{not json"], ["out", "[1, 2]"],
           ["out", '{"event": 5}'], ["err", "UserWarning: something", 3]]


class SlowLogFeedback(RecordingFeedback):
    """A feedback whose console log costs what a Processing dialog's log widget does per line
    (about 25 µs here), so that a flood outruns it as it does in QGIS."""

    def pushConsoleInfo(self, info):  # noqa: N802
        super().pushConsoleInfo(info)
        if len(self.lines) % 40 == 0:
            time.sleep(0.001)


def run_plan(tmp_path: Path, plan: list, feedback=None, **env):
    from geofidelity_plugin.qgis_side import backend_runner

    python = fake_backend(tmp_path / "bin", "scripted.py")
    return backend_runner.run_backend("evaluate", [], feedback or RecordingFeedback(), python=str(python),
                                      env={"FAKE_BACKEND_PLAN": json.dumps(plan), **env})


def fails(tmp_path: Path, plan: list, feedback=None, **env) -> str:
    with pytest.raises(QgsProcessingException) as failure:
        run_plan(tmp_path, plan, feedback, **env)
    message = str(failure.value)
    assert "Traceback" not in message and " — " in message, message
    return message


# -- stdout and stderr read at once; a bounded tail for stderr ----------------------------------

def test_a_stderr_flood_before_the_result_keeps_the_result(qgis_app, tmp_path):
    feedback = SlowLogFeedback()
    began = time.monotonic()
    run = run_plan(tmp_path, [HELLO, ["err", "UserWarning: the prompt was truncated", 200_000], RESULT, ["exit", 0]],
                   feedback)
    assert run.values == {"PANELS": 7}
    assert time.monotonic() - began < 60
    assert any("lines of the backend's log were left out" in line for line in feedback.lines)


def test_a_flood_interleaved_with_events_loses_no_event(qgis_app, tmp_path):
    feedback = SlowLogFeedback()
    result = ["event", dict(RESULT[1], outputs=[OUTPUT[1]])]  # the result lists every output again
    run = run_plan(tmp_path, [HELLO, ["flood", 200_000, 1000, PROGRESS[1]], OUTPUT, result, ["exit", 0]], feedback)
    assert run.values == {"PANELS": 7} and run.path("TABLES") == "/tmp/tables"
    assert len(feedback.percents) == 200  # the protocol stream is never thinned, only the log


def test_a_flood_then_a_crash_quotes_the_last_lines(qgis_app, tmp_path):
    message = fails(tmp_path, [HELLO, ["err", "warning", 200_000], ["err", "RuntimeError: the last straw"],
                               ["exit", 3]], SlowLogFeedback())
    assert "ended without a result (exit 3)" in message
    assert "RuntimeError: the last straw 0" in message and "warning 199999" in message


@pytest.mark.parametrize("stream", ["out", "err"])
def test_a_line_without_end_is_bounded(qgis_app, tmp_path, stream):
    """A 50 MB line (a progress bar that never writes a newline, binary junk) is cut, not kept."""
    run = run_plan(tmp_path, [HELLO, ["long", stream, 50_000_000], RESULT, ["exit", 0]])
    assert run.values == {"PANELS": 7}


def test_the_tail_is_bounded():
    from geofidelity_plugin.core.child_streams import TAIL_BYTES, TAIL_LINES, Tail, split_lines

    tail = Tail()
    for i in range(10_000):
        tail.add(f"line {i} " + "x" * (i % 700))
    lines = tail.lines()
    assert len(lines) <= TAIL_LINES and sum(map(len, lines)) <= TAIL_BYTES and lines[-1].startswith("line 9999 ")
    chunks = [b"a" * 7, b"b\nc" + b"d" * 20, b"e\n", b"f"]
    assert list(split_lines(chunks, limit=10)) == [b"aaaaaaab", b"cddddddddd", b"f"]


# -- an error line fails the run, whatever follows ----------------------------------------------

ERROR_PLANS = {
    "error-then-result": [HELLO, ERROR, RESULT, ["exit", 0]],
    "error-first-line-after-hello-then-work": [HELLO, ERROR, PROGRESS, OUTPUT, RESULT, ["exit", 0]],
    "error-between-progress": [HELLO, PROGRESS, ERROR, PROGRESS, RESULT, ["exit", 0]],
    "error-after-outputs": [HELLO, PROGRESS, OUTPUT, ERROR, RESULT, ["exit", 0]],
    "error-garbage-result": [HELLO, ERROR, *GARBAGE, RESULT, ["exit", 0]],
    "garbage-error-garbage-result": [HELLO, *GARBAGE, ERROR, *GARBAGE, RESULT, ["exit", 0]],
    "error-in-a-flood": [HELLO, ["err", "noise", 50_000], ERROR, ["err", "noise", 50_000], RESULT, ["exit", 0]],
    "error-then-result-then-hang": [HELLO, ERROR, RESULT, ["sleep", 600]],
    "result-then-error": [HELLO, RESULT, ERROR, ["exit", 0]],
    "error-then-another-error": [HELLO, ERROR, ["event", {"event": "error", "kind": "bug", "exit_code": 1,
                                                          "message": "a later, lesser complaint — ignore"}],
                                 RESULT, ["exit", 0]],
}


@pytest.mark.parametrize("plan", list(ERROR_PLANS.values()), ids=list(ERROR_PLANS))
def test_an_error_line_fails_the_run_whatever_follows(qgis_app, tmp_path, plan):
    message = fails(tmp_path, plan)
    assert message == "the store has no generated panels — run generate first"


def test_an_error_without_a_message_still_fails(qgis_app, tmp_path):
    message = fails(tmp_path, [HELLO, ["err", "KeyError: 'x'"], ["event", {"event": "error", "message": 7}], RESULT,
                               ["exit", 0]])
    assert "failed without a message" in message and "KeyError: 'x'" in message


# -- a stated limit before hello; never an orphan -----------------------------------------------

SILENT_PLANS = {
    "sleeps": [["pid", "{pid}"], ["sleep", 600]],
    "chatters-on-stderr": [["pid", "{pid}"], *[["err", "still starting", 1], ["sleep", 0.2]] * 300],
    "garbage-on-stdout": [["pid", "{pid}"], *[["out", "loading…"], ["sleep", 0.2]] * 300],
    "events-without-hello": [["pid", "{pid}"], *[PROGRESS, ["sleep", 0.2]] * 300],
    "ignores-sigterm": [["pid", "{pid}"], ["ignore-term"], ["sleep", 600]],
}


@pytest.mark.parametrize("plan", list(SILENT_PLANS.values()), ids=list(SILENT_PLANS))
def test_a_backend_that_never_says_hello_is_ended(qgis_app, tmp_path, monkeypatch, plan):
    monkeypatch.setenv("GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S", "2")  # QGIS's own environment
    pid_file = tmp_path / "pid"
    plan = json.loads(json.dumps(plan).replace("{pid}", str(pid_file)))
    began = time.monotonic()
    message = fails(tmp_path, plan)
    assert time.monotonic() - began < 20
    assert "did not introduce itself within 2 s and was stopped" in message
    assert "GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S sets the wait" in message
    assert gone(int(pid_file.read_text()))


@pytest.mark.parametrize("said_hello", [False, True], ids=["before-hello", "after-hello"])
def test_a_child_outside_the_group_holding_the_pipes_does_not_hold_the_plugin(qgis_app, tmp_path, monkeypatch,
                                                                              said_hello):
    """The runner gave up listening, then closed a pipe that a reader thread still read: the close
    waited for the reader's lock, that is, for ever (until the escaped child ended)."""
    monkeypatch.setenv("GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S", "2")
    pid_file, child_file = tmp_path / "pid", tmp_path / "child"
    plan = [["escape", str(child_file)], ["pid", str(pid_file)], *([HELLO, RESULT] if said_hello else []),
            ["exit", 0] if said_hello else ["sleep", 600]]
    began = time.monotonic()
    try:
        if said_hello:
            assert run_plan(tmp_path, plan).values == {"PANELS": 7}
        else:
            assert "did not introduce itself within 2 s" in fails(tmp_path, plan)
        assert time.monotonic() - began < 30
        assert gone(int(pid_file.read_text()))
    finally:
        if child_file.exists():
            os.kill(int(child_file.read_text()), signal.SIGKILL)


def test_a_backend_that_closes_its_pipes_and_runs_on_is_ended(qgis_app, tmp_path):
    pid_file = tmp_path / "pid"
    message = fails(tmp_path, [["pid", str(pid_file)], ["close"], ["sleep", 600]])
    assert "closed its output and the log but went on running, so it was stopped" in message
    assert gone(int(pid_file.read_text()))


@pytest.mark.parametrize("value", ["inf", "nan", "-5", "0", "soon"])
def test_a_hello_limit_that_is_no_number_keeps_the_default(monkeypatch, value):
    from geofidelity_plugin.qgis_side import backend_runner

    monkeypatch.setenv("GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S", value)
    seconds, note = backend_runner._hello_timeout()
    assert seconds == backend_runner.HELLO_TIMEOUT_S and "GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S" in note


def _wait_for(path: Path, timeout_s: float = 60) -> int:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written within {timeout_s} s")


def test_kill_9_of_qgis_process_ends_a_silent_backend(qgis_env, tmp_path):
    """The issue's case: a backend that never runs GeoFidelity's code (so no parent watch of its
    own) outlived ``qgis_process`` killed with SIGKILL."""
    pid_file = tmp_path / "pid"
    python = fake_backend(tmp_path / "bin", "scripted.py")
    env = dict(qgis_env, GEOFIDELITY_BACKEND_PYTHON=str(python),
               FAKE_BACKEND_PLAN=json.dumps([["pid", str(pid_file)], ["sleep", 600]]))
    (tmp_path / "evaluation").mkdir()
    driver = subprocess.Popen(["qgis_process.bin", "run", "geofidelity:report", "--",
                               f"EVALUATION_FOLDER={tmp_path / 'evaluation'}", f"OUTPUT={tmp_path / 'r.html'}"],
                              env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        backend = _wait_for(pid_file, 120)
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=30)
        assert gone(backend, within_s=5.0), f"the backend {backend} outlived qgis_process"
    finally:
        if driver.poll() is None:
            driver.kill()
        if pid_file.exists():
            try:
                os.killpg(int(pid_file.read_text()), signal.SIGKILL)
            except OSError:
                pass


KILL_PLANS = {
    "silent": [["pid", "{pid}"], ["sleep", 600]],
    "ignores-sigterm": [["pid", "{pid}"], ["ignore-term"], ["sleep", 600]],
    "with-a-child": [["spawn", "{child}"], ["pid", "{pid}"], ["sleep", 600]],
    "after-hello": [HELLO, PROGRESS, ["spawn", "{child}"], ["pid", "{pid}"], ["sleep", 600]],
}


@pytest.mark.parametrize("plan", list(KILL_PLANS.values()), ids=list(KILL_PLANS))
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_no_backend_outlives_its_driver(tmp_path, plan, sig):
    pid_file, child_file = tmp_path / "pid", tmp_path / "child"
    plan = json.loads(json.dumps(plan).replace("{pid}", str(pid_file)).replace("{child}", str(child_file)))
    python = fake_backend(tmp_path / "bin", "scripted.py")
    driver = subprocess.Popen([sys.executable, str(HERE / "run_driver.py"), str(python)],
                              env=dict(os.environ, FAKE_BACKEND_PLAN=json.dumps(plan)), stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    pids = []
    try:
        pids.append(_wait_for(pid_file))
        if child_file.exists():
            pids.append(int(child_file.read_text()))
        driver.send_signal(sig)
        driver.wait(timeout=30)
        left = [pid for pid in pids if not gone(pid, within_s=5.0)]
        assert left == [], f"still running 5 s after the driver got {signal.Signals(sig).name}: {left}"
    finally:
        if driver.poll() is None:
            driver.kill()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


# -- case 9: --events jsonl with standard output closed -----------------------------------------

def _close_stdout():
    os.close(1)


def _read_only_stdout():
    os.dup2(os.open(os.devnull, os.O_RDONLY), 1)


def _stdout_reader_gone():
    read_end, write_end = os.pipe()
    os.close(read_end)
    os.dup2(write_end, 1)


STDOUTS = {"closed": _close_stdout, "read-only": _read_only_stdout, "reader-gone": _stdout_reader_gone}
WORDS = {"closed": "standard output, which is closed", "read-only": "which is not open for writing",
         "reader-gone": "could not be written to standard output"}


@pytest.mark.parametrize("kind", list(STDOUTS))
def test_events_with_stdout_closed_end_in_a_message(kind):
    out = run_cli("--events", "jsonl", "models", "list", preexec_fn=STDOUTS[kind], timeout=120)
    assert_fails_cleanly(out, WORDS[kind])


@pytest.mark.parametrize("kind", ["reader-gone", "read-only"])
def test_a_failed_run_whose_events_are_lost_says_both(tmp_path, kind):
    out = run_cli("--events", "jsonl", "evaluate", "--store", tmp_path / "missing.sqlite", "--out", tmp_path / "o",
                  preexec_fn=STDOUTS[kind], timeout=120)
    assert_fails_cleanly(out, "benchmark store not found" if kind == "reader-gone" else "not open for writing")


def test_events_with_stdout_and_stderr_closed_exit_quietly():
    def close_both():
        os.close(1)
        os.close(2)

    out = run_cli("--events", "jsonl", "models", "list", preexec_fn=close_both, timeout=120)
    assert out.returncode == 2 and out.stderr == ""


@pytest.mark.parametrize("kind", ["closed", "read-only"])
def test_human_output_with_stdout_closed_ends_in_a_message(kind):
    out = run_cli("models", "list", preexec_fn=STDOUTS[kind], timeout=120)
    assert_fails_cleanly(out, "what the command reports would be lost")


def test_human_output_into_a_pipe_closed_early_stays_quiet():
    """``… | head`` keeps the shell's habit: the reader chose to stop, no error and no traceback."""
    out = subprocess.run(f"{sys.executable} -m geofidelity_plugin models list | head -c 10", shell=True,
                         capture_output=True, text=True, cwd=HERE.parents[2], timeout=120,
                         env=dict(os.environ, PYTHONPATH=str(HERE.parents[2])))
    assert no_traceback(out.stderr) and "BrokenPipe" not in out.stderr, out.stderr
