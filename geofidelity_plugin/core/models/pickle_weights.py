"""Model weights kept as a pickle: loaded only when they hold nothing but tensors.

A ``pytorch_model.bin`` (or a diffusers ``diffusion_pytorch_model.bin``) is a Python pickle, and
loading a pickle can run any code it names. transformers loads such files with torch's
weights-only loader, which refuses anything but tensors and plain containers; some models the
method uses are published only this way (the paper's DINO ViT, method §10). So a folder whose
weights are pickles only is checked here first, without unpickling anything
(``torch.serialization.get_unsafe_globals_in_checkpoint`` reads the pickle's opcodes): a pickle
that names a function or class outside torch's allowlist is refused with a message that says why,
and never with the library's own suggestion to switch the protection off. A folder with
``.safetensors`` weights is loaded from those (every loader prefers them).

:func:`check_model_weights` runs inside :func:`.resolve.local_model`, the one place every loader
finds its folder; :func:`refused_pickle_message` is what :func:`..errors.user_message` says when
torch's own loader refuses a pickle the static check could not see through.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import InputError
from ..errors import SAFE_WEIGHTS_FIX as _SAFE_FIX, refused_pickle_message  # noqa: F401 (re-exported)

#: the weight files transformers and diffusers read as pickles (shards and variants included)
PICKLE_WEIGHTS = re.compile(r"^(?:diffusion_)?pytorch_model(?:-\d+-of-\d+)?(?:\.[A-Za-z0-9_]+)?\.bin$")
_CHECKED: dict[tuple, None] = {}


def _weight_folders(folder: Path) -> list[Path]:
    """The folder and its component folders (a diffusers pipeline keeps weights one level down)."""
    found = [folder]
    try:
        found += sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        pass
    return found


def pickle_only(folder: Path) -> list[Path]:
    """The pickle weight files of every (component) folder under ``folder`` that has no
    ``.safetensors`` file — the files a loader would have to unpickle."""
    out: list[Path] = []
    for place in _weight_folders(folder):
        try:
            names = [p for p in place.iterdir() if p.is_file()]
        except OSError:
            continue
        if any(p.name.endswith(".safetensors") for p in names):
            continue
        out += sorted(p for p in names if PICKLE_WEIGHTS.match(p.name))
    return out


def unsafe_globals(path: Path) -> list[str] | None:
    """What the pickle ``path`` would import beyond torch's weights-only allowlist, read from its
    opcodes without running it; ``None`` when it cannot be read that way (not a zip checkpoint:
    the old format, or damaged)."""
    import torch.serialization as serialization

    reader = getattr(serialization, "get_unsafe_globals_in_checkpoint", None)
    if reader is None:  # torch before 2.5: cannot be checked
        return None
    try:
        return sorted(reader(str(path)))
    except Exception:  # noqa: BLE001 — a damaged or old-format file: refused as unreadable below
        return None


def check_model_weights(folder: str | os.PathLike) -> None:
    """Refuse ``folder`` when a loader would unpickle weights that are more than tensors (or that
    cannot be checked). Quiet, and cached per file state, for every other folder."""
    files = pickle_only(Path(folder))
    if not files:
        return
    key = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    if key in _CHECKED:
        return
    for path in files:
        names = unsafe_globals(path)
        shown = path.relative_to(folder) if path.is_relative_to(folder) else path.name
        if names is None:
            raise InputError(
                f"the model folder {folder} holds only pickle weights ({shown}) that cannot be checked before "
                "loading (an old PyTorch format, or a damaged file) — GeoFidelity does not load such a file, "
                f"because loading a pickle can run code: {_SAFE_FIX}; a file you made yourself can be converted "
                "with torch's weights-only loader: python -c \"import torch; from safetensors.torch import "
                f"save_file; save_file(torch.load('{path}', weights_only=True), '{path.parent / 'model.safetensors'}')\"")
        if names:
            listed = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            raise InputError(
                f"the model folder {folder} holds only pickle weights ({shown}), and that pickle names code to "
                f"run when it is loaded ({listed}), not just tensors — GeoFidelity does not load it, because "
                f"loading it would run that code: {_SAFE_FIX}")
    _CHECKED[key] = None
