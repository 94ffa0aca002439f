"""The folders a benchmark store owns images in: its own folder, and each folder an import or a
generation run filled for it (a release's root, a folder of imported images, a generation
output folder chosen elsewhere).

An exporter publishes the bytes of the images a store lists; it copies only files that live in
these folders (:func:`geofidelity_plugin.core.confined_paths.check_inside`), so a row that names
a system file — planted by a hostile release imported before paths were confined, or edited in
by hand — is refused instead of published. Each writer that puts images in a folder of its own
records the folder with :func:`add_image_root`.
"""
from __future__ import annotations

from pathlib import Path

META_KEY = "image_roots"


def add_image_root(store, folder) -> None:
    """Record ``folder`` (resolved) as one of ``store``'s image folders; once is enough."""
    folder = str(Path(folder).expanduser().resolve())
    roots = list(store.meta(META_KEY, []) or [])
    if folder not in roots:
        store.set_meta(META_KEY, roots + [folder])


def image_roots(store) -> list[Path]:
    """The store's folder, every folder recorded with :func:`add_image_root`, and the source root
    of an imported release (stores imported before the folders were recorded)."""
    roots = [Path(store.root)]
    recorded = store.meta(META_KEY, []) or []
    roots += [Path(r) for r in recorded if isinstance(r, str) and r]
    source = store.meta("source", None)
    if isinstance(source, dict) and isinstance(source.get("root"), str) and source["root"]:
        roots.append(Path(source["root"]))
    return list(dict.fromkeys(roots))
