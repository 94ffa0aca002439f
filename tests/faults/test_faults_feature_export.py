"""Fault cases of ``evaluate --export-features`` (issue 41): an export folder that cannot be written,
a name in it taken by a folder, and the option where it has no meaning (the release protocol) are
refused in the first seconds — before any model is loaded, with the path and the fix — and leave
the folders as they were. The real command line, with a tiny DINOv2 built from a config."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eval_fixtures import make_store
from faultkit import assert_fails_cleanly, no_traceback, run_cli
from tiny_models import make_tiny_dinov2

pytestmark = pytest.mark.fault

MODEL_LOADED = " loaded on "  # the log line of a feature model load


@pytest.fixture(scope="module")
def dino(tmp_path_factory) -> Path:
    return make_tiny_dinov2(tmp_path_factory.mktemp("dino") / "dino")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("bench") / "b"
    store, _ = make_store(root, per_city=1, refs=5, models=("m1",))
    store.close()
    return root


@pytest.fixture
def bench(pristine, tmp_path) -> Path:
    shutil.copytree(pristine, tmp_path / "b")
    return tmp_path / "b" / "store.sqlite"


def evaluate(store, out, model, tmp_path, *extra):
    env = {"GEOFIDELITY_CACHE_DIR": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    return run_cli("evaluate", "--store", store, "--out", out, "--feature-model", model, "--bootstrap", "50",
                   "--semantic-model", "none", "--clip-model", "none", "-q", *extra, env=env)


def assert_before_model(out) -> None:
    assert MODEL_LOADED not in out.stderr, f"the model was loaded before the failure:\n{out.stderr[-2000:]}"


def test_export_folder_is_a_file(bench, tmp_path, dino):
    target = tmp_path / "features"
    target.write_text("x")
    out = evaluate(bench, tmp_path / "eval", dino, tmp_path, "--export-features", target)
    assert_fails_cleanly(out, str(target), "feature export folder", "is a file")
    assert_before_model(out)
    assert target.read_text() == "x" and not (tmp_path / "eval").exists()


def test_export_index_blocked_by_a_folder(bench, tmp_path, dino):
    target = tmp_path / "features"
    (target / "features.json").mkdir(parents=True)
    out = evaluate(bench, tmp_path / "eval", dino, tmp_path, "--export-features", target)
    assert_fails_cleanly(out, "features.json", "is a folder")
    assert_before_model(out)
    assert sorted(p.name for p in target.iterdir()) == ["features.json"]


def test_export_with_the_release_protocol_is_refused(bench, tmp_path, dino):
    out = evaluate(bench, tmp_path / "eval", dino, tmp_path, "--export-features", tmp_path / "features",
                   "--protocol", "release")
    assert_fails_cleanly(out, "--export-features", "--protocol release", "paper protocol")
    assert_before_model(out)
    assert not (tmp_path / "features").exists()


def test_a_good_export_then_an_evaluation_without_one(bench, tmp_path, dino):
    target = tmp_path / "features"
    out = evaluate(bench, tmp_path / "eval", dino, tmp_path, "--export-features", target)
    assert out.returncode == 0 and no_traceback(out.stdout + out.stderr), out.stderr[-3000:]
    assert sorted(p.name for p in target.iterdir()) == sorted(
        ["features.json", "reference.npz", *(f"m1__{c}.npz" for c in ("C_WRONG_STREET", "L0", "L1", "L2"))])
    again = evaluate(bench, tmp_path / "eval2", dino, tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "feature_export" not in (tmp_path / "eval2" / "evaluation.manifest.json").read_text()
