"""What a generator's files say without loading it (method §4 Generators: id, revision, classes):
a local diffusers folder or the Hugging Face cache's snapshot of a hub id."""
from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import warnings
from pathlib import Path

from ..documents import read_json
from ..errors import InputError
from ..manifest import file_sha256


def local_folder(ref: str) -> Path | None:
    """The folder ``ref`` names, or None for a hub id; a path-like ref that does not exist is an
    error, not a hub lookup."""
    path = Path(ref).expanduser()
    if path.exists():
        if not path.is_dir():
            raise InputError(f"generator {ref}: expected a diffusers folder (model_index.json and "
                             "component folders), got a file")
        return path.resolve()
    if ref.startswith(("/", ".", "~")) or ref.count("/") != 1 or (os.sep != "/" and os.sep in ref):
        raise InputError(f"generator folder {ref} not found (a hub id has the form owner/name)")
    return None


def hub_file(repo_id: str, filename: str, revision: str | None) -> Path | None:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    found = try_to_load_from_cache(repo_id, filename, revision=revision)
    return Path(found) if isinstance(found, str) else None


def revision_of(ref: str, folder: Path | None, revision: str | None) -> str | None:
    if folder is None:
        cached = hub_file(ref, "model_index.json", revision)
        return cached.parent.name if cached is not None else revision
    if folder.parent.name == "snapshots":  # a folder inside the Hugging Face cache
        return folder.name
    weights = sorted(folder.rglob("*.safetensors"))
    if not weights:
        return None
    if len(weights) == 1:
        return "sha256:" + file_sha256(weights[0])
    listing = "".join(f"{w.relative_to(folder).as_posix()} {file_sha256(w)}\n" for w in weights)
    return "sha256:" + hashlib.sha256(listing.encode("utf-8")).hexdigest()


def config_class(ref: str, folder: Path | None, revision: str | None, name: str) -> str | None:
    """``_class_name`` of the pipeline's ``model_index.json`` or of one component's config."""
    path = folder / name if folder is not None else hub_file(ref, name, revision)
    if not path:
        return None
    try:  # provenance only: a configuration that cannot be read leaves the class unnamed
        return read_json(path, f"the model's {name}", "restore it").get("_class_name")
    except InputError:
        return None


def version_of(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def unavailable_message(model_ref: str, folder: Path | None, exc: Exception) -> str:
    """Why a generator cannot be loaded — and how to get it (the model manager's command first)."""
    from ..models.registry import find_model

    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if folder is not None:
        return (f"generator folder {folder} cannot be loaded as a diffusers pipeline with safetensors weights — it "
                f"needs model_index.json and one folder per component, as written by save_pretrained ({first})")
    offline = any(os.environ.get(v, "") not in ("", "0") for v in ("HF_HUB_OFFLINE", "DIFFUSERS_OFFLINE"))
    entry = find_model(model_ref)
    return (f"generator '{model_ref}' is not available{' offline (HF_HUB_OFFLINE is set)' if offline else ''} in "
            f"the models folder — download it with `python -m geofidelity_plugin models download "
            f"{entry.name if entry else model_ref}` (in QGIS: GeoFidelity › 0 · Models; gated models need the "
            f"licence accepted and a token in HF_TOKEN); without internet here, download it on another machine and "
            f"copy the models folder, or give a local diffusers folder instead of the id. "
            f"({type(exc).__name__}: {first})")


@contextlib.contextmanager
def quiet_loading(diffusers):
    """No tqdm bars while loading (they flood a QGIS log), and no warning about the
    ``torch_dtype`` keyword, which newer diffusers renamed but older ones still need."""
    try:
        import transformers
    except ImportError:  # a pipeline without text encoders from transformers
        transformers = None
    bars = []
    for lib in (diffusers, transformers):
        logging_utils = getattr(getattr(lib, "utils", None), "logging", None)
        if logging_utils is not None and logging_utils.is_progress_bar_enabled():
            logging_utils.disable_progress_bar()
            bars.append(logging_utils)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*torch_dtype.*deprecated", category=FutureWarning)
            yield
    finally:
        for logging_utils in bars:
            logging_utils.enable_progress_bar()
