"""Shared fixtures. QGIS runs offscreen (pytest-qgis starts it); the model hub is offline."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# tests never write into the user's own cache (~/.cache/geofidelity)
import tempfile  # noqa: E402

os.environ.setdefault("GEOFIDELITY_CACHE_DIR", tempfile.mkdtemp(prefix="geofidelity-test-cache-"))

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
EXTERNAL = REPO / "data" / "external"
OSM = EXTERNAL / "osm"
PHOTOS = EXTERNAL / "photos"
VENV_SITE = REPO / ".venv" / "lib" / "python3.11" / "site-packages"

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def external(path: Path) -> Path:
    if not path.exists():
        pytest.fail(f"test data {path} missing — run `make test` (it fetches the data)")
    return path


@pytest.fixture(scope="session")
def helsinki_pbf() -> Path:
    return external(OSM / "Helsinki.osm.pbf")


@pytest.fixture(scope="session")
def town_pbf() -> Path:
    return external(OSM / "test.osm.pbf")


@pytest.fixture(scope="session")
def oakland_bz2() -> Path:
    return external(OSM / "West-Oakland.osm.bz2")


@pytest.fixture(scope="session")
def qgis_provider(qgis_app, qgis_processing):
    """The ``geofidelity`` provider registered in the test's QGIS (repository layout)."""
    from geofidelity_plugin.qgis_side.qgis_env import register_provider

    _real_layer_tree_view()
    return register_provider()


def _real_layer_tree_view() -> None:
    """QGIS >= 3.42 loads Processing results through C++ ``QgsProcessingGuiUtils.addResultLayers``,
    which needs a real ``QgsLayerTreeView``: pytest-qgis's stub iface answers ``layerTreeView()``
    with a MagicMock. Give the stub a real view of the project's layer tree there (older QGIS: untouched)."""
    import qgis.gui
    from qgis import utils

    iface = utils.iface
    if iface is None or not hasattr(qgis.gui, "QgsProcessingGuiUtils") or "layerTreeView" in vars(iface):
        return
    from qgis.core import QgsLayerTreeModel, QgsProject

    view = qgis.gui.QgsLayerTreeView()
    view.setModel(QgsLayerTreeModel(QgsProject.instance().layerTreeRoot(), view))
    iface.layerTreeView = lambda: view


class SleepRecorder:
    """Stands in for ``time.sleep`` in HTTP clients: remembers every requested wait, waits for none."""

    def __init__(self):
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)

    @property
    def total(self) -> float:
        return sum(self.calls)


@pytest.fixture
def sleeps():
    return SleepRecorder()


def qgis_process_env(plugin_root: Path, home: Path) -> dict:
    env = dict(os.environ)
    env.update({"QGIS_PLUGINPATH": str(plugin_root), "HOME": str(home),
                "QGIS_CUSTOM_CONFIG_PATH": str(home / "qgis-profile"),
                "QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": str(home / "runtime"),
                "PYTHONDONTWRITEBYTECODE": "1"})
    env.pop("PYTHONPATH", None)
    (home / "runtime").mkdir(parents=True, exist_ok=True, mode=0o700)
    return env


def run_qgis_process(args: list[str], env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(["qgis_process.bin", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="session")
def qgis_env(tmp_path_factory):
    """``qgis_process.bin`` environment with the plugin built from this checkout and enabled."""
    subprocess.run(["make", "-s", "plugin"], cwd=REPO, check=True, capture_output=True)
    env = qgis_process_env(REPO / "build" / "plugins", tmp_path_factory.mktemp("qgis-home"))
    enable = run_qgis_process(["plugins", "enable", "geofidelity_plugin"], env)
    assert enable.returncode == 0, enable.stdout + enable.stderr
    return env


# -- the "qgis" marker: tests that face QGIS (select them with `-m qgis`; see scripts/qgis344_check.sh) --
# Chosen by what a test uses, not by its file name, so it holds when test files move into sub-folders:
# a fixture named qgis* in its closure (pytest-qgis's qgis_app/qgis_processing/…, qgis_provider,
# qgis_env), or qgis/processing imported or qgis_process/the qgis app run by its module's top level,
# by the test function itself or by one of its fixtures.
import inspect  # noqa: E402
import re  # noqa: E402

_QGIS_TOP_LEVEL = re.compile(r"^(?:from|import)\s+(?:qgis|processing|recording)\b", re.M)  # recording.py is QGIS feedback
_QGIS_USE = re.compile(r"\b(?:from|import)\s+(?:qgis|processing)\b|qgis_process|run_qgis|_open_in_qgis|"
                       r"xvfb-run")


def _source(obj) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def _requested_fixtures(item) -> list:
    """The fixtures a test asks for, directly or through other fixtures — autouse ones left out
    (pytest-qgis's autouse ``qgis_show_map`` would otherwise pull ``qgis_app`` into every test)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    todo, seen, defs = list(info.argnames), set(), []
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for fixturedef in info.name2fixturedefs.get(name, ()):
            defs.append(fixturedef)
            todo += [n for n in fixturedef.argnames if n != "request"]
    return defs


#: the test folders of the QGIS room and the provider: every test there faces QGIS, whatever it imports
QGIS_FOLDERS = (REPO / "tests" / "qgis_side", REPO / "tests" / "processing")


def _faces_qgis(item, module_cache: dict) -> bool:
    if any(Path(str(item.fspath)).is_relative_to(folder) for folder in QGIS_FOLDERS):
        return True
    module = getattr(item, "module", None)
    if module is not None:
        if module not in module_cache:
            module_cache[module] = bool(_QGIS_TOP_LEVEL.search(_source(module)))
        if module_cache[module]:
            return True
    defs = _requested_fixtures(item)
    if any(d.argname.startswith("qgis") for d in defs):
        return True
    names = getattr(getattr(item, "_fixtureinfo", None), "names_closure", ())
    if any(name.startswith("qgis") for name in names):  # pytest-qgis's, even where it is not installed
        return True
    funcs = [getattr(item, "function", None)] + [d.func for d in defs]
    return any(f is not None and _QGIS_USE.search(_source(f)) for f in funcs)


def _qgis_importable() -> bool:
    import importlib.util

    return importlib.util.find_spec("qgis") is not None


#: why QGIS-facing tests do not run in a Python without QGIS (a pip install: docs/install-pip.md)
NO_QGIS = "QGIS is not importable in this Python (a pip install without QGIS): this test faces QGIS"


def pytest_ignore_collect(collection_path, config):
    """In a Python without QGIS, a test module that imports qgis at its top level is not collected
    (it could not be imported); its tests are QGIS's, run where QGIS is."""
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_") or _qgis_importable():
        return None
    try:
        return bool(_QGIS_TOP_LEVEL.search(collection_path.read_text(encoding="utf-8"))) or None
    except OSError:
        return None


def pytest_collection_modifyitems(config, items):
    cache: dict = {}
    skip = None if _qgis_importable() else pytest.mark.skip(reason=NO_QGIS)
    for item in items:
        if _faces_qgis(item, cache):
            item.add_marker(pytest.mark.qgis)
            if skip is not None:
                item.add_marker(skip)
