"""Each line a backend run says reaches the Processing log once: a stage (QgsProcessingFeedback's
setProgressText logs it already), an info, a warning and the error that ends the run."""
from __future__ import annotations

import pytest

from backends.support import REPO, fake_backend


def _log_of(qgis_app, command: str, args: list[str], python: str):
    from qgis.core import QgsProcessingException, QgsProcessingFeedback

    from geofidelity_plugin.qgis_side.backend_runner import run_backend

    feedback = QgsProcessingFeedback(True)
    with pytest.raises(QgsProcessingException) as failure:
        run_backend(command, args, feedback, python=python)
    return feedback.textLog(), str(failure.value)


def test_a_stage_an_info_and_a_warning_are_logged_once(qgis_app, tmp_path):
    log, message = _log_of(qgis_app, "evaluate", [], str(fake_backend(tmp_path / "bin", "stages_then_error.py")))
    for line in ("loading the feature model", "extracting features", "120 images", "3 images could not be read"):
        assert log.count(line) == 1, (line, log)
    assert message == "the store has no generated panels — run generate first"


def test_the_real_backends_error_is_said_once(qgis_app, tmp_path):
    """With --events jsonl the CLI leaves the error to its event: stderr does not repeat it."""
    missing = tmp_path / "none.sqlite"
    log, message = _log_of(qgis_app, "coverage", ["--store", str(missing), "--out", str(tmp_path / "c.gpkg")],
                           str(REPO / ".venv" / "bin" / "python"))
    assert message.startswith(f"benchmark store not found: {missing}")
    assert "benchmark store not found" not in log, log  # the exception carries it: the dialog shows it there
