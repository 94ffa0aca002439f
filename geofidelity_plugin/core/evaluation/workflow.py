"""Store-level steps shared by the algorithms and the CLI: load segments, build galleries,
import a release, import a folder of generated images."""
from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..progress import Progress
from .galleries import build_galleries
from .release import import_release
from .store import BenchmarkStore


def load_segments_gpkg(store: BenchmarkStore, gpkg: str | Path) -> int:
    from ..selection.writers import read_segments_gpkg

    rows = read_segments_gpkg(gpkg)
    if not rows:
        raise InputError(f"{gpkg} holds no segments")
    return store.put_segments(rows)


def build_store_galleries(store_path: str | Path, segments_gpkg: str | Path | None = None, seed: int = 0,
                          keep_existing: bool = True, progress: Progress | None = None) -> int:
    with BenchmarkStore(store_path) as store:
        if segments_gpkg:
            n = load_segments_gpkg(store, segments_gpkg)
            if progress:
                progress.info(f"loaded {n} segments from {Path(segments_gpkg).name}")
        segments = store.segments()
        if not segments:
            raise InputError(f"{Path(store_path).name} has no segments — give the segments GeoPackage")
        panels = store.reference_panels()
        retained = [s for s in segments if panels.get(s["segment_id"])] or segments
        if progress and len(retained) < len(segments):
            progress.info(f"{len(segments) - len(retained)} segments without a reference panel left out")
        galleries = build_galleries(retained, seed=seed, keep=store.galleries() if keep_existing else None)
        store.put_galleries(galleries)
        return len(galleries)


def import_release_into(root: str | Path, store_path: str | Path, seed: int = 0,
                        progress: Progress | None = None) -> dict:
    with BenchmarkStore(store_path) as store:
        return import_release(root, store, seed=seed, progress=progress)
