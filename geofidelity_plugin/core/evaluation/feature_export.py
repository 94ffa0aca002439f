"""``evaluate --export-features DIR`` (method §6 "Comparability with the field"): the run's
features as plain ``.npz`` files that the field's toolkits read (``numpy.load``, no pickle), so a
reader can compute any metric of theirs on exactly the features GeoFidelity scored.

One file per model × condition — ``features`` (images × D, float64, as scored), ``image_ids``
(each image's path as the store records it), ``segment_ids`` (its target segment) and
``sample_index`` — and ``reference.npz`` with every retained reference panel (the same three
arrays, no sample index). ``features.json``, written last, lists the files with their model,
condition and counts; the run manifest records the folder and the files. The folder is written
as a whole (staged, then published): a failure leaves it as it was."""
from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

import numpy as np

from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.errors import OutputError, describe_os_error
from geofidelity_plugin.core.output_paths import check_output_folder

#: the index of an export folder (written last)
EXPORT_INDEX = "features.json"
REFERENCE_FILE = "reference.npz"
_WHAT = "feature export folder (--export-features)"


def check_export_folder(path) -> Path:
    """Before the work: the export folder can be written and none of its names is a folder."""
    folder = check_output_folder(path, _WHAT)
    for name in (EXPORT_INDEX, REFERENCE_FILE):
        if (folder / name).is_dir():
            raise OutputError(f"cannot write the feature export {folder / name}: it is a folder — move it away or "
                              "choose another export folder")
    return folder


def file_names(sets) -> list[str]:
    """``<model>__<condition>.npz`` with every character outside ``[A-Za-z0-9._-]`` as ``_``; a
    name that two sets would share gets a short hash of the real pair."""
    plain = [re.sub(r"[^A-Za-z0-9._-]", "_", f"{fs.model}__{fs.condition}") for fs in sets]
    taken = {name: plain.count(name) for name in plain}
    out = []
    for fs, name in zip(sets, plain):
        if taken[name] > 1 or name + ".npz" == REFERENCE_FILE:
            name += "-" + hashlib.sha256(f"{fs.model}\x1f{fs.condition}".encode("utf-8")).hexdigest()[:8]
        out.append(name + ".npz")
    return out


def _npz(**arrays) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _text(values) -> np.ndarray:
    """Text as a fixed-width unicode array: ``numpy.load`` reads it without ``allow_pickle``."""
    return np.array([str(v) for v in values], dtype=str)


def export_features(folder, features: dict, store, feature_model: dict | None = None) -> dict:
    """Write the export of ``features`` (an evaluation's ``result.features``) into ``folder``;
    returns what the run manifest records (``feature_export``)."""
    folder = Path(folder)
    sets = features["sets"]
    ref_features, ref_segments, ref_paths = features["reference"]
    names = file_names(sets)
    entries = [{"model": fs.model, "condition": fs.condition, "file": name, "images": int(len(fs.features)),
                "segments": len(set(fs.segment_ids.tolist()))} for fs, name in zip(sets, names)]
    index = {"format": "numpy .npz, one per model × condition: features (images × D, float64, the embeddings "
                       "GeoFidelity scored), image_ids (the image path as the store records it), segment_ids, "
                       "sample_index; reference.npz: every retained reference panel (docs/method.md §6)",
             "feature_model": (feature_model or {}).get("model"), "dim": int(ref_features.shape[1]),
             "reference": {"file": REFERENCE_FILE, "images": int(len(ref_features)),
                           "segments": len(set(ref_segments.tolist()))},
             "sets": entries}
    try:
        with atomic.staged_folder(folder, EXPORT_INDEX) as stage:
            stage.path(REFERENCE_FILE).write_bytes(_npz(
                features=np.asarray(ref_features, dtype=np.float64), image_ids=_text(map(store.relative, ref_paths)),
                segment_ids=_text(ref_segments)))
            for fs, name in zip(sets, names):
                stage.path(name).write_bytes(_npz(
                    features=np.asarray(fs.features, dtype=np.float64),
                    image_ids=_text(map(store.relative, fs.image_paths)), segment_ids=_text(fs.segment_ids),
                    sample_index=np.asarray(fs.samples, dtype=np.int64)))
            stage.path(EXPORT_INDEX).write_text(json.dumps(index, indent=2, ensure_ascii=False) + "\n",
                                                encoding="utf-8")
    except OutputError:
        raise
    except OSError as exc:
        reason = describe_os_error(exc, folder).split(": ", 1)[1]
        raise OutputError(f"cannot write the feature export in {folder}: {reason}; nothing in it was changed") from None
    return {"folder": str(folder), "index": str(folder / EXPORT_INDEX), "reference": str(folder / REFERENCE_FILE),
            "files": [dict(e, file=str(folder / e["file"])) for e in entries]}
