"""The text-to-image generators of the benchmark (method §4 Generators).

Six diffusers checkpoints with the paper's sampling settings, generated at 1024² by default,
plus "custom" entries: a local diffusers folder with settings the user states explicitly (no
defaults are guessed for a model we know nothing about). Each entry records what a run must
write into its metadata: id, revision, steps, guidance, resolution and dtype — and, for the model
manager (:mod:`..models.registry`, which lists every generator from this one table), its
approximate download size and where that size comes from.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import InputError

DTYPES = ("fp32", "fp16", "bf16")
_DTYPE_ALIASES = {"float32": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16"}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")
GB = 1000 ** 3
#: what the model manager's sizes are, when no better source is written
UNKNOWN_SIZE = "unknown"


def published_size(*parts: tuple[str, float, int]) -> tuple[int, str]:
    """(bytes, source) from published parameter counts: (component, billions, bytes per parameter)."""
    total = sum(billions * 1e9 * width for _, billions, width in parts)
    listing = ", ".join(f"{name} {billions:g} B × {width}" for name, billions, width in parts)
    return int(total), f"published parameter counts × bytes per stored parameter ({listing})"


@dataclass(frozen=True)
class GeneratorSpec:
    """One generator: ``name`` is its folder under the generations root and its ``model`` value
    in the benchmark store; ``model_id`` a hub id or a local diffusers folder."""

    name: str
    label: str
    model_id: str
    steps: int
    guidance: float
    dtype: str
    resolution: int = 1024
    licence: str = ""
    gated: bool = False
    revision: str | None = None
    custom: bool = False
    #: approximate download size (the files diffusers reads) and its source, for the model manager;
    #: not part of a run's metadata
    size: tuple[int | None, str] = field(default=(None, UNKNOWN_SIZE), compare=False)

    def to_dict(self) -> dict:
        out = asdict(self)
        out.pop("size")
        return out


_GATED = ("gated on the hub: accept the licence on the model page and give a token (HF_TOKEN) to "
          "`python -m geofidelity_plugin models download` before the first download")

GENERATORS: dict[str, GeneratorSpec] = {spec.name: spec for spec in (
    GeneratorSpec("sdxl-base-1.0", "SDXL base 1.0", "stabilityai/stable-diffusion-xl-base-1.0",
                  30, 5.0, "fp16", licence="CreativeML Open RAIL++-M",
                  size=(int(13.9 * GB), "the Hub's file listing for unet (10.3 GB) and vae (335 MB), fp32; text "
                                        "encoders from parameter counts (0.123 B + 0.695 B × 4 bytes)")),
    GeneratorSpec("sd3.5-large", "SD 3.5 Large", "stabilityai/stable-diffusion-3.5-large",
                  28, 3.5, "bf16", licence=f"Stability AI Community License; {_GATED}", gated=True,
                  size=published_size(("MMDiT", 8.1, 2), ("T5-XXL encoder", 4.76, 2), ("CLIP-G", 0.695, 2),
                                      ("CLIP-L", 0.123, 2), ("VAE", 0.084, 2))),
    GeneratorSpec("flux.1-dev", "FLUX.1-dev", "black-forest-labs/FLUX.1-dev",
                  28, 3.5, "bf16", licence=f"FLUX.1 [dev] Non-Commercial License; {_GATED}", gated=True,
                  size=published_size(("transformer", 11.9, 2), ("T5-XXL encoder", 4.76, 2), ("CLIP-L", 0.123, 2),
                                      ("VAE", 0.084, 2))),
    GeneratorSpec("flux.1-schnell", "FLUX.1-schnell", "black-forest-labs/FLUX.1-schnell",
                  4, 0.0, "bf16", licence="Apache-2.0",
                  size=published_size(("transformer", 11.9, 2), ("T5-XXL encoder", 4.76, 2), ("CLIP-L", 0.123, 2),
                                      ("VAE", 0.084, 2))),
    GeneratorSpec("pixart-sigma-xl-1024", "PixArt-Σ XL 1024", "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS",
                  20, 4.5, "fp16", licence="CreativeML Open RAIL++-M",
                  size=(int(21.8 * GB), "the Hub's file listing: text_encoder 19.05 GB, transformer 2.44 GB, "
                                        "vae 335 MB")),
    GeneratorSpec("hunyuandit-v1.2", "HunyuanDiT (Diffusers)", "Tencent-Hunyuan/HunyuanDiT-v1.2-Diffusers",
                  50, 5.0, "fp16", licence="Tencent Hunyuan Community License",
                  size=published_size(("DiT", 1.5, 4), ("bilingual CLIP", 0.35, 4), ("mT5 encoder", 1.6, 4),
                                      ("VAE", 0.084, 4))),
)}


def generator_spec(name: str) -> GeneratorSpec:
    """The registered generator ``name`` (a registry key, or that model's hub id).

    Other hub ids are not loaded by name: a model nobody registered has no known sampling
    settings, so it runs as a local diffusers folder whose settings the user states."""
    if name in GENERATORS:
        return GENERATORS[name]
    for spec in GENERATORS.values():
        if spec.model_id == name:
            return spec
    if "/" in str(name):
        raise InputError(f"generator {name!r} looks like a hub id, but only the registered generators are "
                         f"loaded by name ({', '.join(GENERATORS)}) — to use another hub model, download it with "
                         f"`python -m geofidelity_plugin models download {name}` (`models list` shows its folder), "
                         "then give that folder with --custom-folder FOLDER, a name of your choice with --generator, "
                         "and its --steps, --guidance and --dtype")
    raise InputError(f"unknown generator {name!r}; registered: {', '.join(GENERATORS)} — or a local diffusers "
                     "folder with --custom-folder (and a name of your choice), with its steps, guidance and dtype")


#: sampling settings of a custom folder when the user gives none (the command line's defaults)
CUSTOM_DEFAULTS = {"steps": 30, "guidance": 5.0, "dtype": "fp16", "resolution": 1024}


def resolve_generator(name: str, custom_folder: str | Path | None = None, steps=None, guidance=None,
                      dtype=None, resolution=None) -> GeneratorSpec:
    """The generator of a run, checked before anything is loaded: a registered name (or its hub
    id) with the protocol's settings, or a local diffusers folder (``custom_folder``) run under
    ``name`` with the settings given (``CUSTOM_DEFAULTS`` for those left out).

    Settings are validated whichever the case; giving them with a registered generator is an
    error rather than being silently ignored."""
    given = {k: v for k, v in (("steps", steps), ("guidance", guidance), ("dtype", dtype),
                               ("resolution", resolution)) if v is not None}
    settings = {**CUSTOM_DEFAULTS, **given}
    check_settings(settings["steps"], settings["guidance"], settings["resolution"], settings["dtype"])
    if custom_folder:
        return custom_generator(name, custom_folder, settings["steps"], settings["guidance"], settings["dtype"],
                                settings["resolution"])
    spec = generator_spec(name)
    if given:
        listed = " ".join(f"--{k} {v}" for k, v in given.items())
        raise InputError(f"the sampling settings given ({listed}) apply only to a custom diffusers folder "
                         f"(--custom-folder); {spec.name} runs with the protocol's settings ({spec.steps} steps, "
                         f"guidance {spec.guidance}, {spec.dtype}, {spec.resolution} px) — leave them out, or "
                         "run a local copy of the model with --custom-folder and a name of your choice")
    return spec


def custom_generator(name: str, folder: str | Path, steps: int, guidance: float, dtype: str,
                     resolution: int = 1024, label: str | None = None, licence: str = "") -> GeneratorSpec:
    """A generator from a local diffusers folder (``model_index.json`` + component folders);
    steps, guidance and dtype must be given, since no default fits an unknown model."""
    check_name(name)
    if name in GENERATORS:
        raise InputError(f"generator name {name!r} belongs to a registered model; choose another name "
                         "for a custom folder")
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise InputError(f"custom generator folder {path} not found")
    if not (path / "model_index.json").is_file():
        raise InputError(f"custom generator folder {path} has no model_index.json; give a folder "
                         "written by a diffusers pipeline's save_pretrained")
    _check_model_index(path)
    steps, guidance, resolution, dtype = check_settings(steps, guidance, resolution, dtype)
    return GeneratorSpec(name, label or name, str(path.resolve()), steps, guidance, dtype,
                         resolution=resolution, licence=licence or "stated by the user", custom=True)


def _check_model_index(path: Path) -> None:
    """A damaged ``model_index.json`` is named as such — not taken for weights that are missing."""
    from ..documents import read_json

    index_file = path / "model_index.json"
    fix = ("restore it (save_pretrained writes it; a downloaded pipeline has it in its models-folder snapshot), "
           "or give another folder")
    index = read_json(index_file, "the pipeline index", fix, expect=None)  # not an object: said just below
    if not isinstance(index, dict) or not index.get("_class_name"):
        raise InputError(f"{index_file} is not a diffusers pipeline index (no _class_name) — {fix}")
    lacking = [name for name, value in index.items() if not name.startswith("_") and isinstance(value, list)
               and len(value) == 2 and None not in value and not (path / name).is_dir()]
    if lacking:
        raise InputError(f"custom generator folder {path} lacks the component folder(s) {', '.join(lacking)} its "
                         f"model_index.json names — copy the whole pipeline folder, or {fix}")


def check_name(name: str) -> str:
    """A generator name becomes a folder name: letters, digits, ``. _ + -`` only."""
    if not isinstance(name, str) or not _NAME.match(name) or name in (".", ".."):
        raise InputError(f"generator name {name!r} cannot be a folder name; use letters, digits, "
                         "'.', '_', '+' and '-' (no slashes or spaces)")
    return name


def normalise_dtype(dtype: str) -> str:
    key = str(dtype).strip().lower()
    key = _DTYPE_ALIASES.get(key, key)
    if key not in DTYPES:
        raise InputError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    return key


def check_settings(steps, guidance, resolution, dtype) -> tuple[int, float, int, str]:
    """Validated sampling settings: steps ≥ 1, guidance ≥ 0, resolution a positive multiple of 8."""
    try:
        steps_f, guidance_f, resolution_f = float(steps), float(guidance), float(resolution)
    except (TypeError, ValueError):
        raise InputError(f"steps, guidance and resolution must be numbers, got {steps!r}, "
                         f"{guidance!r}, {resolution!r}") from None
    steps_i, resolution_i = int(steps_f), int(resolution_f)
    if steps_i != steps_f or steps_i < 1:
        raise InputError(f"steps must be a whole number ≥ 1, not {steps!r}")
    if not guidance_f >= 0:
        raise InputError(f"guidance must be ≥ 0, not {guidance!r}")
    if resolution_i != resolution_f or resolution_i < 8 or resolution_i % 8:
        raise InputError(f"resolution must be a positive multiple of 8 pixels, not {resolution!r}")
    return steps_i, guidance_f, resolution_i, normalise_dtype(dtype)
