"""Run the GeoFidelity backend — ``python -m geofidelity_plugin --events jsonl COMMAND …`` in the
environment configured in *Settings › Options › GeoFidelity* — as a child process, the way QGIS
runs GRASS or WhiteboxTools.

The backend runs in its own process group: a crash, an out-of-memory kill or a hung model load
ends that process, never QGIS. Its protocol lines (docs/backend-protocol.md) drive the progress
bar and the log; its result or its error is what the algorithm reports. Cancel stops
the whole group: SIGTERM, then SIGKILL after a grace period (the backend writes every file
atomically, so a stop at any moment leaves nothing a later run trusts).

The plugin never loses the backend's last word: stdout and stderr are read at once, the log with
a bounded tail (core/child_streams.py), so a flood of warnings never hides the result; an
``error`` line fails the run whatever follows it; a backend that has not said hello within
:data:`HELLO_TIMEOUT_S` is stopped with a message; and no backend outlives QGIS or
``qgis_process``, killed or not (core/child_process.py's reaper). Every wait here has a limit.

Imports only qgis, the standard library and the stdlib-only protocol and network modules.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from qgis.core import QgsProcessingException

from geofidelity_plugin.core import child_process, child_streams
from geofidelity_plugin.core.network import proxy_secrets, scrub
from geofidelity_plugin.qgis_side import backend_settings, network_settings
from geofidelity_plugin.qgis_side.backend_lines import (SETTINGS_HINT, check_protocol, crash_message, parse,
                                                       relay)

#: seconds between SIGTERM and SIGKILL on cancel; the whole stop stays under 2 s
TERMINATE_GRACE_S = 1.0
#: seconds a backend may take to exit after its last line (result or error) before it is stopped
EXIT_GRACE_S = 5.0
#: seconds the pipes may stay open after the backend itself has exited (a child it started still
#: holds them) before the rest of its process group is killed
ORPHAN_GRACE_S = 2.0
#: QGIS's own geo-library settings: a backend with its own PROJ/GDAL must not inherit them
_QGIS_ONLY_VARIABLES = ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PROJ_LIB", "PROJ_DATA", "GDAL_DATA",
                        "GDAL_DRIVER_PATH", "GDAL_PLUGINS")
#: seconds a started backend has to say hello (GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S overrides): a
#: Python that hangs at start-up (a site customisation, an unreachable network folder) is a message
HELLO_TIMEOUT_S = 120.0
HELLO_TIMEOUT_VARIABLE = "GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S"


@dataclass
class BackendRun:
    """What a finished backend run produced."""

    values: dict = field(default_factory=dict)
    outputs: list = field(default_factory=list)
    hello: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    pid: int | None = None
    cancel_seconds: float | None = None

    def output(self, key: str) -> dict | None:
        return next((o for o in self.outputs if o.get("key") == key), None)

    def path(self, key: str) -> str | None:
        record = self.output(key)
        path = record.get("path") if record else None
        return path if isinstance(path, str) else None


#: the last run's process id and stop time, for tests and the log (never used to decide anything)
LAST_RUN: dict = {}


def protocol():
    """The plugin's own copy of the protocol definitions (stdlib only)."""
    from geofidelity_plugin.core import events

    return events


def backend_command(command: str, args: list[str], python: str | None = None) -> list[str]:
    python = python or resolve_python()
    return [python, "-m", "geofidelity_plugin", "--events", "jsonl", command, *[str(a) for a in args]]


def resolve_python() -> str:
    python, source = backend_settings.backend_python()
    if not python:
        raise QgsProcessingException(f"no GeoFidelity backend is configured — {SETTINGS_HINT}")
    path = Path(python).expanduser()
    if not path.exists():
        raise QgsProcessingException(f"the GeoFidelity backend Python {python} (from {source}) does not exist — "
                                     f"{SETTINGS_HINT}")
    if not os.access(path, os.X_OK):
        raise QgsProcessingException(f"the GeoFidelity backend Python {python} (from {source}) is not executable — "
                                     f"{SETTINGS_HINT}")
    return str(path)


def backend_environment(extra: dict | None = None) -> dict:
    """The child's environment: QGIS's own Python settings removed, this plugin's code first,
    QGIS's proxy in the usual variables (qgis_side/network_settings.py)."""
    env = {k: v for k, v in os.environ.items() if k not in _QGIS_ONLY_VARIABLES}
    network_settings.apply_qgis_proxy(env)
    # GEOFIDELITY_BACKEND_PYTHONPATH: extra folders for the backend only (QGIS's own PYTHONPATH
    # points at QGIS's Python and must not reach another interpreter)
    extra_path = os.environ.get("GEOFIDELITY_BACKEND_PYTHONPATH", "")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(backend_settings.plugin_folder()), extra_path]))
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    models = backend_settings.models_dir()
    if models:  # the models folder is the Hugging Face cache the backend reads (and the doctor lists)
        env["GEOFIDELITY_MODELS_DIR"] = models
        if "HF_HOME" not in env and "HF_HUB_CACHE" not in env:
            env["HF_HUB_CACHE"] = models
    env.update(extra or {})
    return env


def _start(argv: list[str], env: dict) -> subprocess.Popen:
    try:
        return child_process.start(argv, env)  # its own process group: cancel stops every child too
    except OSError as exc:
        raise QgsProcessingException(f"the GeoFidelity backend could not start ({argv[0]}: {exc.strerror or exc}) — "
                                     f"{SETTINGS_HINT}") from None


def stop_process_group(proc: subprocess.Popen, grace_s: float = TERMINATE_GRACE_S) -> float:
    """SIGTERM the backend's process group, SIGKILL what is left after ``grace_s``; returns the
    seconds until the backend was gone."""
    return child_process.stop_group(proc, grace_s)


def run_backend(command: str, args: list[str], feedback=None, *, env: dict | None = None,
                python: str | None = None) -> BackendRun:
    """Run one backend command to its end; relay its events to ``feedback``.

    Raises ``QgsProcessingException`` with the backend's own message on a failure, a crash, a
    protocol mismatch, garbage on stdout or a cancel — never a traceback."""
    argv = backend_command(command, args, python)
    if feedback is not None:
        feedback.pushDebugInfo("GeoFidelity backend: " + " ".join(_quote(a) for a in argv))
    child_env = backend_environment(env)
    hello_limit, hello_note = _hello_timeout()
    if hello_note and feedback is not None:
        feedback.pushWarning(hello_note)
    proc = _start(argv, child_env)
    LAST_RUN.clear()
    LAST_RUN.update(pid=proc.pid, command=command)
    # a proxy password reaches the child, never a message or the log
    session = _Session(proc, feedback, proxy_secrets(child_env), hello_limit)
    try:
        session.listen()
    finally:
        code = session.finish()
    LAST_RUN["returncode"] = code
    return session.verdict(argv[0], code)


class _Session:
    """One backend run as the plugin hears it: stdout and stderr read at once (core/child_streams.py),
    the time limits, and what the run's answer is. An ``error`` line is the answer whatever follows
    it (a ``result`` after it included): a failure is never shown as a success."""

    def __init__(self, proc: subprocess.Popen, feedback, secrets, hello_limit: float):
        self.proc, self.feedback, self.secrets, self.hello_limit = proc, feedback, secrets, hello_limit
        self.streams = child_streams.ChildStreams(proc)
        self.run = BackendRun(pid=proc.pid)
        self.result: dict | None = None
        self.error: dict | None = None  # the first error line
        self.garbage: list[str] = []
        self.refused: str | None = None
        self.cancelled = self.silent = self.stopped_after_final = self.mute = False
        self.started_at = time.monotonic()
        self.final_at: float | None = None
        self.exited_at: float | None = None

    def listen(self) -> None:
        while not self.streams.drained():
            for tag, line in self.streams.take(timeout=0.05):
                self._line(tag, line)
            if self._watch(time.monotonic()):
                for tag, line in self.streams.take(timeout=0, most=10 ** 9):
                    self._line(tag, line)
                break
        self.mute = self.streams.ended() and self.proc.poll() is None  # closed its pipes, runs on
        if self.streams.left_out and self.feedback is not None:
            self.feedback.pushInfo(f"{self.streams.left_out} lines of the backend's log were left out (it wrote them "
                                   "faster than the log shows them); a failure's message quotes its last lines")

    def _watch(self, now: float) -> bool:
        """The time limits; True when listening should stop although the pipes are still open."""
        proc = self.proc
        if not self.run.hello and not self.silent and not self.refused and now - self.started_at > self.hello_limit:
            self.silent = True
            stop_process_group(proc)
        if self.exited_at is None and proc.poll() is not None:
            self.exited_at = now
        elif self.exited_at is not None and not self.streams.ended() and now - self.exited_at > ORPHAN_GRACE_S:
            child_process.kill_group(proc)  # the backend is gone; a child of it still holds the pipes
            if now - self.exited_at > ORPHAN_GRACE_S + 1.0:
                return True  # a child outside its group: take what has come, the answer is in
        if self.final_at is not None and now - self.final_at > EXIT_GRACE_S:
            # it has said its last word but does not exit (a library thread stuck at exit,
            # or a child process that keeps the pipes open): stop the group once
            self.final_at = None
            self.stopped_after_final = proc.poll() is None
            stop_process_group(proc)
        if self.feedback is not None and self.feedback.isCanceled() and not self.cancelled:
            self.cancelled = True
            self.run.cancel_seconds = stop_process_group(proc)
            LAST_RUN["cancel_seconds"] = self.run.cancel_seconds
        return False

    def _line(self, tag: str, line: str) -> None:
        feedback = self.feedback
        if tag == "err":
            if feedback is not None and line.strip():
                feedback.pushConsoleInfo(scrub(line, self.secrets))
            return
        event = parse(line)
        if event is None:
            line = scrub(line, self.secrets)
            if len(self.garbage) < 5:
                self.garbage.append(line[:500])
            if feedback is not None:
                feedback.pushConsoleInfo(line)
            return
        if isinstance(event.get("message"), str):  # what a user reads; paths and values stay exact
            event["message"] = scrub(event["message"], self.secrets)
        kind = event.get("event")
        if kind == "hello":
            self.run.hello = event
            self.refused = check_protocol(event, protocol())
            if self.refused:
                stop_process_group(self.proc)
        elif kind in ("result", "error"):
            if kind == "result":
                self.result = event
            elif self.error is None:
                self.error = event
            self.final_at = time.monotonic()
        elif feedback is not None:
            relay(event, feedback, self.run)

    def finish(self) -> int | None:
        """Make sure the backend and its group are gone; its exit code (None: it outlived SIGKILL)."""
        proc = self.proc
        if proc.poll() is None:
            answered = self.result is not None or self.error is not None
            if answered and not (self.cancelled or self.refused or self.silent):
                try:
                    proc.wait(timeout=EXIT_GRACE_S)
                except subprocess.TimeoutExpired:
                    self.stopped_after_final = True
            if proc.poll() is None:
                stop_process_group(proc)
        try:
            code = proc.wait(timeout=child_process.KILL_WAIT_S)
        except subprocess.TimeoutExpired:
            code = None
        child_process.kill_group(proc)
        self.streams.join(timeout=1)
        return code

    def verdict(self, executable: str, code: int | None) -> BackendRun:
        run = self.run
        if self.cancelled:
            raise QgsProcessingException(
                f"cancelled — the GeoFidelity backend was stopped in {run.cancel_seconds:.2f} s; files written so "
                "far are complete and a re-run resumes from the caches")
        if self.refused:
            raise QgsProcessingException(self.refused)
        if self.silent:
            raise QgsProcessingException(
                f"the GeoFidelity backend ({executable}) did not introduce itself within {self.hello_limit:g} s and "
                "was stopped (a Python that hangs at start-up: a site customisation, a network folder that does not "
                "answer?) — run Test backend in Settings › Options › GeoFidelity to see it start "
                f"({HELLO_TIMEOUT_VARIABLE} sets the wait)")
        if self.error is not None:
            raise QgsProcessingException(self.error.get("message") or self._said(
                "the GeoFidelity backend failed without a message", "run it again with GEOFIDELITY_DEBUG=1"))
        if code is None:
            raise QgsProcessingException(self._said(
                f"the GeoFidelity backend (pid {run.pid}) did not end even after SIGKILL — it is stuck in the "
                "system (a network folder or a device that does not answer?)", "end it with your system's task "
                "manager once that folder answers, then run again"))
        if self.result is not None and not run.hello:
            raise QgsProcessingException(
                "the GeoFidelity backend answered without introducing itself (no hello line), so its protocol "
                f"version is unknown — check that the configured executable runs GeoFidelity's own backend; "
                f"{SETTINGS_HINT}")
        if self.result is not None and (code == 0 or self.stopped_after_final):
            run.values = dict(self.result.get("values") or {})
            run.outputs = list(self.result.get("outputs") or [])
            return run
        if self.mute:
            raise QgsProcessingException(self._said(
                "the GeoFidelity backend closed its output and the log but went on running, so it was stopped "
                f"({'no answer' if run.hello else 'it never introduced itself'})", SETTINGS_HINT))
        raise QgsProcessingException(crash_message(code, run, self.garbage, self._tail()))

    def _tail(self) -> list[str]:
        return [scrub(line, self.secrets) for line in self.streams.tail.lines()]

    def _said(self, problem: str, fix: str) -> str:
        last = [line.strip()[:200] for line in self._tail() if line.strip()][-3:]
        return problem + (". Its last words: " + " | ".join(last) if last else "") + f" — {fix}"


def _quote(arg: str) -> str:
    return arg if arg and all(c.isalnum() or c in "-_./:=@,+" for c in arg) else json.dumps(arg)


def _hello_timeout() -> tuple[float, str | None]:
    """The hello limit in seconds, and a warning when the variable holds no usable number (then the
    default applies: a limit that cannot be read must not become no limit at all)."""
    text = os.environ.get(HELLO_TIMEOUT_VARIABLE, "").strip()
    if not text:
        return HELLO_TIMEOUT_S, None
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        return HELLO_TIMEOUT_S, (f"{HELLO_TIMEOUT_VARIABLE}={text!r} is not a number of seconds above 0; the backend "
                                 f"gets the default {HELLO_TIMEOUT_S:g} s to start — give a number, or unset it")
    return max(1.0, seconds), None
