"""Child processes in a process group of their own — the one runner behind every child GeoFidelity
starts from QGIS: the backend runs (``qgis_side/backend_runner.py``) and the setup tool's venv,
pip and doctor steps (``backend_setup/venv_setup.py``).

A child started here leads its own group (POSIX: a new session; Windows: a new process group), so
that a stop reaches the children it starts in turn (pip's builds, data-loader workers), and a
signal QGIS receives does not reach it. Stopping is SIGTERM to the group, then SIGKILL to what is
left after a grace period. Windows has no process-group signals: there each child is put in a
kill-on-close Job Object (:func:`job_for`), so a kill ends the whole tree and QGIS's exit,
crash included, ends it too; SIGTERM is ``terminate`` of the leader.

Elsewhere a *reaper* stands by each child (:class:`GroupChild`): a ``/bin/sh`` in a session of its own
that waits on a pipe only this process holds. When this process ends in any way — SIGKILL of
``qgis_process`` included, where no handler or ``atexit`` runs — the pipe closes and the reaper ends
the child's whole group. The backend's own watch (core/parent_watch.py) does the same from inside,
but only once the backend's code runs: a Python that hangs at start-up never gets there.

Standard library only: the QGIS room and the setup room import it.
"""
from __future__ import annotations

import ctypes
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
#: seconds a child may take to be gone after SIGKILL before a stop stops waiting for it
KILL_WAIT_S = 5.0


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
    proc = GroupChild(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, env=env, **kwargs)
    proc.geofidelity_job = job_for(proc)  # None off Windows
    proc.reaper = start_reaper(proc.pid)  # None on Windows (the job does it there)
    return proc


#: what the reaper runs: wait for the pipe to close (this process has ended), then SIGTERM the
#: child's group, and SIGKILL what is left after up to 2 s; "$0" is the group's id
_REAPER_SCRIPT = ('read -r _; kill -TERM -"$0" 2>/dev/null || exit 0; i=0; '
                  'while [ $i -lt 20 ] && kill -0 -"$0" 2>/dev/null; do sleep 0.1; i=$((i+1)); done; '
                  'kill -KILL -"$0" 2>/dev/null; exit 0')


class Reaper:
    """The reaper process and the pipe end that keeps it waiting."""

    def __init__(self, proc: subprocess.Popen, hold: int):
        self.proc, self.hold = proc, hold

    def release(self) -> None:
        """The child is gone: end the reaper first (so that closing the pipe signals nothing)."""
        if self.proc is None:
            return
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.close(self.hold)
        except OSError:
            pass
        self.proc = None


def start_reaper(group: int, shell: str = "/bin/sh") -> Reaper | None:
    """A reaper for the process group ``group``, or None where there is none to start (Windows,
    no ``/bin/sh``): the child then runs as before, ended by its own parent watch."""
    if sys.platform == "win32" or not os.path.exists(shell):
        return None
    wait_end, hold = os.pipe()  # not inheritable (PEP 446): no other child keeps the reaper waiting
    try:
        reaper = subprocess.Popen([shell, "-c", _REAPER_SCRIPT, str(group)], stdin=wait_end,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **group_options())
    except OSError:
        os.close(hold)
        return None
    finally:
        os.close(wait_end)
    return Reaper(reaper, hold)


class GroupChild(subprocess.Popen):
    """A child that leads its own group, with its reaper released once the child has been waited
    for (a pid that has been reaped may be reused, and a stale reaper must not signal it)."""

    reaper: Reaper | None = None
    geofidelity_job = None

    def _release(self) -> None:
        if self.returncode is not None and self.reaper is not None:
            self.reaper, reaper = None, self.reaper
            reaper.release()

    def poll(self):
        code = super().poll()
        self._release()
        return code

    def wait(self, timeout=None):
        try:
            return super().wait(timeout)
        finally:
            self._release()


def signal_group(proc: subprocess.Popen, sig) -> None:
    """Send ``sig`` to the child's whole group (Windows: ``kill`` for SIGKILL, else ``terminate``);
    a group already gone is no error."""
    try:
        if sys.platform == "win32":
            job = getattr(proc, "geofidelity_job", None)
            if sig == KILL and job is not None:
                job.terminate()  # the leader and every process it started
            else:
                proc.kill() if sig == KILL else proc.terminate()
        else:
            os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def kill_group(proc: subprocess.Popen) -> None:
    """Kill what is left of the child's group (children that outlived it); on Windows, of its job."""
    if sys.platform != "win32":
        signal_group(proc, KILL)
    elif getattr(proc, "geofidelity_job", None) is not None:
        proc.geofidelity_job.terminate()
        proc.geofidelity_job.close()
        proc.geofidelity_job = None


def stop_group(proc: subprocess.Popen, grace_s: float) -> float:
    """SIGTERM the child's group, SIGKILL what is left after ``grace_s``, wait for the child (at
    most :data:`KILL_WAIT_S` more: a process stuck in the kernel — a network folder that does not
    answer — outlives SIGKILL, and the caller must still get its answer); returns the seconds until
    it was gone, or until the wait was given up (``proc.poll()`` is then still None)."""
    began = time.monotonic()
    if proc.poll() is None:
        signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            signal_group(proc, KILL)
            try:
                proc.wait(timeout=KILL_WAIT_S)
            except subprocess.TimeoutExpired:
                pass
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


# --- Windows: a Job Object per child ------------------------------------------------------------
# Windows has no process-group signals, so ``terminate`` of a backend reaches the leader only: Ray
# workers, data-loader processes and pip's builds would outlive it. A job made with
# JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE holds the child and every process it starts; Windows ends them
# all when the last handle to the job closes (QGIS exits or crashes: its handles close with it), and
# Job.terminate ends them at once (Cancel). Off Windows job_for returns None; the tests drive it
# with a stand-in for kernel32 (this machine is Linux).

JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x00002000
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9


class _IoCounters(ctypes.Structure):
    _fields_ = [(name, ctypes.c_ulonglong) for name in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]


class _BasicLimits(ctypes.Structure):
    _fields_ = [("PerProcessUserTimeLimit", ctypes.c_longlong), ("PerJobUserTimeLimit", ctypes.c_longlong),
                ("LimitFlags", ctypes.c_uint32), ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", ctypes.c_uint32),
                ("Affinity", ctypes.c_size_t), ("PriorityClass", ctypes.c_uint32),
                ("SchedulingClass", ctypes.c_uint32)]


class ExtendedLimits(ctypes.Structure):
    """``JOBOBJECT_EXTENDED_LIMIT_INFORMATION``."""

    _fields_ = [("BasicLimitInformation", _BasicLimits), ("IoInfo", _IoCounters),
                ("ProcessMemoryLimit", ctypes.c_size_t), ("JobMemoryLimit", ctypes.c_size_t),
                ("PeakProcessMemoryUsed", ctypes.c_size_t), ("PeakJobMemoryUsed", ctypes.c_size_t)]


class Job:
    """One job handle; the child is assigned to it right after it starts."""

    def __init__(self, kernel32, handle):
        self.kernel32, self.handle = kernel32, handle

    def assign(self, process_handle) -> bool:
        return bool(self.kernel32.AssignProcessToJobObject(self.handle, process_handle))

    def terminate(self, exit_code: int = 1) -> None:
        if self.handle:
            self.kernel32.TerminateJobObject(self.handle, exit_code)

    def close(self) -> None:
        if self.handle:
            self.kernel32.CloseHandle(self.handle)
            self.handle = None


def _kernel32():
    return ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]


def job_for(proc, kernel32=None) -> Job | None:
    """A kill-on-close job holding ``proc`` (a ``subprocess.Popen``), or None where there are no
    jobs (not Windows) or Windows refuses one (the child then runs as before, without the job)."""
    if kernel32 is None:
        if sys.platform != "win32":
            return None
        kernel32 = _kernel32()
    handle = kernel32.CreateJobObjectW(None, None)
    if not handle:
        return None
    limits = ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    job = Job(kernel32, handle)
    if not kernel32.SetInformationJobObject(handle, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS,
                                            ctypes.byref(limits), ctypes.sizeof(limits)):
        job.close()
        return None
    if not job.assign(int(getattr(proc, "_handle", 0))):
        job.close()
        return None
    return job
