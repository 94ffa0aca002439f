"""The models folder is a standard Hugging Face cache (issue 26 item 6): ``models download``
goes through huggingface_hub against the fake Hub (``tests/support/hub_server.py``, which answers
the HEAD / GET / redirect / Range requests the library really makes), writes ``blobs/`` and
``snapshots/`` links that ``huggingface_hub.scan_cache_dir`` lists with the right size and
revision, checks sha256 of the blobs, keeps the token off the CDN, the output and the disk, and
sends nothing anywhere but the configured endpoint. Snapshots in the layout earlier versions
wrote (files straight in the snapshot) are still found and verified."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from hub_server import TOKEN, FakeHub
from tiny_models import make_tiny_dinov2

from geofidelity_plugin.core.models.cache import local_state, repo_folder, search_roots
from geofidelity_plugin.core.models.download import download_model
from geofidelity_plugin.core.models.hub import HubClient
from geofidelity_plugin.core.models.registry import model_entry
from geofidelity_plugin.core.models.resolve import local_model
from geofidelity_plugin.core.progress import RecordingProgress

TINY = "geofidelity-tests/tiny-dinov2"
GATED = "geofidelity-tests/gated-dinov2"
FILES = ("config.json", "model.safetensors", "preprocessor_config.json")


@pytest.fixture(scope="module")
def tiny_dinov2(tmp_path_factory) -> Path:
    return make_tiny_dinov2(tmp_path_factory.mktemp("tiny") / "dinov2")


@pytest.fixture
def hub(tiny_dinov2, monkeypatch, tmp_path):
    with FakeHub() as fake:
        fake.add_folder(TINY, tiny_dinov2, extra={"model.fp16.safetensors": b"\0" * 4096})
        fake.add_folder(GATED, tiny_dinov2, gated=True)
        monkeypatch.setenv("HF_ENDPOINT", fake.url)
        monkeypatch.setenv("GEOFIDELITY_MODELS_DIR", str(tmp_path / "models"))
        monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache"))
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_TOKEN"):
            monkeypatch.delenv(name, raising=False)
        yield fake


def _cli(*args, env_extra: dict | None = None, pre: tuple = ()) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "geofidelity_plugin", *pre, "--events", "jsonl", "models", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def _final(out: str) -> dict:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")][-1]


def _scan(root: Path, repo_id: str):
    from huggingface_hub import scan_cache_dir

    info = scan_cache_dir(root)
    assert info.warnings == []  # no repository the library calls corrupted
    (repo,) = [r for r in info.repos if r.repo_id == repo_id]
    return repo


def test_download_writes_a_standard_cache_that_scan_cache_dir_lists(hub, tiny_dinov2, tmp_path):
    root = tmp_path / "models"
    out = _cli("download", TINY, "--models-dir", str(root))
    assert out.returncode == 0, out.stderr
    commit = hub.repos[TINY].commit
    repo = _scan(root, TINY)
    assert repo.repo_type == "model" and repo.nb_files == len(FILES)
    assert repo.size_on_disk == sum((tiny_dinov2 / name).stat().st_size for name in FILES)
    (revision,) = repo.revisions
    assert revision.commit_hash == commit and revision.refs == frozenset({"main"})
    assert sorted(f.file_name for f in revision.files) == sorted(FILES)  # no fp16 variant
    snapshot = repo_folder(root, TINY) / "snapshots" / commit
    weights = (tiny_dinov2 / "model.safetensors").read_bytes()
    link = snapshot / "model.safetensors"
    assert link.is_symlink() and Path(os.path.realpath(link)).parent.name == "blobs"
    assert Path(os.path.realpath(link)).name == hashlib.sha256(weights).hexdigest()  # an LFS blob: its sha256
    config = Path(os.path.realpath(snapshot / "config.json"))
    assert config.name == hub.repos[TINY].files["config.json"].blob_id  # a git file: its blob id
    assert not list(root.rglob("*.incomplete"))
    heads = [r for r in hub.requests if r.method == "HEAD"]
    assert {r.path.rsplit("/", 1)[-1] for r in heads} == set(FILES)  # the library's metadata calls
    assert local_model(TINY, models_dir=root) == str(snapshot)
    rows = {r["name"]: r for r in _final(out.stdout)["values"]["MODELS"]}
    assert rows["tiny-dinov2"]["status"] == "present" and rows["tiny-dinov2"]["commit"] == commit


def test_a_corrupted_blob_is_caught_by_verify_with_the_fix(hub, tiny_dinov2, tmp_path):
    root = tmp_path / "models"
    assert _cli("download", TINY, "--models-dir", str(root)).returncode == 0, "download"
    weights = (tiny_dinov2 / "model.safetensors").read_bytes()
    blob = repo_folder(root, TINY) / "blobs" / hashlib.sha256(weights).hexdigest()
    damaged = bytearray(blob.read_bytes())
    damaged[100] ^= 0x01
    blob.write_bytes(bytes(damaged))
    out = _cli("verify", TINY, "--models-dir", str(root))
    assert out.returncode == 2
    message = _final(out.stdout)["message"]
    assert "model.safetensors" in message and "sha256" in message and " — " in message
    assert f"models download {TINY}`" in message and "Traceback" not in out.stderr  # by its hub id
    assert local_state(model_entry(TINY), search_roots(root)).status == "corrupt"
    before = len(hub.file_requests("model.safetensors"))
    out = _cli("download", TINY, "--models-dir", str(root))
    assert out.returncode == 0, out.stderr
    assert len(hub.file_requests("model.safetensors")) == before + 1  # the damaged blob was fetched anew
    assert hashlib.sha256(blob.read_bytes()).hexdigest() == blob.name
    assert _cli("verify", TINY, "--models-dir", str(root)).returncode == 0
    assert _scan(root, TINY).size_on_disk == sum((tiny_dinov2 / name).stat().st_size for name in FILES)


def test_the_token_stays_off_the_output_the_disk_and_the_cdn(hub, tmp_path):
    root = tmp_path / "models"
    out = _cli("download", GATED, "--models-dir", str(root), pre=("-v",),
               env_extra={"HF_TOKEN": TOKEN, "HF_DEBUG": "1"})  # every debug log of both libraries
    assert out.returncode == 0, out.stderr
    assert TOKEN not in out.stdout and TOKEN not in out.stderr
    for path in root.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path
    assert "token=set" in repr(HubClient(token=TOKEN)) and TOKEN not in repr(HubClient(token=TOKEN))
    resolves = [r for r in hub.requests if "/resolve/" in r.path]
    assert resolves and all(r.authorization == f"Bearer {TOKEN}" for r in resolves)
    cdn = [r for r in hub.requests if r.path.startswith("/cdn/")]
    assert cdn and not any(r.authorized for r in cdn)
    assert _scan(root, GATED).nb_files == len(FILES)


def test_nothing_is_asked_of_any_host_but_the_endpoint(hub, tmp_path, monkeypatch):
    """In-process, with huggingface_hub imported under HF_HUB_OFFLINE=1 (the test command's):
    the download lifts the library's offline switch for itself only, and connects to the fake
    Hub's two ports and nowhere else (no telemetry, no agent registry, no huggingface.co)."""
    from huggingface_hub import constants

    reached = []
    real_connect = socket.socket.connect

    def connect(self, address):
        reached.append(address)
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    offline_before = constants.HF_HUB_OFFLINE
    result = download_model(model_entry(TINY), tmp_path / "models", HubClient(), RecordingProgress())
    assert result.fetched_bytes > 0 and reached
    assert {(host, port) for host, port, *_ in reached} <= {("127.0.0.1", port) for port in hub.ports}
    assert constants.HF_HUB_OFFLINE == offline_before


def test_an_old_layout_snapshot_is_still_found_and_verified(hub, tiny_dinov2, tmp_path):
    """Files straight in the snapshot and no ``blobs/`` (what earlier versions wrote): found,
    verified, counted present by a download (nothing fetched), and listed by scan_cache_dir."""
    root = tmp_path / "models"
    assert _cli("download", TINY, "--models-dir", str(root)).returncode == 0, "download"
    folder = repo_folder(root, TINY)
    for link in (folder / "snapshots").rglob("*"):
        if link.is_symlink():
            target = Path(os.path.realpath(link))
            link.unlink()
            shutil.copyfile(target, link)
    shutil.rmtree(folder / "blobs")
    fetched = len(hub.file_requests("model.safetensors"))
    assert local_state(model_entry(TINY), search_roots(root)).status == "present"
    assert (Path(local_model(TINY, models_dir=root)) / "model.safetensors").read_bytes() == \
        (tiny_dinov2 / "model.safetensors").read_bytes()
    out = _cli("verify", TINY, "--models-dir", str(root))
    assert out.returncode == 0 and "verified 3 files" in out.stderr
    out = _cli("download", TINY, "--models-dir", str(root))
    assert out.returncode == 0, out.stderr
    assert len(hub.file_requests("model.safetensors")) == fetched
    assert _scan(root, TINY).nb_files == len(FILES)
