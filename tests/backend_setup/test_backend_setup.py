"""Set up backend, for real: a venv made from scratch with /usr/bin/python3, the light profile
installed by pip from the package index this machine reaches, the doctor run through the new
environment; Cancel during pip; a requirement that does not exist; the checks before any work."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import REPO
from geofidelity_plugin.backend_setup import venv_setup as backend_setup
from geofidelity_plugin.backend_setup.venv_setup import (PROFILE_FILE, BackendSetup, PipProgress, Profile, Requirement, SetupCancelled, SetupError, load_profile, pip_failure, venv_python)

BASE_PYTHON = "/usr/bin/python3"


class Recorder:
    def __init__(self):
        self.lines: list[str] = []
        self.progress: list[tuple[float, str]] = []

    def line(self, text):
        self.lines.append(text)

    def step(self, fraction, stage):
        self.progress.append((fraction, stage))


@pytest.fixture(scope="module")
def light_venv(tmp_path_factory):
    """One light backend made from nothing (about 20 s here: pip takes most wheels from local disk)."""
    venv = tmp_path_factory.mktemp("light") / "backend"
    log = Recorder()
    report = BackendSetup(venv, BASE_PYTHON, "light", on_line=log.line, on_progress=log.step).run()
    return venv, report, log


def test_light_profile_from_scratch(light_venv):
    venv, report, log = light_venv
    assert (venv / "pyvenv.cfg").is_file() and "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert not (Path(sys.prefix) / PROFILE_FILE).exists()  # the interpreter running the setup is untouched
    assert any(line.startswith("Successfully installed") and "osmium-4.3.2" in line for line in log.lines)
    fractions = [f for f, _ in log.progress]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert {"creating the environment", "resolving and downloading", "installing", "running the doctor"} <= \
        {stage for _, stage in log.progress}
    record = json.loads((venv / PROFILE_FILE).read_text())
    assert record["profile"] == "light" and record["torch_flavour"] is None and record["created"]
    assert record["requirements"] == [r.line for r in load_profile("light").requirements]
    assert report["healthy"] is True and report["profile"]["name"] == "light"
    assert report["python"]["executable"] == str(venv_python(venv)) and report["python"]["prefix"] == str(venv)
    assert report["packages"]["torch"] is None and report["devices"]["error"] == "torch not installed"
    assert (venv / "share" / "proj").resolve() == Path("/usr/share/proj")


def test_doctor_through_the_new_venv(light_venv):
    venv, _, _ = light_venv
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([str(venv_python(venv)), "-m", "geofidelity_plugin", "--events", "jsonl", "doctor"],
                         capture_output=True, text=True, env=env, timeout=300, cwd=venv)
    assert out.returncode == 0, out.stderr[-2000:]
    final = json.loads(out.stdout.splitlines()[-1])
    assert final["event"] == "result" and final["values"]["HEALTHY"] is True
    report = final["values"]["DOCTOR"]
    assert report["profile"]["name"] == "light" and report["profile"]["file"] == str(venv / PROFILE_FILE)
    assert {r["name"]: r["installed"] for r in report["requirements"]}["osmium"] == "4.3.2"
    assert {r["module"] for r in report["system"] if r["error"] is None} >= {"shapely", "pyproj", "PIL", "scipy"}


def test_the_new_venv_runs_a_pipeline_stage(light_venv, helsinki_pbf, tmp_path):
    """Healthy is not only the doctor's word: the light environment runs stage 1 end to end."""
    venv, _, _ = light_venv
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out_gpkg = tmp_path / "segments.gpkg"
    out = subprocess.run([str(venv_python(venv)), "-m", "geofidelity_plugin", "--events", "jsonl", "select-segments",
                          "--cities", str(REPO / "resources" / "data" / "demo_cities.csv"), "--osm", str(helsinki_pbf),
                          "--min-length", "300", "--min-spacing", "300", "--out", str(out_gpkg)],
                         capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    final = json.loads(out.stdout.splitlines()[-1])
    assert final["event"] == "result" and final["values"]["SEGMENT_COUNT"] >= 5
    assert out_gpkg.is_file()


def test_running_again_reuses_the_environment(light_venv):
    venv, _, _ = light_venv
    created = (venv / "pyvenv.cfg").stat().st_mtime_ns
    log = Recorder()
    report = BackendSetup(venv, "/no/base/python/needed/to/reuse", "light", on_line=log.line).run()
    assert f"reusing the environment at {venv}" in log.lines
    assert any(line.startswith("Requirement already satisfied: osmium==4.3.2") for line in log.lines)
    assert (venv / "pyvenv.cfg").stat().st_mtime_ns == created and report["healthy"]
    assert json.loads((venv / PROFILE_FILE).read_text())["system_site_packages"] is True


def test_cancel_during_pip_stops_its_process_group(tmp_path):
    venv = tmp_path / "cancelled"
    pip_started = threading.Event()
    pids: list[int] = []
    outcome: dict = {}

    def line(text):
        if text.startswith(("Collecting", "Processing", "Requirement already", "Looking in")) and setup._proc:
            pids.append(setup._proc.pid)
            pip_started.set()

    setup = BackendSetup(venv, BASE_PYTHON, "light", on_line=line)

    def work():
        try:
            setup.run()
        except SetupError as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=work)
    worker.start()
    assert pip_started.wait(300), "pip never started"
    setup.cancel()
    worker.join(300)
    assert not worker.is_alive()
    assert isinstance(outcome.get("error"), SetupCancelled)
    message = str(outcome["error"])
    assert message.startswith("cancelled — ") and str(venv) in message and "run Set up backend again" in message
    with pytest.raises(ProcessLookupError):
        os.killpg(pids[0], 0)  # pip's whole process group is gone
    assert not (venv / PROFILE_FILE).exists()


def test_a_requirement_that_does_not_exist(tmp_path):
    bogus = "geofidelity-no-such-package==9.9.9"
    profile = Profile("broken", requirements=[Requirement("geofidelity-no-such-package", bogus, "9.9.9")],
                      top_level=["geofidelity-no-such-package"])
    with pytest.raises(SetupError) as err:
        BackendSetup(tmp_path / "broken", BASE_PYTHON, profile).run()
    message = str(err.value)
    assert "pip could not install the broken profile" in message
    assert "No matching distribution found for geofidelity-no-such-package==9.9.9" in message
    assert " — geofidelity-no-such-package==9.9.9 is not available" in message
    assert not (tmp_path / "broken" / PROFILE_FILE).exists()


def test_checks_before_any_work(tmp_path):
    with pytest.raises(SetupError, match=r"the base Python /no/such/python3 was not found — give the path"):
        BackendSetup(tmp_path / "a", "/no/such/python3", "light").run()
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "notes.txt").write_text("mine")
    with pytest.raises(SetupError, match=r"exists and is not a Python environment — choose a new or empty folder"):
        BackendSetup(occupied, BASE_PYTHON, "light").run()
    with pytest.raises(SetupError, match=r"is the Python environment this program runs in — choose another"):
        BackendSetup(sys.prefix, BASE_PYTHON, "light").run()
    a_file = tmp_path / "a-file"
    a_file.write_text("")  # a folder cannot be made under a file, whoever runs the test (root included)
    with pytest.raises(SetupError, match=r"cannot create the environment in .*a-file/env \(.*\) — choose a folder you "
                                         r"can write to"):
        BackendSetup(a_file / "env", BASE_PYTHON, "light").run()


def test_unknown_profile_and_flavour():
    with pytest.raises(SetupError, match=r"unknown backend profile 'huge' — choose one of light, full"):
        load_profile("huge")
    with pytest.raises(SetupError, match=r"unknown torch flavour 'rocm'"):
        BackendSetup("/tmp/x", BASE_PYTHON, "light", torch="rocm")


def test_full_profile_is_the_lock():
    full = load_profile("full")
    lock = [line for line in (REPO / "requirements.lock").read_text().splitlines() if line and not line.startswith("#")]
    here = [r.line.split(";")[0].strip() for r in full.requirements if r.applies()]  # markers for this Python
    assert here[:len(lock)] == lock
    assert full.has("torch") and "torch" in full.top_level
    assert {r.name for r in full.requirements if r.pinned is None} == {"requests"}  # from the system on Debian
    assert not any(r.pinned is None for r in load_profile("full", "pip").requirements)  # pip: every pin given
    light = load_profile("light")
    pins = {r.line for r in full.requirements}
    assert all(r.line in pins for r in light.requirements)  # light takes its pins from the lock


def test_torch_flavours(monkeypatch, tmp_path):
    monkeypatch.setenv("PIP_FIND_LINKS", "/opt/wheels")
    monkeypatch.setenv("PYTHONPATH", "/usr/share/qgis/python")  # QGIS's own: never passed on
    req = tmp_path / "r.txt"
    commands = {flavour: BackendSetup(tmp_path / "env", BASE_PYTHON, "full", torch=flavour).pip_command(req)
                for flavour in ("configured", "cpu", "cuda")}
    for argv, env in commands.values():
        assert argv[:4] == [str(venv_python(tmp_path / "env")), "-m", "pip", "install"] and str(req) in argv
        assert "--progress-bar" in argv and "PYTHONPATH" not in env
    assert "--extra-index-url" not in commands["configured"][0] and commands["configured"][1]["PIP_FIND_LINKS"]
    assert commands["cpu"][0][-2:] == ["--extra-index-url", "https://download.pytorch.org/whl/cpu"]
    assert "PIP_FIND_LINKS" not in commands["cuda"][1] and commands["cuda"][1]["PIP_CONFIG_FILE"] == os.devnull
    light_argv, light_env = BackendSetup(tmp_path / "env", BASE_PYTHON, "light", torch="cpu").pip_command(req)
    assert "--extra-index-url" not in light_argv  # no torch in the light profile: the flavour changes nothing


def test_pip_lines_as_progress_and_failures():
    progress = PipProgress(total=4)
    steps = [progress.feed(line) for line in (
        "Collecting astral==3.2", "  Downloading astral-3.2-py3-none-any.whl (38 kB)", "Processing /x/tqdm.whl",
        "Installing collected packages: tqdm, astral", "Successfully installed astral-3.2 tqdm-4.70.1", "noise")]
    assert [s[1] if s else None for s in steps] == ["resolving and downloading"] * 3 + ["installing", "installed", None]
    assert steps[0][0] < steps[2][0] < steps[3][0] < steps[4][0]
    offline = pip_failure(1, ["WARNING: Retrying ... NewConnectionError", "ERROR: Could not find a version that "
                              "satisfies the requirement astral==3.2", "ERROR: No matching distribution found for "
                              "astral==3.2"], "light")
    assert "astral==3.2 is not available" in offline and " — " in offline
    disk = pip_failure(1, ["ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device"],
                       "full")
    assert disk.endswith(" — the disk is full: free some space or choose a target folder on another disk")
    assert disk.count(" — ") == 1 and offline.count(" — ") == 1


def test_stdlib_only_and_cli_help():
    code = ("import sys; sys.path.insert(0, %r); import geofidelity_plugin.backend_setup.venv_setup as b; b.load_profile('full'); "
            "print(sorted(m for m in ('numpy', 'torch', 'qgis', 'PyQt5', 'osmium', 'PIL') if m in sys.modules))"
            % str(REPO))
    out = subprocess.run([BASE_PYTHON, "-I", "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
    out = subprocess.run([BASE_PYTHON, "-m", "geofidelity_plugin.backend_setup.venv_setup", "--help"], cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--profile {light,full}" in out.stdout and "--torch {configured,cpu,cuda}" in out.stdout
    assert backend_setup.default_base_python() == BASE_PYTHON
