"""How large each part of a generator is, known before any weight is loaded (method §4
Generators; docs/memory-plans.md).

A diffusers folder holds one sub-folder per component; each ``*.safetensors`` file starts with an
8-byte little-endian header length and a JSON header giving every tensor's dtype and shape, so
the parameter counts come from a few kilobytes per file and the weights are never read. Sharded
components list their shards in ``*.safetensors.index.json``. Without the weights (a registered
generator not yet downloaded), the counts come from ``resources/generation/component_sizes.json``:
the six generators' published configs counted on PyTorch's meta device, each entry with its
source. Stdlib only: the plan table and the QGIS side read it without torch.
"""
from __future__ import annotations

import math
import re
import struct
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable

from ..documents import parse_json_text, read_json
from ..errors import InputError
from ..input_text import decode
from ..resources import resource

DATA_FILE = ("generation", "component_sizes.json")
DENOISERS = ("unet", "transformer", "prior", "decoder")
#: the patterns diffusers' layerwise casting always skips (hooks/layerwise_casting.py, diffusers 0.42)
FP8_DEFAULT_SKIP = ("pos_embed", "patch_embed", "norm", "^proj_in$", "^proj_out$")
_MAX_HEADER = 100 * 1024 * 1024
_BYTES = {"F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2, "I16": 2, "U16": 2,
          "F8_E4M3": 1, "F8_E5M2": 1, "I8": 1, "U8": 1, "BOOL": 1}


@dataclass(frozen=True)
class ComponentSize:
    """One torch component of a pipeline. ``offload_unit`` is what group offloading moves at a
    time: ``block`` (the denoiser's top-level block lists, one block per group), ``leaf`` (one
    layer: text encoders, whose transformers classes have no top-level block list) or ``whole``
    (the VAE, small). ``fp8_params``: the denoiser parameters layerwise fp8 storage would hold in
    8 bits (norms and embeddings stay in the run dtype). ``fp32_params``: parameters transformers
    keeps in float32 when the run dtype is float16 (T5's ``wo`` layers, ``_keep_in_fp32_modules``;
    measured by `make gpu-check`: PixArt-Σ's T5-XXL takes 1.9 GiB more than all-fp16)."""

    name: str
    role: str
    params: int
    block_params: int = 0
    largest_block: int = 0
    largest_tensor: int = 0
    fp8_params: int = 0
    fp32_params: int = 0
    offload_unit: str = "whole"
    source: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Activation:
    """What the activation estimate needs (docs/memory-plans.md): the denoiser's largest feature
    map at 1024² (``tokens`` × ``width``, text tokens included for joint attention), the
    calibrated multiplier ``alpha``, how many denoiser rows one image takes (2 with classifier-free
    guidance batched, 1 for FLUX), and the VAE decoder's full-resolution channel count."""

    tokens: int
    width: int
    alpha: float
    cfg_batch: int
    text_tokens: int = 0
    vae_channels: int = 128
    vae_upcast: bool = False
    source: str = ""

    def tokens_at(self, resolution: int) -> int:
        image_tokens = self.tokens - self.text_tokens
        return math.ceil(image_tokens * (resolution / 1024) ** 2) + self.text_tokens

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class GeneratorSizes:
    generator: str
    components: tuple[ComponentSize, ...]
    activation: Activation
    origin: str  # "safetensors headers of <folder>" or "data file (published configs)"

    def role(self, role: str) -> list[ComponentSize]:
        return [c for c in self.components if c.role == role]

    @property
    def denoiser(self) -> ComponentSize:
        found = self.role("denoiser")
        if not found:
            raise InputError(f"{self.generator}: no denoiser (unet or transformer) among its components "
                             f"{', '.join(c.name for c in self.components)} — give a text-to-image diffusers folder")
        return found[0]

    def to_dict(self) -> dict:
        return {"generator": self.generator, "origin": self.origin, "activation": self.activation.to_dict(),
                "components": [c.to_dict() for c in self.components]}


# -- safetensors headers ----------------------------------------------------------------------------
def read_header(path: str | Path) -> dict[str, dict]:
    """``{tensor name: {"dtype", "shape", ...}}`` from one safetensors file's header."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(8)
            if len(raw) != 8:
                raise ValueError("shorter than the 8-byte header length")
            (length,) = struct.unpack("<Q", raw)
            if length > _MAX_HEADER:
                raise ValueError(f"header length {length} is implausible")
            raw = fh.read(length)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} is not a readable safetensors file ({exc}) — download it again") from None
    header = parse_json_text(decode(path, raw, "the header of the safetensors file", "download it again").text,
                             "the header of the safetensors file", "download it again", where=str(path))
    header.pop("__metadata__", None)
    return header


def weight_files(folder: Path) -> list[Path]:
    """The safetensors files diffusers loads for one component folder: the plain (non-variant)
    weights, sharded through their index when there is one; a variant only when no plain file
    exists (its sizes are the same; only its dtype differs)."""
    indexes = sorted(folder.glob("*.safetensors.index.json"))
    indexes = [p for p in indexes if p.name.count(".") == 3] or indexes  # NAME.safetensors.index.json first
    if indexes:
        weight_map = read_json(indexes[0], "the safetensors index", "download it again").get("weight_map")
        if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
            raise InputError(f"the safetensors index {indexes[0]} has no weight_map of tensor names to files — "
                             "download it again")
        return [folder / name for name in sorted(set(weight_map.values()))]
    files = sorted(folder.glob("*.safetensors"))
    plain = [p for p in files if p.name.count(".") == 1]
    return plain or files[:1]


def tensors_of(files: Iterable[Path]) -> list[tuple[str, int, int]]:
    """``(name, numel, ndim)`` of every tensor in ``files``."""
    out = []
    for path in files:
        for name, info in read_header(path).items():
            shape = info.get("shape", [])
            out.append((name, math.prod(shape), len(shape)))
    return out


def tensors_of_module(module) -> list[tuple[str, int, int]]:
    """``(name, numel, ndim)`` of what ``save_pretrained`` writes for a loaded (or meta-device)
    module: its parameters, tied ones once, and its persistent buffers."""
    out = [(name, p.numel(), p.dim()) for name, p in module.named_parameters()]
    for owner_name, owner in module.named_modules():
        for name, buffer in owner.named_buffers(recurse=False):
            if buffer is not None and name not in owner._non_persistent_buffers_set:
                out.append((f"{owner_name}.{name}" if owner_name else name, buffer.numel(), buffer.dim()))
    return out


def summarise(name: str, role: str, tensors: list[tuple[str, int, int]], fp8_skip: Iterable[str] = (),
              source: str = "", keep_fp32: Iterable[str] = ()) -> ComponentSize:
    """A component's size and how group offloading would cut it, from its tensor names alone
    (the same rule :func:`~.memory_plan.apply_plan` applies to the loaded module)."""
    params = sum(n for _, n, _ in tensors)
    lists: dict[str, dict[int, int]] = {}
    for tensor, numel, _ in tensors:
        parts = tensor.split(".")
        for i, part in enumerate(parts[:-1]):
            if i and part.isdigit():
                lists.setdefault(".".join(parts[:i]), {}).setdefault(int(part), 0)
                lists[".".join(parts[:i])][int(part)] += numel
                break
    top = {prefix: blocks for prefix, blocks in lists.items() if "." not in prefix}
    fp8 = 0
    if role == "denoiser":
        patterns = tuple(fp8_skip) or FP8_DEFAULT_SKIP
        weights = {t.rsplit(".", 1)[0] for t, _, ndim in tensors if t.endswith(".weight") and ndim >= 2}
        fp8 = sum(n for t, n, _ in tensors if "." in t and t.rsplit(".", 1)[0] in weights
                  and not any(re.search(p, t.rsplit(".", 1)[0]) for p in patterns))
    unit = "whole" if role == "vae" else ("block" if role == "denoiser" and top else "leaf")
    return ComponentSize(
        name=name, role=role, params=params,
        block_params=sum(sum(b.values()) for b in top.values()) if unit == "block" else 0,
        largest_block=max((max(b.values()) for b in top.values()), default=0) if unit == "block" else 0,
        largest_tensor=max((n for _, n, _ in tensors), default=0), fp8_params=fp8,
        fp32_params=sum(n for t, n, _ in tensors if set(keep_fp32) & set(t.split(".")[:-1])), offload_unit=unit,
        source=source)


def role_of(component: str) -> str:
    if component in DENOISERS:
        return "denoiser"
    if component == "vae":
        return "vae"
    return "text_encoder" if component.startswith("text_encoder") else "other"


# -- a diffusers folder -------------------------------------------------------------------------------
def _json(path: Path) -> dict:
    """A configuration of the folder, or ``{}`` when it is missing or cannot be read: the sizes are an
    estimate, and a damaged configuration stops the load of the folder that follows anyway."""
    try:
        return read_json(path, "the configuration", "restore it")
    except InputError:
        return {}


def folder_sizes(folder: str | Path, generator: str | None = None) -> GeneratorSizes | None:
    """The sizes of every torch component of a diffusers folder from its safetensors headers, or
    None when a component's weights are missing (a partial download)."""
    folder = Path(folder)
    index = _json(folder / "model_index.json")
    if not index:
        return None
    components = []
    for name, entry in sorted(index.items()):
        if name.startswith("_") or not isinstance(entry, list) or entry[0] not in ("diffusers", "transformers"):
            continue
        config = _json(folder / name / "config.json")
        if not config and not list((folder / name).glob("*.safetensors*")):
            continue  # tokenizers, schedulers, feature extractors: no weights
        files = weight_files(folder / name)
        if not files or not all(f.is_file() for f in files):
            return None
        role = role_of(name)
        skip = FP8_DEFAULT_SKIP + tuple(_class_skip_patterns(entry[1])) if role == "denoiser" else ()
        components.append(summarise(name, role, tensors_of(files), skip,
                                    source=f"safetensors headers of {folder / name}",
                                    keep_fp32=KEEP_FP32.get(entry[1], ())))
    if not components:
        return None
    return GeneratorSizes(generator or folder.name, tuple(components), activation_from_folder(folder),
                          f"safetensors headers of {folder}")


def _class_skip_patterns(class_name: str) -> list[str]:
    """The denoiser class's own ``_skip_layerwise_casting_patterns`` (from diffusers, when it is
    importable; the estimate then matches what :func:`~.memory_plan.apply_plan` does)."""
    try:
        import diffusers

        return list(getattr(getattr(diffusers, class_name, None), "_skip_layerwise_casting_patterns", None) or [])
    except ImportError:
        return []


#: the module names transformers keeps in float32 under a float16 run (``_keep_in_fp32_modules``)
KEEP_FP32 = {"T5EncoderModel": ("wo",), "UMT5EncoderModel": ("wo",), "MT5EncoderModel": ("wo",)}
#: the activation multiplier per denoiser class (docs/memory-plans.md, measured on CPU at 1024²)
ALPHA = {"UNet2DConditionModel": 21.0, "SD3Transformer2DModel": 14.0, "FluxTransformer2DModel": 16.0,
         "PixArtTransformer2DModel": 14.0, "HunyuanDiT2DModel": 15.0}
DEFAULT_ALPHA = 21.0
#: pipelines whose guidance does not double the denoiser batch (guidance-distilled)
NO_CFG_BATCH = ("FluxPipeline",)
#: pipelines that decode with the VAE upcast to float32 when it is float16 and its config asks for it
UPCASTING = ("StableDiffusionXLPipeline", "StableDiffusionPipeline")


def activation_from_folder(folder: Path) -> Activation:
    """The activation shape from the folder's own configs, for a generator the data file does not
    list (a custom folder): the same rule the data file's entries follow."""
    index = _json(folder / "model_index.json")
    pipeline = index.get("_class_name", "")
    name = next((n for n in DENOISERS if n in index), None)
    config = _json(folder / name / "config.json") if name else {}
    vae = _json(folder / "vae" / "config.json")
    cls = config.get("_class_name", "")
    patch = int(config.get("patch_size") or 1)
    latent_side = 1024 // (2 ** (len(vae.get("block_out_channels", [0] * 4)) - 1))
    if cls.startswith("UNet"):
        tokens, width, text = latent_side ** 2, int((config.get("block_out_channels") or [320])[0]), 0
    else:
        heads, dim = int(config.get("num_attention_heads") or 0), int(config.get("attention_head_dim") or 0)
        width = heads * dim or int(config.get("hidden_size") or config.get("inner_dim") or 1024)
        text = 0
        if cls in ("FluxTransformer2DModel", "SD3Transformer2DModel"):  # joint attention over text tokens too
            text = 512 if cls == "FluxTransformer2DModel" else 333
        tokens = (latent_side // (patch if cls != "FluxTransformer2DModel" else 2)) ** 2 + text
    alpha = ALPHA.get(cls, DEFAULT_ALPHA)
    if cls == "HunyuanDiT2DModel":
        alpha += int(config.get("num_layers", 0)) // 2  # the long skips hold half the blocks' outputs
    return Activation(tokens=tokens, width=width, alpha=alpha, cfg_batch=1 if pipeline in NO_CFG_BATCH else 2,
                      text_tokens=text, vae_channels=int((vae.get("block_out_channels") or [128])[0]),
                      vae_upcast=bool(vae.get("force_upcast")) and pipeline in UPCASTING,
                      source=f"configs of {folder}")


# -- the data file --------------------------------------------------------------------------------
def data_file() -> dict:
    return read_json(resource(*DATA_FILE), "the generator sizes data file", "reinstall the plugin")


def published_sizes(generator: str) -> GeneratorSizes | None:
    """The registered generator's sizes from the data file (published configs), or None."""
    entry = data_file()["generators"].get(generator)
    if entry is None:
        return None
    fields = ComponentSize.__dataclass_fields__
    components = tuple(ComponentSize(name=name, **{k: v for k, v in c.items() if k in fields and k != "name"})
                       for name, c in entry["components"].items())
    act = entry["activation"]
    activation = Activation(**{k: v for k, v in act.items() if k in Activation.__dataclass_fields__})
    return GeneratorSizes(generator, components, activation, "data file (published configs)")


def generator_sizes(generator: str, folder: str | Path | None) -> GeneratorSizes:
    """Headers when the weights are on this machine, else the data file; the activation shape of
    a registered generator always comes from the data file (it was calibrated for it)."""
    published = published_sizes(generator)
    local = folder_sizes(folder, generator) if folder is not None else None
    if local is not None:
        if published is not None:
            return GeneratorSizes(generator, local.components, published.activation, local.origin)
        return local
    if published is not None:
        return published
    raise InputError(f"the sizes of generator {generator!r} are unknown: its weights are not on this machine "
                     "and it is not a registered generator — download it first, or give its folder")
