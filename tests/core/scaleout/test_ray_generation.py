"""Generation on Ray (README "Scale out on Ray"): a local Ray with 2 CPU workers and the tiny
Stable Diffusion, against the single-process run of the same store.

Both sides run torch on one thread (a Ray worker holding one CPU gets one): on the CPU a
convolution's bytes depend on the thread count, whatever runs it, so the single-process reference
is made with one thread too. Then the images are byte-identical and the store holds the same rows.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="Ray is not installed (requirements.lock installs it)")

from geofidelity_plugin.core.errors import Cancelled  # noqa: E402
from geofidelity_plugin.core.progress import RecordingProgress  # noqa: E402
from geofidelity_plugin.core.scaleout.cluster import RayCluster  # noqa: E402
from geofidelity_plugin.core.generation.request import GenerationRequest  # noqa: E402
from geofidelity_plugin.core.generation.workflow import generate_store  # noqa: E402
from geofidelity_plugin.core.scaleout.generation import RayExecutor  # noqa: E402
from geofidelity_plugin.core.store.store import BenchmarkStore  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
SEGMENTS = [{"segment_id": sid, "city": "Helsinki", "country": "Finland", "country_code": "FI", "street_name": street,
             "neighbourhood": hood, "centroid_lon": 24.95, "centroid_lat": 60.17}
            for sid, street, hood in (("hel-001", "Unioninkatu", "Kluuvi"), ("hel-002", "Mannerheimintie", "Kamppi"),
                                      ("hel-003", "Aleksanterinkatu", "Kluuvi"),
                                      ("hel-004", "Fredrikinkatu", "Punavuori"))]
CONDITIONS = ("L0", "L1", "C_WRONG_STREET")
PANELS = len(SEGMENTS) * len(CONDITIONS)
SAMPLES = 2


@pytest.fixture(scope="module")
def cluster():
    """One local Ray (2 CPUs) for the whole module: each start costs seconds."""
    with RayCluster("local", num_cpus=2) as ray_cluster:
        yield ray_cluster


@pytest.fixture(scope="module")
def tiny_sd(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_sd

    return make_tiny_sd(tmp_path_factory.mktemp("tiny-sd"))


def _custom(folder) -> dict:
    return {"custom_folder": folder, "steps": 2, "guidance": 5.0, "dtype": "fp32", "resolution": 32}


def _store(folder: Path) -> BenchmarkStore:
    store = BenchmarkStore(folder / "benchmark.sqlite")
    store.put_segments(SEGMENTS)
    store.put_reference_images([{"reference_id": f"{s['segment_id']}:0", "segment_id": s["segment_id"],
                                 "image_id": "i", "image_path": f"reference/{s['segment_id']}/00.jpg"}
                                for s in SEGMENTS])
    return store


def content(store_path: Path) -> dict:
    """What a run leaves: every generated-image row, the generation records, every JPEG's bytes."""
    db = sqlite3.connect(store_path)
    try:
        rows = db.execute("SELECT * FROM generated_images "
                          "ORDER BY model, condition, segment_id, sample_index").fetchall()
        meta = {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM meta WHERE key LIKE "
                                                                   "'generation%'")}
    finally:
        db.close()
    for value in meta.values():  # the free RAM when a run started: differs between any two runs
        (value.get("memory_plan") or {}).pop("ram_free_bytes", None)
    root = store_path.parent
    files = {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*.jpg"))}
    return {"rows": rows, "meta": meta, "files": files}


@pytest.fixture(scope="module")
def reference(tiny_sd, tmp_path_factory) -> dict:
    """The single-process run (torch on one thread, as each Ray worker)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with _store(tmp_path_factory.mktemp("single")) as store:
            result, _ = generate_store(store, GenerationRequest("tiny", samples=SAMPLES, conditions=CONDITIONS,
                                                                device="cpu", **_custom(tiny_sd)))
            path = store.path
    finally:
        torch.set_num_threads(threads)
    assert result.generated == PANELS * SAMPLES
    made = content(path)
    assert len(made["rows"]) == len(made["files"]) == PANELS * SAMPLES
    return made


def _busy_workers() -> list[int]:
    import psutil

    return [p.info["pid"] for p in psutil.process_iter(["pid", "name"])
            if (p.info["name"] or "").startswith("ray::GenerationWorker.run_unit")]


class KillABusyWorker(RecordingProgress):
    """Once the first panel is in, SIGKILLs a worker that is making a panel at that moment."""

    def __init__(self):
        super().__init__()
        self.killed: int | None = None

    def set_progress(self, percent: float) -> None:
        super().set_progress(percent)
        if self.killed is None and percent > 2.0:  # 0–2 %: the prompts; then one step per finished panel
            busy = _busy_workers()
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                self.killed = busy[0]


def test_ray_generation_is_byte_identical_and_a_killed_worker_is_retried(cluster, tiny_sd, reference, tmp_path):
    progress = KillABusyWorker()
    with _store(tmp_path) as store:
        result, skipped = generate_store(store, GenerationRequest("tiny", samples=SAMPLES, conditions=CONDITIONS,
                                                                  device="cpu", **_custom(tiny_sd)),
                                         progress, executor=RayExecutor(cluster))
        path = store.path
    assert progress.killed is not None, "no worker was busy to kill"
    assert not skipped and not result.failed_units
    assert (result.units_total, result.units_made, result.generated) == (PANELS, PANELS, PANELS * SAMPLES)
    assert result.retries >= 1
    assert any("died" in w and "retrying" in w for w in progress.warnings)
    assert content(path) == reference  # identical images, rows and records despite the kill

    manifest = json.loads((tmp_path / "generations" / "tiny" / "generation_manifest.json").read_text())
    section = manifest["cluster"]
    assert section["engine"] == "ray" and section["mode"] == "local" and section["retries"] >= 1
    assert section["cpus"] == 2 and section["gpus"] == 0 and len(section["nodes"]) == 1
    assert len(section["workers"]) == 2 and all(w["torch_threads"] == 1 for w in section["workers"])
    assert all(libs["ray"] and libs["torch"] for libs in section["libraries_by_node"].values())
    assert sorted(u["unit"] for u in section["units"]) == sorted(f"tiny/{c}/{s['segment_id']}" for c in CONDITIONS
                                                                 for s in SEGMENTS)
    assert any(u["attempts"] == 2 for u in section["units"]) and all(u["seconds"] > 0 for u in section["units"])
    assert manifest["outputs"]["units"] == {"total": PANELS, "kept": 0, "made": PANELS, "failed": 0}
    assert "token" not in json.dumps(section).lower()


def test_a_killed_driver_resumes_without_remaking_finished_panels(cluster, tiny_sd, reference, tmp_path):
    """The CLI connects to the running cluster by address, is SIGKILLed mid-run, and the re-run
    makes only the panels the store does not hold."""
    _store(tmp_path).close()
    store_path = tmp_path / "benchmark.sqlite"
    env = dict(os.environ)
    env.setdefault("RAY_AUTH_MODE", "token")  # the local cluster asks for the token ~/.ray holds
    driver = subprocess.Popen(
        [sys.executable, "-m", "geofidelity_plugin", "generate", "--store", str(store_path), "--generator", "tiny",
         "--custom-folder", str(tiny_sd), "--steps", "2", "--guidance", "5", "--dtype", "fp32", "--resolution", "32",
         "--samples", str(SAMPLES), "--conditions", *CONDITIONS, "--device", "cpu", "--ray",
         cluster.ray.get_runtime_context().gcs_address, "-q"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    recorded, deadline = 0, time.monotonic() + 180
    try:
        while driver.poll() is None and time.monotonic() < deadline:
            recorded = _recorded(store_path)
            if recorded >= 2 * SAMPLES:
                driver.send_signal(signal.SIGKILL)
                break
            time.sleep(0.02)
    finally:
        if driver.poll() is None:
            driver.kill()
        output = driver.communicate()[0]
    assert driver.returncode == -signal.SIGKILL, f"the driver was not killed mid-run:\n{output[-3000:]}"
    before = _recorded(store_path)
    assert before % SAMPLES == 0, "a panel is recorded whole or not at all"
    kept = before // SAMPLES
    assert 2 <= kept < PANELS

    with BenchmarkStore(store_path, create=False) as store:
        result, _ = generate_store(store, GenerationRequest("tiny", samples=SAMPLES, conditions=CONDITIONS,
                                                            device="cpu", **_custom(tiny_sd)),
                                   executor=RayExecutor(cluster))
    assert (result.units_kept, result.units_made) == (kept, PANELS - kept)  # finished panels are not made again
    assert (result.skipped_existing, result.generated) == (kept * SAMPLES, (PANELS - kept) * SAMPLES)
    assert content(store_path) == reference


def _recorded(store_path: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{store_path}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT COUNT(*) FROM generated_images").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:
        return 0


class CancelAfterFirstPanel(RecordingProgress):
    def set_progress(self, percent: float) -> None:
        super().set_progress(percent)
        if percent > 2.0:
            self.cancel_after = 0


def test_cancel_stops_scheduling_and_keeps_finished_panels(cluster, tiny_sd, tmp_path):
    progress = CancelAfterFirstPanel()
    with _store(tmp_path) as store:
        with pytest.raises(Cancelled, match="finished ones are kept") as err:
            generate_store(store, GenerationRequest("tiny", samples=1, conditions=CONDITIONS, device="cpu",
                                                    **_custom(tiny_sd)), progress, executor=RayExecutor(cluster))
        result = err.value.result
        assert result.cancelled and 1 <= result.units_made < PANELS
        assert store.counts()["generated_images"] == result.generated == result.units_made
    manifest = json.loads((tmp_path / "generations" / "tiny" / "generation_manifest.json").read_text())
    assert manifest["outputs"]["cancelled"] is True
    assert manifest["options"]["request"]["generator"] == "tiny" and manifest["options"]["request"]["samples"] == 1
    assert manifest["cluster"]["units_done"] == result.units_made


def test_a_model_a_worker_cannot_load_stops_the_run_with_its_message(cluster, tmp_path):
    from geofidelity_plugin.core.errors import InputError

    (tmp_path / "not-a-pipeline").mkdir()  # passes the driver's checks; the worker's load fails
    (tmp_path / "not-a-pipeline" / "model_index.json").write_text('{"_class_name": "StableDiffusionPipeline"}')
    with _store(tmp_path) as store:
        with pytest.raises(InputError, match="sizes of generator .tiny. are unknown: its weights are not on"):
            generate_store(store, GenerationRequest("tiny", samples=1, conditions=("L1",), device="cpu",
                                                    **_custom(tmp_path / "not-a-pipeline")),
                           executor=RayExecutor(cluster))
        assert store.counts()["generated_images"] == 0
