"""The backend ends with the process that drives it (core/parent_watch.py): ``kill -9`` of
``qgis_process`` (or SIGTERM) mid-run leaves no backend and no child of it behind after 5 s, and the run
never publishes its outputs afterwards."""
from __future__ import annotations

import os
import signal
import subprocess
import time

import psutil
import pytest

from backends.support import make_evaluable, venv_python
from geofidelity_plugin.core.parent_watch import PARENT_ENV


def _gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE  # ended; its new parent has not reaped it yet
    except psutil.NoSuchProcess:
        return True


def _backend_of(driver: psutil.Process, timeout_s: float) -> psutil.Process:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for child in driver.children(recursive=True):
            try:
                if "geofidelity_plugin" in " ".join(child.cmdline()):
                    return child
            except psutil.NoSuchProcess:
                continue
        time.sleep(0.1)
    raise AssertionError(f"qgis_process started no backend within {timeout_s} s")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_kill_9_of_qgis_process_ends_the_backend_and_its_children(qgis_env, tmp_path, sig):
    store, model = make_evaluable(tmp_path / "store", per_city=3)
    out = tmp_path / "evaluation"
    env = dict(qgis_env, GEOFIDELITY_BACKEND_PYTHON=venv_python(), GEOFIDELITY_CACHE_DIR=str(tmp_path / "cache"))
    driver = subprocess.Popen(["qgis_process.bin", "run", "geofidelity:evaluate", "--", f"STORE={store}",
                               f"FEATURE_MODEL={model}", f"OUTPUT_FOLDER={out}", "BOOTSTRAP=50", "BATCH_SIZE=1",
                               "DEVICE=cpu"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        backend = _backend_of(psutil.Process(driver.pid), timeout_s=120)
        assert backend.environ().get(PARENT_ENV) == str(driver.pid)  # the driver named itself
        time.sleep(1.5)
        family = [backend, *backend.children(recursive=True)]
        assert backend.is_running() and driver.poll() is None, "the run ended before the kill: no mid-run case"
        driver.send_signal(sig)  # SIGKILL: QGIS gets no chance to stop anything; SIGTERM: QGIS's default end
        driver.wait(timeout=30)
        killed = time.monotonic()
        while not all(_gone(p) for p in family) and time.monotonic() - killed < 5.0:
            time.sleep(0.05)
        left = [p.pid for p in family if not _gone(p)]
        assert left == [], f"still running 5 s after qgis_process was killed: {left}"
        print(f"backend gone {time.monotonic() - killed:.2f} s after {signal.Signals(sig).name} of qgis_process")
        time.sleep(2.0)  # nothing is published later by a run nobody waits for
        assert not (out / "per_panel_scores.csv").exists() and not (out / "evaluation.manifest.json").exists()
    finally:
        if driver.poll() is None:
            driver.kill()
        for p in psutil.Process(os.getpid()).children(recursive=True):
            if "geofidelity_plugin" in " ".join(p.cmdline()):
                p.kill()
