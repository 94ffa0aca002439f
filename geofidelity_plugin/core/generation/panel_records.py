"""Keep every generated panel the work of one run (method §4: a panel is ``samples`` images of
one model, made with one set of settings).

The store keys a generated image by (model, condition, segment_id, sample_index), so writing a
new image replaces only that sample: importing or generating fewer samples, or with other
settings, over an earlier panel would leave a panel mixed from two runs. These helpers find
such panels and remove the earlier images of a panel in the same transaction that records the
new ones, so that a failure on the way changes nothing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

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
