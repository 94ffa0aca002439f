"""Run the GeoFidelity backend — ``python -m geofidelity_plugin --events jsonl COMMAND …`` in the
environment configured in *Settings › Options › GeoFidelity* — as a child process, the way QGIS
runs GRASS or WhiteboxTools.

The backend runs in its own process group: a crash, an out-of-memory kill or a hung model load
ends that process, never QGIS. Its protocol lines (docs/backend-protocol.md) drive the progress
bar and the log; its last line is the result or the error the algorithm reports. Cancel stops
the whole group: SIGTERM, then SIGKILL after a grace period (the backend writes every file
atomically, so a stop at any moment leaves nothing a later run trusts).

Imports only qgis, the standard library and the stdlib-only protocol and network modules.
"""
from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from qgis.core import QgsProcessingException

from geofidelity_plugin.core import child_process
from geofidelity_plugin.core.network import proxy_secrets, scrub
from geofidelity_plugin.qgis_side import backend_settings, network_settings

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
SETTINGS_HINT = ("set the backend in Settings › Options › GeoFidelity (Test backend shows what is wrong; "
                 "Set up backend… creates one)")
_TAIL = 30  # stderr lines kept for a crash message
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


def _pump(stream, tag: str, sink: queue.Queue) -> None:
    for raw in iter(stream.readline, b""):
        sink.put((tag, raw.decode("utf-8", errors="replace").rstrip("\r\n")))
    sink.put((tag, None))


def stop_process_group(proc: subprocess.Popen, grace_s: float = TERMINATE_GRACE_S) -> float:
    """SIGTERM the backend's process group, SIGKILL what is left after ``grace_s``; returns the
    seconds until the backend was gone."""
    return child_process.stop_group(proc, grace_s)


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def run_backend(command: str, args: list[str], feedback=None, *, env: dict | None = None,
                python: str | None = None) -> BackendRun:
    """Run one backend command to its end; relay its events to ``feedback``.

    Raises ``QgsProcessingException`` with the backend's own message on a failure, a crash, a
    protocol mismatch, garbage on stdout or a cancel — never a traceback."""
    events = protocol()
    argv = backend_command(command, args, python)
    if feedback is not None:
        feedback.pushDebugInfo("GeoFidelity backend: " + " ".join(_quote(a) for a in argv))
    child_env = backend_environment(env)
    secrets = proxy_secrets(child_env)  # a proxy password reaches the child, never a message or the log
    proc = _start(argv, child_env)
    LAST_RUN.clear()
    LAST_RUN.update(pid=proc.pid, command=command)
    lines: queue.Queue = queue.Queue()
    readers = [threading.Thread(target=_pump, args=(proc.stdout, "out", lines), daemon=True),
               threading.Thread(target=_pump, args=(proc.stderr, "err", lines), daemon=True)]
    for reader in readers:
        reader.start()
    run = BackendRun(pid=proc.pid)
    final: dict | None = None
    garbage: list[str] = []
    stderr_tail: list[str] = []
    open_streams = 2
    refused: str | None = None
    cancelled = False
    final_at: float | None = None
    stopped_after_final = False
    exited_at: float | None = None
    started_at, hello_limit, silent = time.monotonic(), _hello_timeout(), False
    try:
        while open_streams:
            if not run.hello and not silent and time.monotonic() - started_at > hello_limit:
                silent = True
                stop_process_group(proc)
                continue
            if exited_at is None and proc.poll() is not None:
                exited_at = time.monotonic()
            elif exited_at is not None and time.monotonic() - exited_at > ORPHAN_GRACE_S:
                child_process.kill_group(proc)  # the backend is gone; a child of it still holds the pipes
                if time.monotonic() - exited_at > ORPHAN_GRACE_S + 1.0:
                    break  # a child outside its group: stop listening, the answer is in
            if final_at is not None and time.monotonic() - final_at > EXIT_GRACE_S:
                # it has said its last word but does not exit (a library thread stuck at exit,
                # or a child process that keeps the pipes open): stop the group once
                final_at = None
                stopped_after_final = proc.poll() is None
                stop_process_group(proc)
            if feedback is not None and feedback.isCanceled() and not cancelled:
                cancelled = True
                run.cancel_seconds = stop_process_group(proc)
                LAST_RUN["cancel_seconds"] = run.cancel_seconds
                continue
            try:
                tag, line = lines.get(timeout=0.05)
            except queue.Empty:
                continue
            if line is None:
                open_streams -= 1
                continue
            if tag == "err":
                line = scrub(line, secrets)
                stderr_tail = (stderr_tail + [line])[-_TAIL:]
                if feedback is not None and line.strip():
                    feedback.pushConsoleInfo(line)
                continue
            event = _well_typed(_parse(line))
            if event is None:
                line = scrub(line, secrets)
                garbage.append(line)
                if feedback is not None:
                    feedback.pushConsoleInfo(line)
                continue
            if isinstance(event.get("message"), str):  # what a user reads; paths and values stay exact
                event["message"] = scrub(event["message"], secrets)
            kind = event.get("event")
            if kind == "hello":
                run.hello = event
                refused = _check_protocol(event, events)
                if refused:
                    stop_process_group(proc)
            elif kind in ("result", "error"):
                final = event
                final_at = time.monotonic()
            elif feedback is not None:
                _relay(event, feedback, run)
    finally:
        if proc.poll() is None and (cancelled or refused or silent or final is None):
            stop_process_group(proc)
        code = proc.wait()
        child_process.kill_group(proc)
        for reader in readers:
            reader.join(timeout=1)
        for stream in (proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
    LAST_RUN["returncode"] = code
    if cancelled:
        raise QgsProcessingException(
            f"cancelled — the GeoFidelity backend was stopped in {run.cancel_seconds:.2f} s; files written so far "
            "are complete and a re-run resumes from the caches")
    if refused:
        raise QgsProcessingException(refused)
    if silent:
        raise QgsProcessingException(
            f"the GeoFidelity backend ({argv[0]}) did not introduce itself within {hello_limit:g} s and was stopped "
            "(a Python that hangs at start-up: a site customisation, a network folder that does not answer?) — run "
            f"Test backend in Settings › Options › GeoFidelity to see it start ({HELLO_TIMEOUT_VARIABLE} sets the wait)")
    if final is not None and final.get("event") == "error":
        raise QgsProcessingException(final.get("message") or "the GeoFidelity backend failed without a message")
    if final is not None and final.get("event") == "result" and not run.hello:
        raise QgsProcessingException(
            "the GeoFidelity backend answered without introducing itself (no hello line), so its protocol version "
            f"is unknown — check that the configured executable runs GeoFidelity's own backend; {SETTINGS_HINT}")
    if final is not None and final.get("event") == "result" and (code == 0 or stopped_after_final):
        run.values = dict(final.get("values") or {})
        run.outputs = list(final.get("outputs") or [])
        return run
    raise QgsProcessingException(_crash_message(code, run, garbage, stderr_tail))


def _quote(arg: str) -> str:
    return arg if arg and all(c.isalnum() or c in "-_./:=@,+" for c in arg) else json.dumps(arg)


def _parse(line: str) -> dict | None:
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event if isinstance(event, dict) and isinstance(event.get("event"), str) else None


def _hello_timeout() -> float:
    text = os.environ.get(HELLO_TIMEOUT_VARIABLE, "").strip()
    try:
        return max(1.0, float(text)) if text else HELLO_TIMEOUT_S
    except ValueError:
        return HELLO_TIMEOUT_S


#: each field a driver reads → the type it must have; a field of another type is dropped, so that no
#: line the backend prints (a bug, another version, garbage that parses as JSON) can break the plugin
_FIELD_TYPES = {"message": str, "stage": str, "fraction": (int, float), "values": dict, "outputs": list,
                "key": str, "path": str, "protocol": (str, int, float), "backend_version": str, "executable": str}


def _well_typed(event: dict | None) -> dict | None:
    if event is None:
        return None
    clean = {k: v for k, v in event.items()
             if k not in _FIELD_TYPES or (isinstance(v, _FIELD_TYPES[k]) and not isinstance(v, bool))}
    if isinstance(clean.get("outputs"), list):
        clean["outputs"] = [o for o in clean["outputs"] if isinstance(o, dict) and isinstance(o.get("key"), str)]
    if clean.get("event") == "output" and not isinstance(clean.get("key"), str):
        clean["event"] = "unreadable output"  # shown as an unknown event, never stored as a result
    return clean


def _check_protocol(hello: dict, events) -> str | None:
    version = str(hello.get("protocol", ""))
    try:
        major = int(version.split(".")[0])
    except ValueError:
        major = None
    if major != events.PROTOCOL_MAJOR:
        return (f"the GeoFidelity backend speaks protocol {version or 'unknown'} but this plugin speaks "
                f"{events.PROTOCOL_VERSION} (backend version {hello.get('backend_version', 'unknown')} at "
                f"{hello.get('executable', '?')}). The plugin starts its own copy of the backend code, so the "
                f"configured executable runs other code (a wrapper script or a site customisation) — point "
                f"the setting at a plain Python environment; {SETTINGS_HINT}")
    return None


def _relay(event: dict, feedback, run: BackendRun) -> None:
    kind = event.get("event")
    if kind == "progress":
        fraction = event.get("fraction")
        if isinstance(fraction, (int, float)):
            feedback.setProgress(100.0 * min(1.0, max(0.0, float(fraction))))
        stage = event.get("stage")
        if stage:
            text = stage + (f": {event['message']}" if event.get("message") else "")
            if text != getattr(feedback, "_geofidelity_stage", None):
                feedback._geofidelity_stage = text
                feedback.setProgressText(text)  # it logs the text too: once, not twice
    elif kind == "info":
        feedback.pushInfo(str(event.get("message", "")))
    elif kind == "warning":
        run.warnings.append(str(event.get("message", "")))
        feedback.pushWarning(str(event.get("message", "")))
    elif kind == "output":
        run.outputs.append(event)
    else:  # a newer minor version's event: shown, never fatal
        feedback.pushDebugInfo(f"backend event: {json.dumps(event, ensure_ascii=False)}")


def _crash_message(code: int, run: BackendRun, garbage: list[str], stderr_tail: list[str]) -> str:
    last = [line for line in stderr_tail if line.strip()][-3:]
    said = (" Its last words: " + " | ".join(line.strip()[:200] for line in last)) if last else ""
    if code < 0:
        what = f"crashed ({_signal_name(code)})"
        if -code == getattr(signal, "SIGKILL", 9):
            what += " — most often the system's out-of-memory killer"
        return (f"the GeoFidelity backend {what}; QGIS and your project are unaffected and the store is left "
                f"consistent.{said} — lower the batch size or the model size, or run Test backend in "
                "Settings › Options › GeoFidelity")
    if any("MemoryError" in line or "out of memory" in line.lower() for line in stderr_tail):
        return (f"the GeoFidelity backend ran out of memory (exit {code}).{said} — lower the batch size, close "
                "other programs or use a machine with more memory")
    if garbage and not run.hello:
        sample = garbage[0].strip()[:120]
        return (f"the GeoFidelity backend did not answer in its protocol (it printed {sample!r}, exit {code}) — "
                f"check that the configured executable is a Python with GeoFidelity's backend; {SETTINGS_HINT}")
    if not run.hello:
        return (f"the GeoFidelity backend stopped before it started (exit {code}).{said} — {SETTINGS_HINT}")
    return (f"the GeoFidelity backend ended without a result (exit {code}).{said} — run it again; if it "
            "repeats, run Test backend in Settings › Options › GeoFidelity and report the log")
