"""Child processes in a process group of their own — the one runner behind every child GeoFidelity
starts from QGIS: the backend runs (``qgis_side/backend_runner.py``) and the setup tool's venv,
pip and doctor steps (``backend_setup/venv_setup.py``).

A child started here leads its own group (POSIX: a new session; Windows: a new process group), so
that a stop reaches the children it starts in turn (pip's builds, data-loader workers), and a
signal QGIS receives does not reach it. Stopping is SIGTERM to the group, then SIGKILL to what is
left after a grace period; on Windows ``terminate``/``kill`` of the child (Windows has no
process-group signals: a child's own children end with their console).

Standard library only: the QGIS room and the setup room import it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

#: the environment variable that gives a child its driver's pid (core/parent_watch.py)
PARENT_ENV = "GEOFIDELITY_PARENT_PID"

#: Windows process-creation flags (subprocess names them on Windows only)
WINDOWS_NEW_GROUP = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x00000200)
WINDOWS_NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0x08000000)
#: SIGKILL where the platform has it (not on Windows)
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)


def group_options() -> dict:
    """The ``Popen`` arguments that make a child lead its own process group on this platform."""
    if sys.platform == "win32":
        # no console window flashing up per run or per pip step (QGIS is a GUI program)
        return {"creationflags": WINDOWS_NEW_GROUP | WINDOWS_NO_WINDOW}
    return {"start_new_session": True}


def start(argv: list[str], env: dict, *, stderr=subprocess.PIPE, text: bool = False) -> subprocess.Popen:
    """Start ``argv`` with no stdin, stdout piped and ``stderr`` as given (a pipe, or
    ``subprocess.STDOUT`` to merge it), in its own process group. Text mode decodes UTF-8 line by
    line, replacing what does not decode. ``OSError`` when it cannot start."""
    kwargs = group_options()
    env = {**env, PARENT_ENV: str(os.getpid())}  # the child ends when this process goes (parent_watch.py)
    if text:
        kwargs.update(text=True, encoding="utf-8", errors="replace", bufsize=1)
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, env=env,
                            **kwargs)


def signal_group(proc: subprocess.Popen, sig) -> None:
    """Send ``sig`` to the child's whole group (Windows: ``kill`` for SIGKILL, else ``terminate``);
    a group already gone is no error."""
    try:
        if sys.platform == "win32":
            proc.kill() if sig == KILL else proc.terminate()
        else:
            os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def kill_group(proc: subprocess.Popen) -> None:
    """Kill what is left of the child's group (children that outlived it). No-op on Windows."""
    if sys.platform != "win32":
        signal_group(proc, KILL)


def stop_group(proc: subprocess.Popen, grace_s: float) -> float:
    """SIGTERM the child's group, SIGKILL what is left after ``grace_s``, wait for the child;
    returns the seconds until it was gone."""
    began = time.monotonic()
    if proc.poll() is None:
        signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            signal_group(proc, KILL)
            proc.wait()
    kill_group(proc)
    return time.monotonic() - began


def stop_group_later(proc: subprocess.Popen, grace_s: float) -> None:
    """SIGTERM the child's group now and SIGKILL it after ``grace_s`` from a timer thread — for a
    caller (a Cancel button) that must not wait."""
    signal_group(proc, signal.SIGTERM)
    timer = threading.Timer(grace_s, signal_group, (proc, KILL))
    timer.daemon = True
    timer.start()


def stop_own_group() -> None:
    """SIGTERM to this process's group when it leads one (a child started by :func:`start`), which
    reaches the children it started; otherwise to this process alone."""
    try:
        if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
            os.killpg(os.getpid(), signal.SIGTERM)
        else:
            os.kill(os.getpid(), signal.SIGTERM)
    except OSError:
        pass
