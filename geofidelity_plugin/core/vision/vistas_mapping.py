"""method §5: the mapping from Mapillary Vistas classes to the 8 street attributes, read from the
data file shipped with the project (``resources/data/vistas_attributes.json``), checked against a
model's ``id2label`` by name, and applied to a label map to give per-image pixel ratios."""
from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Mapping, Union

import numpy as np

from geofidelity_plugin.core.documents import read_json
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.resources import resource
from geofidelity_plugin.core.vision.attributes import ATTRIBUTES, RECORDING_CAR_ALTERNATIVE  # noqa: F401 (public here too)

log = logging.getLogger("geofidelity")


def default_mapping_path() -> Path:
    return resource("data", "vistas_attributes.json")


@dataclass(frozen=True)
class AttributeMapping:
    """Vistas classes by id and the class ids of each attribute (method §5)."""

    class_names: dict[int, str]
    attributes: dict[str, tuple[int, ...]]
    sha256: str
    path: str
    source: str = ""
    exclude_recording_car: bool = False

    def attribute_class_names(self) -> dict[str, list[str]]:
        """Attribute → class names, the form quoted in reports."""
        return {a: [self.class_names[c] for c in ids] for a, ids in self.attributes.items()}


@dataclass
class RatioResult:
    """Per-image attribute ratios; rows of unreadable images are NaN and listed in ``failed``."""

    ratios: np.ndarray
    attributes: list[str]
    failed: dict[str, str] = field(default_factory=dict)


def _norm(name: str) -> str:
    """Names compare without case or whitespace: "Traffic Sign (Back)" = "traffic sign(back)"."""
    return re.sub(r"\s+", "", str(name)).casefold()


def load_attribute_mapping(path: Union[str, Path, None] = None,
                           exclude_recording_car: bool = False) -> AttributeMapping:
    """Read and validate a label → attribute mapping file (default: the shipped Vistas one).

    With ``exclude_recording_car`` the "vehicle" attribute takes the file's
    ``vehicle_excluding_recording_car`` alternative (no Car Mount, no Ego Vehicle — method §5
    option), since those pixels are the recording car, not the street.
    """
    path = Path(path) if path is not None else default_mapping_path()
    fix = (f"it must be JSON with 'classes' {{id: name}} and 'attributes' {{attribute: [class ids]}} — see "
           f"{default_mapping_path()}")
    doc = read_json(path, "the attribute mapping file", fix)
    raw = path.read_bytes()  # hashed into the manifest: the file as read
    try:
        classes = {int(k): str(v) for k, v in doc["classes"].items()}
        groups = {str(a): tuple(int(c) for c in ids) for a, ids in doc["attributes"].items()}
        alternatives = doc.get("alternatives", {})
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(
            f"the attribute mapping file {path} is not valid: {exc!r}; it must be JSON with "
            "'classes' {id: name} and 'attributes' {attribute: [class ids]} — see "
            f"{default_mapping_path()}") from exc

    problems = []
    seen: dict[str, int] = {}
    for cid, name in classes.items():
        if cid < 0 or not name.strip():
            problems.append(f"class {cid} {name!r}: ids must be ≥ 0 and names non-empty")
        elif _norm(name) in seen:
            problems.append(f"classes {seen[_norm(name)]} and {cid} share the name {name!r}")
        seen.setdefault(_norm(name), cid)

    if exclude_recording_car:
        alt = alternatives.get(RECORDING_CAR_ALTERNATIVE) \
            if isinstance(alternatives, dict) else None
        try:
            groups[str(alt["attribute"])] = tuple(int(c) for c in alt["class_ids"])
        except (TypeError, KeyError, ValueError):
            problems.append(f"'alternatives' lacks a valid {RECORDING_CAR_ALTERNATIVE!r} entry "
                            "({'attribute': 'vehicle', 'class_ids': [...]}) needed to exclude the "
                            "recording car")

    if set(groups) != set(ATTRIBUTES):
        problems.append(f"attributes must be exactly {list(ATTRIBUTES)}, found {sorted(groups)}")
    owner: dict[int, str] = {}
    for attribute, ids in groups.items():
        for cid in ids:
            if cid not in classes:
                problems.append(f"attribute {attribute!r} names class id {cid}, "
                                "absent from 'classes'")
            elif cid in owner and owner[cid] != attribute:
                problems.append(f"class {cid} {classes[cid]!r} is in both {owner[cid]!r} and "
                                f"{attribute!r}; attributes must not overlap")
            owner.setdefault(cid, attribute)
    if problems:
        raise InputError(f"the attribute mapping file {path} is not valid (method §5): "
                         + "; ".join(problems))

    return AttributeMapping(
        class_names=dict(sorted(classes.items())),
        attributes={a: groups[a] for a in ATTRIBUTES},
        sha256=hashlib.sha256(raw).hexdigest(),
        path=str(path),
        source=str(doc.get("source", "")),
        exclude_recording_car=bool(exclude_recording_car),
    )


def check_mapping_against_model(mapping: AttributeMapping,
                                id2label: Mapping[Union[int, str], str]) -> AttributeMapping:
    """Match the mapping's class names to a model's ``id2label``; return it in the model's ids.

    Every class of the mapping must exist in the model under the same name (compared without
    case or whitespace); a label order that differs is resolved by name. Labels the model has
    beyond the mapping belong to no attribute and are logged.
    """
    model_labels = {int(k): str(v) for k, v in id2label.items()}
    by_name: dict[str, int] = {}
    duplicates = []
    for mid, label in sorted(model_labels.items()):
        if _norm(label) in by_name:
            duplicates.append(f"{by_name[_norm(label)]} and {mid} are both {label!r}")
        by_name.setdefault(_norm(label), mid)

    missing = []
    to_model: dict[int, int] = {}
    for cid, name in mapping.class_names.items():
        mid = by_name.get(_norm(name))
        if mid is None:
            there = model_labels.get(cid)
            missing.append(f"{cid} {name!r} (the model's id {cid} is "
                           f"{repr(there) if there is not None else 'absent'})")
        else:
            to_model[cid] = mid
    if missing or duplicates:
        detail = []
        if missing:
            detail.append(f"{len(missing)} of {len(mapping.class_names)} class names are not "
                          "among the model's labels: " + ", ".join(missing))
        if duplicates:
            detail.append("the model's labels repeat a name: " + "; ".join(duplicates))
        raise InputError(
            f"the segmentation model's labels do not match the attribute mapping {mapping.path} "
            f"(method §5): {'; '.join(detail)}. Use a Mapillary Vistas v1.2 model, or give a "
            "mapping file whose 'classes' use this model's label names and whose 'attributes' "
            f"group them (copy {default_mapping_path()} and edit it).")

    extra = sorted(set(model_labels) - set(to_model.values()))
    if extra:
        log.warning("model labels outside the attribute mapping count in no attribute: %s",
                    ", ".join(repr(model_labels[m]) for m in extra))
    moved = sum(1 for cid, mid in to_model.items() if cid != mid)
    if moved:
        log.info("%d mapping classes matched model labels at other ids (resolved by name)", moved)
    return replace(
        mapping,
        class_names={to_model[c]: n for c, n in mapping.class_names.items()},
        attributes={a: tuple(to_model[c] for c in ids) for a, ids in mapping.attributes.items()},
    )


GroupsLike = Union[AttributeMapping, Mapping[str, Iterable[int]]]


def ratios_from_label_map(label_map: np.ndarray, mapping: GroupsLike) -> np.ndarray:
    """Fraction of the map's pixels in each attribute, in the mapping's attribute order.

    ``label_map`` holds class ids of the mapping's (model's) id space; negative values are
    unlabelled pixels, counted in the denominator only.
    """
    groups = mapping.attributes if isinstance(mapping, AttributeMapping) else mapping
    labels = np.asarray(label_map)
    if labels.ndim != 2 or labels.size == 0 or not np.issubdtype(labels.dtype, np.integer):
        raise ValueError(f"label map must be a non-empty 2-D integer array, got "
                         f"shape {labels.shape} dtype {labels.dtype}")
    flat = labels.ravel()
    counts = np.bincount(flat[flat >= 0].astype(np.int64))
    out = np.zeros(len(groups), dtype=np.float64)
    for k, ids in enumerate(groups.values()):
        ids = [c for c in ids if 0 <= c < counts.size]
        out[k] = counts[ids].sum() / flat.size
    return out
