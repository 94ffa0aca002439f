"""Issue 9's promise, through the real ``geofidelity:evaluate`` algorithm in a real (offscreen)
QGIS: the backend runs in its own process, so its crash, its out-of-memory, its garbage or its
cancel never takes QGIS down, never leaves a damaged store, and a re-run resumes from the caches.

The configured backend (``GEOFIDELITY_BACKEND_PYTHON``) is a temporary wrapper per test: the
real backend (possibly under ``ulimit -v``) or a fake one from ``tests/backends/``.
"""
from __future__ import annotations

import csv
import gc
import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from qgis.core import QgsProcessingException

from backends.support import (REPO, RecordingFeedback, backend_wrapper, fake_backend, gone, integrity,
                              make_evaluable, venv_python)

OK = [("ok",)]
#: address space the out-of-memory case grants beyond the backend's imports: room to load the tiny
#: model and embed (a full run peaks ≈0.35 GB above its imports here), none for the
#: 50-million-resample bootstrap (several GB)
MEMORY_HEADROOM_KB = 1_500_000


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """69 images (3 segments): a full evaluate takes seconds."""
    return make_evaluable(tmp_path_factory.mktemp("small-store"), per_city=1)


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    """207 images (9 segments): at batch size 1 the extraction takes seconds."""
    return make_evaluable(tmp_path_factory.mktemp("large-store"), per_city=3)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A feature cache of this test's own (the backend inherits the environment)."""
    folder = tmp_path / "feature-cache"
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(folder))
    return folder / "features.sqlite"


def use_backend(monkeypatch, executable: Path) -> None:
    monkeypatch.setenv("GEOFIDELITY_BACKEND_PYTHON", str(executable))


def evaluate(store: Path, model: Path, out: Path, feedback=None, **extra) -> dict:
    import processing

    params = {"STORE": str(store), "FEATURE_MODEL": str(model), "OUTPUT_FOLDER": str(out), "BOOTSTRAP": 50,
              "BATCH_SIZE": 1, "DEVICE": "cpu", **extra}
    return processing.run("geofidelity:evaluate", params, feedback=feedback or RecordingFeedback())


def street_names(store: Path) -> list[str]:
    db = sqlite3.connect(str(store))
    try:
        return [row[0] for row in db.execute("SELECT street_name FROM segments ORDER BY segment_id")]
    finally:
        db.close()


def assert_qgis_works() -> None:
    """QGIS after the failure: a native algorithm runs and a layer edits."""
    import processing
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsVectorLayer

    layer = QgsVectorLayer("Point?field=id:integer", "probe", "memory")
    feature = QgsFeature(layer.fields())
    feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(385000, 6672000)))
    feature.setAttributes([1])
    assert layer.dataProvider().addFeatures([feature])[0]
    buffered = processing.run("native:buffer", {"INPUT": layer, "DISTANCE": 10, "OUTPUT": "memory:"})["OUTPUT"]
    area = next(buffered.getFeatures()).geometry().area()
    assert buffered.featureCount() == 1 and 0.95 * math.pi * 100 < area < math.pi * 100, area  # a 10 m disc


def assert_clean_failure(message: str) -> None:
    assert "Traceback" not in message and 'File "' not in message, message
    assert " — " in message, f"no fix in: {message}"


# -- the backend fails: QGIS survives ------------------------------------------------------------

def test_backend_crash_sigabrt(qgis_provider, small, cache, tmp_path, monkeypatch):
    store, model = small
    names = street_names(store)
    use_backend(monkeypatch, fake_backend(tmp_path / "bin", "abort_after_hello.py"))
    with pytest.raises(QgsProcessingException) as failure:
        evaluate(store, model, tmp_path / "eval")
    from geofidelity_plugin.qgis_side import backend_runner as backend

    message = str(failure.value)
    assert "crashed (SIGABRT)" in message and "fake backend: aborting now" in message, message
    assert_clean_failure(message)
    assert backend.LAST_RUN["returncode"] == -signal.SIGABRT and gone(backend.LAST_RUN["pid"])
    assert_qgis_works()
    assert integrity(store) == OK
    assert street_names(store) == names  # the crashed backend's open transaction left nothing


def backend_import_size_kb() -> int:
    """The backend's address space once torch and transformers are imported (it differs between
    CPU and CUDA builds of torch)."""
    probe = "import torch, transformers, scipy; print(open('/proc/self/status').read())"
    status = subprocess.run([venv_python(), "-c", probe], capture_output=True, text=True, timeout=300).stdout
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmPeak:"))


def test_backend_out_of_memory(qgis_provider, small, cache, tmp_path, monkeypatch):
    """The real backend under ``ulimit -v``: it starts, loads torch and the model, then an
    allocation fails."""
    store, model = small
    limit_kb = backend_import_size_kb() + MEMORY_HEADROOM_KB
    use_backend(monkeypatch, backend_wrapper(tmp_path / "bin", f'ulimit -v {limit_kb}\nexec "$PY" "$@"'))
    feedback = RecordingFeedback(deadline_s=240)
    with pytest.raises(QgsProcessingException) as failure:
        evaluate(store, model, tmp_path / "eval", feedback, BOOTSTRAP=50_000_000)
    message = str(failure.value)
    print(f"\nout of memory (ulimit -v {limit_kb} kB): {message}")
    assert not feedback.timed_out, "the backend under a memory limit never ended"
    assert "memory" in message, message
    assert any(text.startswith("extracting features") for text in feedback.texts), "failed before the model loaded"
    assert_clean_failure(message)
    assert_qgis_works()
    assert integrity(store) == OK and integrity(cache) == OK


def test_backend_prints_garbage(qgis_provider, small, cache, tmp_path, monkeypatch):
    store, model = small
    use_backend(monkeypatch, fake_backend(tmp_path / "bin", "garbage.py"))
    with pytest.raises(QgsProcessingException, match="did not answer in its protocol") as failure:
        evaluate(store, model, tmp_path / "eval")
    assert "interactive helper" in str(failure.value)
    assert_clean_failure(str(failure.value))
    assert_qgis_works()


def test_backend_of_another_protocol_major_is_refused(qgis_provider, small, cache, tmp_path, monkeypatch):
    from geofidelity_plugin.core import events
    from geofidelity_plugin.qgis_side import backend_runner as backend

    store, model = small
    use_backend(monkeypatch, fake_backend(tmp_path / "bin", "protocol_two.py"))
    with pytest.raises(QgsProcessingException) as failure:
        evaluate(store, model, tmp_path / "eval")
    message = str(failure.value)
    assert "protocol 2.0" in message and events.PROTOCOL_VERSION in message and "9.0.0" in message, message
    assert_clean_failure(message)
    # stopped by the runner (a signal), not left to sleep until it ended by itself
    assert backend.LAST_RUN["returncode"] < 0 and gone(backend.LAST_RUN["pid"])


def test_backend_exits_without_a_result(qgis_provider, small, cache, tmp_path, monkeypatch):
    store, model = small
    use_backend(monkeypatch, fake_backend(tmp_path / "bin", "no_result.py"))
    with pytest.raises(QgsProcessingException, match=r"ended without a result \(exit 0\)") as failure:
        evaluate(store, model, tmp_path / "eval")
    assert "leaving early" in str(failure.value)
    assert_clean_failure(str(failure.value))


def test_backend_that_hangs_after_its_result(qgis_provider, small, cache, tmp_path, monkeypatch):
    from geofidelity_plugin.qgis_side import backend_runner as backend

    store, model = small
    use_backend(monkeypatch, fake_backend(tmp_path / "bin", "result_then_hang.py"))
    feedback = RecordingFeedback(deadline_s=20)
    result = evaluate(store, model, tmp_path / "eval", feedback)
    assert not feedback.timed_out and result["PANELS"] == 7
    assert gone(backend.LAST_RUN["pid"])


# -- cancel --------------------------------------------------------------------------------------

def _assert_cancelled(failure, feedback: RecordingFeedback, store: Path, cache: Path, label: str) -> float:
    from geofidelity_plugin.qgis_side import backend_runner as backend

    seconds = backend.LAST_RUN.get("cancel_seconds")
    assert seconds is not None and feedback.cancel_requested_at is not None, (str(failure.value), feedback.texts)
    print(f"\ncancel during {label}: backend gone {seconds:.3f} s after SIGTERM; Cancel to the algorithm's "
          f"exception {time.monotonic() - feedback.cancel_requested_at:.3f} s")
    assert not feedback.timed_out
    assert "cancelled" in str(failure.value), str(failure.value)
    assert seconds <= 2.0, f"cancel during {label} took {seconds:.3f} s (bound 2 s)"
    assert gone(backend.LAST_RUN["pid"]), "the backend or a process of its group is still running"
    assert integrity(store) == OK
    if cache.exists():
        assert integrity(cache) == OK
    return seconds


def test_cancel_during_model_load(qgis_provider, small, cache, tmp_path, monkeypatch):
    store, model = small
    use_backend(monkeypatch, Path(venv_python()))
    feedback = RecordingFeedback(cancel_stage="loading the feature model")
    with pytest.raises(QgsProcessingException) as failure:
        evaluate(store, model, tmp_path / "eval", feedback)
    _assert_cancelled(failure, feedback, store, cache, "the model load")
    again = evaluate(store, model, tmp_path / "eval")
    assert again["PANELS"] > 0 and Path(again["PER_PANEL_CSV"]).is_file()


def test_cancel_during_feature_extraction_resumes(qgis_provider, large, cache, tmp_path, monkeypatch):
    store, model = large
    use_backend(monkeypatch, Path(venv_python()))
    feedback = RecordingFeedback(cancel_stage="extracting features", cancel_percent=30.0)
    with pytest.raises(QgsProcessingException) as failure:
        evaluate(store, model, tmp_path / "eval", feedback)
    _assert_cancelled(failure, feedback, store, cache, "the feature extraction")
    rerun = RecordingFeedback()
    again = evaluate(store, model, tmp_path / "eval", rerun)
    assert again["PANELS"] > 0
    cached = rerun.features_cached()
    print(f"re-run after the cancel: {cached} features from the cache")
    assert cached and cached > 0, rerun.infos


# -- SIGKILL at random moments -------------------------------------------------------------------

def _cli(store: Path, model: Path, out: Path, cache_dir: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), GEOFIDELITY_CACHE_DIR=str(cache_dir), HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1")
    argv = [venv_python(), "-m", "geofidelity_plugin", "--events", "jsonl", "evaluate", "--store", str(store),
            "--out", str(out), "--feature-model", str(model), "--bootstrap", "50", "--batch-size", "1",
            "--device", "cpu"]
    return subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)


def _finish(proc: subprocess.Popen) -> dict:
    lines = proc.stdout.read().splitlines()
    assert proc.wait(timeout=300) == 0, lines[-1:]
    return json.loads(lines[-1])


def _per_panel(path: Path) -> dict:
    with open(path, newline="", encoding="utf-8") as f:
        return {(r["model"], r["condition"], r["segment_id"]): r for r in csv.DictReader(f)}


def _same_value(a: str, b: str) -> bool:
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    return (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-12)


def _kill_at(store: Path, model: Path, out: Path, cache_dir: Path, stage: str, fraction: float,
             jitter_s: float, sig: int = signal.SIGKILL) -> tuple[bool, str]:
    """Run the CLI and SIGKILL its process group ``jitter_s`` after it reports ``stage`` at
    ``fraction`` or more. Moments are set by progress, not by the clock, so that they land in the
    same stage on a fast or a busy machine. Returns whether the run was still going, and its last
    event."""
    proc = _cli(store, model, out, cache_dir)
    seen: list[dict] = []
    reached = threading.Event()

    def read():
        for line in proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:  # a line cut by the kill
                continue
            seen.append(event)
            if event.get("stage") == stage and (event.get("fraction") or 0.0) >= fraction:
                reached.set()
        reached.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert reached.wait(timeout=300), f"the backend never reached {stage} at {fraction}"
    time.sleep(jitter_s)
    mid_run = proc.poll() is None
    if mid_run:
        os.killpg(proc.pid, sig)
    proc.wait(timeout=60)
    reader.join(timeout=10)
    assert gone(proc.pid)
    last = seen[-1] if seen else {"event": "nothing"}
    return mid_run, last.get("stage") or last["event"]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_sigkill_at_random_moments_leaves_store_and_cache_sound(large, tmp_path, sig):
    """Five runs stopped (SIGKILL, or SIGTERM — the runner's first signal on Cancel — to the whole
    group) at seeded random moments: three during the
    feature extraction (the cache is being written), two at the end of the scoring, while the
    outputs are written. Then the store and the shared feature cache pass SQLite's integrity
    check and a final run, into the same output folder, gives the same per-panel scores as a
    clean run."""
    store, model = large
    clean = _finish(_cli(store, model, tmp_path / "clean", tmp_path / "clean-cache"))
    assert clean["values"]["FEATURES_CACHED"] == 0
    rng = random.Random(20240909)
    # the extraction reports fractions 0.035 → 0.7 of the run, whatever is already cached
    moments = [("extracting features", rng.uniform(0.05, 0.65), rng.uniform(0.0, 0.05)) for _ in range(3)]
    moments += [("scoring", 1.0, rng.uniform(0.0, 0.1)) for _ in range(2)]
    shared_cache = tmp_path / "cache"
    killed = []
    for attempt, (stage, fraction, jitter) in enumerate(moments):
        mid_run, last = _kill_at(store, model, tmp_path / "eval", shared_cache, stage, fraction, jitter, sig)
        if mid_run:
            killed.append((attempt, f"{stage} ≥ {fraction:.3f} + {jitter * 1000:.0f} ms", last))
        assert integrity(store) == OK, f"store damaged by the kill of attempt {attempt}"
        assert integrity(shared_cache / "features.sqlite") == OK, f"cache damaged by the kill of attempt {attempt}"
    print(f"\n{signal.Signals(sig).name} mid-run (attempt, moment, last event seen): {killed}")
    assert len(killed) >= 3, f"only {len(killed)} of 5 kills landed mid-run: {killed}"
    final = _finish(_cli(store, model, tmp_path / "eval", shared_cache))
    assert final["values"]["FEATURES_CACHED"] > 0
    expected = _per_panel(tmp_path / "clean" / "per_panel_scores.csv")
    got = _per_panel(tmp_path / "eval" / "per_panel_scores.csv")
    assert got.keys() == expected.keys()
    for key, row in expected.items():
        different = {c: (v, got[key][c]) for c, v in row.items() if not _same_value(v, got[key][c])}
        assert not different, f"{key}: {different}"


# -- memory of the QGIS process ------------------------------------------------------------------

def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def test_qgis_memory_does_not_grow_with_runs(qgis_provider, small, cache, tmp_path, monkeypatch):
    store, model = small
    use_backend(monkeypatch, Path(venv_python()))
    assert_qgis_works()  # warm-up: Processing and QGIS imports paid before the first reading
    gc.collect()
    before = _rss_mb()
    for run in range(2):
        assert evaluate(store, model, tmp_path / f"eval{run}")["PANELS"] > 0
    gc.collect()
    after = _rss_mb()
    print(f"\nQGIS process VmRSS: {before:.2f} MB before two evaluate runs, {after:.2f} MB after "
          f"(growth {(after - before) * 1024:+.0f} kB)")
    assert after - before < 50, f"VmRSS grew {after - before:.1f} MB over two runs ({before:.1f} → {after:.1f} MB)"


# -- the plugin stays light ----------------------------------------------------------------------

def test_plugin_loads_without_heavy_libraries(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GEOFIDELITY_PYTHONPATH")}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(tmp_path), HOME=str(tmp_path))
    done = subprocess.run([venv_python(), str(REPO / "tests" / "support" / "plugin_light_check.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads(lines[-1])
    print(f"\nplugin load: {json.dumps(report)}")
    assert report["algorithms"] >= 10 and len(report["dialogs"]) + len(report["initialised_only"]) == report["algorithms"]
    assert report["heavy"] == [], f"loading the plugin imported {report['heavy']}"
