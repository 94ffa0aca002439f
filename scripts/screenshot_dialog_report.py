"""`make screenshots`: the Evaluate dialog as QGIS opens it (its Help button opens the page the
plugin ships, resources/help/evaluate.html) and the first screen of the demo's HTML report,
rendered by headless Chromium. Run under Xvfb:
``python scripts/screenshot_dialog_report.py demo_output docs/screenshots``."""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def dialog(out: Path) -> Path:
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from plugin_light_check import start_gui_qgis  # the desktop's start-up, with a stand-in iface

    from geofidelity_plugin.qgis_side.qgis_env import register_provider
    from qgis.PyQt.QtWidgets import QApplication

    app, _iface, _window = start_gui_qgis()  # held: the application lives as long as the dialog
    register_provider()
    from processing.gui.AlgorithmDialog import AlgorithmDialog
    from qgis.core import QgsApplication

    dlg = AlgorithmDialog(QgsApplication.processingRegistry().algorithmById("geofidelity:evaluate").create())
    dlg.resize(1100, 820)
    dlg.show()
    end = time.time() + 2
    while time.time() < end:
        QApplication.processEvents()
        time.sleep(0.02)
    path = out / "dialog_evaluate.png"
    dlg.grab().save(str(path))
    dlg.close()
    return path


def report(demo: Path, out: Path) -> Path:
    page = demo / "evaluation" / "report.html"
    shot = out / "report.png"
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", f"--user-data-dir={work}", "--hide-scrollbars",
                        f"--screenshot={shot}", "--window-size=1200,1500", page.resolve().as_uri()],
                       check=True, capture_output=True, timeout=180)
    return shot


def main(demo_dir: str, out_dir: str) -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    demo = Path(demo_dir)
    if not (demo / "evaluation" / "report.html").is_file():
        print(f"{demo / 'evaluation' / 'report.html'} not found — run `make demo` first", file=sys.stderr)
        return 1
    shots = [dialog(out), report(demo, out)]
    print("screenshots: " + ", ".join(str(s) for s in shots))
    sys.stdout.flush()
    os._exit(0)  # skip QGIS's teardown: the pictures are written


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
