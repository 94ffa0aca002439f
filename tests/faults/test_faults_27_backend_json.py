"""Issue 27, cases 5 and 9 on the QGIS side: a backend that never says hello is stopped at a stated
limit with a message (it was waited for without limit), and no JSON the backend prints can break
the plugin (an integer ``stage`` crashed it)."""
from __future__ import annotations

import time

import pytest
from qgis.core import QgsProcessingException

from backends.support import RecordingFeedback, fake_backend, gone

pytestmark = pytest.mark.fault


def test_a_backend_that_never_says_hello_is_stopped(qgis_app, tmp_path, monkeypatch):
    from geofidelity_plugin.qgis_side import backend_runner

    monkeypatch.setenv("GEOFIDELITY_BACKEND_HELLO_TIMEOUT_S", "3")
    python = fake_backend(tmp_path / "bin", "silent.py")
    began = time.monotonic()
    with pytest.raises(QgsProcessingException) as failure:
        backend_runner.run_backend("doctor", [], RecordingFeedback(), python=str(python))
    took = time.monotonic() - began
    message = str(failure.value)
    assert "did not introduce itself within 3 s and was stopped" in message and " — run Test backend" in message
    assert took < 30, f"{took:.1f} s"
    assert gone(backend_runner.LAST_RUN["pid"])


def test_no_json_line_breaks_the_plugin(qgis_app, tmp_path):
    from geofidelity_plugin.qgis_side import backend_runner

    feedback = RecordingFeedback()
    run = backend_runner.run_backend("evaluate", [], feedback, python=str(fake_backend(tmp_path / "bin",
                                                                                        "hostile_json.py")))
    assert run.values == {} and run.outputs == [] and run.path("TABLES") is None
    assert run.warnings == [""]  # a warning without a readable message is still counted
