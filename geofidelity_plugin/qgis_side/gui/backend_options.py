"""*Settings › Options › GeoFidelity*: where the backend lives, *Test backend* and *Set up backend…*.

The page edits the settings of ``processing_algorithms/backend_settings.py`` (backend Python,
models folder, default device, Ray cluster) and is the one place that saves them. *Test backend* runs ``python -m geofidelity_plugin --events
jsonl doctor`` through the same runner as every algorithm, in a worker thread, and shows its
report: protocol, Python/torch/CUDA versions, GPUs with free memory, models present offline,
problems with their fixes. *Set up backend…* runs :mod:`geofidelity_plugin.backend_setup.venv_setup` in a
worker thread with a live log, a progress bar and Cancel; on success it fills the Python field.

Nothing here blocks the GUI thread or imports more than qgis/PyQt and the standard library.
Worker threads are held by this module, not by the page, so that closing the options dialog
mid-run cancels the run instead of destroying a running thread.
"""
from __future__ import annotations

from html import escape
from pathlib import Path

from qgis.gui import QgsFileWidget, QgsOptionsPageWidget, QgsOptionsWidgetFactory
from qgis.PyQt.QtCore import QThread, pyqtSignal
from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import (QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                                 QTextBrowser, QVBoxLayout)

from geofidelity_plugin.qgis_side.gui.backend_setup_dialog import _RUNNING, BackendSetupDialog, SetupRun
from geofidelity_plugin.qgis_side.gui.backend_setup_dialog import keep_running as _keep

TITLE = "GeoFidelity"
DEVICES = ("", "cpu", "cuda", "cuda:0", "cuda:1", "mps")
_FACTORY = None


def processing_modules():
    """The backend runner and its settings (kept as a function: tests swap them)."""
    from geofidelity_plugin.qgis_side import backend_runner, backend_settings

    return backend_runner, backend_settings


#: seconds Test backend waits for the doctor (importing torch & co. takes ~10 s on a cold disk)
DOCTOR_TIMEOUT_S = 180.0


class _Feedback:
    """What ``run_backend`` asks of a ``QgsProcessingFeedback``: a cancel flag and a log; gives up
    after ``timeout_s`` so that a hung backend never leaves the button disabled."""

    def __init__(self, timeout_s: float = DOCTOR_TIMEOUT_S):
        import time

        self.canceled = False
        self.log: list[str] = []
        self._deadline = time.monotonic() + timeout_s
        self.timed_out = False

    def isCanceled(self) -> bool:  # noqa: N802 (QGIS's name)
        import time

        if not self.canceled and time.monotonic() > self._deadline:
            self.canceled = self.timed_out = True
        return self.canceled

    def pushInfo(self, text):  # noqa: N802
        self.log.append(str(text))

    pushDebugInfo = pushConsoleInfo = pushWarning = pushInfo  # noqa: N815

    def setProgress(self, value):  # noqa: N802
        pass

    def setProgressText(self, text):  # noqa: N802
        pass


class DoctorRun(QThread):
    """``doctor`` in the chosen backend, off the GUI thread."""

    reported = pyqtSignal(object)
    failed = pyqtSignal(str)

    def __init__(self, python: str, models_dir: str):
        super().__init__()
        self.python, self.models_dir = python, models_dir
        self.feedback = _Feedback()

    def run(self):
        try:
            backend, _ = processing_modules()
            args = ["--exit-zero", *(["--models-dir", self.models_dir] if self.models_dir else [])]
            env = {"GEOFIDELITY_MODELS_DIR": self.models_dir} if self.models_dir else None
            python = self.python or backend.resolve_python()
            if not Path(python).expanduser().is_file():
                raise RuntimeError(f"the backend Python {python} does not exist — choose the python executable of an "
                                   "environment, or create one with Set up backend…")
            run = backend.run_backend("doctor", args, self.feedback, env=env, python=str(Path(python).expanduser()))
            report = run.values.get("DOCTOR")
            if not isinstance(report, dict) or "healthy" not in report:
                raise RuntimeError("the backend answered the doctor without a report — it runs other code than this "
                                   "plugin's; choose the python executable of a GeoFidelity environment")
            self.reported.emit(report)
        except Exception as exc:  # noqa: BLE001 — QgsProcessingException and our own check: shown as text
            if self.feedback.timed_out:
                self.failed.emit(f"the backend gave no answer within {DOCTOR_TIMEOUT_S:.0f} s and was stopped — check "
                                 "that the executable is a Python environment (not a script that waits for input)")
            else:
                self.failed.emit(str(exc) or type(exc).__name__)


def _gib(n) -> str:
    return "?" if n is None else f"{n / 1024 ** 3:.1f} GiB"


_GREEN, _RED, _GREY = "#1a7f37", "#c62828", "#666666"


def _rows(rows) -> str:
    cells = "".join("<tr>" + "".join(f"<td style='padding:1px 10px 1px 0'>{c}</td>" for c in row) + "</tr>"
                    for row in rows)
    return f"<table cellspacing='0'>{cells}</table>"


def report_html(report: dict) -> str:
    """The doctor's report for people (the same facts as ``doctor``'s text)."""
    py, dev, prof, pkgs = report["python"], report["devices"], report.get("profile") or {}, report["packages"]
    if report.get("healthy"):
        head = f"<p style='color:{_GREEN}'><b>✓ healthy</b> — every requirement of its profile is installed and imports</p>"
    else:
        head = f"<p style='color:{_RED}'><b>✗ not healthy</b> — {len(report['problems'])} problem(s), each with its fix below</p>"
    cuda = ("available" if dev["cuda_available"] else "not available") + \
        f" (torch CUDA {dev['cuda_version'] or 'none: CPU build'})"
    profile = (prof.get("name") or "?") + (f" ({prof['file']})" if prof.get("file") else f" — {prof.get('note', '')}")
    reqs = report.get("requirements") or []
    system = ", ".join(f"{r['module']} {r['version'] or ''}".strip() if not r["error"] else f"{r['module']} ✗"
                       for r in report.get("system") or [])
    rows = [("Protocol", escape(f"{report['protocol']} (GeoFidelity {report['backend_version']})")),
            ("Python", escape(f"{py['version']} — {py['executable']}")),
            ("Profile", escape(profile)),
            ("Requirements", f"{len(reqs)} checked, {sum(1 for r in reqs if r['ok'])} as pinned"),
            ("Libraries", ", ".join(f"{escape(k)} {escape(v) if v else '<i>not installed</i>'}" for k, v in pkgs.items())),
            ("System", escape(system or "nothing checked")),
            ("CUDA", escape(dev["error"] or cuda))]
    rows += [(f"GPU {g['index']}", f"{escape(g['name'])}: <b>{_gib(g['free_bytes'])} free</b> of {_gib(g['total_bytes'])}")
             for g in dev["gpus"]]
    rows.append(("MPS", "available" if dev["mps_available"] else "not available"))
    models = report["models"]
    found = [(f"<span style='color:{_GREEN if m['present'] else _GREY}'>{'✓' if m['present'] else '·'}</span>",
              escape(m["role"]), f"<code style='white-space:nowrap'>{escape(m['id'] or '?')}</code>",
              f"<i>{escape(m['where'])}</i>" if m["present"] else f"<span style='color:{_GREY}'>not present</span>")
             for m in models["known"]]
    found += [(f"<span style='color:{_GREEN}'>✓</span>", escape(f"local folder ({f['kind'] or 'model'})"),
               f"<code style='white-space:nowrap'>{escape(f['path'])}</code>", f"<i>{escape(f['where'])}</i>")
              for f in models["local_folders"]]
    where = f"Hugging Face cache {models['hub_cache']}; models folder {models.get('models_dir') or 'not set'}"
    problems = "".join(f"<li style='color:{_RED}'>{escape(p['problem'])} — <b>{escape(p['fix'])}</b></li>"
                       for p in report["problems"])
    notes = "".join(f"<li style='color:{_GREY}'>{escape(p['problem'])} — {escape(p['fix'])}</li>"
                    for p in report["notes"])
    return (head + _rows((f"<b>{k}</b>", v) for k, v in rows)
            + (f"<h4>Problems</h4><ul>{problems}</ul>" if problems else "")
            + f"<h4>Models present offline</h4><p style='color:{_GREY}'>{escape(where)}</p>" + _rows(found)
            + (f"<h4>Notes</h4><ul>{notes}</ul>" if notes else ""))


class BackendOptionsPage(QgsOptionsPageWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.backend, self.settings = processing_modules()
        self.setObjectName("geofidelityOptions")
        self.doctor_run: DoctorRun | None = None
        layout = QVBoxLayout(self)
        box = QGroupBox("Backend")
        form = QFormLayout(box)
        self.python = QgsFileWidget()
        self.python.setStorageMode(QgsFileWidget.StorageMode.GetFile)
        self.python.setFilePath(self.settings.get(self.settings.PYTHON_KEY))
        default, source = self.settings.backend_python()
        self.python.lineEdit().setPlaceholderText(f"{default or 'none'} ({source})")
        self.python.setToolTip(self.settings.DESCRIPTIONS[self.settings.PYTHON_KEY])
        self.models = QgsFileWidget()
        self.models.setStorageMode(QgsFileWidget.StorageMode.GetDirectory)
        self.models.setFilePath(self.settings.get(self.settings.MODELS_KEY))
        self.models.lineEdit().setPlaceholderText("the Hugging Face cache (HF_HOME)")
        self.device = QComboBox()
        self.device.setEditable(True)
        self.device.addItems(DEVICES)
        self.device.setCurrentText(self.settings.default_device())
        self.device.lineEdit().setPlaceholderText("automatic: the GPU when there is one")
        form.addRow("Backend Python executable", self.python)
        form.addRow("Models folder", self.models)
        self.ray = QLineEdit(self.settings.get(self.settings.RAY_KEY))
        self.ray.setPlaceholderText("empty: one process; local; HOST:6379; ray://HOST:10001")
        self.ray.setToolTip(self.settings.DESCRIPTIONS[self.settings.RAY_KEY])
        form.addRow("Default device", self.device)
        form.addRow("Ray cluster", self.ray)
        buttons = QHBoxLayout()
        self.test_button = QPushButton("Test backend")
        self.setup_button = QPushButton("Set up backend…")
        self.status = QLabel("")
        buttons.addWidget(self.test_button)
        buttons.addWidget(self.setup_button)
        buttons.addWidget(self.status, 1)
        form.addRow(buttons)
        layout.addWidget(box)
        self.report = QTextBrowser()
        self.report.setOpenExternalLinks(False)
        self.report.setPlaceholderText("Test backend runs the doctor in the backend Python and shows what it finds.")
        layout.addWidget(self.report, 1)
        self.test_button.clicked.connect(self.test_backend)
        self.setup_button.clicked.connect(self.open_setup)

    def apply(self):
        self.settings.set_value(self.settings.PYTHON_KEY, self.python.filePath().strip())
        self.settings.set_value(self.settings.MODELS_KEY, self.models.filePath().strip())
        self.settings.set_value(self.settings.DEVICE_KEY, self.device.currentText().strip())
        self.settings.set_value(self.settings.RAY_KEY, self.ray.text().strip())

    def test_backend(self):
        if self.doctor_run is not None:
            return
        run = DoctorRun(self.python.filePath().strip(), self.models.filePath().strip())
        run.reported.connect(self.show_report)
        run.failed.connect(self.show_failure)
        run.finished.connect(self._doctor_finished)
        self.destroyed.connect(lambda *_: setattr(run.feedback, "canceled", True))
        self.doctor_run = run
        self.test_button.setEnabled(False)
        self.status.setText("running the doctor in the backend…")
        _keep(run)
        run.start()

    def _doctor_finished(self):
        self.doctor_run = None
        self.test_button.setEnabled(True)

    def show_report(self, report: dict):
        healthy = report.get("healthy")
        self.status.setText(f"<span style='color:{_GREEN}'>✓ healthy</span>" if healthy else
                            f"<span style='color:{_RED}'>✗ {len(report.get('problems') or [])} problem(s): see below</span>")
        self.report.setHtml(report_html(report))

    def show_failure(self, message: str):
        self.status.setText(f"<span style='color:{_RED}'>✗ the backend did not run</span>")
        self.report.setHtml(f"<p style='color:#c62828'><b>✗ the backend did not run</b></p><p>{escape(message)}</p>")

    def open_setup(self):
        dialog = BackendSetupDialog(self, models_dir=self.models.filePath().strip())
        dialog.backendReady.connect(self.python.setFilePath)
        dialog.backendReady.connect(lambda _: self.test_backend())
        dialog.open()
        self.setup_dialog = dialog


class GeoFidelityOptionsFactory(QgsOptionsWidgetFactory):
    """A top-level page, so that the "Settings › Options › GeoFidelity" every message names is
    where the user finds it."""

    def __init__(self):
        super().__init__(TITLE, _icon())

    def icon(self):
        return _icon()

    def createWidget(self, parent=None):  # noqa: N802 (QGIS's name)
        return BackendOptionsPage(parent)


def _icon() -> QIcon:
    from geofidelity_plugin.core.resources import resource

    return QIcon(str(resource("icons", "geofidelity.svg")))


def register_options_page(iface):
    """Add the page to *Settings › Options* (call from the plugin's ``initGui``)."""
    global _FACTORY
    if _FACTORY is None:
        _FACTORY = GeoFidelityOptionsFactory()
        iface.registerOptionsWidgetFactory(_FACTORY)
    return _FACTORY


def unregister_options_page(iface):
    """Remove the page (the plugin's ``unload``); cancels a doctor or setup still running."""
    global _FACTORY
    for thread in list(_RUNNING):
        if isinstance(thread, SetupRun):
            thread.setup.cancel()
        elif isinstance(thread, DoctorRun):
            thread.feedback.canceled = True
    if _FACTORY is not None:
        iface.unregisterOptionsWidgetFactory(_FACTORY)
        _FACTORY = None
