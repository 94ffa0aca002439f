"""JPEG decoding and preprocessing on the GPU, overlapped with the forward pass (method §5
Features, "Decoding").

On a CUDA GPU the forward pass of DINOv2-S/14 runs several thousand images a second, far more
than a CPU can decode. Here the JPEG bytes go to the GPU as they are and are decoded there in
batches by nvJPEG (``torchvision.io.decode_jpeg(device="cuda")``), then resized, cropped and
normalised there too (:func:`.preprocess.torch_pixels`). A background thread prepares batch
*k + 1* on a CUDA stream of its own while the model runs batch *k*; a bounded queue (``depth``
batches) keeps memory flat, and the model's stream waits on an event of the decode stream, so it
never reads half-made pixels.

Not every file suits nvJPEG. A short look at the header on the CPU (PIL opens it without decoding)
sends these to the CPU path (:func:`.images.load_rgb` and :class:`.preprocess.PixelRecipe`), with
the reason counted for the manifest: not a JPEG (PNG, WebP…), CMYK or YCCK JPEGs (their colours
need the ICC profile), progressive JPEGs, photos with an EXIF rotation, and anything nvJPEG then
refuses, and files without an end-of-image marker (nvJPEG decodes a truncated file silently,
measured on the H200; the CPU path refuses it). Files that are not images at all fail there with
the CPU path's own reason.

The pixels differ from the CPU path's: nvJPEG's IDCT and a full-size decode followed by torch's
antialiased resize, against libjpeg's reduced-scale decode followed by PIL's. The embedding cosine
between the two paths is measured and stated in method §5; the path is part of the feature cache
key, so the two never mix.

The decoder is a parameter: the tests run this whole module on the CPU with PIL standing in for
nvJPEG (every fallback, the queue bound, cancelling mid-run).
"""
from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections import Counter
from typing import Callable, Iterator

from PIL import Image, UnidentifiedImageError

from geofidelity_plugin.core.vision.images import ImageError, load_rgb, open_header
from geofidelity_plugin.core.vision.preprocess import PixelRecipe, torch_pixels

log = logging.getLogger("geofidelity")

#: the path's name in manifests and in the feature cache key
DEVICE_PATH = "nvjpeg-device"
_EXIF_ORIENTATION = 0x0112
_DONE = object()


def nvjpeg_unavailable(device) -> str | None:
    """None when batched nvJPEG decoding works on ``device``; else why not, in words."""
    import torch

    if torch.device(device).type != "cuda":
        return f"the device is {torch.device(device).type}, not a CUDA GPU"
    try:
        from torchvision.io import decode_jpeg  # noqa: F401
    except Exception as exc:  # not installed, or a build that does not match this torch
        return (f"torchvision cannot be imported beside this PyTorch ({type(exc).__name__}: {exc}); the CUDA backend "
                "profile installs a matching one")
    return None


def nvjpeg_decode(datas: list, device) -> list:
    """Decode uint8 byte tensors on ``device`` in one nvJPEG batch; a batch that fails is retried
    image by image, and each image that still fails comes back as its exception."""
    from torchvision.io import ImageReadMode, decode_jpeg

    try:
        return list(decode_jpeg(datas, mode=ImageReadMode.RGB, device=device))
    except RuntimeError:
        out = []
        for data in datas:
            try:
                out.append(decode_jpeg(data, mode=ImageReadMode.RGB, device=device))
            except RuntimeError as exc:
                out.append(exc)
        return out


def cpu_reason(data: bytes, max_pixels: int | None) -> str | None:
    """Why a file takes the CPU path instead of nvJPEG, or None when nvJPEG can take it."""
    try:
        image = open_header(data)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError):
        return "not readable as an image header"  # the CPU path says what is wrong with it
    width, height = image.size
    if image.format != "JPEG":
        return f"{image.format or 'unknown'} file, not JPEG"
    if image.mode not in ("RGB", "L"):
        return f"{image.mode} JPEG"
    if image.info.get("progressive") or image.info.get("progression"):
        return "progressive JPEG"
    if max_pixels is not None and width * height > max_pixels or not width or not height:
        return "size outside the limits"
    if not data.rstrip(b"\x00 \r\n").endswith(b"\xff\xd9"):
        # nvJPEG decodes a cut-off file without a word (grey where the data ends); the CPU path
        # refuses it as truncated, or accepts a file that merely has bytes after its end
        return "no end-of-image marker"
    try:
        orientation = image.getexif().get(_EXIF_ORIENTATION, 1)
    except Exception:  # a broken EXIF block: the CPU path decides what to do with it
        return "unreadable EXIF block"
    if orientation not in (None, 1):
        return "EXIF rotation"
    return None


class DeviceDecoder:
    """Batches of model-ready pixels on ``device`` for the chunks of one embedding run."""

    def __init__(self, device, recipe: PixelRecipe, max_pixels: int | None, draft_edge: int | None,
                 depth: int = 2, decode: Callable[[list, object], list] | None = None, threads: int = 2):
        import torch

        self.device = torch.device(device)
        self.recipe = recipe
        self.max_pixels = max_pixels
        self.draft_edge = draft_edge
        self.depth = max(1, int(depth))
        self.decode = decode or nvjpeg_decode
        self.table = torch.from_numpy(recipe.table()).to(self.device)
        self.threads = max(1, int(threads))
        self.counts: Counter = Counter()  # images per path and per fallback reason
        self.seconds: Counter = Counter()  # where the producers' and the consumer's time went
        self._lock = threading.Lock()
        self.peak_queue = 0

    def stats(self) -> dict:
        fallbacks = {k[len("cpu: "):]: v for k, v in sorted(self.counts.items()) if k.startswith("cpu: ")}
        return {"path": DEVICE_PATH, "device_decoded": self.counts["device"],
                "cpu_fallback": sum(fallbacks.values()), "cpu_fallback_reasons": fallbacks,
                "failed": self.counts["failed"], "queue_depth": self.depth, "peak_queue": self.peak_queue,
                "threads": self.threads, "seconds": {k: round(v, 4) for k, v in sorted(self.seconds.items())}}

    def _count(self, counts: Counter, key: str, value) -> None:
        with self._lock:
            counts[key] += value

    # -- one chunk, in the producer thread ---------------------------------------------------
    def _cpu_pixels(self, name: str):
        import torch

        image = load_rgb(name, self.max_pixels, self.draft_edge)
        return torch.from_numpy(self.recipe.pixels(image)).to(self.device, non_blocking=False)

    def prepare(self, chunk: list[str], name_of: Callable[[str], str]):
        """(hashes, pixels (B, 3, h, w) float32 on the device or None, failures) for one chunk."""
        import torch

        ready: dict[str, object] = {}
        failures: dict[str, str] = {}
        jpeg_shas, jpeg_datas, cpu_shas = [], [], []
        start = time.perf_counter()
        for sha in chunk:
            name = name_of(sha)
            try:
                with open(name, "rb") as fh:
                    data = fh.read()
            except OSError:
                data = b""  # the CPU path gives the reason
            reason = cpu_reason(data, self.max_pixels) if data else "unreadable file"
            if reason is None:
                jpeg_shas.append(sha)
                jpeg_datas.append(torch.frombuffer(bytearray(data), dtype=torch.uint8))
            else:
                cpu_shas.append((sha, reason))
        mark = time.perf_counter()
        self._count(self.seconds, "read_and_screen", mark - start)
        if jpeg_datas:
            decoded = self.decode(jpeg_datas, self.device)
            made = [(sha, img) for sha, img in zip(jpeg_shas, decoded) if not isinstance(img, BaseException)]
            for sha, img in zip(jpeg_shas, decoded):
                if isinstance(img, BaseException):
                    cpu_shas.append((sha, "refused by the GPU decoder"))
            self._count(self.seconds, "gpu_decode", time.perf_counter() - mark)
            mark = time.perf_counter()
            if made:
                pixels = torch_pixels([img for _, img in made], self.recipe, self.table)
                ready.update((sha, pixels[i]) for i, (sha, _) in enumerate(made))
                self._count(self.counts, "device", len(made))
            self._count(self.seconds, "gpu_preprocess", time.perf_counter() - mark)
        mark = time.perf_counter()
        for sha, reason in cpu_shas:
            try:
                ready[sha] = self._cpu_pixels(name_of(sha))
                self._count(self.counts, "cpu: " + reason, 1)
            except ImageError as exc:
                failures[sha] = exc.reason
                self._count(self.counts, "failed", 1)
        self._count(self.seconds, "cpu_fallback", time.perf_counter() - mark)
        shas = [sha for sha in chunk if sha in ready]
        return shas, (torch.stack([ready[s] for s in shas]) if shas else None), failures

    # -- the run -----------------------------------------------------------------------------
    def batches(self, chunks: list[list[str]], name_of: Callable[[str], str],
                stopped: Callable[[], bool] = lambda: False) -> Iterator[tuple]:
        """Yield ``(hashes, pixels, failures)`` per chunk, in order; the next ``depth`` chunks are
        prepared in a background thread (on a CUDA stream of its own) while the caller runs the
        model. Closing the generator early stops the thread."""
        import torch

        threads = min(self.threads, max(1, len(chunks)))
        # producer t prepares chunks t, t + threads, …, into a queue of its own; taking from the
        # queues in turn keeps the chunks in order. depth counts the batches ready in all queues.
        outs = [queue.Queue(maxsize=max(1, self.depth // threads)) for _ in range(threads)]
        stop = threading.Event()
        cuda = self.device.type == "cuda"

        def produce(t: int):
            out = outs[t]
            stream = torch.cuda.Stream(self.device) if cuda else None
            try:
                for chunk in chunks[t::threads]:
                    if stop.is_set() or stopped():
                        break
                    with torch.cuda.stream(stream) if cuda else contextlib.nullcontext():
                        shas, pixels, failures = self.prepare(chunk, name_of)
                        event = torch.cuda.Event() if cuda else None
                        if event is not None:
                            event.record(stream)
                    _put(out, (shas, pixels, failures, event), stop)
            except BaseException as exc:  # handed to the consumer, which raises it
                _put(out, exc, stop)
            _put(out, _DONE, stop)

        workers = [threading.Thread(target=produce, args=(t,), name=f"geofidelity-nvjpeg-{t}", daemon=True)
                   for t in range(threads)]
        for worker in workers:
            worker.start()
        try:
            for n in range(len(chunks)):
                out = outs[n % threads]
                self.peak_queue = max(self.peak_queue, sum(q.qsize() for q in outs))
                waited = time.perf_counter()
                item = out.get()
                self._count(self.seconds, "model_waited", time.perf_counter() - waited)
                if item is _DONE:
                    return
                if isinstance(item, BaseException):
                    raise item
                shas, pixels, failures, event = item
                if event is not None and pixels is not None:
                    current = torch.cuda.current_stream(self.device)
                    current.wait_event(event)
                    pixels.record_stream(current)
                yield shas, pixels, failures
        finally:
            stop.set()
            for out, worker in zip(outs, workers):
                while worker.is_alive():
                    try:
                        out.get(timeout=0.05)
                    except queue.Empty:
                        pass
                worker.join()


def _put(out: queue.Queue, item, stop: threading.Event) -> None:
    """Put ``item``, waiting for room, unless the consumer has gone."""
    while not stop.is_set():
        try:
            out.put(item, timeout=0.05)
            return
        except queue.Full:
            continue

