"""The driver's side of generation on Ray: which panels are still to make, and writing what the
workers return (method §4).

The resume rule is the single-process runner's: an image is kept when its file exists and its
store record carries this run's resume key (:func:`~..generation.panel_records.image_key`: the
model, revision, scheduler, settings, prompt and seed); a panel made with other settings is
refused unless ``force``, which replaces it whole. The key comes from a worker's model info, so
it is what the workers' images will carry, even when the driver cannot see the model.

Each finished panel is written by the driver alone: the JPEGs first, each through an atomic
rename, then every record of the panel in one store transaction — so a driver killed at any
moment leaves either a whole recorded panel or files without records, which a re-run makes again.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from .. import atomic
from ..generation.panel_records import (differences, forget_samples, image_key, recorded_key, refuse_mixing,
                                         remove_own_images)
from ..generation.runner import GenerationResult
from ..generation.seeds import seed_for
from ..store.store import BenchmarkStore, GeneratedImage
from .units import Unit

log = logging.getLogger("geofidelity")


@dataclass
class RayGenerationResult(GenerationResult):
    """A :class:`GenerationResult` plus the run's units: panels in all, kept from earlier runs,
    made now, failed after every retry (``failed_units``), and retries."""

    units_total: int = 0
    units_kept: int = 0
    units_made: int = 0
    retries: int = 0
    failed_units: list[dict] = field(default_factory=list)


def plan_units(store: BenchmarkStore, rows: list, samples: int, base_seed: int, shared_noise: bool, name: str,
               info: dict, root: Path, force: bool) -> tuple[list[Unit], int, int]:
    """``(units to make, images kept, panels replaced)``: one unit per prompt row whose panel
    lacks an image of this run; its payload names the samples to make (``todo``)."""
    known = {(cond, sid, int(img["sample_index"])): img
             for (model, cond, sid), images in store.generated_panels().items() if model == name for img in images}
    samples_of: dict[tuple[str, str], list[int]] = {}
    for condition, segment_id, sample in known:
        samples_of.setdefault((condition, segment_id), []).append(sample)

    def seed_of(row, sample):
        return seed_for(base_seed, name, row.segment_id, row.condition, sample, shared_noise)

    if not force:
        refuse_mixing(name, rows, samples_of, known, root, store, info, seed_of)
    units, kept, replaced = [], 0, 0
    for row in rows:
        if force:
            replaced += _drop_other_runs(store, known, row, root, name, info, seed_of)
        todo = []
        for sample in range(samples):
            target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
            record = known.get((row.condition, row.segment_id, sample))
            if record is not None and target.is_file() and not differences(
                    recorded_key(record), image_key(info, row.prompt, seed_of(row, sample), target)):
                kept += 1
            else:
                todo.append(sample)
        if todo:
            payload = {"row": row, "samples": samples, "base_seed": base_seed, "shared_noise": shared_noise,
                       "todo": todo}
            units.append(Unit(f"{name}/{row.condition}/{row.segment_id}", payload, items=len(todo)))
    return units, kept, replaced


def _drop_other_runs(store: BenchmarkStore, known: dict, row, root: Path, name: str, info: dict, seed_of) -> bool:
    """``force``: forget the records of ``row``'s panel that this run would not have made (and
    delete their files in this generator's own folder), as the single-process runner does."""
    stale = {}
    for (condition, segment_id, sample), record in list(known.items()):
        if (condition, segment_id) != (row.condition, row.segment_id):
            continue
        target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
        if not target.is_file() or differences(recorded_key(record),
                                               image_key(info, row.prompt, seed_of(row, sample), target)):
            stale[sample] = Path(record["abs_path"])
    if not stale:
        return False
    forget_samples(store, (name, row.condition, row.segment_id), stale)
    for sample in stale:
        known.pop((row.condition, row.segment_id, sample), None)
    remove_own_images(stale.values(), root)
    return True


class PanelWriter:
    """Writes each finished unit (files, then records in one transaction) and keeps the worker
    metadata a single-process run would record (``generation:{name}`` in the store)."""

    def __init__(self, store: BenchmarkStore, root: Path, result: RayGenerationResult):
        self.store, self.root, self.result = store, root, result
        self.meta: dict | None = None
        self.peak: int | None = None

    def on_done(self, unit: Unit, value: dict, worker: int, seconds: float) -> dict:
        todo = set(unit.payload["todo"])
        images = {int(image["record"]["sample_index"]): image for image in value["images"]}
        missing = todo - set(images)
        if missing:
            raise RuntimeError(f"{unit.key}: the worker returned no image for sample(s) {sorted(missing)}")
        records, paths = [], []
        for sample in sorted(todo):
            record, jpeg = images[sample]["record"], images[sample]["jpeg"]
            target = self.root / record["condition"] / record["segment_id"] / f"{sample:02d}.jpg"
            with atomic.atomic_path(target) as tmp:
                tmp.write_bytes(jpeg)
            records.append(GeneratedImage(
                model=record["model"], condition=record["condition"], segment_id=record["segment_id"],
                sample_index=sample, image_path=str(target.resolve()), seed=record["seed"], prompt=record["prompt"],
                prompt_meta=record["prompt_meta"], origin=record["origin"], clip_score=record.get("clip_score")))
            paths.append(target)
        self.store.put_generated(records)
        self.result.generated += len(records)
        self.result.units_made += 1
        self.result.paths.extend(paths)
        if self.meta is None and value.get("meta"):
            self.meta = value["meta"]
        peak = value.get("measured_peak_bytes")
        if peak is not None:
            self.peak = max(self.peak or 0, int(peak))
        return {"pid": value.get("pid"), "worker_seconds": round(float(value.get("seconds", 0.0)), 3)}

    def memory_plan(self) -> dict | None:
        """The memory plan a worker recorded, with the highest peak any worker measured."""
        if not self.meta or self.meta.get("memory_plan") is None:
            return None
        return {**self.meta["memory_plan"], "measured_peak_bytes": self.peak}
