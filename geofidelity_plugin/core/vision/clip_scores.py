"""method §7 CLIP check: the CLIP ViT-B/32 image–prompt score of each generated image — the
cosine of CLIP's projected image and text embeddings — cached like the embeddings (keyed by
the image's content hash and the prompt, the model and its revision).

The weights load only from the models folder (``models download clip-vit-base-patch32``) or a
local folder; without them the check is skipped with a note saying how to get them.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.models.resolve import ModelNotPresent, local_model
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.vision.feature_cache import CacheKey
from geofidelity_plugin.core.vision.features import exact_fp32, torch_dtype
from geofidelity_plugin.core.vision.model_ids import CLIP_VIT_B32
from geofidelity_plugin.core.vision.images import LOADER_VERSION, ImageError, content_hash, load_rgb
from geofidelity_plugin.core.vision.precision import DEFAULT_BATCH_SIZE, DEFAULT_PRECISION, check_precision

log = logging.getLogger("geofidelity")

DEFAULT_CLIP_MODEL = CLIP_VIT_B32
#: what ``--clip-model auto`` means: the protocol's model when it is in the models folder
AUTO = "auto"


def resolve_clip_model(choice: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """``(model to load, note)``: ``auto`` takes CLIP ViT-B/32 when it is present, else none
    with a note; ``none``/empty turns the check off; anything else is loaded as given."""
    choice = (choice or "").strip()
    if choice.lower() in ("", "none", "off"):
        return None, "CLIP check off (--clip-model none): no CLIP score computed"
    if choice.lower() != AUTO:
        return choice, None
    try:
        local_model(DEFAULT_CLIP_MODEL)
    except ModelNotPresent:
        return None, (f"CLIP check skipped: the CLIP ViT-B/32 weights ({DEFAULT_CLIP_MODEL}) are missing — download "
                      "them with `python -m geofidelity_plugin models download clip-vit-base-patch32` (in "
                      "QGIS: GeoFidelity › 0 · Models), or give a local CLIP folder with --clip-model")
    return DEFAULT_CLIP_MODEL, None


class ClipScorer:
    """CLIP model + processor: (image, prompt) pairs → cosine scores (method §7)."""

    def __init__(self, model: str = DEFAULT_CLIP_MODEL, device: Optional[str] = None,
                 batch_size: int = DEFAULT_BATCH_SIZE,
                 cache=None, precision: str = DEFAULT_PRECISION):
        self.model_id = str(model)
        self.batch_size = max(1, int(batch_size))
        self.cache = cache
        self.precision = check_precision(precision, "precision of the CLIP model")
        self._load(device)
        self._info = self._describe()

    def _load(self, device: Optional[str]) -> None:
        try:
            import torch
            import transformers
            from transformers import CLIPModel, CLIPProcessor
        except ImportError as exc:
            raise InputError(f"CLIP scores need torch and transformers ({exc}) — install the plugin's Python "
                             "dependencies (see README)") from exc
        major = int(re.match(r"\d+", transformers.__version__).group())
        backend = {"backend": "pil"} if major >= 5 else {}
        try:
            folder = local_model(self.model_id)  # ModelNotPresent, with the download command, when absent
            self.processor = CLIPProcessor.from_pretrained(local_model(self.model_id), local_files_only=True, **backend)
            model = CLIPModel.from_pretrained(local_model(self.model_id), local_files_only=True,
                                              trust_remote_code=False)
        except ModelNotPresent:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(f"the CLIP model {self.model_id!r} could not be loaded ({type(exc).__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else ''}) — give a folder written by "
                             "save_pretrained holding the model, its tokenizer and image processor, or download "
                             "openai/clip-vit-base-patch32 with `python -m geofidelity_plugin models download "
                             "clip-vit-base-patch32`") from None
        self.folder = Path(folder)
        self._torch = torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.dtype = torch_dtype(torch, self.precision, self.device)
        self.model = model.to(device=self.device, dtype=self.dtype).eval()

    def _describe(self) -> dict:
        from geofidelity_plugin.core.models.resolve import snapshot_commit
        from geofidelity_plugin.core.manifest import file_sha256

        weights = sorted(p for p in self.folder.glob("*") if p.suffix in (".safetensors", ".bin"))
        digest = hashlib.sha256("".join(f"{p.name} {file_sha256(p)}\n" for p in weights).encode()).hexdigest()
        revision = snapshot_commit(self.folder) or f"sha256:{digest}"
        signature = {"score": "clip_image_text_cosine", "loader": LOADER_VERSION, "precision": self.precision,
                     "processor": self.processor.image_processor.to_dict()}
        label = (self.model.config.name_or_path or self.model_id)
        return {"model": self.model_id, "label": label, "revision": revision, "weights_sha256": digest,
                "cache_model_id": f"local:{self.folder.name}" if Path(self.model_id).is_dir() else self.model_id,
                "cache_signature": "clip-score:sha256:" + hashlib.sha256(
                    json.dumps(signature, sort_keys=True, default=str).encode()).hexdigest()[:32],
                "precision": self.precision, "device": str(self.device), "protocol": "method §7 CLIP check"}

    def model_info(self) -> dict:
        return dict(self._info)

    def _key(self, image_sha: str, prompt: str) -> CacheKey:
        pair = hashlib.sha256(f"{image_sha}\n{prompt}".encode("utf-8")).hexdigest()
        return CacheKey(pair, self._info["cache_model_id"], self._info["revision"], self._info["cache_signature"])

    def score(self, pairs: Sequence[tuple[str, str]], progress: Optional[Progress] = None
              ) -> tuple[np.ndarray, dict[str, str]]:
        """Scores of (image path, prompt) pairs (NaN where the image cannot be read) and the
        failures by path."""
        scores = np.full(len(pairs), np.nan)
        failed: dict[str, str] = {}
        keys: dict[int, CacheKey] = {}
        for i, (path, prompt) in enumerate(pairs):
            try:
                keys[i] = self._key(content_hash(path), prompt)
            except ImageError as exc:
                failed[path] = exc.reason
        hits = (self.cache.get_many(list(dict.fromkeys(keys.values()))) or {}) if self.cache is not None else {}
        todo = [i for i, k in keys.items() if k not in hits]
        for i, k in keys.items():
            if k in hits:
                scores[i] = float(np.asarray(hits[k]).reshape(-1)[0])
        computed = {}
        for start in range(0, len(todo), self.batch_size):
            check_cancel(progress, "CLIP scores")
            batch = todo[start:start + self.batch_size]
            images, kept = [], []
            for i in batch:
                try:
                    images.append(load_rgb(pairs[i][0]))
                    kept.append(i)
                except ImageError as exc:
                    failed[pairs[i][0]] = exc.reason
            if not kept:
                continue
            values = self._run(images, [pairs[i][1] for i in kept])
            for i, value in zip(kept, values):
                scores[i] = value
                computed[keys[i]] = np.array([value], dtype=np.float32)
            if progress is not None:
                progress.set_progress(100.0 * min(start + self.batch_size, len(todo)) / max(len(todo), 1))
        if self.cache is not None and computed:
            self.cache.put_many(computed)
        # cached and computed scores go through float32 alike, so a re-run gives the same numbers
        return scores.astype(np.float32).astype(np.float64), failed

    def _run(self, images, prompts: list[str]) -> list[float]:
        torch = self._torch
        inputs = self.processor(text=prompts, images=images, return_tensors="pt", padding=True, truncation=True)
        with torch.inference_mode(), exact_fp32(torch, self.device, tf32=self.precision == "tf32"):
            out = self.model(input_ids=inputs["input_ids"].to(self.device),
                             attention_mask=inputs["attention_mask"].to(self.device),
                             pixel_values=inputs["pixel_values"].to(self.device, self.dtype))
        image, text = out.image_embeds.float(), out.text_embeds.float()  # projected, unit length
        image = image / image.norm(dim=-1, keepdim=True).clamp_min(1e-12)
        text = text / text.norm(dim=-1, keepdim=True).clamp_min(1e-12)
        return (image * text).sum(-1).cpu().tolist()


def prompts_for_generated(store, generated: dict) -> tuple[dict[str, str], list[str]]:
    """image path → its prompt: the one recorded with the image, else rebuilt from the store's
    segments with the default templates (method §4), with a note saying how many were rebuilt."""
    from geofidelity_plugin.core.generation.prompts import build_prompts

    prompts, missing = {}, []
    for (model, condition, sid), images in generated.items():
        for g in images:
            if g.get("prompt"):
                prompts[g["abs_path"]] = g["prompt"]
            else:
                missing.append((condition, sid, g["abs_path"]))
    notes = []
    if missing:
        rebuilt = {(p.condition, p.segment_id): p.prompt
                   for p in build_prompts(store.segments(), conditions=sorted({c for c, _, _ in missing}))}
        lost = 0
        for condition, sid, path in missing:
            if (condition, sid) in rebuilt:
                prompts[path] = rebuilt[(condition, sid)]
            else:
                lost += 1
        notes.append(f"CLIP check: {len(missing) - lost} generated image(s) had no recorded prompt; theirs was "
                     "rebuilt from the store's segments with the default templates (method §4)"
                     + (f"; {lost} could not be rebuilt and have no CLIP score" if lost else ""))
    return prompts, notes


def scores_for_generated(store, generated: dict, scorer: ClipScorer, progress: Optional[Progress] = None
                         ) -> tuple[dict[str, float], dict[str, str], list[str]]:
    """CLIP score of every generated image of ``generated`` (``store.generated_panels()``):
    (path → score, failures by path, notes)."""
    prompts, notes = prompts_for_generated(store, generated)
    pairs = sorted(prompts.items())
    values, failed = scorer.score(pairs, progress)
    scores = {path: float(v) for (path, _), v in zip(pairs, values) if np.isfinite(v)}
    label = scorer.model_info()["model"]
    if label != DEFAULT_CLIP_MODEL:
        notes.append(f"CLIP scores from {label}, not CLIP ViT-B/32 ({DEFAULT_CLIP_MODEL}): the CLIP check's numbers "
                     "are not the protocol's")
    return scores, failed, notes


def score_images(images: list, scorer: ClipScorer, progress: Optional[Progress] = None) -> list:
    """The same :class:`~..store.store.GeneratedImage` records with ``clip_score`` filled from
    their own prompts — for the generation and folder-import stages, which record the score."""
    from dataclasses import replace

    pairs = [(g.image_path, g.prompt) for g in images if g.prompt]
    values, _ = scorer.score(pairs, progress)
    by_path = {path: float(v) for (path, _), v in zip(pairs, values) if np.isfinite(v)}
    return [replace(g, clip_score=by_path.get(g.image_path, g.clip_score)) for g in images]
