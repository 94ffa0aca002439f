"""The backend protocol: ``python -m geofidelity_plugin --events jsonl COMMAND …`` writes one JSON
object per line on stdout, so that a driver (the QGIS plugin, a notebook, a scheduler) follows a
run without parsing human text. Documented for users in docs/backend-protocol.md.

Every line is an object with an ``"event"`` key:

``hello``     first line: ``protocol`` ("MAJOR.MINOR"), ``command``, ``backend_version``, ``pid``,
              ``python``. A driver refuses a backend of another protocol major version.
``progress``  ``fraction`` (0–1), ``stage`` (what runs now), optional ``message``.
``info`` / ``warning``  ``message``.
``output``    a produced file: ``key``, ``path``; for a map layer also ``layer`` (an OGR URI),
              ``name``, ``style`` (a ``.qml`` of resources/styles) and ``properties`` (custom
              layer properties, e.g. the store the inspector reads).
``result``    last line of a run that succeeded: ``exit_code`` 0 and ``values`` (counts, paths).
``error``     last line of a run that failed: ``kind`` (input, output, remote, system, memory,
              cancelled, bug), ``message`` (the whole sentence a user reads), ``fix`` (its remedy part, when
              the message has one) and ``exit_code``.

Stdlib only: QGIS's side imports this module to read the same definitions it writes.
In ``jsonl`` mode the real stdout carries only these lines; anything else a library prints goes
to stderr, which a driver shows as a log.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time

PROTOCOL_VERSION = "1.0"
PROTOCOL_MAJOR = int(PROTOCOL_VERSION.split(".")[0])
EVENT_KINDS = ("hello", "progress", "info", "warning", "output", "result", "error")
ERROR_KINDS = ("input", "output", "remote", "system", "memory", "cancelled", "bug")


class EventStream:
    """Writes protocol lines to one text stream; safe to call from worker threads.

    A line that cannot be written (the reader has gone: EPIPE; a descriptor not open for writing:
    EBADF) does not stop the run — its files are still written atomically — but it is remembered
    in ``lost``, and the command line ends with an ``error:`` and exit 2 instead of a success
    nobody heard (backend/cli.py). Nothing more is tried on that stream."""

    def __init__(self, stream, owns_fd: bool = False):
        self.stream = stream
        self.lock = threading.Lock()
        self.values: dict = {}
        self.outputs: list[dict] = []
        self.written = 0
        self.lost: str | None = None  # why the stream stopped taking lines
        self.last_error: str | None = None  # the message of the run's error line, if it had one
        self._owns_fd = owns_fd

    def emit(self, event: str, **fields) -> None:
        line = json.dumps({"event": event, **fields}, ensure_ascii=False, default=str)
        with self.lock:
            if self.lost is not None:
                return
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (OSError, ValueError) as exc:  # BrokenPipeError is an OSError
                self._lose(exc)
                return
            self.written += 1

    def _lose(self, exc: BaseException) -> None:
        self.lost = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        if not self._owns_fd:
            return
        try:  # the unwritten rest goes nowhere, so no flush at exit fails again with a traceback
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass


_ACTIVE: EventStream | None = None


def claim_standard_streams() -> dict[str, str]:
    """Put ``/dev/null`` on each standard descriptor (0, 1, 2) that is closed, so that no file the
    run opens takes its number (a stray ``print`` or a C library's message would write into that
    file), and say which of stdout and stderr cannot take text: ``{"stdout": "closed"}`` or
    ``"not open for writing"``. A closed stderr becomes a quiet ``sys.stderr``."""
    found: dict[str, str] = {}
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            try:
                devnull = os.open(os.devnull, os.O_RDWR)
                if devnull != fd:
                    os.dup2(devnull, fd)
                    os.close(devnull)
            except OSError:
                pass
            found[name] = "closed"
            continue
        if name != "stdin" and not _writable(fd):
            found[name] = "not open for writing"
    if "stderr" in found:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 — lives as long as the process
    return found


def _writable(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: a handle's mode is not asked; a failed write is caught instead
        return True
    try:
        return (fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE) in (os.O_WRONLY, os.O_RDWR)
    except OSError:
        return False


def closed_stdout_message(state: str, jsonl: bool) -> str:
    """What to say when standard output is ``state`` ("closed", "not open for writing") at start."""
    if jsonl:
        return (f"--events jsonl writes the run's events to standard output, which is {state}, so nobody would "
                "hear how the run ends — give it an open standard output (the pipe its driver reads, or a file: "
                "> events.jsonl)")
    return (f"standard output is {state}, so what the command reports would be lost — run it with standard output "
            "open (> report.txt keeps it; > /dev/null discards it on purpose)")


def lost_message(stream: EventStream, code: int) -> str:
    """The ``error:`` line of a run whose events stopped reaching standard output."""
    if not code:
        outcome = "the run itself finished, and its files are complete"
    else:
        outcome = f"the run itself ended with exit {code}" + (f": {stream.last_error}" if stream.last_error else "")
    return (f"the run's events could not be written to standard output after {stream.written} line(s) "
            f"({stream.lost}: its reader has gone, or it is not open for writing); {outcome} — keep standard "
            "output open and read it until the run ends (a driver that no longer wants the run stops it with "
            "SIGTERM)")


def activate_jsonl() -> EventStream:
    """Keep the real stdout for protocol lines only, and send file descriptor 1 (stray ``print``,
    C libraries, progress bars) to stderr."""
    global _ACTIVE
    if sys.stdout is not None:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
    events_fd = os.dup(1)
    os.dup2(2, 1)
    from .secrets import ScrubbingStream, known_secrets

    # protocol lines carry messages a driver shows: no secret in them either (core/secrets.py)
    stream = ScrubbingStream(os.fdopen(events_fd, "w", encoding="utf-8", buffering=1), known_secrets())
    _ACTIVE = EventStream(stream, owns_fd=True)
    return _ACTIVE


def use_stream(stream) -> EventStream:
    """Emit to ``stream`` (tests, embedding); ``None`` switches events off."""
    global _ACTIVE
    _ACTIVE = EventStream(stream) if stream is not None else None
    return _ACTIVE


def active() -> EventStream | None:
    return _ACTIVE


def emit(event: str, **fields) -> None:
    if _ACTIVE is not None:
        _ACTIVE.emit(event, **fields)


def output(key: str, path, *, layer: str | None = None, name: str | None = None, style: str | None = None,
           properties: dict | None = None) -> None:
    """Announce a produced file (and, for a map layer, how to show it). No-op in human mode."""
    if _ACTIVE is None:
        return
    record = {"key": key, "path": str(path)}
    if layer is not None:
        record.update(layer=layer, name=name or key, style=style, properties=properties or {})
    _ACTIVE.outputs.append(record)
    _ACTIVE.emit("output", **record)


def value(key: str, val) -> None:
    """A value for the final ``result`` line (a count, a path, a number)."""
    if _ACTIVE is not None:
        _ACTIVE.values[key] = val


def hello(command: str) -> None:
    emit("hello", protocol=PROTOCOL_VERSION, command=command, backend_version=backend_version(),
         pid=os.getpid(), python=sys.version.split()[0], executable=sys.executable)


def backend_version() -> str:
    from pathlib import Path

    for meta in (Path(__file__).resolve().parents[2] / "metadata.txt",
                 Path(__file__).resolve().parents[1] / "metadata.txt"):
        try:
            for line in meta.read_text(encoding="utf-8").splitlines():
                if line.startswith("version="):
                    return line.split("=", 1)[1].strip()
        except OSError:
            continue
    return "unknown"


def error_kind(exc: BaseException) -> str:
    from .errors import Cancelled, InputError, OutputError, RemoteServiceError, is_out_of_memory

    if isinstance(exc, (Cancelled, KeyboardInterrupt)):
        return "cancelled"
    if is_out_of_memory(exc):
        return "memory"
    for cls, kind in ((InputError, "input"), (OutputError, "output"), (RemoteServiceError, "remote")):
        if isinstance(exc, cls):
            return kind
    import sqlite3

    if isinstance(exc, (OSError, sqlite3.DatabaseError, ImportError)):
        return "system"  # a file, folder, disk or database the message names
    return "bug"


def split_fix(message: str) -> str | None:
    """The remedy of a message written as "<problem> — <fix>" (the house style), if any."""
    if " — " in message:
        return message.rsplit(" — ", 1)[1].strip() or None
    return None


def error(kind: str, message: str, exit_code: int) -> None:
    if _ACTIVE is not None:
        _ACTIVE.last_error = message
    emit("error", kind=kind, message=message, fix=split_fix(message), exit_code=exit_code)


def result(exit_code: int = 0) -> None:
    if _ACTIVE is not None:
        _ACTIVE.emit("result", exit_code=exit_code, values=_ACTIVE.values, outputs=_ACTIVE.outputs)


class EventProgress:
    """The core's ``Progress`` as protocol lines. Progress lines are thinned (at most one per
    0.5 % or per 0.2 s) so that a fast loop does not flood the driver."""

    def __init__(self, stage: str, stream: EventStream | None = None):
        self.stage = stage
        self.stream = stream or _ACTIVE
        self.cancel_requested = False
        self._last = (-1.0, 0.0)

    def _emit(self, event: str, **fields) -> None:
        if self.stream is not None:
            self.stream.emit(event, **fields)

    def set_progress(self, percent: float) -> None:
        fraction = min(1.0, max(0.0, float(percent) / 100.0))
        now = time.monotonic()
        last_fraction, last_time = self._last
        if fraction in (0.0, 1.0) or abs(fraction - last_fraction) >= 0.005 or now - last_time >= 0.2:
            self._last = (fraction, now)
            self._emit("progress", fraction=round(fraction, 5), stage=self.stage)

    def set_stage(self, stage: str, message: str | None = None) -> None:
        """Name what runs now (a driver shows it above the progress bar)."""
        self.stage = stage
        self._emit("progress", fraction=max(0.0, self._last[0]), stage=stage,
                   **({"message": message} if message else {}))

    def info(self, message: str) -> None:
        self._emit("info", message=message)

    def warning(self, message: str) -> None:
        self._emit("warning", message=message)

    def is_canceled(self) -> bool:
        return self.cancel_requested

    def close(self) -> None:
        pass


def announce_stage(progress, stage: str, message: str | None = None) -> None:
    """Tell a driver what starts now (e.g. "loading the feature model"): a protocol line in
    ``jsonl`` mode, nothing for a progress object that has no stages."""
    setter = getattr(progress, "set_stage", None)
    if setter is not None:
        setter(stage, message)
    elif _ACTIVE is not None:
        _ACTIVE.emit("progress", fraction=None, stage=stage, **({"message": message} if message else {}))
