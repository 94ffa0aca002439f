"""The options page (Settings › Options › GeoFidelity) after *Test backend*, in a real (Xvfb) window:
writes docs/screenshots/backend_options.png. Run from the repository root:

    env -u QT_QPA_PLATFORM xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python scripts/screenshot_backend_options.py

The doctor runs in the backend the page resolves (the checkout's .venv unless one is configured);
nothing is written to the QGIS settings.
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def settle(app, seconds: float) -> None:
    end = time.time() + seconds
    while time.time() < end:
        app.processEvents()
        time.sleep(0.02)


def main(out: Path) -> int:
    from qgis.core import QgsApplication
    from qgis.PyQt.QtWidgets import QDialog, QVBoxLayout

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], True)
    app.initQgis()
    from geofidelity_plugin.qgis_side.gui.backend_options import BackendOptionsPage

    window = QDialog()
    window.setWindowTitle("Options — GeoFidelity")
    layout = QVBoxLayout(window)
    page = BackendOptionsPage(window)
    layout.addWidget(page)
    window.resize(1040, 820)
    window.show()
    page.test_button.click()
    deadline = time.time() + 600
    while page.doctor_run is not None and time.time() < deadline:
        settle(app, 0.1)
    if page.doctor_run is not None:
        print("the doctor did not answer within 10 minutes", file=sys.stderr)
        return 1
    settle(app, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(out))
    print(f"screenshot: {out} ({page.report.toPlainText().splitlines()[0]})")
    window.close()
    window.deleteLater()
    settle(app, 0.3)
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main(ROOT / "docs" / "screenshots" / "backend_options.png"))
