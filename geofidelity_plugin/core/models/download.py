"""Download, verify and describe models in the models folder (issue: "a model manager").

A download fetches exactly the files the loaders read — for a diffusers pipeline
``model_index.json`` and, in each component folder it names, the configurations, tokenizer files
and non-variant ``.safetensors`` weights; for a transformers model the top-level files of the
same kinds (PyTorch ``.bin`` weights only where a folder has no safetensors) — into the standard
Hugging Face cache layout: each file's bytes in ``blobs/<etag>`` (through ``<etag>.incomplete``,
named only once its size and checksum match the Hub's), linked from ``snapshots/<commit>/``.
The configuration that makes a folder loadable is linked last, and the record that calls the
snapshot complete after it. A cancel or a kill at any moment therefore leaves a partial snapshot
no loader takes for a model, and the next download goes on from the bytes already there.
Snapshots written by earlier versions (files straight in the snapshot, no ``blobs/``) stay
valid: they are found, verified and completed as they are.
"""
from __future__ import annotations

import contextlib
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import state_files
from ..documents import read_json
from ..errors import InputError
from ..progress import Progress, check_cancel
from .cache import (LocalState, other_models_dir, blob_checksum, check_file, local_state, models_root,
                    offline, pipeline_components, read_record, repo_folder, search_roots, write_record, write_ref)
from .hub import HubClient, HubUnreachable, hub_endpoint, link_into_snapshot
from .registry import ModelEntry, download_command, is_commit

#: files that make a folder loadable: written last
ENTRY_FILES = ("model_index.json", "config.json")
_KEEP_SUFFIXES = (".json", ".txt", ".model", ".safetensors", ".tiktoken")
_VARIANT = re.compile(r"\.(fp16|bf16|fp32|fp8|int8|ema|non_ema)([.-]|$)")
_PICKLE_WEIGHTS = re.compile(r"^pytorch_model(-\d+-of-\d+)?\.bin(\.index\.json)?$")
_OTHER_INDEX = re.compile(r"\.(bin|msgpack|h5|ckpt|pt|pth)\.index\.json$")


def select_files(siblings: list[dict], index: dict | None = None) -> list[dict]:
    """The files of a revision the loaders read, as ``{path, size, sha256, blob_id}``."""
    listed = {s["rfilename"]: s for s in siblings if isinstance(s, dict) and s.get("rfilename")}
    if index is not None:
        folders = [""] + pipeline_components(index)
    else:
        folders = [""]
    chosen = []
    for folder in folders:
        inside = {p: s for p, s in listed.items() if _parent(p) == folder}
        names = [p for p in inside if _wanted(p.rsplit("/", 1)[-1])]
        if folder == "" and index is not None:  # a pipeline's top level: its index only
            names = [p for p in names if p == "model_index.json"]
        elif not any(p.endswith(".safetensors") for p in names):
            names += [p for p in inside if _PICKLE_WEIGHTS.match(p.rsplit("/", 1)[-1])]
        chosen += [_spec(inside[p]) for p in names]
    chosen.sort(key=lambda f: (f["path"] in ENTRY_FILES, f["path"]))
    return chosen


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _wanted(name: str) -> bool:
    if not name.endswith(_KEEP_SUFFIXES) or _VARIANT.search(name) or _OTHER_INDEX.search(name):
        return False
    return not name.startswith(".") and name not in ("README.md",)


def _spec(sibling: dict) -> dict:
    lfs = sibling.get("lfs") or {}
    size = lfs.get("size", sibling.get("size"))
    return {"path": sibling["rfilename"], "size": int(size) if size is not None else None,
            "sha256": lfs.get("sha256"), "blob_id": None if lfs else sibling.get("blobId")}


@dataclass
class DownloadResult:
    entry: ModelEntry
    path: Path
    commit: str
    files: int = 0
    fetched_bytes: int = 0
    total_bytes: int = 0
    skipped: bool = False  # already present: nothing asked of the Hub


def download_model(entry: ModelEntry, root: Path, client: HubClient,
                   progress: Progress | None = None) -> DownloadResult:
    """Bring the model's revision into ``root`` (resuming, checking every file); returns its snapshot."""
    info = client.revision_info(entry)
    commit = info["sha"]
    if info.get("gated") and not client.has_token:
        from .hub import GatedModel, gated_message

        raise GatedModel(gated_message(entry, client.endpoint, False))
    siblings = info.get("siblings") or []
    index = None
    index_spec = next((_spec(s) for s in siblings if s.get("rfilename") == "model_index.json"), None)
    if index_spec is not None:  # read from its blob; linked into the snapshot only at the end
        blob, _ = client.fetch_blob(entry, commit, index_spec, root)
        index = read_json(blob, f"model_index.json of {entry.repo_id} (revision {commit[:7]}), kept as",
                          "the repository is not a diffusers pipeline the loaders can read; check the model id")
    files = select_files(siblings, index)
    if not any(f["path"] in ENTRY_FILES for f in files):
        raise InputError(f"{entry.repo_id} (revision {commit[:7]}) has no config.json or model_index.json at its top "
                         "level — it is not a transformers model or a diffusers pipeline the loaders can read")
    snapshot = repo_folder(root, entry.repo_id) / "snapshots" / commit
    record = read_record(root, entry.repo_id, commit) or {}
    paths = {f["path"] for f in files}
    verified = set(record.get("verified") or []) & paths
    for bad in record.get("failed") or []:  # what verify found damaged is fetched anew
        discard(snapshot / bad, snapshot)
        verified.discard(bad)
    record = {"repo_id": entry.repo_id, "name": entry.name, "revision": entry.revision, "commit": commit,
              "endpoint": client.endpoint, "layout": "hf-cache", "files": files, "verified": sorted(verified),
              "failed": [], "complete": False, "started": _now()}
    write_record(root, entry.repo_id, commit, record)
    total = sum(f["size"] or 0 for f in files) or 1
    if progress is not None:
        progress.info(f"{entry.name}: {human_bytes(total)} in {len(files)} files at commit {commit[:7]} from "
                      f"{client.endpoint}; {len(verified)} already here and checked")
    done = 0
    result = DownloadResult(entry, snapshot, commit, len(files), total_bytes=total)
    for spec in files:
        target = snapshot / spec["path"]
        if spec["path"] not in verified and target.is_file() and check_file(target, spec) is None:
            verified.add(spec["path"])  # written earlier (or by another tool) and matching the Hub
        if spec["path"] not in verified:
            discard(target, snapshot)
            before = done

            def on_size(n, before=before):
                if progress is not None:
                    progress.set_progress(100.0 * min(total, before + n) / total)

            blob, fetched = client.fetch_blob(
                entry, commit, spec, root, on_size,
                lambda spec=spec: check_cancel(progress, f"the download of {entry.name} ({spec['path']})"))
            link_into_snapshot(blob, target)
            result.fetched_bytes += fetched
            verified.add(spec["path"])
            record["verified"] = sorted(verified)
            write_record(root, entry.repo_id, commit, record)
        done += spec["size"] or 0
        if progress is not None:
            progress.set_progress(100.0 * done / total)
    record.update(verified=sorted(verified), complete=True, finished=_now())
    write_record(root, entry.repo_id, commit, record)
    write_ref(root, entry.repo_id, entry.revision, commit)
    return result


def discard(path: Path, snapshot: Path) -> None:
    """Remove a snapshot file that does not match the Hub, and the blob it links to (a damaged
    blob would otherwise be linked again) — only inside this model's folder: a name (from the
    download record) that leads out of ``snapshot``, or a link to a file outside the model's
    ``blobs/``, deletes nothing there (:mod:`..state_files`)."""
    inside = os.path.normpath(path)
    if not inside.startswith(os.path.normpath(snapshot) + os.sep):
        return
    if path.is_symlink():
        blob = Path(os.path.realpath(path))
        if blob.parent == Path(os.path.realpath(snapshot.parent.parent / "blobs")):
            with contextlib.suppress(state_files.NotARegularFile):
                state_files.remove_owned(blob, what="the model blob")
    with contextlib.suppress(state_files.NotARegularFile):  # a folder there is left
        state_files.remove_owned(path, what="the model file", links=True)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class VerifyResult:
    entry: ModelEntry
    state: LocalState
    checked: int = 0
    bad: dict = field(default_factory=dict)  # path -> what is wrong
    note: str = ""


def verify_model(entry: ModelEntry, roots: list[Path], client: HubClient | None = None,
                 progress: Progress | None = None) -> VerifyResult:
    """Check every file of the present snapshot against the Hub's sizes and checksums: those the
    manager recorded (offline), else the Hub's list for that commit (``client``), else the sha256
    a huggingface_hub cache states in its blob names."""
    state = local_state(entry, roots)
    if state.status == "partial":
        raise InputError(f"the download of {entry.name} ({entry.repo_id}) has not finished ({state.note}) — run "
                         f"`{download_command(entry, models_dir=other_models_dir(roots[0] if roots else None))}`: it goes on where it stopped")
    if state.path is None or state.status not in ("present", "corrupt"):
        raise InputError(f"{entry.name} ({entry.repo_id}) is not in the models folder ({state.status}) — "
                         f"download it: `{download_command(entry, models_dir=other_models_dir(roots[0] if roots else None))}`")
    result = VerifyResult(entry, state)
    record = read_record(state.root, entry.repo_id, state.commit) if state.recorded else None
    if record is not None:
        expected = record.get("files", [])
    elif client is not None and not offline():
        info = client.revision_info(entry, state.commit)
        index = _local_index(state.path)
        expected = select_files(info.get("siblings") or [], index)
    else:
        expected = [{"path": p.relative_to(state.path).as_posix(), "size": None, **blob_checksum(p)}
                    for p in sorted(state.path.rglob("*")) if p.is_file() or p.is_symlink()]
        result.note = "no file list offline: checked the sha256 the cache's blob names state"
    for number, spec in enumerate(expected):
        check_cancel(progress, f"the verification of {entry.name}")
        problem = check_file(state.path / spec["path"], spec)
        if problem:
            result.bad[spec["path"]] = problem
        result.checked += 1
        if progress is not None:
            progress.set_progress(100.0 * (number + 1) / max(1, len(expected)))
    if record is not None:
        record["failed"] = sorted(result.bad)
        record["verified"] = sorted(set(record.get("verified") or []) - set(result.bad))
        record["checked"] = _now()
        write_record(state.root, entry.repo_id, state.commit, record)
    return result


def _local_index(folder: Path) -> dict | None:
    """The snapshot's pipeline index, or None when it has none or it cannot be read (then only the
    files the model manager recorded are checked)."""
    try:
        return read_json(folder / "model_index.json", "the pipeline index", "it is ignored")
    except InputError:
        return None


def missing_message(entries: list[ModelEntry], models_dir=None, reason: str | None = None) -> str:
    """The message of a models folder that lacks ``entries`` where the Hub cannot be reached."""
    root = models_root(models_dir)
    why = reason or ("HF_HUB_OFFLINE is set" if offline() else "no connection")
    listed = "; ".join(f"{e.name} ({e.repo_id}{', ≈ ' + human_bytes(e.approx_bytes) if e.approx_bytes else ''}"
                       f"{', gated' if e.gated else ''})" for e in entries)
    return (f"cannot reach the Hugging Face Hub at {hub_endpoint()} ({why}); not in the models folder {root}: "
            f"{listed} — on a machine with internet run `{download_command(*entries, extra='--models-dir FOLDER')}` "
            f"(or `huggingface-cli download REPO` into a Hugging Face cache) and copy the "
            f"models--… folders it made into {root}; or give the path of a local model folder instead of the hub id")


def human_bytes(n: int | None) -> str:
    if n is None:
        return "?"
    if n >= 1e9:
        return f"{n / 1e9:.1f} GB"
    return f"{n / 1e6:.0f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def describe(entry: ModelEntry, roots: list[Path]) -> dict:
    """One row of the models table (``models list``; QGIS shows the same)."""
    state = local_state(entry, roots)
    where = ""
    if state.root is not None:
        where = "models folder" if state.root == roots[0] else "Hugging Face cache"
    return {"name": entry.name, "repo_id": entry.repo_id, "role": entry.role, "status": state.status,
            "revision": entry.revision_label, "commit": state.commit or "",
            "approx_size": human_bytes(entry.approx_bytes),
            "approx_bytes": entry.approx_bytes, "size_source": entry.size_source, "licence": entry.licence,
            "gate": entry.gate, "path": str(state.path) if state.path and state.status != "absent" else "",
            "where": where, "note": state.note}


def ensure_offline_ok(entries: list[ModelEntry], models_dir=None) -> list[ModelEntry]:
    """Offline (HF_HUB_OFFLINE): the models not present, refused with the message that lists them."""
    roots = search_roots(models_dir)
    missing = [e for e in entries if not local_state(e, roots).present]
    if missing and offline():
        raise HubUnreachable(missing_message(missing, models_dir), "HF_HUB_OFFLINE is set")
    return missing


def present_and_pinned(entry: ModelEntry, roots: list[Path]) -> LocalState | None:
    """The model's present snapshot of a pinned commit: nothing to ask the Hub."""
    state = local_state(entry, roots)
    return state if state.present and is_commit(entry.revision) and state.commit == entry.revision else None
