"""*Set up backend…*: a dialog that runs :mod:`geofidelity_plugin.backend_setup.venv_setup` in a worker
thread (base Python, target folder, profile, torch build for this platform, where the geo stack
comes from) with a live log, a progress bar and
Cancel; on success it emits the new environment's Python. Worker threads are held by this
module, not by the dialog, so closing it mid-run cancels the run instead of destroying a running
thread.
"""
from __future__ import annotations


from qgis.gui import QgsFileWidget
from qgis.PyQt.QtCore import QThread, pyqtSignal
from qgis.PyQt.QtWidgets import (QCheckBox, QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel, QPlainTextEdit,
                                 QProgressBar, QPushButton, QVBoxLayout)

from geofidelity_plugin.backend_setup import venv_setup as backend_setup

_RUNNING: set = set()  # worker threads, kept alive until they finish


def keep_running(thread: QThread) -> None:
    _RUNNING.add(thread)
    thread.finished.connect(lambda: _RUNNING.discard(thread))


class SetupRun(QThread):
    """:class:`~geofidelity_plugin.backend_setup.venv_setup.BackendSetup` off the GUI thread."""

    line = pyqtSignal(str)
    progress = pyqtSignal(float, str)
    succeeded = pyqtSignal(object)
    failed = pyqtSignal(str, bool)  # message, cancelled

    def __init__(self, **options):
        super().__init__()
        self.setup = backend_setup.BackendSetup(**options, on_line=self.line.emit, on_progress=self.progress.emit)

    def run(self):
        try:
            self.succeeded.emit(self.setup.run())
        except backend_setup.SetupError as exc:
            self.failed.emit(str(exc), isinstance(exc, backend_setup.SetupCancelled))
        except Exception as exc:  # noqa: BLE001
            self.failed.emit(f"unexpected error ({type(exc).__name__}: {exc}) — this is a bug in GeoFidelity: "
                             "please report it with the log above", False)



class BackendSetupDialog(QDialog):
    """Base Python, target folder, profile, torch flavour; a live log, progress and Cancel."""

    backendReady = pyqtSignal(str)  # noqa: N815 (Qt naming)

    def __init__(self, parent=None, models_dir: str = ""):
        super().__init__(parent)
        self.setWindowTitle("Set up the GeoFidelity backend")
        self.models_dir = models_dir
        self.run_thread: SetupRun | None = None
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.base_python = QgsFileWidget()
        self.base_python.setStorageMode(QgsFileWidget.StorageMode.GetFile)
        self.base_python.setFilePath(backend_setup.default_base_python() or "")
        self.target = QgsFileWidget()
        self.target.setStorageMode(QgsFileWidget.StorageMode.GetDirectory)
        self.target.setFilePath(str(backend_setup.default_venv_dir()))
        self.profile = QComboBox()
        for name in backend_setup.profile_names():
            self.profile.addItem(name, name)
        self.torch = QComboBox()
        for key, label in backend_setup.torch_flavour_labels().items():
            self.torch.addItem(label, key)
        self.system_site = QCheckBox("geo stack from the system (Debian's packages, a venv with system site packages); "
                                     "off: pinned pip wheels in a venv of its own")
        self.system_site.setChecked(backend_setup.default_geo_stack(self.base_python.filePath() or None) == "system")
        form.addRow("Base Python", self.base_python)
        form.addRow("Environment folder", self.target)
        form.addRow("Profile", self.profile)
        form.addRow("torch build", self.torch)
        form.addRow("", self.system_site)
        layout.addLayout(form)
        self.description = QLabel("")
        self.description.setWordWrap(True)
        layout.addWidget(self.description)
        self.stage = QLabel("")
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        layout.addWidget(self.stage)
        layout.addWidget(self.bar)
        layout.addWidget(self.log, 1)
        buttons = QHBoxLayout()
        self.start_button, self.cancel_button, self.close_button = (QPushButton("Set up"), QPushButton("Cancel"),
                                                                    QPushButton("Close"))
        self.cancel_button.setEnabled(False)
        for button in (self.start_button, self.cancel_button, self.close_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.reject)
        self.profile.currentIndexChanged.connect(self._describe)
        self.resize(760, 560)
        self._describe()

    def _describe(self):
        try:
            profile = backend_setup.load_profile(self.profile.currentData())
        except backend_setup.SetupError as exc:
            self.description.setText(str(exc))
            return
        self.description.setText(f"{profile.description} ({len(profile.requirements)} pinned requirements)")
        self.torch.setEnabled(profile.has("torch"))

    def start(self):
        import os

        from geofidelity_plugin.qgis_side.network_settings import apply_qgis_proxy

        environment = dict(os.environ)
        secrets = apply_qgis_proxy(environment)  # pip goes through QGIS's proxy, as the backend does
        try:
            run = SetupRun(environment=environment, secrets=tuple(secrets),venv=self.target.filePath().strip() or str(backend_setup.default_venv_dir()),
                           python=self.base_python.filePath().strip() or None, profile=self.profile.currentData(),
                           torch=self.torch.currentData(), system_site_packages=self.system_site.isChecked(),
                           models_dir=self.models_dir or None)
        except backend_setup.SetupError as exc:
            self.stage.setText(f"✗ {exc}")
            return
        run.line.connect(self.log.appendPlainText)
        run.progress.connect(self._progress)
        run.succeeded.connect(self._succeeded)
        run.failed.connect(self._failed)
        run.finished.connect(self._finished)
        self.run_thread, self.venv = run, run.setup.venv
        self.log.clear()
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        keep_running(run)
        run.start()

    def cancel(self):
        if self.run_thread is not None:
            self.stage.setText("cancelling…")
            self.cancel_button.setEnabled(False)
            self.run_thread.setup.cancel()

    def reject(self):  # Close, Esc, the window's ×: a running setup is cancelled, never orphaned
        self.cancel()
        super().reject()

    def _progress(self, fraction: float, stage: str):
        self.bar.setValue(int(1000 * fraction))
        self.stage.setText(stage)

    def _succeeded(self, report: dict):
        python = str(backend_setup.venv_python(self.venv))
        self.stage.setText(f"✓ ready: {python} (profile {report.get('profile', {}).get('name')}, healthy)")
        self.log.appendPlainText(f"\nbackend ready: {python}")
        self.backendReady.emit(python)

    def _failed(self, message: str, cancelled: bool):
        self.stage.setText(("cancelled" if cancelled else "✗ failed") + f": {message.split(' — ')[0]}")
        self.log.appendPlainText(f"\n{'' if cancelled else 'error: '}{message}")

    def _finished(self):
        self.run_thread = None
        self.start_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
