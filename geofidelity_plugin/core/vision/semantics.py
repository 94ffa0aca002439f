"""method §5 semantic features: per-image pixel ratios of 8 street attributes.

A Mask2Former trained on Mapillary Vistas labels every pixel with one of the 65 Vistas v1.2
classes; a data file shipped with the project (``resources/data/vistas_attributes.json``) groups
those classes into the attributes road, sidewalk, building, vehicle, vegetation, sky, pole and
sign. An image's ratio for an attribute is the fraction of its pixels whose class belongs to
that attribute. Classes outside every attribute (people, water, benches, ...) only enlarge the
denominator, so a row need not sum to 1.

The mapping file is checked against the model's ``id2label`` by *name* when the model loads, so
a checkpoint whose label order differs still counts the right classes, and one whose labels are
different is refused with a message that says how to supply a matching mapping file.

The model computes in fp32 on every device unless bf16 or fp16 is asked for (``precision``);
another precision is part of the cache key and of :meth:`SemanticRatioModel.model_info`.

Images are read by :func:`.images.load_rgb`; torch and transformers are imported inside the
functions that need them (QGIS must start without them).
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.manifest import file_sha256
from geofidelity_plugin.core.models.resolve import local_model
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.vision.feature_cache import CacheKey
from geofidelity_plugin.core.vision.devices import exact_fp32, torch_dtype
from geofidelity_plugin.core.vision.images import LOADER_VERSION, ImageError, content_hash, load_rgb
from geofidelity_plugin.core.vision.model_ids import MASK2FORMER_VISTAS
from geofidelity_plugin.core.vision.model_refs import check_semantic_model
from geofidelity_plugin.core.vision.precision import DEFAULT_PRECISION, check_precision
from geofidelity_plugin.core.vision.vistas_mapping import (ATTRIBUTES, RECORDING_CAR_ALTERNATIVE, AttributeMapping, GroupsLike, RatioResult, check_mapping_against_model, default_mapping_path, load_attribute_mapping, ratios_from_label_map)

log = logging.getLogger("geofidelity")

DEFAULT_MODEL = MASK2FORMER_VISTAS
# Mask2Former's post-processing first resamples its masks to 384 × 384, so a label map much
# larger than that adds no information, only memory (65 float planes of the target size);
# ratios are area fractions, so the cap moves them by boundary pixels only.
DEFAULT_LABEL_MAP_MAX_SIDE = 1024


def _target_size(height: int, width: int, max_side: Optional[int]) -> tuple[int, int]:
    if not max_side or max(height, width) <= max_side:
        return height, width
    scale = max_side / max(height, width)
    return max(1, round(height * scale)), max(1, round(width * scale))


def _weights_sha256(folder: Path) -> Optional[str]:
    files = sorted(p for p in folder.glob("*") if p.suffix in (".safetensors", ".bin"))
    if not files:
        return None
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.name} {file_sha256(path)}\n".encode())
    return digest.hexdigest()


class SemanticRatioModel:
    """A Vistas Mask2Former and the attribute mapping: images → (N, 8) ratios (method §5).

    ``model`` is a hub id (taken from the local Hugging Face cache when offline) or a folder
    written by ``save_pretrained`` holding the model and its image processor. ``cache`` is an
    optional :class:`~.feature_cache.FeatureCache` (or anything with its ``get_many`` /
    ``put_many``): rows are keyed by the image's content hash, the model and its revision, and
    a signature of the preprocessing, label-map size and mapping (file hash and option), and the
    precision when it is not fp32.
    """

    def __init__(self, model: str = DEFAULT_MODEL, device: Optional[str] = None,
                 batch_size: int = 4, exclude_recording_car: bool = False,
                 mapping_path: Union[str, Path, None] = None,
                 label_map_max_side: Optional[int] = DEFAULT_LABEL_MAP_MAX_SIDE, cache=None,
                 precision: str = DEFAULT_PRECISION):
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, not {batch_size}")
        check_semantic_model(model)
        self.precision = check_precision(precision, "precision of the segmentation model")
        self.model_id = str(model)
        self.batch_size = int(batch_size)
        self.label_map_max_side = label_map_max_side
        self.cache = cache
        self.mapping = load_attribute_mapping(mapping_path, exclude_recording_car)
        self._load(device)
        self.model_mapping = check_mapping_against_model(self.mapping, self.model.config.id2label)
        self._info = self._describe()

    def _load(self, device: Optional[str]) -> None:
        try:
            import torch
            import transformers
            from transformers import AutoImageProcessor, Mask2FormerForUniversalSegmentation
        except ImportError as exc:
            raise InputError(f"semantic ratios need torch and transformers ({exc}); install the "
                             "plugin's Python dependencies (see README)") from exc
        # the PIL backend: the same pixels whether or not torchvision is installed
        major = int(re.match(r"\d+", transformers.__version__).group())
        backend = {"backend": "pil"} if major >= 5 else {}
        bars = transformers.utils.logging.is_progress_bar_enabled()
        transformers.utils.logging.disable_progress_bar()  # no tqdm bars in a QGIS log
        try:
            self.processor = AutoImageProcessor.from_pretrained(
                local_model(self.model_id), local_files_only=True, trust_remote_code=False, **backend)
            model = Mask2FormerForUniversalSegmentation.from_pretrained(
                local_model(self.model_id), local_files_only=True, trust_remote_code=False)
        except (OSError, ValueError, KeyError) as exc:
            if Path(self.model_id).exists():
                hint = ("the folder must hold config.json, the weights and "
                        "preprocessor_config.json, as written by save_pretrained")
            else:
                from geofidelity_plugin.core.models.registry import find_model

                entry = find_model(self.model_id)
                hint = ("download it with `python -m geofidelity_plugin models download "
                        f"{entry.name if entry else self.model_id}` (in QGIS: GeoFidelity › 0 · Models); "
                        "without internet here, download it on another machine and copy the models folder, "
                        "or pass the path of a folder holding the model and its image processor (save_pretrained)")
            raise InputError(f"the segmentation model {self.model_id!r} could not be loaded "
                             f"({type(exc).__name__}: {str(exc).splitlines()[0]}) — {hint}") from None
        finally:
            if bars:
                transformers.utils.logging.enable_progress_bar()
        self._torch = torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.dtype = torch_dtype(torch, self.precision, self.device)
        self.model = model.to(device=self.device, dtype=self.dtype).eval()

    def _describe(self) -> dict:
        folder, revision = self._model_folder()
        weights = _weights_sha256(folder) if folder is not None else None
        revision = getattr(self.model.config, "_commit_hash", None) or revision
        signature = {"features": "vistas_attribute_ratios", "attributes": list(ATTRIBUTES),
                     "processor": self.processor.to_dict(), "loader": LOADER_VERSION,
                     "label_map_max_side": self.label_map_max_side,
                     "mapping_sha256": self.mapping.sha256,
                     "exclude_recording_car": self.mapping.exclude_recording_car}
        if self.precision != DEFAULT_PRECISION:  # fp32 rows keep the key they had before the option
            signature["precision"] = self.precision
        digest = hashlib.sha256(json.dumps(signature, sort_keys=True, default=str).encode())
        return {
            "model": self.model_id,
            "revision": revision,
            "weights_sha256": weights,
            "cache_model_id": (f"local:{folder.name}" if Path(self.model_id).is_dir()
                               else self.model_id),
            "cache_signature": "sha256:" + digest.hexdigest()[:32],
            "label_map_max_side": self.label_map_max_side,
            "mapping_path": self.mapping.path,
            "mapping_sha256": self.mapping.sha256,
            "exclude_recording_car": self.mapping.exclude_recording_car,
            "precision": self.precision,
            "device": str(self.device),
            "attributes": self.mapping.attribute_class_names(),
            "protocol": "method §5",
        }

    def model_info(self) -> dict:
        """Model id, revision / weights hash and the mapping used — for manifests and reports."""
        return json.loads(json.dumps(self._info, default=str))

    @property
    def attributes(self) -> list[str]:
        return list(ATTRIBUTES)

    def _model_folder(self) -> tuple[Optional[Path], Optional[str]]:
        """The folder holding the weights, and the hub commit when it is a cache snapshot."""
        if Path(self.model_id).is_dir():
            return Path(self.model_id).resolve(), None
        try:
            from huggingface_hub import snapshot_download
            snapshot = Path(snapshot_download(self.model_id, local_files_only=True))
        except (ImportError, OSError, ValueError) as exc:
            log.warning("cannot locate the weights of %s to hash them: %s", self.model_id, exc)
            return None, None
        return snapshot, snapshot.name

    def _cache_key(self, image_sha256: str) -> CacheKey:
        info = self._info
        revision = info["revision"] or f"sha256:{info['weights_sha256']}"
        return CacheKey(image_sha256, info["cache_model_id"], revision, info["cache_signature"])

    def ratios_for_paths(self, paths: Iterable[Union[str, Path]],
                         progress: Optional[Progress] = None) -> RatioResult:
        """Ratios of the 8 attributes for each image; unreadable images give NaN rows."""
        paths = [str(p) for p in paths]
        ratios = np.full((len(paths), len(ATTRIBUTES)), np.nan, dtype=np.float32)
        failed: dict[str, str] = {}
        todo = list(range(len(paths)))
        keys: dict[int, CacheKey] = {}
        if self.cache is not None:
            for i, path in enumerate(paths):
                try:
                    keys[i] = self._cache_key(content_hash(path))
                except ImageError as exc:
                    failed[path] = exc.reason
            hits = self.cache.get_many(list(dict.fromkeys(keys.values()))) or {}
            for i, key in keys.items():
                if key in hits:
                    ratios[i] = np.asarray(hits[key], dtype=np.float32)
            todo = [i for i in keys if keys[i] not in hits]

        computed: dict[CacheKey, np.ndarray] = {}
        for start in range(0, len(todo), self.batch_size):
            check_cancel(progress, "semantic segmentation")
            for i, row in self._run_batch(paths, todo[start:start + self.batch_size], failed):
                ratios[i] = row
                if i in keys:
                    computed[keys[i]] = ratios[i]
            if progress is not None:
                progress.set_progress(100.0 * min(start + self.batch_size, len(todo)) / len(todo))
        if self.cache is not None and computed:
            self.cache.put_many(computed)
        if failed and progress is not None:
            progress.warning(f"{len(failed)} image(s) could not be segmented: "
                             + "; ".join(f"{p}: {r}" for p, r in list(failed.items())[:5]))
        return RatioResult(ratios=ratios, attributes=list(ATTRIBUTES), failed=failed)

    def _run_batch(self, paths: Sequence[str], indices: Sequence[int], failed: dict[str, str]):
        """Segment one batch; yield (index, ratios). Images of one processed size run together,
        so no padding reaches the post-processing (which would count padded pixels)."""
        torch = self._torch
        groups: dict[tuple, list] = {}
        for i in indices:
            try:
                image = load_rgb(paths[i])
                inputs = self.processor(images=[image], return_tensors="pt")
            except ImageError as exc:
                failed[paths[i]] = exc.reason
                continue
            except ValueError as exc:  # the processor refuses it (e.g. a 1-pixel image)
                failed[paths[i]] = f"cannot be preprocessed: {exc}"
                continue
            pixels = inputs["pixel_values"]
            groups.setdefault(tuple(pixels.shape[-2:]), []).append(
                (i, pixels, inputs.get("pixel_mask"), (image.height, image.width)))
        for items in groups.values():
            pixel_values = torch.cat([it[1] for it in items]).to(self.device, dtype=self.dtype)
            masks = [it[2] for it in items]
            pixel_mask = (torch.cat(masks).to(self.device)
                          if all(m is not None for m in masks) else None)
            with torch.inference_mode(), exact_fp32(torch, self.device, tf32=self.precision == "tf32"):
                outputs = self.model(pixel_values=pixel_values, pixel_mask=pixel_mask)
                sizes = [_target_size(h, w, self.label_map_max_side) for *_, (h, w) in items]
                maps = self.processor.post_process_semantic_segmentation(
                    outputs, target_sizes=sizes)
            for (i, *_), label_map in zip(items, maps):
                yield i, ratios_from_label_map(label_map.cpu().numpy(), self.model_mapping)
