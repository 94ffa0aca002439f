"""Issue 40, one reader per input kind: every JSON document the product reads goes through
``core/documents.py`` — UTF-8 checked, a key given twice refused, the top-level kind checked, and
each failure one message naming the file and the fix.

Through the real command line: a model folder in the models folder whose ``config.json`` or
``model_index.json`` is not UTF-8, gives a key twice or is a list makes the doctor unhealthy
(exit 2) with a problem naming the file and the fix — before, the first two were skipped without
a word and the list ended in a traceback; a damaged profile record, and a custom generator folder
whose ``model_index.json`` gives a key twice (before, the last value was taken silently), the same.

The documents whose loss only costs a check or a label (a download record, a plan probe cache, a
model's provenance record) are still tolerated — now through the same reader — and said in the
log where they were before.
"""
from __future__ import annotations

import json
import logging
import sys

import pytest

from conftest import REPO
from faultkit import assert_fails_cleanly, no_traceback, run_cli

pytestmark = pytest.mark.fault

#: a document's bytes → what the message must say about it
DAMAGED = {
    "not-utf8": (b'{"model_type": "dinov2 \xe9t\xe9"}', "is not UTF-8 text"),
    "repeated-key": (b'{\n "model_type": "dinov2",\n "model_type": "vit"\n}', "gives the key 'model_type' twice (line 3)"),
    "a-list": (b'["Dinov2Model"]', "is not a JSON object (it is a list)"),
}


def _doctor(tmp_path, *args):
    record = tmp_path / "record.json"  # no requirements to check: only the models section can fail
    if not record.exists():
        record.write_text(json.dumps({"profile": "test", "requirements": [], "top_level": []}))
    env = {"HF_HUB_CACHE": str(tmp_path / "empty-hub"), "GEOFIDELITY_MODELS_DIR": ""}
    return run_cli("doctor", "--profile-file", record, *args, env=env, timeout=120)


def _unhealthy(out, *fragments) -> str:
    text = out.stdout + out.stderr
    assert out.returncode == 2, f"exit {out.returncode}, expected 2\n{text[-3000:]}"
    assert no_traceback(text), text[-3000:]
    assert "healthy: no (1 problem(s))" in out.stdout, out.stdout[-3000:]
    for fragment in fragments:
        assert fragment in out.stdout, f"{fragment!r} not in:\n{out.stdout[-3000:]}"
    return out.stdout


@pytest.mark.parametrize("name", ["config.json", "model_index.json"])
@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_damaged_model_configuration_is_a_doctor_problem(tmp_path, name, case):
    content, problem = DAMAGED[case]
    if name == "model_index.json":
        content = content.replace(b"model_type", b"_class_name")
        problem = problem.replace("model_type", "_class_name")
    folder = tmp_path / "models" / "my-model"
    folder.mkdir(parents=True)
    (folder / name).write_bytes(content)
    _unhealthy(_doctor(tmp_path, "--models-dir", tmp_path / "models"),
               f"the model's {name} {folder / name}", problem, "restore it (save_pretrained writes it")
    (folder / name).write_text('{"_class_name": "Dinov2Model", "architectures": ["Dinov2Model"]}')  # the fix
    fixed = _doctor(tmp_path, "--models-dir", tmp_path / "models")
    assert fixed.returncode == 0 and "healthy: yes" in fixed.stdout, fixed.stdout[-3000:]
    assert "local folder my-model (Dinov2Model)" in fixed.stdout


@pytest.mark.parametrize("content, problem", [
    (b'{"profile": "x", "requirements": [], "requirements": ["numpy==1.0"]}', "gives the key 'requirements' twice"),
    (b'{"profile": "\xff", "requirements": []}', "is not UTF-8 text"),
    (b'[{"profile": "x", "requirements": []}]', "is not a JSON object (it is a list)"),
    (b'{"profile": "x"}', "is not a GeoFidelity profile record (it has no requirements list)"),
])
def test_a_damaged_profile_record_is_a_doctor_problem(tmp_path, content, problem):
    record = tmp_path / "record.json"
    record.write_bytes(content)
    _unhealthy(_doctor(tmp_path), f"the profile record {record}", problem, "run Set up backend… again")


@pytest.fixture
def store(tmp_path):
    from geofidelity_plugin.core.store.store import BenchmarkStore

    path = tmp_path / "bench" / "store.sqlite"
    with BenchmarkStore(path) as opened:
        opened.put_segments([{"segment_id": "par-1", "city": "Paris", "country": "France", "country_code": "FR",
                              "street_name": "Rue de Rivoli", "centroid_lon": 2.35, "centroid_lat": 48.86}])
        opened.put_reference_images([{"reference_id": "par-1:0", "segment_id": "par-1",
                                      "image_path": "reference/par-1/00.jpg"}])
    return path


@pytest.mark.parametrize("content, problem", [
    (b'{"_class_name": "StableDiffusionPipeline",\n "_class_name": "FluxPipeline"}',
     "gives the key '_class_name' twice (line 2), with two values"),
    (b'{"_class_name": "StableDiffusionPipeline \xff"}', "is not UTF-8 text"),
    (b"", "is empty"),
])
def test_a_custom_generator_index_is_read_by_the_one_reader(tmp_path, store, content, problem):
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "model_index.json").write_bytes(content)
    out = run_cli("generate", "--store", store, "--generator", "mine", "--custom-folder", folder, "--steps", "2",
                  "--resolution", "32", "--samples", "1", "--device", "cpu", "-q", timeout=120)
    assert_fails_cleanly(out, f"the pipeline index {folder / 'model_index.json'}", problem, "or give another folder")
    assert not (store.parent / "generations").exists()


# -- the documents a damaged copy of only costs a check or a label: tolerated, through the reader --
def test_tolerated_documents_fall_back_and_say_so(tmp_path, caplog, monkeypatch):
    from geofidelity_plugin.core.generation import plan_probe
    from geofidelity_plugin.core.models.cache import looks_like_model, read_record, record_path, recorded_commit
    from geofidelity_plugin.core.models.provenance import provenance_label

    repeated = '{"label": "a", "label": "b"}'
    (tmp_path / "PROVENANCE.json").write_text(repeated)
    with caplog.at_level(logging.WARNING, logger="geofidelity"):
        assert provenance_label(tmp_path) is None  # the model's reference is shown instead
    assert f"the model's provenance record {tmp_path / 'PROVENANCE.json'}" in caplog.text
    assert "gives the key 'label' twice" in caplog.text
    (tmp_path / "PROVENANCE.json").write_text('{"label": "DINOv2 (img focus)"}')
    assert provenance_label(tmp_path) == "DINOv2 (img focus)"

    commit = "a" * 40
    path = record_path(tmp_path, "org/model", commit)
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"revision": "main", "revision": "main"}')
    assert read_record(tmp_path, "org/model", commit) is None  # the download checks every file again
    assert recorded_commit(tmp_path, "org/model", "main") is None
    path.write_text('{"revision": "main"}')
    assert recorded_commit(tmp_path, "org/model", "main") == commit

    (tmp_path / "pipe").mkdir()
    (tmp_path / "pipe" / "model_index.json").write_bytes(b'["not", "an", "index"]')
    assert looks_like_model(tmp_path / "pipe") is False

    caplog.clear()
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    key = {k: "x" for k in plan_probe.KEY_FIELDS}
    cached = plan_probe.cache_path(key)
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b'{"probe_version": 1, "probe_version": 2}')
    with caplog.at_level(logging.WARNING, logger="geofidelity"):
        assert plan_probe.read_cached(key) is None
    assert str(cached) in caplog.text and "twice" in caplog.text and "measured again" in caplog.text


def test_no_document_is_read_around_the_reader():
    """The scanner of issue 40 finds no JSON document read straight from a file."""
    import subprocess

    out = subprocess.run([sys.executable, str(REPO / "scripts" / "io_bypass.py")], cwd=REPO, capture_output=True,
                         text=True, timeout=120)
    assert [line for line in (out.stdout + out.stderr).splitlines() if "json" in line] == []
