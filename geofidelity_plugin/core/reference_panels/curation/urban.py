"""SigLIP urban-scene tier of reference-panel curation (method §2, filter 4: "softmax over one
street-scene prompt and several distractor prompts; pass when the street prompt is top-1 with
p ≥ 0.35").

The model (``google/siglip-so400m-patch14-384`` by default, or a folder written by
``save_pretrained``) is loaded with ``AutoModel`` and ``AutoProcessor``, never with remote
code. The image–text logits of SigLIP (``logit_scale · cos + logit_bias``) are turned into a
distribution over the prompts with a softmax; the bias is the same for every prompt, so it
cancels. Text is padded to the model's full text length (``padding="max_length"``), the way
SigLIP was trained.

The model computes in fp32 on every device unless bf16 or fp16 is asked for (``precision``);
another precision is part of the cache key and of :meth:`UrbanSceneScorer.model_info`.

When the model cannot be loaded (offline with nothing cached, torch missing, a folder without
a processor) :class:`TierUnavailable` is raised with the model id and how to provide it; the
curation step then records the tier as *skipped* with that note, never as passed.

torch and transformers are imported inside the functions that need them.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

import numpy as np

from geofidelity_plugin.core.errors import GeoFidelityError, InputError
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.vision.feature_cache import CacheKey
from geofidelity_plugin.core.vision.devices import exact_fp32, torch_dtype
from geofidelity_plugin.core.vision.images import LOADER_VERSION, ImageError, content_hash, load_rgb
from geofidelity_plugin.core.vision.precision import DEFAULT_PRECISION, check_precision
from geofidelity_plugin.core.models.resolve import local_model
from geofidelity_plugin.core.reference_panels.options import (DEFAULT_SIGLIP_MODEL, DISTRACTOR_PROMPTS, STREET_PROMPT)  # noqa: F401 (public here too)

log = logging.getLogger("geofidelity")


class TierUnavailable(GeoFidelityError):
    """A curation tier cannot run here (its model is missing); the tier is skipped, noted."""


@dataclass(frozen=True)
class UrbanScore:
    """SigLIP result for one image: probability of the street prompt and the top-1 prompt."""

    p_street: float
    top1: str
    probabilities: tuple[float, ...]


class UrbanSceneScorer:
    """Scores images against a street prompt and distractors (method §2 filter 4).

    ``cache`` is an optional :class:`~..vision.feature_cache.FeatureCache`: a row (the
    probability vector) is keyed by the image's content hash, the model, its revision and a
    signature of prompts and preprocessing (and the precision when it is not fp32), so a re-run
    after an audit does not re-score.
    """

    def __init__(self, model: str = DEFAULT_SIGLIP_MODEL, street_prompt: str = STREET_PROMPT,
                 distractor_prompts: Sequence[str] = DISTRACTOR_PROMPTS, threshold: float = 0.35,
                 device: Optional[str] = None, batch_size: int = 8, cache=None,
                 precision: str = DEFAULT_PRECISION):
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, not {batch_size}")
        if not 0.0 <= threshold <= 1.0:
            raise InputError(f"the SigLIP threshold must lie in [0, 1], not {threshold}")
        prompts = [str(street_prompt), *[str(p) for p in distractor_prompts]]
        if len(prompts) < 2 or len(set(prompts)) != len(prompts):
            raise InputError("the urban-scene tier needs one street prompt and at least one "
                             "distractor prompt, all different")
        self.precision = check_precision(precision, "precision of the SigLIP model")
        self.model_id = str(model)
        self.prompts = prompts
        self.threshold = float(threshold)
        self.batch_size = int(batch_size)
        self.cache = cache
        self._load(device)
        self._text_inputs = self._tokenize()
        self._info = self._describe()

    def _load(self, device: Optional[str]) -> None:
        try:
            import torch
            import transformers
            from transformers import AutoModel, AutoProcessor
        except ImportError as exc:
            raise TierUnavailable(
                f"the SigLIP urban-scene tier needs torch and transformers ({exc}); install the "
                "plugin's Python dependencies (see README)") from None
        major = int(re.match(r"\d+", transformers.__version__).group())
        backend = {"backend": "pil"} if major >= 5 else {}  # same pixels with or without torchvision
        bars = transformers.utils.logging.is_progress_bar_enabled()
        transformers.utils.logging.disable_progress_bar()
        try:
            self.processor = AutoProcessor.from_pretrained(local_model(self.model_id), local_files_only=True,
                                                           trust_remote_code=False, **backend)
            model = AutoModel.from_pretrained(local_model(self.model_id), local_files_only=True,
                                              trust_remote_code=False)
        except (OSError, ValueError, KeyError, ImportError) as exc:
            raise TierUnavailable(self._unavailable_message(exc)) from None
        finally:
            if bars:
                transformers.utils.logging.enable_progress_bar()
        if not hasattr(model, "get_text_features") or not hasattr(model, "get_image_features"):
            raise TierUnavailable(f"the model {self.model_id!r} is a {type(model).__name__}, not an "
                                  "image–text model such as SigLIP; give a SigLIP checkpoint")
        self._torch = torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.dtype = torch_dtype(torch, self.precision, self.device)
        self.model = model.to(device=self.device, dtype=self.dtype).eval()

    def _unavailable_message(self, exc: Exception) -> str:
        first = str(exc).splitlines()[0] if str(exc) else ""
        if isinstance(exc, ImportError):
            hint = ("a library its processor needs is missing (the SigLIP tokenizer needs "
                    "`sentencepiece`); install it")
        elif Path(self.model_id).exists():
            hint = ("the folder must hold config.json, the weights and the processor files "
                    "(preprocessor/tokenizer configs), as written by save_pretrained")
        else:
            from geofidelity_plugin.core.models.registry import find_model

            entry = find_model(self.model_id)
            hint = ("download it with `python -m geofidelity_plugin models download "
                    f"{entry.name if entry else self.model_id}` (in QGIS: GeoFidelity › 0 · Models); without "
                    "internet here, download it on another machine and copy the models folder, or give the "
                    "path of a folder holding the model and its processor (save_pretrained)")
        return (f"SigLIP model {self.model_id!r} for the urban-scene tier (method §2 filter 4) "
                f"could not be loaded ({type(exc).__name__}: {first}) — {hint}")

    def _tokenize(self):
        config = getattr(self.model.config, "text_config", None)
        length = getattr(config, "max_position_embeddings", None)
        kwargs = {"padding": "max_length", "truncation": True}
        if length:
            kwargs["max_length"] = int(length)
        inputs = self.processor(text=self.prompts, return_tensors="pt", **kwargs)
        return {k: v.to(self.device) for k, v in inputs.items()}

    def _describe(self) -> dict:
        from geofidelity_plugin.core.manifest import file_sha256

        folder = Path(self.model_id)
        weights = None
        if folder.is_dir():
            digest = hashlib.sha256()
            for path in sorted(p for p in folder.glob("*") if p.suffix in (".safetensors", ".bin")):
                digest.update(f"{path.name} {file_sha256(path)}\n".encode())
            weights = digest.hexdigest()
        revision = getattr(self.model.config, "_commit_hash", None) or f"sha256:{weights}"
        signature = {"tier": "siglip_urban", "prompts": self.prompts, "loader": LOADER_VERSION,
                     "processor": self.processor.image_processor.to_dict()}
        if self.precision != DEFAULT_PRECISION:  # fp32 rows keep the key they had before the option
            signature["precision"] = self.precision
        sig = hashlib.sha256(json.dumps(signature, sort_keys=True, default=str).encode())
        return {"model": self.model_id, "revision": revision, "prompts": list(self.prompts),
                "threshold": self.threshold, "precision": self.precision, "device": str(self.device),
                "cache_model_id": f"local:{folder.name}" if folder.is_dir() else self.model_id,
                "cache_signature": "sha256:" + sig.hexdigest()[:32],
                "protocol": "method §2 filter 4"}

    def model_info(self) -> dict:
        """Model id, revision, prompts and threshold — for manifests and reports."""
        return {k: v for k, v in self._info.items() if not k.startswith("cache_")}

    def passes(self, score: UrbanScore) -> bool:
        """Filter 4: the street prompt is top-1 and its probability reaches the threshold."""
        return score.top1 == self.prompts[0] and score.p_street >= self.threshold

    def score_images(self, images: Sequence) -> list[UrbanScore]:
        """Scores of RGB PIL images (one forward pass per batch)."""
        torch = self._torch
        out: list[UrbanScore] = []
        for start in range(0, len(images), self.batch_size):
            batch = list(images[start:start + self.batch_size])
            pixels = self.processor(images=batch, return_tensors="pt")["pixel_values"]
            with torch.inference_mode(), exact_fp32(torch, self.device, tf32=self.precision == "tf32"):
                result = self.model(pixel_values=pixels.to(self.device, dtype=self.dtype), **self._text_inputs)
                probs = torch.softmax(result.logits_per_image.float(), dim=-1).cpu().numpy()
            out.extend(self._to_score(row) for row in probs)
        return out

    def _to_score(self, probs: np.ndarray) -> UrbanScore:
        probs = np.asarray(probs, dtype=np.float64)
        return UrbanScore(p_street=float(probs[0]), top1=self.prompts[int(np.argmax(probs))],
                          probabilities=tuple(float(p) for p in probs))

    def score_paths(self, paths: Sequence[Union[str, Path]], progress: Optional[Progress] = None
                    ) -> tuple[list[Optional[UrbanScore]], dict[str, str]]:
        """Scores of image files; unreadable files give ``None`` and a reason in the dict."""
        paths = [str(p) for p in paths]
        scores: list[Optional[UrbanScore]] = [None] * len(paths)
        failed: dict[str, str] = {}
        keys: dict[int, CacheKey] = {}
        if self.cache is not None:
            for i, path in enumerate(paths):
                try:
                    keys[i] = CacheKey(content_hash(path), self._info["cache_model_id"],
                                       self._info["revision"], self._info["cache_signature"])
                except ImageError as exc:
                    failed[path] = exc.reason
            hits = self.cache.get_many(list(dict.fromkeys(keys.values()))) or {}
            for i, key in keys.items():
                if key in hits and len(hits[key]) == len(self.prompts):
                    scores[i] = self._to_score(hits[key])
        todo = [i for i in range(len(paths)) if scores[i] is None and paths[i] not in failed]
        computed = {}
        for start in range(0, len(todo), self.batch_size):
            check_cancel(progress, "SigLIP urban-scene scoring")
            batch, images = [], []
            for i in todo[start:start + self.batch_size]:
                try:
                    images.append(load_rgb(paths[i]))
                    batch.append(i)
                except ImageError as exc:
                    failed[paths[i]] = exc.reason
            for i, score in zip(batch, self.score_images(images)):
                scores[i] = score
                if i in keys:
                    computed[keys[i]] = np.asarray(score.probabilities, dtype=np.float32)
            if progress is not None:
                progress.set_progress(100.0 * min(start + self.batch_size, len(todo)) / len(todo))
        if self.cache is not None and computed:
            self.cache.put_many(computed)
        return scores, failed
