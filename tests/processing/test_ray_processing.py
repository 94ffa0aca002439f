"""The *Ray cluster* setting and option in QGIS (README "Scale out on Ray"): the algorithms pass
``--ray`` to the backend, which runs the work on Ray and relays its progress to the feedback."""
from __future__ import annotations

from pathlib import Path

import pytest
from qgis.core import QgsProcessingFeedback

from geofidelity_plugin.qgis_side import backend_settings
from processing_algorithms.ray_option import PARAMETER, RAY_KEY, add_ray_option
from recording import RecordingFeedback as _Feedback


@pytest.fixture
def ray_setting(qgis_provider):
    before = backend_settings.get(RAY_KEY)
    yield
    backend_settings.set_value(RAY_KEY, before)


def test_the_setting_and_the_option_choose_the_backend_ray(qgis_provider, ray_setting):
    from processing.core.ProcessingConfig import ProcessingConfig
    from qgis.core import Qgis, QgsApplication

    assert RAY_KEY not in ProcessingConfig.settings  # Settings › Options › GeoFidelity alone saves it
    for algorithm in ("geofidelity:generate_panels", "geofidelity:evaluate"):
        param = QgsApplication.processingRegistry().algorithmById(algorithm).parameterDefinition(PARAMETER)
        assert param is not None and param.flags() & Qgis.ProcessingParameterFlag.Advanced
    backend_settings.set_value(RAY_KEY, "")
    for value, expected in (("", []), ("local", ["--ray", "local"]), (" 10.0.0.5:6379 ", ["--ray", "10.0.0.5:6379"])):
        args = []
        add_ray_option(args, value)
        assert args == expected
    backend_settings.set_value(RAY_KEY, "ray://head:10001")
    for value, expected in (("", ["--ray", "ray://head:10001"]), ("off", []), ("local", ["--ray", "local"])):
        args = []
        add_ray_option(args, value)
        assert args == expected


def test_generate_panels_on_a_local_ray_through_processing(qgis_provider, ray_setting, tmp_path):
    """The backend starts its own local Ray, generates there, and its Ray progress reaches QGIS."""
    pytest.importorskip("ray", reason="Ray is not installed (requirements.lock installs it)")
    import processing

    from geofidelity_plugin.core.generation.options import generator_choices
    from geofidelity_plugin.core.store.store import BenchmarkStore
    from tiny_models import make_tiny_sd

    sd = make_tiny_sd(tmp_path / "tiny-sd")
    segments = [{"segment_id": f"hel-00{i}", "city": "Helsinki", "country": "Finland", "street_name": f"Katu {i}",
                 "neighbourhood": "Kluuvi", "centroid_lon": 24.95, "centroid_lat": 60.17} for i in (1, 2, 3)]
    with BenchmarkStore(tmp_path / "benchmark.sqlite") as store:
        store.put_segments(segments)
        store.put_reference_images([{"reference_id": f"{s['segment_id']}:0", "segment_id": s["segment_id"],
                                     "image_path": "r.jpg"} for s in segments])
    backend_settings.set_value(RAY_KEY, "local")  # the setting alone turns Ray on
    params = {"STORE": str(tmp_path / "benchmark.sqlite"), "GENERATOR": generator_choices().index("custom folder"),
              "CUSTOM_FOLDER": str(sd), "CUSTOM_NAME": "tiny", "CONDITIONS": [1], "SAMPLES": 1, "STEPS": 2,
              "RESOLUTION": 32, "DTYPE": "fp32", "DEVICE": "cpu"}
    feedback = _Feedback()
    result = processing.run("geofidelity:generate_panels", params, feedback=feedback)
    assert result["GENERATED"] == 3 and result["KEPT"] == 0
    command = next(line for line in feedback.lines if line.startswith("GeoFidelity backend:"))
    assert "--ray local" in command
    assert any("on Ray: 3 panels" in line for line in feedback.lines), feedback.lines
    assert any(line.startswith("Ray: 3/3 panels on") and "images/s" in line for line in feedback.lines)
    assert max(feedback.percents) == pytest.approx(100, abs=1)
    manifest = Path(result["MANIFEST"]).read_text()
    assert '"engine": "ray"' in manifest and '"mode": "local"' in manifest
