"""The plugin as users install it: the zip built by `make zip`, unpacked into a plugin folder,
loaded by the real ``qgis_process.bin`` (a crash at exit counts as a failure)."""
from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, qgis_process_env, run_qgis_process

ALG = "geofidelity:select_segments"
BINARY_SUFFIXES = (".so", ".pyc", ".pbf", ".bz2", ".onnx", ".safetensors", ".bin", ".pt", ".exe", ".dll")


@pytest.fixture(scope="module")
def plugin_zip(tmp_path_factory) -> Path:
    subprocess.run(["make", "-s", "zip"], cwd=REPO, check=True, capture_output=True)
    zips = sorted((REPO / "dist").glob("geofidelity_plugin-*.zip"))
    assert zips, "make zip produced no zip"
    return zips[-1]


@pytest.fixture(scope="module")
def installed(plugin_zip, tmp_path_factory):
    root = tmp_path_factory.mktemp("qgis_plugins")
    with zipfile.ZipFile(plugin_zip) as zf:
        zf.extractall(root)
    home = tmp_path_factory.mktemp("home")
    env = qgis_process_env(root, home)
    enable = run_qgis_process(["plugins", "enable", "geofidelity_plugin"], env)
    assert enable.returncode == 0, enable.stdout + enable.stderr
    # An installed plugin is no checkout: it finds no .venv of its own. Configure the backend the way a
    # user does (Settings › Options › GeoFidelity writes this key of the profile's QGIS3.ini).
    ini = home / "qgis-profile" / "profiles" / "default" / "QGIS" / "QGIS3.ini"
    assert ini.exists(), f"qgis_process wrote no profile settings at {ini}"
    _set_ini_value(ini, "Processing", "Configuration\\GEOFIDELITY_BACKEND_PYTHON", str(REPO / ".venv" / "bin" / "python"))
    return root, env


def _set_ini_value(ini, section: str, key: str, value: str) -> None:
    """Add ``key=value`` under ``[section]`` of a QSettings ini file (kept otherwise as it is)."""
    lines = ini.read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith(key + "=")]
    if f"[{section}]" in lines:
        lines.insert(lines.index(f"[{section}]") + 1, f"{key}={value}")
    else:
        lines += ["", f"[{section}]", f"{key}={value}"]
    ini.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_zip_contents(plugin_zip):
    assert plugin_zip.stat().st_size < 25 * 1024 * 1024
    with zipfile.ZipFile(plugin_zip) as zf:
        names = zf.namelist()
    assert all(n.startswith("geofidelity_plugin/") for n in names)
    for required in ("metadata.txt", "__init__.py", "core/__init__.py", "processing_algorithms/provider.py",
                     "resources/styles/segments_by_class.qml", "resources/data/driving_side.csv", "LICENSE",
                     # what the backend, the doctor and "Set up backend…" need from an installed plugin
                     "__main__.py", "backend/cli.py", "backend/commands/__init__.py", "backend/commands/doctor.py",
                     "core/events.py", "backend_setup/__main__.py", "backend_setup/venv_setup.py",
                     "backend_setup/profiles.py", "qgis_side/backend_runner.py",
                     "qgis_side/gui/backend_options.py", "qgis_side/gui/backend_setup_dialog.py",
                     "resources/backend/profiles.json", "resources/backend/requirements.lock",
                     "resources/backend/requirements.txt"):
        assert f"geofidelity_plugin/{required}" in names
    assert not [n for n in names if n.endswith(BINARY_SUFFIXES) or "__pycache__" in n]


def test_the_zip_says_it_is_installed_and_the_clone_says_it_is_not(plugin_zip, tmp_path):
    """Which layout a copy has is written by the build (core/install_layout.py), never guessed."""
    with zipfile.ZipFile(plugin_zip) as zf:
        zf.extractall(tmp_path)
    assert "INSTALLED = True" in (tmp_path / "geofidelity_plugin" / "core" / "install_layout.py").read_text()
    assert "\nINSTALLED = False\n" in (REPO / "geofidelity_plugin" / "core" / "install_layout.py").read_text()
    probe = ("from geofidelity_plugin.core import resources as r; "
             "print(r.PLUGIN_ROOT, r.PROVIDER_PACKAGE, r.resources_dir(), sep='|')")
    for root, plugin_root, provider in ((tmp_path, tmp_path / "geofidelity_plugin",
                                         "geofidelity_plugin.processing_algorithms"),
                                        (REPO, REPO, "processing_algorithms")):
        out = subprocess.run(["python3", "-c", probe], cwd=root, capture_output=True, text=True, check=True,
                             env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)})
        assert out.stdout.strip().split("|") == [str(plugin_root), provider, str(plugin_root / "resources")]


def test_every_help_url_opens_a_page_of_the_installed_plugin(plugin_zip, tmp_path):
    """The Help button of each algorithm opens a page shipped in the zip, and the method document
    the pages link to is in the zip too."""
    with zipfile.ZipFile(plugin_zip) as zf:
        zf.extractall(tmp_path)
    probe = ("from qgis.core import QgsApplication; app = QgsApplication([], False); app.initQgis(); "
             "from geofidelity_plugin.processing_algorithms import provider as p; "
             "print('\\n'.join(c().helpUrl() for n, c in sorted(vars(p).items()) "
             "if n.endswith('Algorithm') or n == 'PipelineModel'))")
    out = subprocess.run(["/usr/bin/python3", "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path),
                                           "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)})
    urls = [u for u in out.stdout.splitlines() if u.startswith("file://")]
    assert len(urls) == 15, out.stdout + out.stderr  # 14 algorithms and the pipeline model
    plugin = tmp_path / "geofidelity_plugin"
    for url in urls:
        page = Path(url[len("file://"):])
        assert page.is_file() and page.parent == plugin / "resources" / "help", url
    assert (plugin / "docs" / "method.md").is_file() and (plugin / "docs" / "glossary.md").is_file()
    assert (plugin / "resources" / "help" / "../../docs/method.md").resolve() == plugin / "docs" / "method.md"


def test_metadata_complete():
    import configparser

    meta = configparser.ConfigParser()
    meta.read(REPO / "metadata.txt", encoding="utf-8")
    general = meta["general"]
    for key in ("name", "qgisMinimumVersion", "description", "about", "version", "author", "email",
                "tracker", "repository", "tags", "hasProcessingProvider"):
        assert general.get(key), key
    assert general["qgisMinimumVersion"] == "3.40" and general["qgisMaximumVersion"] == "4.99"
    assert general.getboolean("supportsQt6")  # QGIS 4's plugin repository lists it for Qt 6 builds
    assert "torch" in general["about"] and "osmium" in general["about"]


def test_qgis_process_lists_algorithm(installed):
    _, env = installed
    out = run_qgis_process(["list"], env)
    assert out.returncode == 0, out.stderr
    assert ALG in out.stdout


def test_qgis_process_runs_select_segments(installed, tmp_path, helsinki_pbf):
    root, env = installed
    target = tmp_path / "segments.gpkg"
    cities = root / "geofidelity_plugin" / "resources" / "data" / "demo_cities.csv"
    out = run_qgis_process(["run", ALG, "--json", "--", f"CITIES={cities}", f"OSM_FILE={helsinki_pbf}",
                            f"OUTPUT={target}"], env)
    assert out.returncode == 0, f"exit {out.returncode}\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"
    payload = json.loads(out.stdout[out.stdout.index("{"):])
    assert payload["results"]["SEGMENT_COUNT"] >= 3
    assert target.exists() and Path(payload["results"]["MANIFEST"]).exists()


def test_qgis_process_bad_input_fails_cleanly(installed, tmp_path):
    root, env = installed
    cities = root / "geofidelity_plugin" / "resources" / "data" / "demo_cities.csv"
    out = run_qgis_process(["run", ALG, "--", f"CITIES={cities}", "OSM_FILE=/nonexistent.osm.pbf",
                            f"OUTPUT={tmp_path / 'x.gpkg'}"], env)
    assert out.returncode == 1, (out.returncode, out.stderr[-1000:])
    assert "OSM file not found" in out.stdout + out.stderr
    assert not (tmp_path / "x.gpkg").exists()


def test_installed_plugin_without_backend_says_how_to_configure(plugin_zip, tmp_path, helsinki_pbf):
    """A fresh install with no backend configured fails with the place to configure it, not a traceback."""
    root = tmp_path / "plugins"
    with zipfile.ZipFile(plugin_zip) as zf:
        zf.extractall(root)
    env = qgis_process_env(root, tmp_path / "home")
    env.pop("GEOFIDELITY_BACKEND_PYTHON", None)
    assert run_qgis_process(["plugins", "enable", "geofidelity_plugin"], env).returncode == 0
    out = run_qgis_process(["run", "geofidelity:select_segments", "--",
                            f"CITIES={REPO / 'resources' / 'data' / 'demo_cities.csv'}",
                            f"OSM_FILE={helsinki_pbf}", f"OUTPUT={tmp_path / 'segments.gpkg'}"], env)
    text = out.stdout + out.stderr
    assert out.returncode != 0
    assert "no GeoFidelity backend is configured" in text and "Settings › Options › GeoFidelity" in text, text
    assert "Traceback" not in text
    assert not (tmp_path / "segments.gpkg").exists()
