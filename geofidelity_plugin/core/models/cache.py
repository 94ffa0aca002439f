"""The models folder: a standard Hugging Face cache (``models--org--name/blobs/<etag>`` with
``snapshots/<commit>/…`` linking to them, as huggingface_hub writes it), what is present in it,
and the manager's record of each snapshot it wrote.

Stdlib only. The folder is, in this order: ``--models-dir``, ``GEOFIDELITY_MODELS_DIR``,
``HF_HUB_CACHE``, ``HF_HOME/hub``, the default Hugging Face cache; ``hf cache ls --cache-dir``
and ``huggingface_hub.scan_cache_dir`` list it. Beside the snapshots,
``models--org--name/.geofidelity/<commit>.json`` records the Hub's file list with sizes and
checksums: a snapshot is *present* when that list is complete on disk, and ``verify`` checks it
offline. A snapshot written by another tool (``hf download``, ``from_pretrained``) is present
when it holds its model's configuration; one written by earlier GeoFidelity versions (files
straight in the snapshot, no links) is still read as it is.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from .. import atomic
from ..documents import read_json
from ..errors import InputError
from .registry import ModelEntry, is_commit

RECORD_DIR = ".geofidelity"
INCOMPLETE = ".incomplete"
_TRUE = {"1", "ON", "YES", "TRUE"}


def hub_cache() -> Path:
    """The Hugging Face cache as huggingface_hub finds it."""
    env = os.environ
    if env.get("HF_HUB_CACHE") or env.get("HUGGINGFACE_HUB_CACHE"):
        return Path(env.get("HF_HUB_CACHE") or env["HUGGINGFACE_HUB_CACHE"]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser() / "huggingface" / "hub"


def models_root(models_dir: str | os.PathLike | None = None) -> Path:
    """The models folder the manager writes to (see the module's docstring for the order)."""
    given = str(models_dir or "").strip() or os.environ.get("GEOFIDELITY_MODELS_DIR", "").strip()
    return Path(given).expanduser() if given else hub_cache()


def check_models_folder(root: Path, writable: bool = False) -> Path:
    """``root`` when it is (or, for a writer, can become) a models folder; else an
    :class:`InputError` fitting the case (a file, a dangling link, a path under a file, read-only)
    — the check ``doctor`` reports too (``core/locations.py``)."""
    from ..locations import FOLDER, check_location

    return check_location(root, FOLDER, what="models folder", writable=writable, must_exist=False,
                          fix="correct --models-dir (in QGIS: Models folder in Settings › Options › GeoFidelity) "
                              "or GEOFIDELITY_MODELS_DIR")


def other_models_dir(folder) -> Path | None:
    """``folder`` when it is not the models folder a plain ``models download`` fills, else None
    (what download advice must name with ``--models-dir``)."""
    if folder is None:
        return None
    folder = Path(folder).expanduser()
    return None if folder.resolve() == models_root(None).resolve() else folder


def search_roots(models_dir: str | os.PathLike | None = None) -> list[Path]:
    """Where a model may be present: the models folder, then the Hugging Face cache."""
    roots = [models_root(models_dir)]
    if hub_cache() not in roots:
        roots.append(hub_cache())
    return roots


def offline() -> bool:
    return any(os.environ.get(v, "").strip().upper() in _TRUE for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def repo_folder(root: Path, repo_id: str) -> Path:
    return Path(root) / ("models--" + repo_id.replace("/", "--"))


def folder_repo_ids(root: Path) -> list[str]:
    """The hub ids of the models in a models folder (``models--org--name``)."""
    try:
        names = sorted(p.name for p in Path(root).iterdir() if p.is_dir() and p.name.startswith("models--"))
    except OSError:
        return []
    return ["/".join(n.split("--", 2)[1:]) for n in names if n.count("--") >= 2]


def record_path(root: Path, repo_id: str, commit: str) -> Path:
    return repo_folder(root, repo_id) / RECORD_DIR / f"{commit}.json"


def read_record(root: Path, repo_id: str, commit: str) -> dict | None:
    """The model manager's record of a download, or None when there is none or it cannot be read:
    the download then starts its record afresh and checks every file again."""
    return _document(record_path(root, repo_id, commit), "the download record")


def _document(path: Path, what: str) -> dict | None:
    """``path`` read as a JSON object, or None when it is missing or cannot be read — for the files
    whose loss only costs a check (a record, a pipeline index that makes a folder look complete)."""
    try:
        return read_json(path, what, "it is ignored")
    except InputError:
        return None


def write_record(root: Path, repo_id: str, commit: str, record: dict) -> None:
    atomic.write_json(record_path(root, repo_id, commit), record)


def read_ref(root: Path, repo_id: str, revision: str) -> str | None:
    try:
        commit = (repo_folder(root, repo_id) / "refs" / revision).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return commit if is_commit(commit) else None


def write_ref(root: Path, repo_id: str, revision: str, commit: str) -> None:
    if revision != commit:
        atomic.write_text(repo_folder(root, repo_id) / "refs" / revision, commit)


def looks_like_model(folder: Path) -> bool:
    """A model's configuration is there; for a pipeline, every component folder it names."""
    if (folder / "config.json").is_file():
        return True
    index = _document(folder / "model_index.json", "the pipeline index")
    return index is not None and all((folder / name).is_dir() for name in pipeline_components(index))


def pipeline_components(index: dict) -> list[str]:
    """The component folders a diffusers ``model_index.json`` names (``[library, class]`` values)."""
    return [k for k, v in index.items() if not k.startswith("_") and isinstance(v, list) and len(v) == 2
            and v[0] is not None and v[1] is not None]


@dataclass
class LocalState:
    """Where a model stands in the models folder. ``status``: present, partial (a download that
    can resume), corrupt (``verify`` found bad files), other-revision (another commit is present)
    or absent."""

    status: str
    path: Path | None = None
    commit: str | None = None
    root: Path | None = None
    missing: list[str] = field(default_factory=list)
    note: str = ""
    recorded: bool = False  # the manager wrote this snapshot and holds its checksums

    @property
    def present(self) -> bool:
        return self.status == "present"


def _snapshot_state(root: Path, repo_id: str, commit: str) -> LocalState | None:
    snapshot = repo_folder(root, repo_id) / "snapshots" / commit
    record = read_record(root, repo_id, commit)
    if record is not None:
        missing = [f["path"] for f in record.get("files", [])
                   if not _same_size(snapshot / f["path"], f.get("size"))]
        if record.get("failed"):
            return LocalState("corrupt", snapshot, commit, root, list(record["failed"]), recorded=True,
                              note="failed verify: " + ", ".join(record["failed"]))
        if record.get("complete") and not missing:
            return LocalState("present", snapshot, commit, root, recorded=True)
        if snapshot.is_dir() or missing:
            return LocalState("partial", snapshot, commit, root, missing, recorded=True,
                              note=f"{len(missing)} of {len(record.get('files', []))} files still to download")
    if snapshot.is_dir() and looks_like_model(snapshot):
        return LocalState("present", snapshot, commit, root, note="written by another tool; no checksums recorded")
    return None


def _same_size(path: Path, size) -> bool:
    try:
        return path.is_file() and (size is None or path.stat().st_size == int(size))
    except OSError:
        return False


def local_state(entry: ModelEntry, roots: list[Path]) -> LocalState:
    """The model's state: its pinned revision present in one of ``roots``; else the best other
    state found (a resumable download in the first root, another revision)."""
    fallback: LocalState | None = None
    for root in roots:
        commit = entry.revision if is_commit(entry.revision) else (
            read_ref(root, entry.repo_id, entry.revision) or recorded_commit(root, entry.repo_id, entry.revision))
        state = _snapshot_state(root, entry.repo_id, commit) if commit else None
        if state is not None and state.present:
            return state
        fallback = fallback or state
    if fallback is not None:
        return fallback
    for root in roots:
        other = other_snapshot(root, entry.repo_id)
        if other is not None:
            return LocalState("other-revision", other, other.name, root,
                              note=f"commit {other.name[:7]} is present, not the revision {entry.revision[:12]}")
    return LocalState("absent")


def recorded_commit(root: Path, repo_id: str, revision: str) -> str | None:
    """The commit of the latest download the manager started for ``revision`` (a branch name,
    whose ``refs/`` entry is written only once its snapshot is complete)."""
    folder = repo_folder(root, repo_id) / RECORD_DIR
    try:
        records = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for path in records:
        record = _document(path, "the download record")
        if record is not None and record.get("revision") == revision:
            return path.stem
    return None


def other_snapshot(root: Path, repo_id: str) -> Path | None:
    """A snapshot of any commit that looks complete (the one ``refs/main`` names first)."""
    snapshots = repo_folder(root, repo_id) / "snapshots"
    if not snapshots.is_dir():
        return None
    main = read_ref(root, repo_id, "main")
    candidates = sorted((p for p in snapshots.iterdir() if p.is_dir()),
                        key=lambda p: (p.name != main, -p.stat().st_mtime))
    for snapshot in candidates:
        state = _snapshot_state(root, repo_id, snapshot.name)
        if state is not None and state.present:
            return snapshot
    return None


# --- checksums -----------------------------------------------------------------------------

def sha256_file(path: Path, chunk: int = 1 << 20, progress=None) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            digest.update(block)
            if progress is not None:
                progress(len(block))
    return digest.hexdigest()


def git_blob_id(path: Path) -> str:
    """Git's object id of a file (what the Hub lists as ``blobId`` for a file not in LFS)."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_file(path: Path, expected: dict, progress=None) -> str | None:
    """Why ``path`` does not match the Hub's record of it (``size``, ``sha256`` for LFS files,
    ``blob_id`` for the others), or None when it does."""
    if not path.is_file():
        return "missing"
    size = expected.get("size")
    if size is not None and path.stat().st_size != int(size):
        return f"{path.stat().st_size} bytes, the Hub lists {size}"
    if expected.get("sha256"):
        actual = sha256_file(path, progress=progress)
        if actual != expected["sha256"]:
            return f"sha256 {actual[:12]}…, the Hub lists {expected['sha256'][:12]}…"
    elif expected.get("blob_id"):
        actual = git_blob_id(path)
        if actual != expected["blob_id"]:
            return f"git blob {actual[:12]}…, the Hub lists {expected['blob_id'][:12]}…"
    return None


def blob_checksum(path: Path) -> dict:
    """For a file of a cache written by huggingface_hub (a link into ``blobs/``): the sha256 its
    blob's name states for an LFS file (64 hex digits), else nothing to check against."""
    if path.is_symlink():
        name = Path(os.path.realpath(path)).name
        if len(name) == 64 and all(c in "0123456789abcdef" for c in name):
            return {"sha256": name}
    return {}


# --- removal -------------------------------------------------------------------------------

def remove_model(entry: ModelEntry, root: Path) -> Path | None:
    """Delete the model's whole folder (every revision) from the models folder ``root``."""
    folder = repo_folder(root, entry.repo_id)
    if not folder.exists():
        return None
    if folder.resolve().parent != Path(root).resolve():
        raise InputError(f"{folder} is not inside the models folder {root} — remove it by hand")
    shutil.rmtree(folder)
    return folder
