"""Set up backend on the platforms this machine is not (Windows, macOS), with the platform faked:
which torch build and package index each accelerator takes, where the geo stack comes from, which
base Python is chosen (never the macOS system stub below 3.10), and doctor fixes that never say
apt off Debian. Nothing here runs Windows or macOS code for real: see the README's platform note."""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from geofidelity_plugin.backend.commands import doctor
from geofidelity_plugin.backend_setup import base_python
from geofidelity_plugin.backend_setup.profiles import load_profile, marker_applies, parse_requirements, torch_flavours
from geofidelity_plugin.backend_setup.venv_setup import BackendSetup, SetupError

PYTORCH_CUDA_INDEX = "https://download.pytorch.org/whl/cu128"
PYTORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def command(tmp_path, platform, torch, python="/opt/python3.12/bin/python3", profile="full"):
    setup = BackendSetup(tmp_path / "env", python, profile, torch=torch, platform=platform)
    return setup, *setup.pip_command(tmp_path / "pins.txt")


@pytest.fixture
def local_wheels(monkeypatch):
    monkeypatch.setenv("PIP_FIND_LINKS", "/opt/wheels")  # a configured folder with a CPU torch wheel


def test_windows_cuda_takes_pytorchs_index(tmp_path, local_wheels):
    setup, argv, env = command(tmp_path, "win32", "cuda", r"C:\Program Files\QGIS 3.40\apps\Python312\python.exe")
    assert argv[argv.index("--extra-index-url") + 1] == PYTORCH_CUDA_INDEX
    assert "PIP_FIND_LINKS" not in env and env["PIP_CONFIG_FILE"] == os.devnull  # not the CPU wheel on disk
    assert setup.geo_stack == "pip" and setup.system_site_packages is False  # no Debian packages on Windows
    pins = {r.name: r.line for r in setup.profile.requirements}
    assert pins["shapely"] == "shapely==2.1.2" and pins["pyproj"] and pins["fiona"] and pins["rasterio"]
    assert setup.profile.system == {}
    _, cpu_argv, cpu_env = command(tmp_path, "win32", "cpu")
    assert "--extra-index-url" not in cpu_argv and cpu_env["PIP_FIND_LINKS"]  # PyPI's Windows build is the CPU one


def test_linux_builds(tmp_path, local_wheels):
    _, argv, env = command(tmp_path, "linux", "cpu", "/usr/bin/python3")
    assert argv[argv.index("--extra-index-url") + 1] == PYTORCH_CPU_INDEX
    _, argv, env = command(tmp_path, "linux", "cuda", "/usr/bin/python3")
    assert "--extra-index-url" not in argv and "PIP_FIND_LINKS" not in env  # PyPI's default build is CUDA's
    setup, argv, env = command(tmp_path, "linux", "configured", "/usr/bin/python3")
    assert "--extra-index-url" not in argv and env["PIP_FIND_LINKS"] == "/opt/wheels"
    assert setup.geo_stack == ("system" if Path("/etc/debian_version").is_file() else "pip")
    other = BackendSetup(tmp_path / "env", "/opt/python3.12/bin/python3", "light", platform="linux")
    assert other.geo_stack == "pip"  # another Python does not see Debian's packages


def test_macos_offers_the_builds_it_has(tmp_path):
    assert list(torch_flavours("darwin")) == ["configured", "mps"]
    with pytest.raises(SetupError, match=r"unknown torch flavour 'cuda' for darwin — choose one of configured, mps"):
        BackendSetup(tmp_path / "env", "/opt/homebrew/bin/python3.12", "full", torch="cuda", platform="darwin")
    setup, argv, _ = command(tmp_path, "darwin", "mps", "/opt/homebrew/bin/python3.12")
    assert "--extra-index-url" not in argv and setup.geo_stack == "pip"


def test_pins_for_every_python_from_310_to_313():
    """numpy 1.26 has no wheel for 3.13 and PyWavelets 1.9 none for 3.10: each Python gets a pin
    that exists for it, one per package."""
    for profile in (load_profile("light", "pip"), load_profile("full", "pip")):
        for minor in (10, 11, 12, 13):
            applying = [r for r in profile.requirements if r.applies((3, minor), "linux")]
            names = [r.key for r in applying]
            assert len(names) == len(set(names)), f"two pins of one package for 3.{minor}"
            pins = {r.key: r.pinned for r in applying}
            assert pins["numpy"] == ("2.2.6" if minor == 13 else "1.26.4")
            assert pins["pywavelets"] == ("1.8.0" if minor == 10 else "1.9.0")


def test_markers():
    assert marker_applies('python_version < "3.13"', (3, 12), "linux")
    assert not marker_applies('python_version < "3.13"', (3, 13), "linux")
    assert marker_applies('sys_platform == "win32" or python_version >= "3.12"', (3, 12), "darwin")
    assert not marker_applies('platform_system == "Windows" and python_version >= "3.10"', (3, 12), "darwin")
    assert marker_applies(None)
    with pytest.raises(SetupError, match=r"the environment marker 'implementation_name == \"pypy\"' is not one"):
        marker_applies('implementation_name == "pypy"')
    (req,) = parse_requirements('ray[data]==2.60.0 ; python_version >= "3.10"')
    assert (req.name, req.pinned, req.marker) == ("ray", "2.60.0", 'python_version >= "3.10"')


# --- the base Python ---------------------------------------------------------------------------

QGIS_APP_PYTHON = "/Applications/QGIS.app/Contents/Frameworks/Python.framework/Versions/3.9"


def test_macos_never_takes_the_system_stub():
    paths = base_python.candidates("darwin", {}, QGIS_APP_PYTHON, which=lambda name: "/usr/bin/python3")
    assert "/usr/bin/python3" not in paths
    assert paths[0] == f"{QGIS_APP_PYTHON}/bin/python3"
    assert paths.index("/Library/Frameworks/Python.framework/Versions/3.12/bin/python3") < \
        paths.index("/opt/homebrew/bin/python3.12")
    versions = {f"{QGIS_APP_PYTHON}/bin/python3": (3, 9), "/usr/bin/python3": (3, 9),
                "/Library/Frameworks/Python.framework/Versions/3.12/bin/python3": (3, 12),
                "/opt/homebrew/bin/python3.13": (3, 13)}
    chosen, passed = base_python.find_base_python(paths=paths, probe=versions.get, exists=versions.__contains__)
    assert chosen == "/Library/Frameworks/Python.framework/Versions/3.12/bin/python3"  # python.org before Homebrew
    assert passed == [f"{QGIS_APP_PYTHON}/bin/python3 is Python 3.9"]
    only_stub = {"/usr/bin/python3": (3, 9)}
    chosen, passed = base_python.find_base_python(paths=paths, probe=only_stub.get, exists=only_stub.__contains__)
    assert chosen is None
    message = base_python.no_python_message("darwin", passed)
    assert message.startswith("no Python 3.10 or newer was found on this computer — install Python 3.12 from "
                              "python.org") and "brew install python@3.12" in message


def test_windows_prefers_qgis_python_and_skips_the_store_alias():
    store = r"C:\Users\ana\AppData\Local\Microsoft\WindowsApps\python.exe"
    paths = base_python.candidates("win32", {"LOCALAPPDATA": r"C:\Users\ana\AppData\Local"},
                                   r"C:\Program Files\QGIS 3.40.6\apps\Python312", which=lambda name: store)
    assert Path(paths[0]) == Path(r"C:\Program Files\QGIS 3.40.6\apps\Python312") / "python.exe"
    assert store not in paths
    assert any("Programs" in p and p.endswith("python.exe") for p in paths)
    assert "winget install Python.Python.3.12" in base_python.no_python_message("win32")


def test_linux_takes_debians_python_first():
    paths = base_python.candidates("linux", {}, "/usr", which=lambda name: f"/usr/local/bin/{name}")
    assert paths[0] == "/usr/bin/python3" and paths[1] == "/usr/local/bin/python3.13"
    assert "apt install" in base_python.no_python_message("linux")


def fake_python(folder: Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.skipif(sys.platform == "win32", reason="shell-script stand-ins for Pythons")
def test_candidates_are_run_and_judged_by_their_version(tmp_path):
    old = fake_python(tmp_path, "python-old", "echo 3.9")
    broken = fake_python(tmp_path, "python-broken", "exit 3")
    new = fake_python(tmp_path, "python-new", "echo 3.12")
    chosen, passed = base_python.find_base_python(paths=[str(tmp_path / "absent"), old, broken, new])
    assert chosen == new and passed == [f"{old} is Python 3.9", f"{broken} does not run"]
    with pytest.raises(SetupError, match=r"is Python 3\.9; GeoFidelity needs 3\.10 or newer — choose a newer Python"):
        BackendSetup(tmp_path / "env", old, "light", platform="darwin").run()
    assert not (tmp_path / "env").exists() or not any((tmp_path / "env").iterdir())


# --- the doctor's fixes -------------------------------------------------------------------------

def test_doctor_fixes_off_debian(monkeypatch):
    monkeypatch.setattr(doctor, "_debian", lambda: False)
    fix = doctor.system_fix(["python3-shapely", "python3-pyproj"], ["shapely", "pyproj"])
    assert "apt" not in fix and f"{sys.executable} -m pip install shapely pyproj" in fix
    assert "Set up backend…" in fix and " — " not in fix
    problems: list = []
    doctor.check_system({"geofidelity_no_such_module": "python3-nothing"}, problems)
    assert problems and "apt" not in problems[0]["fix"]
    monkeypatch.setattr(doctor, "_debian", lambda: True)
    assert "sudo apt install python3-shapely python3-pyproj" in doctor.system_fix(["python3-shapely", "python3-pyproj"],
                                                                                 ["shapely", "pyproj"])
    monkeypatch.setattr(doctor.sys, "platform", "win32")
    assert doctor._install_fix("python.exe", ["numpy==1.26.4"], None) == 'install them: python.exe -m pip install "numpy==1.26.4"'


def test_qgis_proxy_reaches_pip_and_its_password_never_the_log(tmp_path):
    """The dialog passes QGIS's proxy in the setup's environment (qgis_side/network_settings.py);
    every step gets it, and a pip line that quotes the proxy URL loses the password."""
    environment = {"PATH": os.environ.get("PATH", ""), "HTTPS_PROXY": "http://ana:pw-9183@127.0.0.1:3128"}
    lines: list[str] = []
    setup = BackendSetup(tmp_path / "env", "/usr/bin/python3", "light", environment=environment,
                         secrets=("pw-9183",), on_line=lines.append)
    _, env = setup.pip_command(tmp_path / "pins.txt")
    assert env["HTTPS_PROXY"] == "http://ana:pw-9183@127.0.0.1:3128" and env["PYTHONNOUSERSITE"] == "1"
    setup._log("WARNING: Retrying after ProxyError('Cannot connect to proxy http://ana:pw-9183@127.0.0.1:3128')")
    assert lines == ["WARNING: Retrying after ProxyError('Cannot connect to proxy http://***@127.0.0.1:3128')"]


def test_torchvision_only_with_a_cuda_build(tmp_path):
    """The GPU's JPEG decoder (method §5 Decoding) needs torchvision matched to the locked torch; the
    CPU builds never get it (PyPI's torchvision does not import beside them)."""
    locked = next(line for line in (Path(__file__).resolve().parents[2] / "requirements.lock").read_text().splitlines()
                  if line.startswith("torch=="))
    minor = int(locked.split("==")[1].split(".")[1])
    for platform, torch in (("linux", "cuda"), ("win32", "cuda")):
        lines = BackendSetup(tmp_path / "env", "/opt/python3.12/bin/python3", "full", torch=torch,
                             platform=platform).requirement_lines()
        assert f"torchvision==0.{minor - 13 + 28}.0" in lines and locked in lines
    for platform, torch in (("linux", "cpu"), ("linux", "configured"), ("win32", "cpu"), ("darwin", "mps")):
        lines = BackendSetup(tmp_path / "env", "/opt/python3.12/bin/python3", "full", torch=torch,
                             platform=platform).requirement_lines()
        assert not any(line.startswith("torchvision") for line in lines), (platform, torch)
    light = BackendSetup(tmp_path / "env", "/opt/python3.12/bin/python3", "light", torch="cuda", platform="linux")
    assert not any(line.startswith("torch") for line in light.requirement_lines())
