"""JPEG decoding beside the forward pass, in worker processes (method §5 Features, "Decoding").

On a CPU the forward pass of DINOv2 holds every core PyTorch was given, and the decode and
resize of the next images (about 5 ms per 1024×768 photo) used to run between two forward passes,
so the model waited for them. Threads cannot hide that time: PIL and numpy hold the GIL for part
of it, and so does the thread that drives the model. Here each image is one task for a small pool
of worker processes (standard library ``multiprocessing``, started with ``spawn`` on every
platform, so Windows, macOS and Linux behave alike and no thread of PyTorch's is forked). The
main process keeps at most ``window`` images in flight — a bounded queue — and takes the results
in order, so memory stays flat however many images a run has and the batches are the same as
without workers: the embeddings do not change.

Each worker decodes with :func:`.images.load_rgb` (the same checks and reasons) and, when the
processor follows a plain :class:`.preprocess.PixelRecipe`, also makes the model's pixels; for
any other processor it returns the decoded image and the main process runs the processor. The
workers import numpy, PIL and this package's image modules only — never torch.
"""
from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import shutil
import sys
import tempfile
import types
from typing import Callable, Iterator

import numpy as np

from geofidelity_plugin.core.vision.images import ImageError, load_rgb
from geofidelity_plugin.core.vision.preprocess import PixelRecipe

log = logging.getLogger("geofidelity")

_TABLES: dict[PixelRecipe, np.ndarray] = {}


def decode_task(task: tuple) -> tuple[bool, object]:
    """One image, in a worker: ``(True, pixels or uint8 HWC array)`` or ``(False, reason)``."""
    name, max_pixels, draft_edge, recipe = task
    try:
        image = load_rgb(name, max_pixels, draft_edge)
    except ImageError as exc:
        return False, exc.reason
    if recipe is None:
        return True, np.asarray(image)
    table = _TABLES.get(recipe)
    if table is None:
        table = _TABLES[recipe] = recipe.table()
    return True, recipe.pixels(image, table)


class WorkersStopped(RuntimeError):
    """A decode process died (a crash in a decoder library, or killed) or could not start."""


@contextlib.contextmanager
def _without_main_script():
    """Start processes without making them re-run the caller's ``__main__`` (multiprocessing's
    ``spawn`` does that for a script or notebook, and a script without an ``if __name__ ==
    "__main__"`` guard would then run again in every worker): the workers need only this module."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def _serve(tasks, results, folder: str) -> None:
    """A worker's loop: (index, task) in, (index, ok, reason or file) out, until None. Pixels go
    through a file in ``folder``; the message itself stays small, so it reaches the pipe in one
    piece (a worker killed while writing a large message would leave the reader blocked on its
    half)."""
    import os

    while True:
        item = tasks.get()
        if item is None:
            return
        index, task = item
        try:
            ok, value = decode_task(task)
        except Exception as exc:  # a decoder bug must not stall the run: the image fails with it
            ok, value = False, f"could not be decoded ({type(exc).__name__}: {exc})"
        if ok:
            path = os.path.join(folder, f"{index}-{os.getpid()}.npy")
            with open(path + ".part", "wb") as fh:
                np.save(fh, value)
            os.replace(path + ".part", path)
            value = path
        results.put((index, ok, str(value)[:2000]))


class WorkerDecoder:
    """A pool of decode processes for one extractor; use as a context manager or :meth:`close`."""

    def __init__(self, workers: int, window: int):
        self.workers = max(1, int(workers))
        self.window = max(self.workers, int(window))
        self.peak_in_flight = 0  # the queue's high-water mark, for the manifest and the tests
        self._context = multiprocessing.get_context("spawn")
        self._tasks = self._results = None
        self._folder: str | None = None
        self._processes: list = []

    def start(self) -> "WorkerDecoder":
        if self._processes:
            return self
        self._tasks, self._results = self._context.Queue(), self._context.Queue()
        self._folder = tempfile.mkdtemp(prefix="geofidelity-decode-")
        with _without_main_script():
            for n in range(self.workers):
                process = self._context.Process(target=_serve, args=(self._tasks, self._results, self._folder),
                                                name=f"geofidelity-decode-{n}", daemon=True)
                process.start()
                self._processes.append(process)
        return self

    def __enter__(self) -> "WorkerDecoder":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (at once: queued tasks are dropped)."""
        processes, self._processes = self._processes, []
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        for q in (self._tasks, self._results):
            if q is not None:
                q.cancel_join_thread()
                q.close()
        self._tasks = self._results = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _take(self):
        while True:
            try:
                index, ok, value = self._results.get(timeout=0.5)
            except queue.Empty:
                dead = [p for p in self._processes if not p.is_alive()]
                if dead:
                    raise WorkersStopped(f"decode process {dead[0].name} ended with exit code {dead[0].exitcode}")
                continue
            if not ok:
                return index, (False, value)
            pixels = np.load(value)
            os.remove(value)
            return index, (True, pixels)

    def results(self, tasks: list[tuple], stopped: Callable[[], bool] = lambda: False) -> Iterator[tuple]:
        """``decode_task`` of each task, in order, with at most ``window`` tasks handed out ahead
        of the one being taken. The caller stops early by closing the generator (or through
        ``stopped()``); what was handed out is then dropped with the pool."""
        self.start()
        done: dict[int, tuple] = {}
        handed = taken = 0
        try:
            for index in range(len(tasks)):
                while handed < len(tasks) and handed - index < self.window and not stopped():
                    self._tasks.put((handed, tasks[handed]))
                    handed += 1
                self.peak_in_flight = max(self.peak_in_flight, handed - index)
                if index >= handed:
                    return
                while index not in done:
                    got, value = self._take()
                    done[got] = value
                taken += 1
                yield done.pop(index)
        finally:
            if taken < handed:  # stopped early: what is still queued must not reach the next run
                self.close()


def worker_batches(chunks: list[list[str]], tasks_of: Callable[[list[str]], list[tuple]], decoder: WorkerDecoder,
                   assemble: Callable[[list, bool], object], stopped: Callable[[], bool]) -> Iterator[tuple]:
    """Yield ``(hashes, pixel_values, failures)`` per chunk from the worker pool. ``assemble``
    turns a chunk's worker outputs into the model's input (a stack of pixels, or the processor's
    output when the workers returned decoded images)."""
    tasks = [task for chunk in chunks for task in tasks_of(chunk)]
    outputs = decoder.results(tasks, stopped)
    for chunk in chunks:
        shas, values, failures = [], [], {}
        for sha in chunk:
            ok, value = next(outputs)
            if ok:
                shas.append(sha)
                values.append(value)
            else:
                failures[sha] = value
        yield shas, (assemble(values) if values else None), failures


def pool_failure_message(exc: BaseException) -> str:
    return (f"the decode worker processes stopped ({type(exc).__name__}: {exc}); decoding the remaining "
            "images in this process instead")


__all__ = ["WorkerDecoder", "WorkersStopped", "worker_batches", "decode_task", "pool_failure_message"]
