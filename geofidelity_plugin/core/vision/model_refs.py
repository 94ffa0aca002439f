"""Model references checked before any model is loaded (docs/method.md, "Errors and exit codes"):
a reference that reads as a path must name an existing folder; anything else is a hub id, looked up
in the local Hugging Face cache when the model loads."""
from __future__ import annotations

import os
from pathlib import Path

from geofidelity_plugin.core.errors import InputError


def looks_like_path(ref: str) -> bool:
    """A model reference that names a folder, not a hub id (``org/name``): it starts with
    ``/``, ``.`` or ``~``, or has more than one ``/`` (or the system's separator)."""
    return ref.startswith(("/", ".", "~")) or ref.count("/") > 1 or (os.sep != "/" and os.sep in ref)


def check_semantic_model(ref) -> None:
    """Before any model is loaded: a reference that names a folder (as for the feature model: it
    starts with ``/``, ``.`` or ``~``, or has more than one ``/``) must be an existing folder."""
    ref = "" if ref is None else str(ref)
    if not ref.strip():
        raise InputError("no segmentation model was given — give a Mask2Former (Vistas) folder or hub id, "
                         "or leave --semantic-model out (in QGIS: empty) to skip GADS")
    path = Path(ref).expanduser()
    if path.exists() and not path.is_dir():
        raise InputError(f"segmentation model {ref}: expected a folder holding config.json, the weights and "
                         "preprocessor_config.json (save_pretrained), got a file")
    if not path.exists() and looks_like_path(ref):
        raise InputError(f"model folder {ref} not found (--semantic-model; in QGIS \"Mask2Former (Vistas) model "
                         "for GADS\") — give an existing folder holding a Mask2Former and its image processor "
                         "(save_pretrained), a hub id in the local Hugging Face cache, or leave it empty to skip "
                         "GADS")
