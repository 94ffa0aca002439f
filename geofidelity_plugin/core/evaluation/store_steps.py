"""Store-level steps shared by the algorithms and the CLI: load segments, build galleries,
import a release, import a folder of generated images."""
from __future__ import annotations

from pathlib import Path

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.progress import Progress
from geofidelity_plugin.core.evaluation.galleries import build_galleries
from geofidelity_plugin.core.evaluation.release.release_folder import import_release
from geofidelity_plugin.core.store.store import BenchmarkStore


def load_segments_gpkg(store: BenchmarkStore, gpkg: str | Path | list[dict]) -> int:
    """Put the segments of a segments GeoPackage (or its rows, already read with
    :func:`..reference_panels.inputs.read_segments_checked`) into the store; a file that is not
    such a GeoPackage is an :class:`InputError` naming it."""
    from geofidelity_plugin.core.reference_panels.inputs import read_segments_checked

    rows = gpkg if isinstance(gpkg, list) else read_segments_checked(gpkg)
    return store.put_segments(rows)


def build_store_galleries(store_path: str | Path, segments_gpkg: str | Path | None = None, seed: int = 0,
                          keep_existing: bool = True, progress: Progress | None = None) -> int:
    """Build the retrieval galleries of every segment of the store (loading ``segments_gpkg``
    first). The seed, the segments file and the store are checked before the store is created or
    changed: a new store is made only when there are segments to put in it."""
    from geofidelity_plugin.core.option_checks import check_number
    from geofidelity_plugin.core.reference_panels.inputs import read_segments_checked
    from geofidelity_plugin.core.reference_panels.inputs import LOAD_SEGMENTS, check_store_has_a_source

    check_number("random seed (--seed; 'Random seed' in QGIS)", seed, "seed", "--seed 0")
    check_store_has_a_source(store_path, segments_gpkg)
    rows = read_segments_checked(segments_gpkg) if segments_gpkg else None  # before the store opens
    with BenchmarkStore(store_path, writer=True, warn=progress.warning if progress else None) as store:
        if rows:
            n = load_segments_gpkg(store, rows)
            if progress:
                progress.info(f"loaded {n} segments from {Path(segments_gpkg).name}")
        segments = store.segments()
        if not segments:
            raise InputError(f"the benchmark store {store_path} has no segments — {LOAD_SEGMENTS}")
        panels = store.reference_panels()
        retained = [s for s in segments if panels.get(s["segment_id"])] or segments
        if progress and len(retained) < len(segments):
            progress.info(f"{len(segments) - len(retained)} segments without a reference panel left out")
        galleries = build_galleries(retained, seed=seed, keep=store.galleries() if keep_existing else None)
        store.put_galleries(galleries)
        return len(galleries)


def import_release_into(root: str | Path, store_path: str | Path, seed: int = 0,
                        progress: Progress | None = None) -> dict:
    """Import the release at ``root`` into the store at ``store_path`` (created if missing).

    The seed (a whole number ≥ 0), the store path and the release root are checked first; the
    import then fills a copy of the store under a temporary name (a new file when there is no
    store yet) that replaces the store only when everything was read and written: a failed or
    cancelled import leaves no new store behind and never changes an existing one."""
    from geofidelity_plugin.core.option_checks import check_number
    from geofidelity_plugin.core.evaluation.release.release_folder import check_release_root
    from geofidelity_plugin.core.store.store_swap import replacing_store

    check_number("random seed of the filled negatives (--seed)", seed, "seed", "0")
    check_release_root(root)
    with replacing_store(store_path) as store:
        return import_release(root, store, seed=seed, progress=progress)
