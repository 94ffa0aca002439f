"""Running one step of the backend setup as a child process (``<python> -m venv``, pip, the doctor).

Each child starts in its own process group, so that Cancel, a step's time limit or Ctrl-C stops it
with everything it started; its output goes to the log with any secret (a proxy password) taken
out first. :class:`~geofidelity_plugin.backend_setup.venv_setup.BackendSetup` builds on this and
sets what it reads: ``venv``, ``secrets``, ``on_line``, ``on_progress``, ``cancelled``, ``_proc``
and ``_lock``.
"""
from __future__ import annotations

import os
import subprocess
import threading

from geofidelity_plugin.core import child_process
from geofidelity_plugin.backend_setup.pip_output import PipProgress
from geofidelity_plugin.backend_setup.profiles import SetupCancelled, SetupError

#: the longest one step may take (seconds; GEOFIDELITY_SETUP_STEP_LIMIT_S overrides): a stalled
#: mirror or proxy ends in a message that names the step, not in a dialog that waits for ever
STEP_LIMIT_S = {"creating the environment": 600, "installing": 7200, "running the doctor": 900}
STEP_LIMIT_VARIABLE = "GEOFIDELITY_SETUP_STEP_LIMIT_S"
TERMINATE_GRACE_S = 1.0


class StepRunner:
    """The child-process side of a setup: one step at a time, stopped as a whole group."""

    def cancel(self) -> None:
        self.cancelled.set()
        with self._lock:
            proc = self._proc
        if proc is not None:
            child_process.stop_group_later(proc, TERMINATE_GRACE_S)

    def _step_limit(self, step: str) -> float:
        text = os.environ.get(STEP_LIMIT_VARIABLE, "").strip()
        try:
            return float(text) if text else float(STEP_LIMIT_S.get(step, 3600))
        except ValueError:
            raise SetupError(f"{STEP_LIMIT_VARIABLE}={text!r} is not a number of seconds — give one, or unset it") \
                from None

    def _run(self, argv: list[str], env: dict, parser: PipProgress | None = None,
             sink: list | None = None, step: str = "a setup step") -> tuple[int, list[str]]:
        """Run one child in its own process group, for at most the step's time limit; stdout+stderr
        lines go to the log (or to ``sink``). Returns the exit code and the last 40 lines."""
        if self.cancelled.is_set():
            raise self._cancelled()
        limit = self._step_limit(step)
        timed_out = threading.Event()
        tail: list[str] = []
        try:
            proc = child_process.start(argv, env, stderr=subprocess.STDOUT if sink is None else subprocess.PIPE,
                                       text=True)
        except OSError as exc:
            raise SetupError(f"{argv[0]} could not start ({exc.strerror or exc}) — check the path") from None
        with self._lock:
            self._proc = proc

        def time_out():
            timed_out.set()
            child_process.stop_group_later(proc, TERMINATE_GRACE_S)

        watchdog = threading.Timer(limit, time_out)
        watchdog.daemon = True
        watchdog.start()
        try:
            if sink is not None:  # the doctor: protocol lines on stdout, its log on stderr
                out, err = proc.communicate()
                from geofidelity_plugin.core.secrets import scrub

                sink.extend(out.splitlines())
                tail = [scrub(line, self.secrets) for line in err.splitlines()[-40:]]
            else:
                from geofidelity_plugin.core.secrets import scrub

                for raw in proc.stdout:
                    line = scrub(raw.rstrip("\r\n"), self.secrets)  # the tail may end up in a message
                    tail = (tail + [line])[-40:]
                    self._log(line)
                    step = parser.feed(line) if parser else None
                    if step:
                        self._progress(*step)
            code = proc.wait()
        except BaseException:  # Ctrl-C in the CLI, a failing callback: leave no child behind
            child_process.signal_group(proc, child_process.KILL)
            proc.wait()
            raise
        finally:
            watchdog.cancel()
            with self._lock:
                self._proc = None
        if timed_out.is_set():
            child_process.kill_group(proc)
            raise SetupError(f"{step} did not finish within {limit:g} s and was stopped (a stalled package index, "
                             f"mirror or proxy?) — check the network and pip's configuration (pip config list), then "
                             f"run Set up backend again: it reuses the folder ({STEP_LIMIT_VARIABLE} sets the limit)")
        if self.cancelled.is_set():  # children that outlived the leader
            child_process.kill_group(proc)
        if self.cancelled.is_set():
            raise self._cancelled()
        return code, tail

    def _cancelled(self) -> SetupCancelled:
        return SetupCancelled(f"cancelled — the environment at {self.venv} is incomplete and has no profile record; "
                              "run Set up backend again (it reuses the folder) or delete the folder")

    def _log(self, text: str) -> None:
        from geofidelity_plugin.core.secrets import scrub

        self.on_line(scrub(text, self.secrets))  # pip may quote a proxy URL with its password (no-op if done)

    def _progress(self, fraction: float, stage: str) -> None:
        self.on_progress(fraction, stage)
