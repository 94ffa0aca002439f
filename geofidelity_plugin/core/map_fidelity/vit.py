"""The ViT side of MFP (method §10): per map image the [CLS] token and the keys of the last
self-attention layer.

Any transformers ViT with a [CLS] token works: DINO (``ViTModel``, the paper's family) and
DINOv2 (``Dinov2Model``, the offline default). A forward hook on the last block's key
projection (``k_proj`` in transformers 5, ``key`` before) reads K = X·W_K with the heads
concatenated; the [CLS] token is the first row of ``last_hidden_state`` (after the final layer
norm, as DINO's own forward returns it).

Preprocessing is written in torch so that the loss is differentiable w.r.t. the image: an RGB
tensor in [0, 1] is resized (bilinear, antialiased) to the model's input size only when it has
another size, then normalised with the checkpoint's mean and std. Tiles of the input size — the
default — reach the model untouched.

torch and transformers are imported lazily, so that QGIS never imports them.
"""
from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

from ..documents import read_json
from ..errors import InputError
from ..manifest import file_sha256
from ..models.provenance import provenance_label
from .options import OFFLINE_MODEL_FOLDER, PAPER_MODEL

log = logging.getLogger("geofidelity")

_REPO = Path(__file__).resolve().parents[3]
_KEY_NAMES = ("k_proj", "key")


def resolve_model(ref: str | None, warn=None) -> str:
    """The model to load for ``ref``: ``auto`` is the paper's DINO ViT when it is in the models
    folder, else the project's offline DINOv2-S/14 (with a warning), else an error with the fix."""
    ref = (ref or "auto").strip()
    if ref != "auto":
        return ref
    from ..models.resolve import local_model

    try:
        return local_model(PAPER_MODEL)
    except (InputError, ValueError):
        offline = _REPO / OFFLINE_MODEL_FOLDER
        if (offline / "config.json").exists():
            if warn is not None:
                warn(f"the paper's DINO ViT ({PAPER_MODEL}) is not downloaded: MFP uses the offline "
                     f"DINOv2-S/14 ({offline}) and every output says so")
            return str(offline)
    raise InputError(f"no MFP feature model: {PAPER_MODEL} is not downloaded and {OFFLINE_MODEL_FOLDER} is "
                     f"missing — run `python -m geofidelity_plugin models download {PAPER_MODEL}` or "
                     "`make models`, or give --model FOLDER")


class MapViT:
    """A frozen ViT that returns ([CLS], keys) per image (method §10)."""

    def __init__(self, model: str, device: str | None = None, dtype: str = "float32", attention: str | None = None):
        import torch

        self.ref = str(model)
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.dtype = getattr(torch, dtype)
        self.model, settings, folder = _load(self.ref, attention)
        self.model = self.model.to(device=self.device, dtype=self.dtype).eval().requires_grad_(False)
        self.input_size = _input_size(settings, self.model.config)
        mean = settings.get("image_mean") or [0.485, 0.456, 0.406]
        std = settings.get("image_std") or [0.229, 0.224, 0.225]
        self.mean = torch.tensor(mean, device=self.device, dtype=self.dtype).view(1, 3, 1, 1)
        self.std = torch.tensor(std, device=self.device, dtype=self.dtype).view(1, 3, 1, 1)
        self.key_module_name, key_module = _last_key_projection(self.model)
        self._keys = None
        key_module.register_forward_hook(self._keep_keys)
        patch = int(getattr(self.model.config, "patch_size", 16))
        self.tokens = (self.input_size // patch) ** 2 + 1 + int(getattr(self.model.config, "num_register_tokens", 0) or 0)
        self._info = _describe(self.ref, folder, self.model, self.input_size, self.key_module_name, self.tokens)

    def _keep_keys(self, module, inputs, output) -> None:
        self._keys = output

    def model_info(self) -> dict[str, Any]:
        """What a manifest needs: id, label, revision, input size, the hooked module."""
        return {**self._info, "device": str(self.device), "dtype": str(self.dtype).replace("torch.", "")}

    @property
    def label(self) -> str:
        """The model's name as every output shows it, marked when it is not the paper's."""
        info = self._info
        return info["label"] if info["is_paper_model"] else f"{info['label']} (not the paper's DINO ViT)"

    def pixels(self, images):
        """(B, 3, H, W) RGB in [0, 1] → normalised model input (differentiable)."""
        import torch.nn.functional as F

        if images.dim() != 4 or images.shape[1] != 3:
            raise InputError(f"MFP needs RGB images shaped (batch, 3, height, width), got {tuple(images.shape)} "
                             "— drop the alpha band or convert grey maps to RGB")
        images = images.to(device=self.device, dtype=self.dtype)
        if tuple(images.shape[-2:]) != (self.input_size, self.input_size):
            images = F.interpolate(images, size=(self.input_size, self.input_size), mode="bilinear",
                                   align_corners=False, antialias=True)
        return (images - self.mean) / self.std

    def features(self, images):
        """([CLS] (B, D), keys (B, N, D)) of images in [0, 1]; gradients flow when they require them."""
        self._keys = None
        out = self.model(pixel_values=self.pixels(images))
        keys = self._keys
        self._keys = None
        if keys is None:
            raise InputError(f"model {self.ref}: the key projection {self.key_module_name} did not run — "
                             "give a ViT (DINO or DINOv2) checkpoint")
        return out.last_hidden_state[:, 0], keys


def self_similarity(keys):
    """S: cosine similarity of every pair of tokens' keys, (B, N, N) (paper Eq. 8)."""
    import torch.nn.functional as F

    unit = F.normalize(keys, dim=-1, eps=1e-12)
    return unit @ unit.transpose(-1, -2)


def _load(ref: str, attention: str | None):
    import transformers

    from ..models.resolve import local_model

    path = Path(ref).expanduser()
    folder = path.resolve() if path.is_dir() else None
    if folder is None and (ref.startswith(("/", ".", "~")) or ref.count("/") != 1):
        raise InputError(f"model folder {ref} not found — give an existing folder (e.g. {OFFLINE_MODEL_FOLDER}, "
                         f"made by `make models`) or a hub id such as {PAPER_MODEL}")
    bars = transformers.utils.logging.is_progress_bar_enabled()
    transformers.utils.logging.disable_progress_bar()
    try:
        source = local_model(ref)
        kwargs = {"attn_implementation": attention} if attention else {}
        model = transformers.AutoModel.from_pretrained(local_model(ref), local_files_only=True,
                                                       trust_remote_code=False, **kwargs)
    except (OSError, ValueError) as exc:
        raise InputError(f"model {ref} cannot be loaded as a transformers ViT: {str(exc).splitlines()[0]} — "
                         f"give a DINO/DINOv2 folder ({OFFLINE_MODEL_FOLDER}, made by `make models`) or "
                         f"download {PAPER_MODEL} with `python -m geofidelity_plugin models download "
                         f"{PAPER_MODEL}`") from None
    finally:
        if bars:
            transformers.utils.logging.enable_progress_bar()
    processor_file = Path(source) / "preprocessor_config.json"
    settings = read_json(processor_file, "the model's preprocessor_config.json",
                         "restore it (save_pretrained writes it; a download brings it), or give another model "
                         f"folder (e.g. {OFFLINE_MODEL_FOLDER}, made by `make models`)") if processor_file.exists() else {}
    return model, settings, folder or Path(source)


def _input_size(settings: dict, config) -> int:
    """The square input the checkpoint was made for: its crop, else its resize target."""
    for key in ("crop_size", "size"):
        size = settings.get(key)
        if key == "crop_size" and not settings.get("do_center_crop", True):
            continue
        if isinstance(size, dict) and size.get("height"):
            return int(size["height"])
        if isinstance(size, int):
            return int(size)
        if isinstance(size, dict) and size.get("shortest_edge") and key == "size":
            return int(size["shortest_edge"])
    return int(getattr(config, "image_size", 224))


def _last_key_projection(model):
    import torch

    found = [(name, module) for name, module in model.named_modules()
             if isinstance(module, torch.nn.Linear) and name.rsplit(".", 1)[-1] in _KEY_NAMES]
    if not found:
        raise InputError(f"{type(model).__name__} has no attention key projection — MFP needs a ViT "
                         f"(DINO or DINOv2), e.g. {PAPER_MODEL}")
    return found[-1]


def _describe(ref: str, folder: Path, model, input_size: int, key_module: str, tokens: int) -> dict[str, Any]:
    label = provenance_label(folder) or ref
    weights = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("pytorch_model*.bin"))
    digest = hashlib.sha256("".join(file_sha256(path) for path in weights).encode())
    model_type = getattr(model.config, "model_type", None)
    paper = ref == PAPER_MODEL or PAPER_MODEL.replace("/", "--") in str(folder)
    return {"id": ref, "label": label, "folder": str(folder), "model_type": model_type,
            "revision": "sha256:" + digest.hexdigest() if weights else "unknown",
            "is_paper_model": paper,
            "note": "the paper's DINO ViT" if paper else
                    f"not the paper's DINO ViT ({PAPER_MODEL}): scores are not comparable with the paper's",
            "input_size": input_size, "tokens": tokens, "key_module": key_module,
            "cls": "last_hidden_state[:, 0] (after the final layer norm)"}
