"""The Python distribution `geofidelity`: `pip wheel .` builds from the tracked files alone, the
wheel holds the package in the installed layout (resources, provider, docs inside; no tests), and
its `geofidelity` command runs in a venv without system site packages."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the files git tracks or would (the clone stays untouched)."""
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "-q", "-w", str(out), str(source)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = list(out.glob("geofidelity-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_the_wheel_is_the_installed_layout_without_tests(wheel):
    version = next(line.split("=", 1)[1] for line in (REPO / "metadata.txt").read_text().splitlines()
                   if line.startswith("version="))
    assert wheel.name.startswith(f"geofidelity-{version}-py3-none-any")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        layout = archive.read("geofidelity_plugin/core/install_layout.py").decode()
        entry_points = archive.read(f"geofidelity-{version}.dist-info/entry_points.txt").decode()
    assert "\nINSTALLED = True\n" in layout
    for needed in ("geofidelity_plugin/api.py", "geofidelity_plugin/resources/data/demo_cities.csv",
                   "geofidelity_plugin/processing_algorithms/provider.py", "geofidelity_plugin/docs/method.md",
                   "geofidelity_plugin/metadata.txt", "geofidelity_plugin/resources/backend/requirements.lock",
                   "geofidelity_plugin/resources/styles/segment_margin_hard.qml"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith("tests/") or "/tests/" in n or "conftest" in n]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert "geofidelity = geofidelity_plugin.backend.cli:console" in entry_points


def test_the_console_command_in_a_venv_without_system_site_packages(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps",
                           "--disable-pip-version-check", str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    command = venv / "bin" / "geofidelity"
    out = subprocess.run([str(command), "--help"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: geofidelity ") and "select-segments" in out.stdout
    # the installed copy finds its bundled data (the installed layout), not a clone's
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "from geofidelity_plugin.core.resources import resource; print(resource('data'))"],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(venv) and Path(where.stdout.strip()).is_dir()


def test_the_citation_names_this_version():
    version = next(line.split("=", 1)[1] for line in (REPO / "metadata.txt").read_text().splitlines()
                   if line.startswith("version="))
    cited = [line for line in (REPO / "CITATION.cff").read_text().splitlines() if line.startswith("version:")]
    assert cited == [f'version: "{version}"'], "update CITATION.cff with metadata.txt's version"
