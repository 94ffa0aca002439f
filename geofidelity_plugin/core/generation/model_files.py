"""What a generator's files say without loading it (method §4 Generators: id, revision, classes):
a local diffusers folder or the Hugging Face cache's snapshot of a hub id."""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
from pathlib import Path

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
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("_class_name") if path else None
    except (OSError, ValueError):
        return None


def version_of(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None
