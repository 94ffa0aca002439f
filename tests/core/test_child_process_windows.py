"""The Windows Job Object that ties a child's tree to QGIS (core/child_process.py), driven through a stand-in for
kernel32 (this machine is Linux: the calls and the structure are checked, not Windows itself)."""
from __future__ import annotations

import ctypes
import signal
import sys

from geofidelity_plugin.core import child_process


class FakeKernel32:
    """Records the calls as Windows would receive them; ``refuse`` makes one call fail."""

    def __init__(self, refuse: str | None = None):
        self.calls: list[tuple] = []
        self.refuse = refuse
        self.flags = None

    def _answer(self, name, *args):
        self.calls.append((name, *args))
        return 0 if name == self.refuse else 1

    def CreateJobObjectW(self, attributes, name):  # noqa: N802 (Windows's names)
        return self._answer("CreateJobObjectW") and 77

    def SetInformationJobObject(self, handle, klass, pointer, size):  # noqa: N802
        limits = ctypes.cast(pointer, ctypes.POINTER(child_process.ExtendedLimits)).contents
        self.flags = limits.BasicLimitInformation.LimitFlags
        return self._answer("SetInformationJobObject", handle, klass, size)

    def AssignProcessToJobObject(self, job, process):  # noqa: N802
        return self._answer("AssignProcessToJobObject", job, process)

    def TerminateJobObject(self, job, code):  # noqa: N802
        return self._answer("TerminateJobObject", job, code)

    def CloseHandle(self, handle):  # noqa: N802
        return self._answer("CloseHandle", handle)


class FakeProc:
    _handle = 4242

    def __init__(self):
        self.ended = []

    def kill(self):
        self.ended.append("kill")

    def terminate(self):
        self.ended.append("terminate")


def test_a_kill_on_close_job_holds_the_child():
    kernel32 = FakeKernel32()
    job = child_process.job_for(FakeProc(), kernel32)
    assert job is not None and job.handle == 77
    assert kernel32.flags == child_process.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE == 0x2000
    (_, handle, klass, size), = [c for c in kernel32.calls if c[0] == "SetInformationJobObject"]
    assert klass == 9 and size == ctypes.sizeof(child_process.ExtendedLimits)
    if ctypes.sizeof(ctypes.c_void_p) == 8:
        assert size == 144  # JOBOBJECT_EXTENDED_LIMIT_INFORMATION on 64-bit Windows
    assert ("AssignProcessToJobObject", 77, 4242) in kernel32.calls


def test_windows_refusing_a_job_leaves_the_child_as_it_was():
    for refused in ("CreateJobObjectW", "SetInformationJobObject", "AssignProcessToJobObject"):
        kernel32 = FakeKernel32(refuse=refused)
        assert child_process.job_for(FakeProc(), kernel32) is None
        if refused != "CreateJobObjectW":
            assert ("CloseHandle", 77) in kernel32.calls  # no handle left open


def test_no_job_off_windows():
    assert sys.platform == "win32" or child_process.job_for(FakeProc()) is None


def test_kill_ends_the_whole_job_and_sigterm_the_leader(monkeypatch):
    monkeypatch.setattr(child_process.sys, "platform", "win32")
    kernel32 = FakeKernel32()
    proc = FakeProc()
    proc.geofidelity_job = child_process.job_for(proc, kernel32)
    child_process.signal_group(proc, signal.SIGTERM)
    assert proc.ended == ["terminate"] and not any(c[0] == "TerminateJobObject" for c in kernel32.calls)
    child_process.signal_group(proc, child_process.KILL)
    assert ("TerminateJobObject", 77, 1) in kernel32.calls and proc.ended == ["terminate"]
    child_process.kill_group(proc)  # what outlived the leader: the job again, then its handle closed
    assert kernel32.calls[-1] == ("CloseHandle", 77) and proc.geofidelity_job is None
