"""Where the feature stage's pixels come from (method §5 Features, "Decoding"): the GPU's own JPEG
decoder, worker processes beside the forward pass, or this process between two forward passes.

``--decode auto`` (the default) takes the GPU path on a CUDA device whose PyTorch has a matching
torchvision and whose processor follows a plain recipe (:func:`.preprocess.recipe_of`), and the CPU
path everywhere else; ``cpu`` and ``device`` force one (``device`` is refused with the reason where
it cannot run). The CPU path's pixels are the same with and without workers, so its cache keys
are unchanged; the GPU path's pixels differ slightly and carry their own key.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
from typing import Callable, Iterator

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.vision.decode_device import DEVICE_PATH, DeviceDecoder, nvjpeg_unavailable
from geofidelity_plugin.core.vision.decode_workers import (WorkerDecoder, WorkersStopped, pool_failure_message,
                                                          worker_batches)
from geofidelity_plugin.core.vision.images import ImageError, load_rgb
from geofidelity_plugin.core.vision.precision import DECODE_CHOICES, DEFAULT_DECODE

log = logging.getLogger("geofidelity")

CPU_PATH = "cpu"


def check_decode(decode) -> str:
    if decode not in DECODE_CHOICES:
        raise InputError(f"unknown decode path {decode!r} (--decode) — use auto (the GPU's JPEG decoder on a CUDA "
                         "device, else the CPU), cpu or device")
    return decode


def default_workers(device_type: str) -> int:
    """Decode processes: on a CPU one per 8 cores (1 to 4) — the model keeps the cores busy and a
    photo decodes in a tenth of its forward pass; beside a GPU up to 8, leaving one core."""
    cores = os.cpu_count() or 1
    if device_type == "cpu":
        return max(1, min(4, cores // 8))
    return max(1, min(8, cores - 1))


def choose_path(decode: str, device, recipe) -> tuple[str, str]:
    """(path, why) for this extractor: :data:`DEVICE_PATH` or :data:`CPU_PATH`."""
    why_not = nvjpeg_unavailable(device)
    if why_not is None and recipe is None:
        why_not = "the model's image processor does more than resize, crop and normalise"
    if decode == "cpu":
        return CPU_PATH, "asked for (--decode cpu)"
    if why_not is None:
        return DEVICE_PATH, "nvJPEG on the GPU, overlapped with the forward pass"
    if decode == "device":
        raise InputError(f"--decode device cannot run here: {why_not} — use --decode auto or cpu")
    return CPU_PATH, why_not


class BatchSource:
    """Yields ``(hashes, pixel_values, failures)`` per chunk of content hashes for one extractor."""

    def __init__(self, extractor):
        self.x = extractor

    def batches(self, chunks: list[list[str]], name_of: Callable[[str], str],
                stopped: Callable[[], bool]) -> Iterator[tuple]:
        x = self.x
        if x.decode_path == DEVICE_PATH:
            decoder = DeviceDecoder(x.device, x.recipe, x.max_pixels, x.draft_shortest_edge, x.decode_depth,
                                    threads=x.decode_threads)
            try:
                yield from decoder.batches(chunks, name_of, stopped)
            finally:
                x.last_decode = decoder.stats()
            return
        if not x.prefetch or len(chunks) < 2 or multiprocessing.current_process().daemon:
            # a daemonic process (a multiprocessing pool's worker) may not start processes
            x.last_decode = {"path": CPU_PATH, "workers": 0, "threads": x.between_pass_threads}
            for chunk in chunks:
                yield self.in_process(chunk, name_of)
            return
        yield from self._with_workers(chunks, name_of, stopped)

    def _with_workers(self, chunks, name_of, stopped) -> Iterator[tuple]:
        x = self.x
        done = 0
        pool = x.worker_pool()
        x.last_decode = {"path": CPU_PATH, "workers": pool.workers, "window": pool.window}
        tasks_of = lambda chunk: [(name_of(s), x.max_pixels, x.draft_shortest_edge, x.recipe)  # noqa: E731
                                  for s in chunk]
        try:
            for item in worker_batches(chunks, tasks_of, pool, self.assemble, stopped):
                done += 1
                x.last_decode["peak_in_flight"] = pool.peak_in_flight
                yield item
        except (WorkersStopped, OSError) as exc:  # a worker died (or could not start): carry on here
            pool.close()
            log.warning(pool_failure_message(exc))
            x.last_decode["workers_stopped"] = f"{type(exc).__name__} after {done} batches: {exc}"
            for chunk in chunks[done:]:
                yield self.in_process(chunk, name_of)

    def assemble(self, values: list):
        """The model's input from the workers' outputs (pixels, or decoded images when the
        processor has no plain recipe)."""
        import numpy as np
        import torch

        if self.x.recipe is not None:
            return torch.from_numpy(np.stack(values))
        from PIL import Image

        return self.x._pixels([Image.fromarray(v) for v in values])

    def in_process(self, chunk: list[str], name_of: Callable[[str], str]) -> tuple:
        """One chunk decoded and preprocessed here, between two forward passes, one task per image
        on the extractor's decode threads (:meth:`FeatureExtractor.decode_thread_pool`): PIL lets
        go of the GIL while it decodes and resizes, so the cores the model leaves idle between its
        passes share the work. The pixels are the same as on one thread — each image is made by
        the same calls, alone."""
        x = self.x

        def one(sha: str):
            try:
                image = load_rgb(name_of(sha), x.max_pixels, x.draft_shortest_edge)
            except ImageError as exc:
                return sha, None, exc.reason
            return sha, (x.recipe.pixels(image, x._table) if x.recipe is not None else image), None

        pool = x.decode_thread_pool() if len(chunk) > 1 else None
        done = list(pool.map(one, chunk)) if pool is not None else [one(sha) for sha in chunk]
        shas = [sha for sha, value, _ in done if value is not None]
        values = [value for _, value, _ in done if value is not None]
        failures = {sha: reason for sha, value, reason in done if value is None}
        if not values:
            return shas, None, failures
        if x.recipe is not None:
            import numpy as np
            import torch

            return shas, torch.from_numpy(np.stack(values)), failures
        return shas, x._pixels(values), failures
