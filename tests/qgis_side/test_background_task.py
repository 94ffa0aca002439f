"""Long algorithms started from the GUI run as QGIS background tasks (QgsProcessingAlgRunnerTask,
as the Processing dialog does): the GUI event loop keeps turning while they run, progress is
reported, and cancel stops them without leaving outputs behind."""
from __future__ import annotations

import time

from qgis.core import (QgsApplication, QgsProcessingAlgRunnerTask, QgsProcessingContext,
                       QgsProcessingFeedback)
from qgis.PyQt.QtCore import QCoreApplication, QTimer

from release_fixture import make_release
from tiny_models import make_tiny_dinov2


def _run_as_task(alg_id, params, cancel_after_ticks=None, timeout=300):
    registry = QgsApplication.processingRegistry()
    alg = registry.createAlgorithmById(alg_id)
    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    progress = []
    feedback.progressChanged.connect(progress.append)
    task = QgsProcessingAlgRunnerTask(alg, params, context, feedback)
    finished = []
    task.executed.connect(lambda ok, results: finished.append((ok, results)))
    ticks = [0]
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    timer.start(10)
    QgsApplication.taskManager().addTask(task)
    start = time.time()
    while not finished and time.time() - start < timeout:
        QCoreApplication.processEvents()
        if cancel_after_ticks is not None and ticks[0] >= cancel_after_ticks and not feedback.isCanceled():
            task.cancel()
        time.sleep(0.005)
    timer.stop()
    return finished[0] if finished else None, ticks[0], progress


def test_evaluate_runs_in_the_background_and_cancels(qgis_provider, tmp_path):
    import processing

    root = make_release(tmp_path / "release")
    store = tmp_path / "store.sqlite"
    processing.run("geofidelity:import_release", {"RELEASE_ROOT": str(root), "STORE": str(store)})
    model = make_tiny_dinov2(tmp_path / "dinov2")
    params = {"STORE": str(store), "FEATURE_MODEL": str(model), "BOOTSTRAP": 2000, "BATCH_SIZE": 2,
              "OUTPUT_FOLDER": str(tmp_path / "eval")}
    outcome, ticks, progress = _run_as_task("geofidelity:evaluate", params)
    assert outcome is not None and outcome[0], "the background task failed"
    assert ticks >= 5, "the event loop did not turn while the algorithm ran"
    assert progress and max(progress) == 100
    assert (tmp_path / "eval" / "per_panel_scores.csv").exists()

    params["OUTPUT_FOLDER"] = str(tmp_path / "eval_cancelled")
    outcome, ticks, _ = _run_as_task("geofidelity:evaluate", {**params, "SEED": 1}, cancel_after_ticks=1)
    assert outcome is not None and outcome[0] is False
    assert not (tmp_path / "eval_cancelled" / "per_panel_scores.csv").exists()
