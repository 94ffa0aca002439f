"""The parent watch (core/parent_watch.py) in a process of its own: once the watched driver is
gone, the hook runs and no atomic write is published any more."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

PROBE = r"""
import json, os, sys, threading, time
from pathlib import Path
from geofidelity_plugin.core import atomic, parent_watch
from geofidelity_plugin.core.errors import Cancelled

folder = Path(sys.argv[1])
atomic.write_text(folder / "before.txt", "published while the driver runs")
called = threading.Event()
# a pid that is not this process's parent: the watch sees its driver gone at the first look
parent_watch.watch(os.getppid() + 1_000_000, on_gone=called.set, poll_s=0.05)
fired = called.wait(5)
try:
    atomic.write_text(folder / "after.txt", "must not appear")
    refused = None
except Cancelled as exc:
    refused = str(exc)
print(json.dumps({"fired": fired, "gone": parent_watch.parent_gone(), "refused": refused,
                  "after": (folder / "after.txt").exists(), "left": sorted(p.name for p in folder.iterdir())}))
"""


def test_once_the_driver_is_gone_nothing_more_is_published(tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=REPO, capture_output=True, text=True,
                          timeout=60, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["fired"] and seen["gone"]
    assert seen["refused"] and "was not published" in seen["refused"] and "run the step again" in seen["refused"]
    assert not seen["after"] and seen["left"] == ["before.txt"]  # no temporary file left either


def test_a_variable_inherited_from_further_up_starts_no_watch(tmp_path):
    """A process whose parent is not the named driver (e.g. a shell the backend started) keeps running."""
    probe = ("import os; from geofidelity_plugin.core import parent_watch as w; "
             "os.environ[w.PARENT_ENV] = str(os.getppid() + 1_000_000); print(w.watch_from_environment())")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and done.stdout.strip() == "None", done.stdout + done.stderr


def test_windows_children_get_no_console_window_and_a_group_of_their_own(monkeypatch):
    """The flags a Windows child starts with (checked with the platform faked: Windows was not run)."""
    from geofidelity_plugin.core import child_process

    monkeypatch.setattr(child_process.sys, "platform", "win32")
    flags = child_process.group_options()["creationflags"]
    assert flags & 0x08000000 and flags & 0x00000200  # CREATE_NO_WINDOW, CREATE_NEW_PROCESS_GROUP
    monkeypatch.setattr(child_process.sys, "platform", "linux")
    assert child_process.group_options() == {"start_new_session": True}
