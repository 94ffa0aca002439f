"""Keep every generated panel the work of one run (method §4: a panel is ``samples`` images of
one model, made with one set of settings).

The store keys a generated image by (model, condition, segment_id, sample_index), so writing a
new image replaces only that sample: importing or generating fewer samples, or with other
settings, over an earlier panel would leave a panel mixed from two runs. These helpers find
such panels and remove the earlier images of a panel in the same transaction that records the
new ones, so that a failure on the way changes nothing. A generated image's resume key (what it
was made with) decides whether an earlier image can stand in a panel of this run.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ..documents import read_json
from ..errors import InputError
from ..state_files import path_kind, remove_owned
from ..store.store import BenchmarkStore, GeneratedImage

Panel = tuple[str, str, str]  # (model, condition, segment_id)

_COLUMNS = ("model", "condition", "segment_id", "sample_index", "image_path", "seed", "prompt", "prompt_meta",
            "origin", "clip_score")
_DELETE_PANEL = "DELETE FROM generated_images WHERE model = ? AND condition = ? AND segment_id = ?"
_DELETE_SAMPLE = _DELETE_PANEL + " AND sample_index = ?"


def recorded_panels(store: BenchmarkStore, panels: Iterable[Panel]) -> dict[Panel, dict[int, Path]]:
    """The images the store already holds for each of ``panels`` (sample index → file)."""
    wanted = set(panels)
    return {key: {int(img["sample_index"]): Path(img["abs_path"]) for img in images}
            for key, images in store.generated_panels().items() if key in wanted}


def changed_panels(store: BenchmarkStore, images: Iterable[GeneratedImage]) -> dict[Panel, dict[int, Path]]:
    """The panels of ``images`` the store already holds with other images (other files or other
    samples): recording ``images`` over them would mix two runs. Re-recording exactly the same
    files is not a change."""
    new: dict[Panel, dict[int, Path]] = {}
    for g in images:
        new.setdefault((g.model, g.condition, g.segment_id), {})[int(g.sample_index)] = Path(g.image_path).resolve()
    old = recorded_panels(store, new)
    return {key: files for key, files in old.items()
            if {s: p.resolve() for s, p in files.items()} != new[key]}


def _row(store: BenchmarkStore, g: GeneratedImage) -> tuple:
    return (g.model, g.condition, g.segment_id, int(g.sample_index), store.relative(g.image_path), g.seed, g.prompt,
            g.prompt_meta, g.origin, g.clip_score)


def record_replacing(store: BenchmarkStore, images: list[GeneratedImage], replace: Iterable[Panel]) -> int:
    """Delete every image of the ``replace`` panels and record ``images``, in one transaction."""
    rows = [_row(store, g) for g in images]
    with store.transaction():
        store.db.executemany(_DELETE_PANEL, list(replace))
        store.db.executemany(f"INSERT OR REPLACE INTO generated_images ({', '.join(_COLUMNS)}) "
                             f"VALUES ({', '.join('?' * len(_COLUMNS))})", rows)
    return len(rows)


def forget_samples(store: BenchmarkStore, panel: Panel, samples: Iterable[int]) -> None:
    """Remove the records of ``samples`` of one panel (their files are left to the caller)."""
    keys = [(*panel, int(s)) for s in samples]
    if keys:
        with store.transaction():
            store.db.executemany(_DELETE_SAMPLE, keys)


# -- what a generated image was made with (its resume key) -----------------------------------------
#: the run settings an image's pixels depend on (method §4), as recorded in its ``generation``
#: metadata → the words a message uses. A memory plan enters only through ``numerics`` (fp8
#: storage, VAE tiling): offloading moves weights, not the arithmetic.
RUN_KEY = {"model_id": "model", "revision": "revision", "scheduler": "scheduler", "steps": "steps",
           "guidance": "guidance", "resolution": "resolution", "torch_dtype": "dtype", "device_type": "device type",
           "numerics": "plan numerics"}


def image_key(info: dict, prompt: str, seed: int | None, path: Path | None = None) -> dict:
    """The resume key of one image made by the run described by ``info`` (``model_info()``)."""
    key = {label: info.get(name) for name, label in RUN_KEY.items()}
    key.update({"prompt": prompt, "seed": seed, "origin": "generated"})
    if path is not None:
        key["file"] = str(Path(path).resolve())
    return key


def recorded_key(record: dict) -> dict:
    """The resume key of an image the store holds (a record of ``generated_panels()``)."""
    try:
        made_with = json.loads(record.get("prompt_meta") or "{}").get("generation") or {}
    except (json.JSONDecodeError, AttributeError):
        made_with = {}
    key = image_key(made_with if isinstance(made_with, dict) else {}, record.get("prompt"), record.get("seed"),
                    record.get("abs_path"))
    key["origin"] = record.get("origin") or "generated"
    return key


def differences(old: dict, new: dict) -> list[tuple[str, object, object]]:
    """``(field, recorded, wanted)`` for every field of two resume keys that differs; an
    imported image differs by its origin alone (it records no generation settings)."""
    if old.get("origin") != new.get("origin"):
        return [("origin", old.get("origin"), new.get("origin"))]
    return [(f, old.get(f), new.get(f)) for f in new if old.get(f) != new.get(f)]


class Mismatches:
    """Images of a run's panels that another run made, gathered so that one message names every
    differing field once (with how many images differ in it)."""

    def __init__(self):
        self.images = 0
        self.fields: dict[str, tuple[set, object, int]] = {}

    def add(self, diffs: list[tuple[str, object, object]]) -> None:
        if not diffs:
            return
        self.images += 1
        for name, old, new in diffs:
            olds, _, count = self.fields.get(name, (set(), new, 0))
            olds.add("(not recorded)" if old is None else str(old))
            self.fields[name] = (olds, new, count + 1)

    def __bool__(self) -> bool:
        return self.images > 0

    def message(self, generator: str, where: str) -> str:
        parts = []
        for name, (olds, new, count) in self.fields.items():
            if name in ("prompt", "seed", "file"):  # one value per image: counted, not listed
                parts.append(f"{name} ({count} image{'s' * (count != 1)})")
            else:
                was = ", ".join(sorted(olds)[:3]) + (" …" if len(olds) > 3 else "")
                parts.append(f"{name} {was} → {new} ({count} image{'s' * (count != 1)})")
        return (f"{self.images} image(s) of {generator} already in {where} were made with other settings: "
                f"{'; '.join(parts)} — a panel must be the work of one run: rerun with the settings those images "
                "were made with, or add --force to replace their panels whole (their images are deleted and made "
                "again)")


def refuse_mixing(generator: str, rows: list, samples_of: dict, known: dict, root: Path,
                  store: BenchmarkStore | None, info: dict, seed_of) -> None:
    """Raise an :class:`InputError` naming every differing field when the store (or, without
    one, the folder's manifest) holds images of these panels that another run made.
    ``samples_of``: (condition, segment) → recorded samples; ``known``: (condition, segment,
    sample) → record; ``seed_of(row, sample)``: this run's seed; files that are gone are not
    counted (they are made again, nothing is left to mix with)."""
    mismatches = Mismatches()
    for row in rows:
        for sample in samples_of.get((row.condition, row.segment_id), ()):
            record = known[(row.condition, row.segment_id, sample)]
            if Path(record["abs_path"]).is_file():
                target = root / row.condition / row.segment_id / f"{sample:02d}.jpg"
                mismatches.add(differences(recorded_key(record), image_key(info, row.prompt, seed_of(row, sample),
                                                                           target)))
    if mismatches:
        raise InputError(mismatches.message(generator, store.path.name))
    if store is None and (root / "generation_manifest.json").is_file() and any(root.rglob("*.jpg")):
        try:
            earlier = read_json(root / "generation_manifest.json", "generation manifest", "")["models"][0]
        except (InputError, KeyError, IndexError, TypeError):
            earlier = {}
        mismatches.add(differences(image_key(earlier, "", None), image_key(info, "", None)))
        if mismatches:
            raise InputError(mismatches.message(generator, f"the folder {root}"))


def generated_by(store: BenchmarkStore | None, model: str) -> dict[tuple[str, str, int], dict]:
    """The store's generated images of ``model``, by (condition, segment, sample); none without a store."""
    if store is None:
        return {}
    return {(cond, sid, int(img["sample_index"])): img
            for (name, cond, sid), imgs in store.generated_panels().items() if name == model for img in imgs}


def already_made(record: dict | None, target: Path, seed: int, prompt: str, info: dict) -> bool:
    """The record's file is ``target``, it exists, and its resume key is this run's."""
    if record is None or not target.is_file():
        return False
    return not differences(recorded_key(record), image_key(info, prompt, seed, target))


def remove_own_images(paths: Iterable[Path], root: Path) -> int:
    """Delete the images of a forgotten panel that this generator made: only a regular file at
    ``{root}/{condition}/{segment}/NN.jpg`` itself (never a link's target, never an imported image
    elsewhere, which stays where it is); the number removed."""
    own = Path(root).resolve()

    def made_here(path: Path) -> bool:
        return (path.parent.parent.parent.resolve() == own and path.suffix == ".jpg" and path.stem.isdigit()
                and path_kind(path) == "file")

    removed = 0
    for path in map(Path, paths):
        if made_here(path):
            removed += remove_owned(path, made_here, what="the generated image")
    return removed
