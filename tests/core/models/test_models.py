"""The model manager (issue 10 item 6): ``models list|download|verify|remove`` against a fake Hub
that speaks the real file API (``tests/support/hub_server.py``), serving tiny real models that the
project's own loaders then load. Downloads resume after a kill and after a dropped connection,
cancel leaves nothing a loader takes for a model, damaged files fail verify by name, a gated
model without a token and an offline machine get messages that say what to do."""
from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO
from hub_server import TOKEN, FakeHub
from tiny_models import make_tiny_dinov2, make_tiny_sd

from geofidelity_plugin.core.errors import Cancelled, InputError
from geofidelity_plugin.core.models.cache import local_state, search_roots
from geofidelity_plugin.core.models.download import download_model, select_files
from geofidelity_plugin.core.models.hub import HubClient
from geofidelity_plugin.core.models.registry import MODELS, model_entry
from geofidelity_plugin.core.models.resolve import ModelNotPresent, local_model, snapshot_commit
from geofidelity_plugin.core.progress import RecordingProgress

TINY = "geofidelity-tests/tiny-dinov2"
BIG = "geofidelity-tests/dinov2-12mb"
GATED = "geofidelity-tests/gated-dinov2"


@pytest.fixture(scope="module")
def tiny_dinov2(tmp_path_factory) -> Path:
    return make_tiny_dinov2(tmp_path_factory.mktemp("tiny") / "dinov2")


@pytest.fixture(scope="module")
def big_dinov2(tmp_path_factory) -> Path:
    """A DINOv2 whose weights (≈ 12.7 MB) span many download chunks of 1 MiB."""
    import torch
    from transformers import Dinov2Config, Dinov2Model

    folder = make_tiny_dinov2(tmp_path_factory.mktemp("big") / "dinov2")
    torch.manual_seed(1)
    Dinov2Model(Dinov2Config(hidden_size=256, num_hidden_layers=4, num_attention_heads=4, intermediate_size=1024,
                             image_size=56, patch_size=14)).save_pretrained(folder, safe_serialization=True)
    assert (folder / "model.safetensors").stat().st_size > 10 * 2 ** 20
    return folder


@pytest.fixture
def hub(tiny_dinov2, big_dinov2, monkeypatch, tmp_path):
    """The fake Hub, ``HF_ENDPOINT`` at it, online, an empty models folder in GEOFIDELITY_MODELS_DIR."""
    with FakeHub() as fake:
        # what a real repository also holds and no loader reads: must not be downloaded
        fake.add_folder(TINY, tiny_dinov2, extra={"model.fp16.safetensors": b"\0" * 4096,
                                                   "pytorch_model.bin": b"\1" * 4096, "onnx/model.onnx": b"\2" * 64})
        fake.add_folder(BIG, big_dinov2)
        fake.add_folder(GATED, tiny_dinov2, gated=True)
        monkeypatch.setenv("HF_ENDPOINT", fake.url)
        monkeypatch.setenv("GEOFIDELITY_MODELS_DIR", str(tmp_path / "models"))
        monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache"))
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_TOKEN"):
            monkeypatch.delenv(name, raising=False)
        yield fake


def _cli(*args, env_extra: dict | None = None, timeout: int = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "geofidelity_plugin", "--events", "jsonl", "models", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)


def _events(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def _final(out: str) -> dict:
    return _events(out)[-1]


def _snapshot(root: Path, repo_id: str) -> Path:
    snapshots = list((root / ("models--" + repo_id.replace("/", "--")) / "snapshots").iterdir())
    assert len(snapshots) == 1
    return snapshots[0]


# --- the registry and the table ------------------------------------------------------------------

def test_list_shows_every_model_absent_with_size_licence_gate_and_revision(tmp_path, monkeypatch):
    """No network is touched: the endpoint is a closed port."""
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    table = tmp_path / "models.csv"
    out = _cli("list", "--models-dir", str(tmp_path / "models"), "--table", str(table))
    assert out.returncode == 0, out.stderr
    result = _final(out.stdout)
    rows = {r["name"]: r for r in result["values"]["MODELS"]}
    from geofidelity_plugin.core.generation.generators import GENERATORS

    assert set(GENERATORS) <= set(rows)
    repos = {r["repo_id"] for r in rows.values()}
    assert {"facebook/dinov2-base", "facebook/dinov2-small", "google/siglip-so400m-patch14-384",
            "facebook/mask2former-swin-large-mapillary-vistas-semantic", "openai/clip-vit-large-patch14"} <= repos
    assert all(r["status"] == "absent" and not r["path"] for r in rows.values())
    assert all(r["approx_bytes"] > 10 ** 7 and r["size_source"] and r["licence"] for r in rows.values())
    gated = {name for name, r in rows.items() if r["gate"] != "none"}
    assert gated == {"sd3.5-large", "flux.1-dev"}
    size = {name: r["approx_bytes"] for name, r in rows.items()}
    assert size["flux.1-dev"] > size["sdxl-base-1.0"] > size["dinov2-base"] > size["dinov2-small"]
    assert rows["dinov2-base"]["revision"] == MODELS["dinov2-base"].revision  # a pinned commit
    assert rows["clip-vit-large"]["revision"].startswith("main (not pinned")
    with open(table, newline="", encoding="utf-8") as fh:
        assert [r["name"] for r in csv.DictReader(fh)] == list(rows)
    assert any(o["key"] == "TABLE" for o in result["outputs"])
    assert "≈" in out.stderr or "absent" in out.stderr  # the human table goes to stderr under jsonl


def test_the_files_chosen_are_those_the_loaders_read():
    def sib(path, size=10, lfs=False):
        s = {"rfilename": path, "size": size, "blobId": "b" * 40}
        if lfs:
            s["lfs"] = {"sha256": "a" * 64, "size": size, "pointerSize": 134}
        return s

    pipeline = [sib("model_index.json"), sib("sd_xl_base_1.0.safetensors", lfs=True), sib("README.md"),
                sib("unet/config.json"), sib("unet/diffusion_pytorch_model.safetensors", 100, True),
                sib("unet/diffusion_pytorch_model.fp16.safetensors", 50, True), sib("unet/model.onnx_data", lfs=True),
                sib("unet/openvino_model.bin", lfs=True), sib("tokenizer/vocab.json"), sib("tokenizer/merges.txt"),
                sib("text_encoder_2/model.safetensors.index.json"),
                sib("text_encoder_2/model-00001-of-00002.safetensors", lfs=True),
                sib("text_encoder_2/model-00002-of-00002.safetensors", lfs=True),
                sib("text_encoder_2/model.fp16-00001-of-00002.safetensors", lfs=True),
                sib("text_encoders/t5xxl_fp16.safetensors", lfs=True), sib("vae/config.json"),
                sib("vae/diffusion_pytorch_model.safetensors", lfs=True), sib("scheduler/scheduler_config.json")]
    index = {"_class_name": "StableDiffusionXLPipeline", "unet": ["diffusers", "UNet2DConditionModel"],
             "tokenizer": ["transformers", "CLIPTokenizer"], "text_encoder_2": ["transformers", "CLIPTextModel"],
             "vae": ["diffusers", "AutoencoderKL"], "scheduler": ["diffusers", "EulerDiscreteScheduler"],
             "feature_extractor": [None, None]}
    chosen = [f["path"] for f in select_files(pipeline, index)]
    assert chosen == ["scheduler/scheduler_config.json", "text_encoder_2/model-00001-of-00002.safetensors",
                      "text_encoder_2/model-00002-of-00002.safetensors", "text_encoder_2/model.safetensors.index.json",
                      "tokenizer/merges.txt", "tokenizer/vocab.json", "unet/config.json",
                      "unet/diffusion_pytorch_model.safetensors", "vae/config.json",
                      "vae/diffusion_pytorch_model.safetensors", "model_index.json"]  # the index last
    weights = {f["path"]: f for f in select_files(pipeline, index)}["unet/diffusion_pytorch_model.safetensors"]
    assert weights == {"path": "unet/diffusion_pytorch_model.safetensors", "size": 100, "sha256": "a" * 64,
                       "blob_id": None}
    both = [sib("config.json"), sib("model.safetensors", lfs=True), sib("pytorch_model.bin", lfs=True),
            sib("tf_model.h5", lfs=True), sib("flax_model.msgpack", lfs=True), sib("preprocessor_config.json")]
    assert [f["path"] for f in select_files(both)] == ["model.safetensors", "preprocessor_config.json", "config.json"]
    pickles = [sib("config.json"), sib("pytorch_model.bin", lfs=True), sib("preprocessor_config.json")]
    assert [f["path"] for f in select_files(pickles)] == ["preprocessor_config.json", "pytorch_model.bin",
                                                         "config.json"]


# --- download, then load through the real loaders ---------------------------------------------------

def test_download_then_the_feature_extractor_loads_it_offline(hub, tiny_dinov2, tmp_path, monkeypatch):
    from geofidelity_plugin.core.vision.features import FeatureExtractor

    with pytest.raises(InputError, match="models download geofidelity-tests/tiny-dinov2"):
        local_model(TINY)
    with pytest.raises(InputError, match="models download geofidelity-tests/tiny-dinov2"):  # the loader: no silent download
        FeatureExtractor(TINY, device="cpu")
    assert hub.requests == []

    progress = RecordingProgress()
    root = tmp_path / "models"
    result = download_model(model_entry(TINY), root, HubClient(), progress)
    repo = hub.repos[TINY]
    snapshot = root / f"models--geofidelity-tests--tiny-dinov2/snapshots/{repo.commit}"
    assert result.path == snapshot and result.commit == repo.commit
    files = ["config.json", "model.safetensors", "preprocessor_config.json"]
    assert sorted(p.name for p in snapshot.iterdir()) == files  # no fp16 variant, pickle or onnx
    for name in ("config.json", "model.safetensors", "preprocessor_config.json"):
        assert (snapshot / name).read_bytes() == (tiny_dinov2 / name).read_bytes()
    assert result.fetched_bytes == sum((tiny_dinov2 / n).stat().st_size for n in ("config.json", "model.safetensors",
                                                                                   "preprocessor_config.json"))
    assert progress.percents == sorted(progress.percents) and progress.percents[-1] == 100.0
    assert (root / "models--geofidelity-tests--tiny-dinov2/refs/main").read_text() == repo.commit
    assert local_state(model_entry(TINY), search_roots()).status == "present"

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    requests_before = len(hub.requests)
    extractor = FeatureExtractor(TINY, device="cpu")
    reference = FeatureExtractor(str(tiny_dinov2), device="cpu")
    assert len(hub.requests) == requests_before  # loaded from the snapshot, nothing asked of the Hub
    assert snapshot_commit(local_model(TINY)) == repo.commit  # what a manifest can record as the revision
    images = [str(p) for p in sorted((REPO / "data" / "external" / "photos").rglob("*.jpg"))[:2]]
    if images:
        a, b = extractor.embed_paths(images), reference.embed_paths(images)
        assert (a.embeddings == b.embeddings).all()


def test_a_downloaded_pipeline_loads_in_the_generation_runner(hub, tmp_path):
    from geofidelity_plugin.core.generation.runner import GenerationRunner

    folder = make_tiny_sd(tmp_path / "tiny-sd")
    hub.add_folder("geofidelity-tests/tiny-sd", folder,
                   extra={"tiny-sd-single-file.safetensors": b"\3" * 2048, "asset/example.png": b"\4" * 99})
    out = _cli("download", "geofidelity-tests/tiny-sd", "--models-dir", str(tmp_path / "models"))
    assert out.returncode == 0, out.stderr
    snapshot = _snapshot(tmp_path / "models", "geofidelity-tests/tiny-sd")
    files = sorted(p.relative_to(snapshot).as_posix() for p in snapshot.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    runner = GenerationRunner("geofidelity-tests/tiny-sd", 2, 5.0, 32, "fp32", device="cpu", name="tiny-sd")
    pipe = runner.load()
    assert type(pipe).__name__ == "StableDiffusionPipeline"


# --- interrupted downloads ----------------------------------------------------------------------------

def _incomplete(root: Path) -> Path | None:
    found = list(root.rglob("*.incomplete"))
    return found[0] if found else None


def test_a_download_killed_mid_file_resumes_with_a_range_request(hub, big_dinov2, tmp_path):
    root = tmp_path / "models"
    weights = (big_dinov2 / "model.safetensors").read_bytes()
    hub.pause_at["model.safetensors"] = 3 * 2 ** 20  # sends 3 MiB, then holds the connection
    argv = [sys.executable, "-m", "geofidelity_plugin", "--events", "jsonl", "models", "download", BIG,
            "--models-dir", str(root)]
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert hub.wait_paused(60), "the download never started"
        deadline, last, stable_since = time.monotonic() + 30, -1, time.monotonic()
        while time.monotonic() < deadline:  # wait until the first chunks are on disk and no more come
            part = _incomplete(root)
            size = part.stat().st_size if part else 0
            if size != last:
                last, stable_since = size, time.monotonic()
            elif size >= 2 ** 20 and time.monotonic() - stable_since > 0.5:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
        hub.release()
    assert proc.returncode == -signal.SIGKILL
    kept = _incomplete(root).stat().st_size
    assert 2 ** 20 <= kept <= 3 * 2 ** 20
    assert _incomplete(root).read_bytes() == weights[:kept]
    sha = hashlib.sha256(weights).hexdigest()
    assert _incomplete(root).name == f"{sha}.incomplete" and _incomplete(root).parent.name == "blobs"
    state = local_state(model_entry(BIG), search_roots(root))
    assert state.status == "partial" and "still to download" in state.note
    assert not (state.path / "config.json").exists()  # nothing a loader takes for a model
    with pytest.raises(ModelNotPresent, match="has not finished"):
        local_model(BIG, models_dir=root)

    hub.pause_at.clear()
    out = _cli("download", BIG, "--models-dir", str(root))
    assert out.returncode == 0, out.stderr
    fetches = hub.file_requests("model.safetensors")
    assert [r.range for r in fetches] == [None, f"bytes={kept}-"]  # the second run asked only for the rest
    assert fetches[-1].status == 206
    snapshot = _snapshot(root, BIG)
    assert hashlib.sha256((snapshot / "model.safetensors").read_bytes()).hexdigest() == \
        hashlib.sha256(weights).hexdigest()
    assert _incomplete(root) is None
    blob = root / "models--geofidelity-tests--dinov2-12mb" / "blobs" / sha  # the standard cache
    assert (snapshot / "model.safetensors").resolve() == blob.resolve()
    assert hashlib.sha256(blob.read_bytes()).hexdigest() == sha
    from huggingface_hub import scan_cache_dir

    (listed,) = [r for r in scan_cache_dir(root).repos if r.repo_id == BIG]
    assert {r.commit_hash for r in listed.revisions} == {snapshot.name}
    assert listed.size_on_disk == sum((big_dinov2 / n).stat().st_size for n in ("config.json", "model.safetensors",
                                                                             "preprocessor_config.json"))
    fractions = [e["fraction"] for e in _events(out.stdout) if e["event"] == "progress"]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert any(kept / len(weights) - 0.05 < f < kept / len(weights) + 0.05 for f in fractions)  # resumed, not restarted
    rows = {r["name"]: r for r in _final(out.stdout)["values"]["MODELS"]}
    assert rows["dinov2-12mb"]["status"] == "present" and "checksums verified" in rows["dinov2-12mb"]["note"]
    verify = _cli("verify", BIG, "--models-dir", str(root))
    assert verify.returncode == 0 and "verified 3 files" in verify.stderr


def test_a_dropped_connection_is_resumed_in_the_same_run(hub, big_dinov2, tmp_path):
    hub.drop_at["model.safetensors"] = 5 * 2 ** 20 + 123
    client = HubClient(chunk_bytes=64 * 1024)
    result = download_model(model_entry(BIG), tmp_path / "models", client, RecordingProgress())
    fetches = hub.file_requests("model.safetensors")
    assert len(fetches) == 2 and fetches[0].range is None
    resumed_at = int(fetches[1].range[len("bytes="):-1])
    assert 0 < resumed_at <= 5 * 2 ** 20 + 123 and fetches[1].status == 206
    assert (result.path / "model.safetensors").read_bytes() == (big_dinov2 / "model.safetensors").read_bytes()


def test_cancel_leaves_no_complete_looking_snapshot_and_a_rerun_finishes(hub, big_dinov2, tmp_path):
    from geofidelity_plugin.core.vision.features import FeatureExtractor

    root = tmp_path / "models"
    client = HubClient(chunk_bytes=256 * 1024)
    with pytest.raises(Cancelled, match="download of dinov2-12mb"):
        download_model(model_entry(BIG), root, client, RecordingProgress(cancel_after=8))
    state = local_state(model_entry(BIG), search_roots(root))
    assert state.status == "partial"
    assert not (state.path / "config.json").exists() and not (state.path / "model.safetensors").exists()
    assert _incomplete(root).stat().st_size > 0
    with pytest.raises(InputError, match="has not finished"):
        FeatureExtractor(BIG, device="cpu")
    download_model(model_entry(BIG), root, HubClient(), RecordingProgress())
    assert hub.file_requests("model.safetensors")[-1].range.startswith("bytes=")
    assert local_state(model_entry(BIG), search_roots(root)).status == "present"
    FeatureExtractor(BIG, device="cpu")


# --- verify, remove --------------------------------------------------------------------------------

def test_a_damaged_file_fails_verify_by_name_and_download_fetches_it_again(hub, tmp_path):
    root = tmp_path / "models"
    assert _cli("download", TINY, "--models-dir", str(root)).returncode == 0
    weights = _snapshot(root, TINY) / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one byte flipped
    weights.write_bytes(bytes(data))
    out = _cli("verify", "--models-dir", str(root))  # every model present
    assert out.returncode == 2
    error = _final(out.stdout)
    assert error["event"] == "error" and "model.safetensors" in error["message"] and "sha256" in error["message"]
    assert f"models download {TINY}`" in error["message"]  # a hub id is downloaded by its hub id
    assert local_state(model_entry(TINY), search_roots(root)).status == "corrupt"
    with pytest.raises(ModelNotPresent, match="failed verify"):
        local_model(TINY, models_dir=root)
    before = len(hub.file_requests("config.json"))
    out = _cli("download", TINY, "--models-dir", str(root))
    assert out.returncode == 0, out.stderr
    assert len(hub.file_requests("config.json")) == before  # only the damaged file was fetched again
    assert _cli("verify", TINY, "--models-dir", str(root)).returncode == 0
    assert local_state(model_entry(TINY), search_roots(root)).status == "present"


def test_remove_deletes_the_model_folder(hub, tmp_path):
    root = tmp_path / "models"
    assert _cli("download", TINY, "--models-dir", str(root)).returncode == 0
    out = _cli("remove", TINY, "--models-dir", str(root))
    assert out.returncode == 0, out.stderr
    assert not (root / "models--geofidelity-tests--tiny-dinov2").exists()
    assert _final(out.stdout)["values"]["MODELS"][0]["status"] == "absent"


# --- gated, offline -----------------------------------------------------------------------------

def test_a_gated_model_without_a_token_is_refused_with_the_fix(hub, tmp_path):
    root = tmp_path / "models"
    out = _cli("download", GATED, "--models-dir", str(root))
    assert out.returncode == 2
    message = _final(out.stdout)["message"]
    assert "gated" in message and "HF_TOKEN" in message and f"{hub.url}/{GATED}" in message
    assert not any("/resolve/" in r.path for r in hub.requests)  # refused before any file was asked for
    out = _cli("download", GATED, "--models-dir", str(root), env_extra={"HF_TOKEN": "hf_wrong"})
    assert out.returncode == 2 and "refused the token" in _final(out.stdout)["message"]
    assert "hf_wrong" not in out.stdout + out.stderr
    out = _cli("download", GATED, "--models-dir", str(root), env_extra={"HF_TOKEN": TOKEN})
    assert out.returncode == 0, out.stderr
    assert TOKEN not in out.stdout + out.stderr + "".join(p.read_text(errors="ignore") for p in root.rglob("*.json"))
    resolves = [r for r in hub.requests if "/resolve/" in r.path]
    assert resolves and all(r.authorization == f"Bearer {TOKEN}" for r in resolves[-3:])
    cdn = [r for r in hub.requests if r.path.startswith("/cdn/")]
    assert cdn and not any(r.authorized for r in cdn)  # a redirect off the Hub's origin: no token


def test_offline_the_message_names_what_is_missing_and_how_to_get_it(hub, tmp_path):
    root = tmp_path / "models"
    out = _cli("download", TINY, "dinov2-base", "--models-dir", str(root), env_extra={"HF_HUB_OFFLINE": "1"})
    assert out.returncode == 2
    error = _final(out.stdout)
    message = error["message"]
    assert error["kind"] == "remote" and "HF_HUB_OFFLINE is set" in message
    for part in (TINY, "dinov2-base (facebook/dinov2-base, ≈ 346 MB)", str(root), f"models download {TINY} "
                 "dinov2-base", "copy", "local model folder"):
        assert part in message, part
    assert hub.requests == []
    hub.offline = True  # the Hub hangs up: connection refused / reset
    out = _cli("download", TINY, "--models-dir", str(root))
    assert out.returncode == 2
    message = _final(out.stdout)["message"]
    assert "cannot reach the Hugging Face Hub" in message and TINY in message and "models download" in message
    out = _cli("download", TINY, "--models-dir", str(root), env_extra={"HF_ENDPOINT": "http://127.0.0.1:9"})
    assert out.returncode == 2 and "connection refused" in _final(out.stdout)["message"]
    hub.offline = False
    assert _cli("download", TINY, "--models-dir", str(root)).returncode == 0
    out = _cli("download", TINY, "--models-dir", str(root), env_extra={"HF_HUB_OFFLINE": "1"})
    assert out.returncode == 0 and "already present" in out.stderr  # present: offline is fine


# --- QGIS ----------------------------------------------------------------------------------------

def test_processing_models_lists_and_downloads(qgis_provider, hub, tmp_path):
    import processing

    root = tmp_path / "qgis-models"
    table = tmp_path / "list.csv"
    result = processing.run("geofidelity:models", {"ACTION": 0, "MODELS": "", "MODELS_DIR": str(root),
                                                   "OUTPUT": str(table)})
    with open(result["OUTPUT"], newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(MODELS) and {r["status"] for r in rows} == {"absent"}
    assert result["PRESENT"] == 0
    result = processing.run("geofidelity:models", {"ACTION": 1, "MODELS": TINY, "MODELS_DIR": str(root),
                                                   "OUTPUT": str(tmp_path / "download.csv")})
    with open(result["OUTPUT"], newline="", encoding="utf-8") as fh:
        (row,) = list(csv.DictReader(fh))
    assert row["status"] == "present" and row["path"] == str(_snapshot(root, TINY)) and result["PRESENT"] == 1


def test_every_loader_goes_through_the_manager():
    """No code path downloads silently: each ``from_pretrained`` in the package loads the folder
    :func:`local_model` gives, with ``local_files_only=True``, and any hub lookup stays local."""
    import ast

    calls = []
    for path in sorted((REPO / "geofidelity_plugin").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            local = any(k.arg == "local_files_only" and getattr(k.value, "value", None) is True for k in node.keywords)
            if name == "from_pretrained":
                first = node.args[0] if node.args else None
                via_manager = isinstance(first, ast.Call) and getattr(first.func, "id", None) == "local_model"
                calls.append((path.relative_to(REPO).as_posix(), node.lineno, via_manager and local))
            elif name in ("snapshot_download", "hf_hub_download"):
                calls.append((path.relative_to(REPO).as_posix(), node.lineno, local))
    assert len(calls) >= 7  # runner, features (2), semantics (2 + its cache lookup), urban (2)
    assert [c for c in calls if not c[2]] == []
