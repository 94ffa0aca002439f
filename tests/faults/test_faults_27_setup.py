"""Issue 27, case 5 (the setup tool): SIGTERM mid-pip ends pip's whole group and says so (it exited
143 with no message while pip kept installing), and a step that stalls ends at its stated time
limit with a message that names the step."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from conftest import REPO
from faultkit import no_traceback

pytestmark = pytest.mark.fault


def _setup(venv, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "geofidelity_plugin.backend_setup", "--venv", str(venv),
                             "--python", "/usr/bin/python3", "--profile", "light"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **(env or {})), start_new_session=True)


def _family(proc: subprocess.Popen) -> list[psutil.Process]:
    try:
        return [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _gone(processes: list[psutil.Process], within_s: float) -> list[int]:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        left = [p.pid for p in processes if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not left:
            return []
        time.sleep(0.1)
    return left


def test_sigterm_mid_pip_stops_pip_and_says_so(tmp_path):
    proc = _setup(tmp_path / "env")
    try:
        seen = []
        for line in proc.stdout:
            seen.append(line)
            if line.startswith(("Collecting", "Processing", "Looking in")):
                break
        family = _family(proc)
        assert any("pip" in " ".join(p.cmdline()) for p in family[1:]), "pip was not running"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err[-2000:]
        assert "error: interrupted — the environment is incomplete" in err and no_traceback(err)
        assert _gone(family, 5.0) == [], "pip kept running after the setup tool was stopped"
        assert not (tmp_path / "env" / "geofidelity-backend.json").exists()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_step_past_its_time_limit_names_the_step(tmp_path):
    proc = _setup(tmp_path / "env", {"GEOFIDELITY_SETUP_STEP_LIMIT_S": "2"})
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 2, err[-2000:]
    assert "did not finish within 2 s and was stopped" in err and no_traceback(err)
    assert any(step in err for step in ("error: creating the environment", "error: installing"))
    assert "GEOFIDELITY_SETUP_STEP_LIMIT_S sets the limit" in err
    assert not (tmp_path / "env" / "geofidelity-backend.json").exists()
