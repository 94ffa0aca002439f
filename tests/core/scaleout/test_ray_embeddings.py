"""Embeddings on Ray Data (README "Scale out on Ray"): a local Ray with 2 CPU workers and the tiny
DINOv2, against the single-process FeatureExtractor on the same images — identical vectors, the
same failures, the same cache rows; a warm re-run schedules nothing; a killed worker's batch is
run again; ``evaluate --ray`` writes the single-process tables and one manifest."""
from __future__ import annotations

import json
import os
import signal
import sqlite3

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("ray", reason="Ray is not installed (requirements.lock installs it)")

from geofidelity_plugin.core.vision.feature_cache import FeatureCache  # noqa: E402
from geofidelity_plugin.core.vision.features import FeatureExtractor  # noqa: E402
from geofidelity_plugin.core.progress import RecordingProgress  # noqa: E402
from geofidelity_plugin.core.scaleout.cluster import RayCluster  # noqa: E402
from geofidelity_plugin.core.scaleout.embeddings import RayEmbedder  # noqa: E402

BATCH = 4


@pytest.fixture(scope="module")
def cluster():
    with RayCluster("local", num_cpus=2) as ray_cluster:
        yield ray_cluster


@pytest.fixture(scope="module")
def dinov2(tmp_path_factory):
    from tiny_models import make_tiny_dinov2

    return make_tiny_dinov2(tmp_path_factory.mktemp("dinov2"))


@pytest.fixture
def images(tmp_path) -> list[str]:
    """22 pictures of two sizes (JPEG and PNG), one twice under another name, one broken file."""
    rng = np.random.default_rng(3)
    paths = []
    for i in range(22):
        size = (90, 70) if i % 3 else (64, 64)
        path = tmp_path / "images" / f"{i:02d}.{'png' if i % 4 == 0 else 'jpg'}"
        path.parent.mkdir(exist_ok=True)
        coarse = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
        Image.fromarray(coarse).resize(size, Image.BICUBIC).save(path)
        paths.append(str(path))
    twin = tmp_path / "images" / "twin.jpg"
    twin.write_bytes((tmp_path / "images" / "01.jpg").read_bytes())
    broken = tmp_path / "images" / "broken.jpg"
    broken.write_bytes(b"not a picture")
    return paths + [str(twin), str(broken)]


def _cache_rows(path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT model_id, model_revision, preprocessing, image_sha256, dim, vector, crc32 "
                          "FROM embeddings ORDER BY image_sha256").fetchall()
    finally:
        db.close()


def test_ray_embeddings_equal_one_process_and_a_warm_rerun_schedules_nothing(cluster, dinov2, images, tmp_path):
    single = FeatureExtractor(dinov2, batch_size=BATCH, device="cpu", cache=FeatureCache(tmp_path / "single.sqlite"))
    expected = single.embed_paths(images)
    driver = FeatureExtractor(dinov2, batch_size=BATCH, device="cpu", cache=FeatureCache(tmp_path / "ray.sqlite"))
    embedder = RayEmbedder(driver, cluster, device="cpu")
    progress = RecordingProgress()
    got = embedder.embed_paths(images, progress)

    assert embedder.scheduled == 6  # 22 distinct readable contents + the broken file = 23 → 6 batches of 4
    assert np.array_equal(np.isnan(got.embeddings), np.isnan(expected.embeddings))
    assert np.array_equal(np.nan_to_num(got.embeddings), np.nan_to_num(expected.embeddings))  # bit for bit
    assert got.failed == expected.failed and list(got.failed) == [images[-1]]
    assert (got.computed, got.cached, got.hashes) == (expected.computed, 0, expected.hashes)
    assert _cache_rows(tmp_path / "ray.sqlite") == _cache_rows(tmp_path / "single.sqlite")  # the driver wrote it
    assert progress.percents[-1] == 100.0 and any("on Ray (6 batch(es))" in m for m in progress.infos)

    readable = images[:-1]
    warm = embedder.embed_paths(readable, RecordingProgress())
    assert embedder.scheduled == 0 and warm.computed == 0 and warm.cached == len(readable)
    assert np.array_equal(warm.embeddings, got.embeddings[:-1])

    section = embedder.manifest_section()
    assert section["engine"] == "ray" and section["scheduled_batches"] == 0
    assert {w["device"] for w in section["workers"]} == {"cpu"} and len(section["embedding_batches"]) == 6
    assert embedder.model_info()["cache_signature"] == single.model_info()["cache_signature"]


class KillAnEmbedWorker(RecordingProgress):
    """After the first batch is in, SIGKILLs one of the Ray Data workers."""

    def __init__(self):
        super().__init__()
        self.killed = None

    def set_progress(self, percent: float) -> None:
        import psutil

        super().set_progress(percent)
        if self.killed is None and 5.0 < percent < 100.0:
            workers = [p.info["pid"] for p in psutil.process_iter(["pid", "name"])
                       if "EmbedWorker" in (p.info["name"] or "")]
            if workers:
                os.kill(workers[0], signal.SIGKILL)
                self.killed = workers[0]


def test_a_killed_embedding_worker_is_replaced_and_its_batch_run_again(cluster, dinov2, images, tmp_path):
    expected = FeatureExtractor(dinov2, batch_size=BATCH, device="cpu").embed_paths(images)
    driver = FeatureExtractor(dinov2, batch_size=BATCH, device="cpu", cache=FeatureCache(tmp_path / "c.sqlite"))
    progress = KillAnEmbedWorker()
    got = RayEmbedder(driver, cluster, device="cpu").embed_paths(images, progress)
    assert progress.killed is not None
    assert np.array_equal(np.nan_to_num(got.embeddings), np.nan_to_num(expected.embeddings))
    assert got.failed == expected.failed and got.computed == expected.computed


def test_evaluate_on_ray_writes_the_single_process_tables_and_one_manifest(cluster, dinov2, tmp_path):
    from eval_fixtures import make_store
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.workflow import run_evaluation

    store, _ = make_store(tmp_path / "bench", per_city=2, refs=6, models=("m1",))
    store.close()
    options = EvaluationOptions(n_bootstrap=50)
    common = {"feature_model": str(dinov2), "options": options, "semantic_model": "none", "clip_model": "none",
              "batch_size": 8}
    single = run_evaluation(tmp_path / "bench" / "store.sqlite", tmp_path / "one", device="cpu",
                            cache_path=tmp_path / "one.sqlite", **common)
    on_ray = run_evaluation(tmp_path / "bench" / "store.sqlite", tmp_path / "ray", device="cpu",
                            cache_path=tmp_path / "ray.sqlite", ray="local", **common)  # this process's Ray
    assert on_ray.result.feature_stats == single.result.feature_stats
    assert on_ray.result.rows == single.result.rows
    for name in ("per_panel_scores.csv", "tables.md"):
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "one" / name).read_text()
    manifest = json.loads(on_ray.paths["manifest"].read_text())
    assert manifest["cluster"]["engine"] == "ray" and manifest["cluster"]["mode"] == "existing"
    assert manifest["models"][0]["device"] == "cpu" and manifest["cluster"]["embedding_batches"]
    assert "cluster" not in json.loads(single.paths["manifest"].read_text())


class CancelAfterFirstBatch(RecordingProgress):
    def set_progress(self, percent: float) -> None:
        super().set_progress(percent)
        if 5.0 < percent < 100.0:
            self.cancel_after = 0


def test_cancel_stops_the_embedding_and_a_rerun_embeds_only_the_rest(cluster, dinov2, images, tmp_path):
    from geofidelity_plugin.core.errors import Cancelled

    readable = images[:-2]  # 22 distinct images: 6 batches
    cache = FeatureCache(tmp_path / "c.sqlite")
    embedder = RayEmbedder(FeatureExtractor(dinov2, batch_size=BATCH, device="cpu", cache=cache), cluster,
                           device="cpu")
    with pytest.raises(Cancelled, match="their embeddings are cached"):
        embedder.embed_paths(readable, CancelAfterFirstBatch())
    kept = len(cache)
    assert BATCH <= kept < len(readable)
    rest = embedder.embed_paths(readable)
    assert (rest.cached, rest.computed) == (kept, len(readable) - kept)
    expected = FeatureExtractor(dinov2, batch_size=BATCH, device="cpu").embed_paths(readable)
    assert np.allclose(rest.embeddings, expected.embeddings, atol=1e-5)  # other batches than one run's: same


def test_the_release_protocol_on_ray_writes_the_single_process_tables(cluster, dinov2, tmp_path, monkeypatch):
    """``evaluate --protocol release --ray``: the release's evaluator over embeddings made on Ray
    gives the single-process raw results and summaries, cell for cell."""
    from geofidelity_plugin.backend import cli
    from release_photos_fixture import make_release

    make_release(tmp_path / "release")
    store = tmp_path / "store.sqlite"
    assert cli.main(["import-release", "--release", str(tmp_path / "release"), "--store", str(store)]) == 0
    common = ["--store", str(store), "--feature-model", str(dinov2), "--protocol", "release", "--semantic-model",
              "none", "--clip-model", "none", "-q", "--batch-size", "8", "--device", "cpu"]
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache-one"))
    assert cli.main(["evaluate", "--out", str(tmp_path / "one"), *common]) == 0
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache-ray"))  # nothing cached: Ray embeds all
    assert cli.main(["evaluate", "--out", str(tmp_path / "ray"), "--ray", "local", *common]) == 0
    written = sorted(p.name for p in (tmp_path / "one").iterdir() if p.suffix == ".csv")
    assert "raw_results.csv" in written and len(written) >= 5
    assert written == sorted(p.name for p in (tmp_path / "ray").iterdir() if p.suffix == ".csv")
    for name in written:
        one, ray = _csv_cells(tmp_path / "one" / name), _csv_cells(tmp_path / "ray" / name)
        assert len(one) == len(ray) and (one or name == "failed_images.csv"), name
        for a, b in zip(one, ray):
            assert a.keys() == b.keys()
            for key in a:
                try:
                    assert float(a[key]) == pytest.approx(float(b[key]), rel=1e-6, abs=1e-9), (name, key)
                except ValueError:
                    assert a[key] == b[key], (name, key)
    manifest = json.loads((tmp_path / "ray" / "evaluation.manifest.json").read_text())
    assert manifest["cluster"]["engine"] == "ray" and manifest["cluster"]["embedding_batches"]


def _csv_cells(path) -> list[dict]:
    import csv

    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))
