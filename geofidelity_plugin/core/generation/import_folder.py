"""Import a folder of images made outside the tool as generated panels (method §4: "import a
folder of images" for generators outside the tool).

The folder follows the release layout (RELEASE_FORMAT.md ``generations_v3``):
``{condition}/{segment_id}/{sample}.jpg|png`` for one model, or
``{model}/{condition}/{segment_id}/{sample}.jpg|png`` for several. Everything is checked before
anything is recorded, so a folder with a typo imports nothing and the error lists every
problem at once. Seeds of imported images are unknown unless a ``prompts.csv`` sidecar
(segment_id, condition, sample_index, prompt, seed[, model]) gives them; a missing seed is
recorded as such, never invented.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from ..confined_paths import confine
from ..enumerations import CONDITION
from ..errors import InputError
from ..locations import FOLDER, check_location
from ..store.image_roots import add_image_root
from ..store.store import BenchmarkStore, GeneratedImage
from ..progress import Progress, check_cancel
from ..tables import TableSchema, read_table
from ..vision.unusable_images import UnusableImages, image_problem
from .generators import check_name
from .panel_records import changed_panels, record_replacing
from .prompts import CONDITIONS

log = logging.getLogger("geofidelity")

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
SIDECAR = "prompts.csv"
SIDECAR_COLUMNS = ("segment_id", "condition", "sample_index", "prompt", "seed")
_MAX_LISTED = 12


@dataclass
class ImportResult:
    images: int = 0
    models: list[str] = field(default_factory=list)
    with_prompt: int = 0
    with_seed: int = 0
    unmatched_sidecar_rows: int = 0


def _layout_text(model_name: str | None) -> str:
    head = "" if model_name else "{model}/"
    return (f"expected layout: {head}{{condition}}/{{segment_id}}/{{sample}}.jpg|png, with condition one of "
            f"{', '.join(CONDITIONS)} and sample a number (00, 01, …)")


def import_generated_folder(folder: str | Path, store: BenchmarkStore, model_name: str | None,
                            layout: str = "release", progress: Progress | None = None,
                            replace: bool = False) -> ImportResult:
    """Record the images under ``folder`` in ``store`` with origin ``imported``.

    ``model_name`` names the model of a one-model folder; ``None`` reads model names from the
    first folder level. Unknown conditions, unknown segment ids and misnamed files raise one
    :class:`InputError` listing them, and nothing is recorded.

    A panel (model, condition, segment) the store already holds with other images is refused
    (an :class:`InputError` naming how many panels and a few of them), since recording sample
    by sample would mix two runs in one panel; ``replace`` deletes the earlier images of those
    panels and records the new ones in one transaction. Importing the same files again is
    not a change and needs no ``replace``.
    """
    if layout != "release":
        raise InputError(f"unknown folder layout {layout!r}; only 'release' is supported "
                         f"({_layout_text(model_name)})")
    root = check_location(folder, FOLDER, what="folder of generated images", missing="check the path: it was not found",
                          fix=f"give the folder that holds the images ({_layout_text(model_name)})")
    known_segments = {s["segment_id"] for s in store.segments()}
    if not known_segments:
        raise InputError(f"the benchmark store {store.path.name} has no segments; build or import the "
                         "segments (and reference panels) before importing generated images")
    if model_name is not None:
        model_roots = {check_name(model_name): root}
    else:
        model_roots = {p.name: p for p in sorted(root.iterdir()) if p.is_dir() and not _hidden(p)}
        if not model_roots:
            raise InputError(f"{root} holds no model folders; {_layout_text(None)}")
        for name in model_roots:
            check_name(name)

    found, problems = {}, _Problems()
    for model, model_root in model_roots.items():
        check_cancel(progress, "reading the folder of generated images")
        _scan_model(model, model_root, root, known_segments, found, problems)
    problems.raise_if_any(root, model_name, len(found))
    if not found:
        raise InputError(f"no images found under {root}; {_layout_text(model_name)}")

    sidecar = _read_sidecars(root, model_roots, model_name)
    result = ImportResult(models=sorted(model_roots))
    images, matched = [], set()
    for (model, condition, segment_id, sample), path in sorted(found.items()):
        extra = {}
        for key in ((model, condition, segment_id, sample), (None, condition, segment_id, sample)):
            if key in sidecar:
                extra = sidecar[key]
                matched.add(key)
                break
        prompt, seed = extra.get("prompt") or None, extra.get("seed")
        result.with_prompt += prompt is not None
        result.with_seed += seed is not None
        meta = {"origin": "imported", "source_folder": str(root.resolve()),
                "seed": seed if seed is not None else "missing",
                "sidecar": SIDECAR if extra else None}
        images.append(GeneratedImage(model=model, condition=condition, segment_id=segment_id,
                                     sample_index=sample, image_path=str(path.resolve()), seed=seed,
                                     prompt=prompt, prompt_meta=json.dumps(meta, sort_keys=True),
                                     origin="imported"))
    check_cancel(progress, "recording the imported images")
    changed = changed_panels(store, images)
    if changed and not replace:
        raise InputError(_already_there(store, root, changed, images))
    result.images = record_replacing(store, images, changed)
    add_image_root(store, root)  # the folder's images may be exported with the store (export-release)
    if changed:
        message = (f"replaced the earlier images of {len(changed)} panel(s) "
                   f"({sum(len(v) for v in changed.values())} images), e.g. {_panel_names(changed)}")
        log.info(message)
        if progress is not None:
            progress.info(message)
    unmatched = [key for key in sidecar if key not in matched]
    result.unmatched_sidecar_rows = len(unmatched)
    if unmatched:
        message = (f"{len(unmatched)} row(s) of {SIDECAR} match no imported image, e.g. "
                   + ", ".join("/".join(str(p) for p in key if p is not None) for key in unmatched[:3]))
        log.warning(message)
        if progress is not None:
            progress.warning(message)
    log.info("imported %d generated images of %s from %s (%d with a seed)", result.images,
             ", ".join(result.models), root, result.with_seed)
    return result


def _panel_names(panels, limit: int = 3) -> str:
    names = sorted("/".join(key) for key in panels)
    return ", ".join(names[:limit]) + (f" (and {len(names) - limit} more)" if len(names) > limit else "")


def _already_there(store: BenchmarkStore, root: Path, changed: dict, images: list[GeneratedImage]) -> str:
    panels = {(g.model, g.condition, g.segment_id) for g in images}
    models = sorted({key[0] for key in changed})
    earlier = sum(len(files) for files in changed.values())
    return (f"the store {store.path.name} already has images of {', '.join(models)} for {len(changed)} of the "
            f"{len(panels)} panel(s) in {root} ({earlier} earlier images; e.g. {_panel_names(changed)}) — a panel "
            "must come from one run, so nothing was imported: use --replace (Processing: 'Replace existing "
            "panels') to delete those panels' earlier images and import these, or import under another model "
            "name (--model)")


class _Problems:
    def __init__(self):
        self.conditions: set[str] = set()
        self.segments: set[str] = set()
        self.files: list[str] = []
        self.unusable = UnusableImages("the folder")

    def raise_if_any(self, root: Path, model_name: str | None, images: int) -> None:
        parts = [] if images else ["no images found"]
        if self.conditions:
            parts.append("unknown condition folder(s): " + _listing(self.conditions))
        if self.segments:
            parts.append("segment id(s) not in the benchmark store: " + _listing(self.segments))
        if self.files:
            parts.append("misplaced or misnamed file(s): " + _listing(self.files))
        if self.unusable:
            parts.append(f"{self.unusable.summary()} — re-save or remove them; a link must point to a file "
                         "inside the folder")
        if len(parts) > (0 if images else 1):
            raise InputError(f"cannot import {root}: " + "; ".join(parts) + f". {_layout_text(model_name)}")


def _listing(items) -> str:
    items = sorted(items)
    more = f" (and {len(items) - _MAX_LISTED} more)" if len(items) > _MAX_LISTED else ""
    return ", ".join(items[:_MAX_LISTED]) + more


def _hidden(path: Path) -> bool:
    return path.name.startswith((".", "__"))


def _scan_model(model: str, model_root: Path, root: Path, known_segments: set[str], found: dict,
                problems: _Problems) -> None:
    """Every image of one model's folder into ``found``; what is misplaced or cannot be used
    into ``problems`` (each image is decoded whole and must stay inside ``root``)."""
    for cond_dir in sorted(model_root.iterdir()):
        if _hidden(cond_dir):
            continue
        if not cond_dir.is_dir():
            if cond_dir.name != SIDECAR and not cond_dir.name.endswith(".json"):
                problems.files.append(str(cond_dir.relative_to(model_root.parent)))
            continue
        if cond_dir.name not in CONDITIONS:
            problems.conditions.add(cond_dir.name)
            continue
        for seg_dir in sorted(cond_dir.iterdir()):
            if _hidden(seg_dir):
                continue
            if not seg_dir.is_dir():
                problems.files.append(str(seg_dir.relative_to(model_root.parent)))
                continue
            if seg_dir.name not in known_segments:
                problems.segments.add(seg_dir.name)
                continue
            for image in sorted(seg_dir.iterdir()):
                if _hidden(image):
                    continue
                sample = _sample_index(image)
                key = (model, cond_dir.name, seg_dir.name, sample)
                if sample is None or key in found:
                    problems.files.append(str(image.relative_to(model_root.parent))
                                          + (" (a second file for this sample)" if sample is not None else ""))
                    continue
                problem = image_problem(image, root)
                if problem:
                    problems.unusable.add(image.relative_to(model_root.parent), problem)
                    continue
                found[key] = image


def _sample_index(path: Path) -> int | None:
    if path.suffix.lower() not in IMAGE_SUFFIXES or not path.stem.isdigit():
        return None
    return int(path.stem)


def _read_sidecars(root: Path, model_roots: dict[str, Path], model_name: str | None) -> dict:
    """``(model or None, condition, segment_id, sample) → {prompt, seed}`` from every
    ``prompts.csv`` found at the root and in each model folder."""
    merged: dict = {}
    places = [(None, root)] + ([] if model_name is not None else list(model_roots.items()))
    for model, place in places:
        path = place / SIDECAR
        if path.exists() or path.is_symlink():  # read only when it is a file inside the folder
            confine(root, path.relative_to(root).as_posix() if place != root else SIDECAR, what=SIDECAR,
                    source=root, must_exist=True, fix=f"make {path} a file inside {root}, or remove it")
            merged.update(_read_sidecar(path, model if model is not None else model_name))
    return merged


#: a sidecar as the one table reader checks it: one row per image, the condition one of the protocol's
SIDECAR_TABLE = TableSchema(SIDECAR, ("segment_id", "condition", "sample_index"), optional=("prompt", "seed", "model"),
                            filled=("segment_id", "condition", "sample_index"), enums={"condition": CONDITION},
                            types={"sample_index": "int", "seed": "int"}, nulls=("", "missing", "none", "nan"),
                            key=("model", "condition", "segment_id", "sample_index"),
                            fix=f"a {SIDECAR} sidecar is a CSV UTF-8 with the columns "
                                f"{', '.join(SIDECAR_COLUMNS)} (and optionally model), one row per image; correct it, "
                                "or remove it")


def _read_sidecar(path: Path, model: str | None) -> dict:
    """``(model, condition, segment_id, sample) → {prompt, seed}``; a seed may be empty or ``missing``."""
    out = {}
    for row in read_table(path, SIDECAR_TABLE).rows:
        seed = None if row.get("seed", "").lower() in SIDECAR_TABLE.nulls else int(row["seed"])
        out[(row.get("model") or model, row["condition"], row["segment_id"], int(row["sample_index"]))] = {
            "prompt": row.get("prompt") or None, "seed": seed}
    return out
