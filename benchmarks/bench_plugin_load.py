"""Plugin load time in QGIS (issue 9): ``classFactory`` + ``initGui`` + provider load + one
instance of every algorithm, in a fresh interpreter each time (QGIS's own start is not counted).

Measured for this tree and for the commit before the backend moved out of process (``fa35865``,
checked out with ``git worktree add`` into a temporary folder), interleaved, median of 5 after one
unmeasured warm-up run each (which also writes the byte-code caches). The baseline loaded its
dependencies through ``GEOFIDELITY_PYTHONPATH``; it is set for that run only.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BASELINE = "fa35865"
RUNS = 5
HEAVY = ("torch", "transformers", "diffusers", "safetensors", "accelerate", "osmium", "PIL", "scipy", "imagehash")


def child(root: str) -> int:
    """One measurement: QGIS started first (not timed), then the plugin loaded from ``root``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from pytest_qgis.mock_qgis_classes import MockMessageBar  # before the application, as pytest-qgis does
    from pytest_qgis.qgis_interface import QgisInterface
    from qgis.core import QgsApplication
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], True)
    app.initQgis()
    sys.path.append(os.path.join(app.pkgDataPath(), "python", "plugins"))
    from processing.core.Processing import Processing

    Processing.initialize()
    window = QMainWindow()
    iface = QgisInterface(QgsMapCanvas(window), MockMessageBar(), window)
    sys.path.insert(0, root)

    start = time.perf_counter()
    import geofidelity_plugin

    plugin = geofidelity_plugin.classFactory(iface)
    plugin.initGui()
    provider = QgsApplication.processingRegistry().providerById("geofidelity")
    instances = [alg.create() for alg in provider.algorithms()]
    seconds = time.perf_counter() - start

    loaded_from = str(Path(geofidelity_plugin.__file__).resolve().parent.parent)
    print(json.dumps({"seconds": seconds, "algorithms": len(instances), "root": loaded_from,
                      "heavy": sorted(m for m in HEAVY if m in sys.modules)}))
    sys.stdout.flush()
    os._exit(0)  # QGIS's teardown is not part of the load


def measure(root: Path, extra_env: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GEOFIDELITY_PYTHONPATH")}
    env.update(QT_QPA_PLATFORM="offscreen", **extra_env)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(root)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"plugin load in {root} failed (exit {done.returncode}): {done.stderr[-2000:]}")
    record = json.loads(lines[-1])
    if Path(record["root"]) != root.resolve():
        raise RuntimeError(f"loaded the plugin from {record['root']}, not {root}")
    return record


def baseline_tree(folder: Path) -> Path | None:
    """``fa35865`` in a worktree under ``folder``; ``None`` (with a note) without git history."""
    target = folder / "baseline"
    done = subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(target), BASELINE],
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(f"baseline {BASELINE} skipped: git worktree add failed ({done.stderr.strip()[:300]})")
        return None
    return target


def main() -> int:
    site = REPO / ".venv" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    with tempfile.TemporaryDirectory(prefix="geofidelity-plugin-load-") as tmp:
        baseline = baseline_tree(Path(tmp))
        trees = [("current", REPO, {})]
        if baseline is not None:
            trees.append((f"baseline {BASELINE}", baseline, {"GEOFIDELITY_PYTHONPATH": str(site)}))
        try:
            for _, root, env in trees:  # warm-up: byte-code caches, the OS file cache
                measure(root, env)
            times = {label: [] for label, _, _ in trees}
            heavy = {}
            for _ in range(RUNS):
                for label, root, env in trees:
                    record = measure(root, env)
                    times[label].append(record["seconds"])
                    heavy[label] = record["heavy"]
        finally:
            if baseline is not None:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(baseline)],
                               capture_output=True)
    medians = {label: statistics.median(values) for label, values in times.items()}
    for label, values in times.items():
        print(f"{label:<18} median {medians[label] * 1000:7.1f} ms of {RUNS} "
              f"({', '.join(f'{v * 1000:.0f}' for v in values)} ms); heavy modules loaded: "
              f"{', '.join(heavy[label]) or 'none'}")
    if len(medians) == 2:
        current, base = medians["current"], medians[f"baseline {BASELINE}"]
        print(f"current / baseline = {current / base:.3f} (same run)")
    return 1 if heavy["current"] else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        sys.exit(child(sys.argv[2]))
    sys.exit(main())
