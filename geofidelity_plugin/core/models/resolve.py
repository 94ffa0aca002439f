"""Where a loader finds its model: every ``from_pretrained`` in GeoFidelity goes through
:func:`local_model` and loads with ``local_files_only=True``, so that no code path downloads
silently — downloads happen only through the model manager (``models download``), with
progress, resume and checksums — and every folder it returns has passed
:func:`.pickle_weights.check_model_weights` (no pickle that would run code is ever unpickled).

Stdlib only.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from ..errors import InputError
from .pickle_weights import check_model_weights
from .cache import local_state, models_root, offline, other_models_dir, search_roots
from .registry import download_command, model_entry

log = logging.getLogger("geofidelity")


class ModelNotPresent(InputError, ValueError):
    """A hub model that is not in the models folder. Also a ``ValueError``, the error the
    loaders already turn into their own message (which then quotes this one's first line)."""


def local_model(ref: str | os.PathLike, revision: str | None = None,
                models_dir: str | os.PathLike | None = None) -> str:
    """The folder to load ``ref`` from: ``ref`` itself when it is a local folder; for a hub id
    (``owner/name``) its snapshot in the models folder (or the Hugging Face cache) — the
    registered revision, else ``revision``, else the newest complete one.

    A hub id that is not present raises :class:`ModelNotPresent` naming the model and the
    ``models download`` command that fetches it; a folder whose pickle weights are more than
    tensors raises :class:`InputError` (:mod:`.pickle_weights`)."""
    folder = _find(ref, revision, models_dir)
    check_model_weights(folder)
    return folder


def _find(ref: str | os.PathLike, revision: str | None, models_dir) -> str:
    text = str(ref)
    path = Path(text).expanduser()
    if path.is_dir():
        return text
    if text.startswith(("/", ".", "~")) or text.count("/") != 1 or (os.sep != "/" and os.sep in text):
        raise InputError(f"model folder {text} not found — give an existing folder, or a hub id (owner/name)")
    entry = model_entry(text)
    if revision and revision != entry.revision:
        from dataclasses import replace

        entry = replace(entry, revision=revision)
    roots = search_roots(models_dir)
    state = local_state(entry, roots)
    if state.present:
        return str(state.path)
    if state.status == "other-revision":
        log.warning("%s: using commit %s from %s — the registered revision is %s (`%s` fetches it)", entry.repo_id,
                    state.commit[:7], state.root, entry.revision[:12], download_command(entry))
        return str(state.path)
    where = models_root(models_dir)
    why = f"{' (HF_HUB_OFFLINE is set)' if offline() else ''}"
    status = {"partial": "its download has not finished", "corrupt": "it failed verify"}.get(state.status, "")
    raise ModelNotPresent(
        f"model {entry.repo_id} is not in the models folder {where}{why}{': ' + status if status else ''} — "
        f"download it with `{download_command(entry, models_dir=other_models_dir(where))}` (in QGIS: GeoFidelity › "
        f"0 · Models, action download); without internet here, download it on another machine and copy its "
        f"models--{entry.repo_id.replace('/', '--')} folder into {where}, or give a local model folder instead")


def snapshot_commit(folder: str | os.PathLike) -> str | None:
    """The hub commit of a snapshot folder (``…/snapshots/<commit>``) — what a manifest records as
    the model's revision (transformers 5 no longer sets ``config._commit_hash``)."""
    path = Path(folder)
    name = path.name
    if path.parent.name == "snapshots" and len(name) == 40 and all(c in "0123456789abcdef" for c in name):
        return name
    return None
