"""The backend ends with the process that started it (QGIS, ``qgis_process``, a script).

A driver that starts a child through :mod:`.child_process` puts its own pid in
``GEOFIDELITY_PARENT_PID``. The backend then watches that process from a daemon thread, twice a
second (:func:`watch_from_environment`). When the driver is gone — killed, crashed or closed —
the backend does three things:

1. it refuses to publish anything more (:func:`check_publish`, which the atomic writers call before
   each rename), so a re-run never races a run nobody waits for;
2. it stops its own process group with SIGTERM, which reaches the children it started (loader
   workers, pip). Its own SIGTERM handler turns that into a cancel, exit 130;
3. it ends the process outright if the cancel has not finished after a grace period.

The watch polls, and the same code runs on every platform. POSIX: the parent has gone when
``os.getppid()`` is no longer the recorded pid, because the child has been re-parented to init or
a subreaper; pid reuse cannot fool this. Windows: a handle opened on the parent when the watch
starts becomes signalled once the parent exits.

Standard library only: the setup room and the QGIS room import this module too.
"""
from __future__ import annotations

import os
import sys
import threading
import time

from .child_process import PARENT_ENV, stop_own_group

#: seconds between two looks at the parent
POLL_S = 0.5
#: seconds the cancel gets before the process ends outright
GRACE_S = 3.0

_GONE = threading.Event()


def parent_gone() -> bool:
    """True once the watch has seen the driver go."""
    return _GONE.is_set()


def check_publish(target) -> None:
    """Refuse to publish ``target`` once the driver is gone. The atomic writers call this just
    before the rename that makes a file visible."""
    if _GONE.is_set():
        from .errors import Cancelled

        raise Cancelled(f"the program that started this run has gone: {target} was not published "
                        "(nothing half-written is left; run the step again)")


class _PosixParent:
    def __init__(self, pid: int):
        self.pid = pid

    def alive(self) -> bool:
        return os.getppid() == self.pid


class _WindowsParent:
    SYNCHRONIZE, WAIT_OBJECT_0 = 0x00100000, 0

    def __init__(self, pid: int):
        import ctypes

        self.kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        self.handle = self.kernel32.OpenProcess(self.SYNCHRONIZE, False, pid)

    def alive(self) -> bool:
        if not self.handle:  # it had gone before the watch began
            return False
        return self.kernel32.WaitForSingleObject(self.handle, 0) != self.WAIT_OBJECT_0


def parent_handle(pid: int, platform: str | None = None):
    """An object whose ``alive()`` says whether the process ``pid`` (this one's parent) still runs."""
    return _WindowsParent(pid) if (platform or sys.platform) == "win32" else _PosixParent(pid)


def _stop_self() -> None:
    """SIGTERM to this process's group when it leads one, otherwise to itself. After GRACE_S, end
    the process outright."""
    try:  # its log pipe has most likely gone with it
        print(f"the program that started this backend (pid {os.environ.get(PARENT_ENV)}) has gone: stopping",
              file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    stop_own_group()
    time.sleep(GRACE_S)
    os._exit(130)


def watch(pid: int, on_gone=_stop_self, poll_s: float = POLL_S, platform: str | None = None) -> threading.Thread:
    """Start a daemon thread that calls ``on_gone`` once the process ``pid`` has gone."""
    parent = parent_handle(pid, platform)

    def run() -> None:
        while parent.alive():
            time.sleep(poll_s)
        _GONE.set()
        on_gone()

    thread = threading.Thread(target=run, name="geofidelity-parent-watch", daemon=True)
    thread.start()
    return thread


def watch_from_environment() -> threading.Thread | None:
    """Watch the driver named in ``GEOFIDELITY_PARENT_PID``, if one is named and is this process's
    parent. A variable inherited from further up (a shell started by the backend) is ignored."""
    try:
        pid = int(os.environ.get(PARENT_ENV, ""))
    except ValueError:
        return None
    if pid <= 0 or os.getppid() != pid:
        return None
    return watch(pid)
