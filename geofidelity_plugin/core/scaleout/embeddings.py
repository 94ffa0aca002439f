"""DINOv2 embeddings on Ray (method §5 Features): Ray Data over the image list, with an actor
pool holding one copy of the model per GPU (or CPU slot).

:class:`RayEmbedder` has the ``embed_paths`` of :class:`~..vision.features.FeatureExtractor`,
so the evaluation uses it unchanged. The driver does what needs the cache — hash every image,
look the hashes up — and schedules only the images the cache lacks: a warm re-run schedules
nothing. The images still to embed are cut into exactly the batches a single process would run
(``batch_size`` distinct images, in the same order), one Ray Data row per batch, so each batch
meets the model with the same shape and its embeddings are the single process's. Workers return
vectors through the object store; only the driver writes the feature cache, batch by batch, so
a killed run keeps what it finished. Ray Data restarts a worker that dies and runs its batch
again.
"""
from __future__ import annotations

import json
import logging
import os
import time
from typing import Sequence

import numpy as np


from ..errors import Cancelled, GeoFidelityError
from ..progress import Progress
from ..vision.decode_device import DEVICE_PATH
from .cluster import RayCluster
from .units import REPORT_EVERY_S, status_line

log = logging.getLogger("geofidelity")


class EmbedWorker:
    """A Ray Data actor: one :class:`FeatureExtractor` (no cache), one batch per call. Its
    options are a class attribute of a subclass made per run (:func:`_worker_class`), not
    constructor arguments, so that Ray can restart a killed worker without them."""

    OPTIONS: dict = {}

    def __init__(self):
        started = time.perf_counter()
        from geofidelity_plugin.core.vision.features import FeatureExtractor
        from .cluster import node_report

        self.extractor = FeatureExtractor(cache=None, **self.OPTIONS)
        self.report = json.dumps({**node_report(), "device": str(self.extractor.device),
                                  "start_seconds": round(time.perf_counter() - started, 3)}, default=str)

    def __call__(self, batch: dict) -> dict:
        out = {"chunk": [], "vectors": [], "hashes": [], "failed": [], "seconds": [], "worker": []}
        for chunk, paths in zip(batch["chunk"], batch["paths"]):
            started = time.perf_counter()
            result = self.extractor.embed_paths(json.loads(paths))
            out["chunk"].append(int(chunk))
            out["vectors"].append(np.asarray(result.embeddings, dtype="<f4").tobytes())
            out["hashes"].append(json.dumps(result.hashes))
            out["failed"].append(json.dumps(result.failed))
            out["seconds"].append(time.perf_counter() - started)
            out["worker"].append(self.report)
        return {"chunk": np.array(out["chunk"], dtype=np.int64), "vectors": np.array(out["vectors"], dtype=object),
                "hashes": np.array(out["hashes"], dtype=object), "failed": np.array(out["failed"], dtype=object),
                "seconds": np.array(out["seconds"], dtype=np.float64), "worker": np.array(out["worker"], dtype=object)}


class RayEmbedder:
    """``embed_paths`` on a Ray cluster. ``extractor``: the driver's own FeatureExtractor (with
    the cache), used for the model's identity and cache keys, never to compute; ``workers``:
    the actor pool's size (default: one per GPU of the cluster, else one per CPU); ``device``:
    the workers' (``cpu``, ``cuda`` or empty)."""

    def __init__(self, extractor, cluster: RayCluster, workers: int | None = None, device: str | None = None):
        self.local, self.cluster, self.workers, self.device = extractor, cluster, workers, device
        self.cache = extractor.cache
        self.batch_size = extractor.batch_size
        self.dim = extractor.dim
        self.options = {"model": extractor.model_ref, "device": device, "batch_size": extractor.batch_size,
                        "precision": extractor.precision, "l2_normalise": False, "max_pixels": extractor.max_pixels,
                        "fast_jpeg_decode": extractor.fast_jpeg_decode,
                        # the workers' pixels must match the driver's cache keys: the GPU decoder only
                        # where the driver keyed for it
                        "decode": "device" if extractor.decode_path == DEVICE_PATH else "cpu"}
        self.scheduled = 0  # batches sent to Ray by the last call (0: everything came from the cache)
        self.batches: list[dict] = []  # per-batch timing, for the manifest
        self.workers_seen: dict[str, dict] = {}  # "node_id:pid" → node report

    def model_info(self) -> dict:
        info = self.local.model_info()
        devices = sorted({w.get("device") for w in self.workers_seen.values() if w.get("device")})
        if devices:
            info["device"] = ", ".join(devices)
        return info

    def manifest_section(self) -> dict:
        """The ``cluster`` section of the evaluation manifest."""
        section = self.cluster.describe()
        workers = list(self.workers_seen.values())
        section["workers"] = [{k: v for k, v in w.items() if k != "libraries"} for w in workers]
        section["libraries_by_node"] = {w["node_id"]: w.get("libraries") for w in workers}
        section["gpus_used"] = sum(len(w.get("gpu_ids") or []) for w in workers)
        section["embedding_batches"] = self.batches
        section["scheduled_batches"] = self.scheduled
        return section

    def embed_paths(self, paths: Sequence[str | os.PathLike], progress: Progress | None = None):
        from geofidelity_plugin.core.vision.feature_cache import CacheKey
        from geofidelity_plugin.core.vision.embedding_lookup import lookup_cached

        names = [str(p) for p in paths]
        info = self.local.model_info()

        def key(sha: str) -> CacheKey:
            return CacheKey(sha, info["cache_model_id"], info["revision"], info["cache_signature"])

        result, rows_of, todo = lookup_cached(names, self.dim, self.cache, key, info, progress)
        chunks = [todo[i:i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
        self.scheduled = len(chunks)
        if progress is not None:
            progress.info(f"{len(names)} images: {result.cached} from the cache, "
                          f"{sum(len(rows_of[s]) for s in todo)} to embed with {info['label']} on Ray "
                          f"({len(chunks)} batch(es)), {len(result.failed)} unreadable")
        if chunks:
            self._run(chunks, names, rows_of, result, key, progress)
        if progress is not None:
            progress.set_progress(100.0)
        if self.local.l2_normalise and result.embeddings.size:
            with np.errstate(invalid="ignore", divide="ignore"):
                result.embeddings = result.embeddings / np.linalg.norm(result.embeddings, axis=1, keepdims=True)
        return result

    def _run(self, chunks: list[list[str]], names, rows_of, result, key, progress) -> None:
        ray = self.cluster.ray
        count, resources = self.cluster.worker_resources(self.device, self.workers, len(chunks))
        items = [{"chunk": i, "paths": json.dumps([names[rows_of[s][0]] for s in chunk])}
                 for i, chunk in enumerate(chunks)]
        dataset = ray.data.from_items(items, override_num_blocks=len(items))
        worker = type("EmbedWorker", (EmbedWorker,), {"OPTIONS": dict(self.options)})
        mapped = dataset.map_batches(worker, batch_size=1, compute=ray.data.ActorPoolStrategy(size=count),
                                     batch_format="numpy", **resources)
        started, done, images, last_line = time.monotonic(), 0, 0, time.monotonic()
        total_images = sum(len(c) for c in chunks)
        batches = mapped.iter_batches(batch_size=None, batch_format="numpy")
        try:
            for batch in batches:
                for i in range(len(batch["chunk"])):
                    chunk = chunks[int(batch["chunk"][i])]
                    done, images = done + 1, images + len(chunk)
                    self._take(chunk, batch, i, names, rows_of, result, key)
                if progress is not None:
                    progress.set_progress(5.0 + 95.0 * done / len(chunks))
                    if time.monotonic() - last_line >= REPORT_EVERY_S:
                        last_line = time.monotonic()
                        progress.info(status_line(done, len(chunks), "batches", images, total_images, "images",
                                                  last_line - started, count))
                    if progress.is_canceled():
                        raise Cancelled(f"cancelled by the user after {done} of {len(chunks)} batches embedded on "
                                        "Ray; their embeddings are cached, a re-run does the rest")
        except Exception as exc:  # noqa: BLE001 — Ray Data wraps what a worker raised
            cause = _user_error(exc)
            if cause is not None and cause is not exc:
                raise cause from None
            raise
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()
        elapsed = time.monotonic() - started
        if progress is not None:
            progress.info(f"Ray: {total_images} images embedded in {elapsed:.1f} s on {count} worker(s) "
                          f"({total_images / elapsed if elapsed else 0:.1f} images/s)")

    def _take(self, chunk, batch, i, names, rows_of, result, key) -> None:
        """One finished batch: its vectors into the result and (in one transaction) the cache."""
        hashes = json.loads(batch["hashes"][i])
        failed = json.loads(batch["failed"][i])
        vectors = np.frombuffer(batch["vectors"][i], dtype="<f4").reshape(len(chunk), self.dim)
        worker = json.loads(batch["worker"][i])
        self.workers_seen.setdefault(f"{worker['node_id']}:{worker['pid']}", worker)
        self.batches.append({"batch": int(batch["chunk"][i]), "images": len(chunk), "pid": worker["pid"],
                             "node_id": worker["node_id"], "seconds": round(float(batch["seconds"][i]), 3)})
        good = []
        for j, sha in enumerate(chunk):
            path = names[rows_of[sha][0]]
            if path in failed or hashes[j] != sha:
                reason = failed.get(path) or "the file changed while it was being embedded — run again"
                for row in rows_of[sha]:
                    result.failed[names[row]] = reason
                continue
            good.append((key(sha), vectors[j]))
            for row in rows_of[sha]:
                result.embeddings[row] = vectors[j]
                result.computed += 1
        if self.cache is not None and good:
            self.cache.put_many(good)


def _user_error(exc: BaseException) -> BaseException | None:
    """The project's own error inside what Ray raised (a worker that cannot load the model)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, GeoFidelityError):
            return exc
        exc = getattr(exc, "cause", None) or exc.__cause__ or exc.__context__
    return None


def cluster_for(address: str | None) -> RayCluster | None:
    """A :class:`RayCluster` for ``--ray`` (None: one process)."""
    from .cluster import parse_ray_option

    address = parse_ray_option(address)
    return RayCluster(address) if address else None



class RayEvaluation:
    """``evaluate --ray``: the embeddings on Ray, everything else in the driver process.

    Opened before the store is read (a missing Ray is said at once); the cluster starts when the
    first embedder is made. Models that are not scaled out (segmentation, CLIP) load in the
    driver on its own default device; the feature model's driver copy loads on the CPU, only for
    its identity and cache keys."""

    driver_device = "cpu"

    def __init__(self, address: str, workers: int | None, device: str | None, progress: Progress | None = None):
        from .cluster import check_worker_device, import_ray

        import_ray()
        check_worker_device(device)
        self.cluster = RayCluster(address)
        self.workers, self.device, self.progress = workers, (device or "").strip().lower() or None, progress
        self.embedder: RayEmbedder | None = None

    def wrap(self, extractor) -> RayEmbedder:
        from ..events import announce_stage

        if self.cluster.mode is None:
            announce_stage(self.progress, "starting Ray" if self.cluster.address == "local" else "connecting to Ray")
            self.cluster.start()
        self.embedder = RayEmbedder(extractor, self.cluster, self.workers, self.device)
        return self.embedder

    def finish_manifest(self, manifest: dict) -> dict:
        """One manifest: the feature model as the workers ran it, and the ``cluster`` section."""
        if self.embedder is not None:
            from ..manifest import _clean

            models = manifest.get("models") or []
            if models:
                models[0] = _clean(self.embedder.model_info())
            manifest["cluster"] = _clean(self.embedder.manifest_section())
        return manifest

    def close(self) -> None:
        self.cluster.close()
