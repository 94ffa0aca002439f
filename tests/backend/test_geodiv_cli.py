"""``geodiv`` end to end on a folder of images (docs/method.md, GeoDiv): the stand-in VLM's
answers and a tiny DINOv2's Vendi scores; the answers CSV it writes, fed back with --answers,
gives the same VDI/SEVI table."""
from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from PIL import Image

from geofidelity_plugin.backend.cli import main
from geofidelity_plugin.core.geodiv.standin import make_standin_vlm
from tiny_models import make_tiny_dinov2


def _table(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    root = tmp_path_factory.mktemp("imgs")
    rng = np.random.default_rng(3)
    for city in ("lagos", "lyon"):
        (root / city).mkdir()
        for i in range(3):
            Image.fromarray(rng.integers(0, 256, (36, 44, 3), dtype=np.uint8)).save(root / city / f"{i}.png")
    return root


_QUESTIONS = {"name": "small", "questions": [
    {"id": "vis", "axis": "visibility", "question": "Is a road visible?", "options": ["yes", "no"]},
    {"id": "surf", "axis": "entity", "question": "Road surface?", "options": ["asphalt", "dirt", "cobbles"],
     "visibility": "vis"},
    {"id": "bg", "axis": "background", "question": "Background?", "options": ["trees", "hills", "water"]},
    {"id": "affluence", "axis": "affluence", "question": "Affluence?", "options": ["1", "2", "3", "4", "5"]},
]}


def test_geodiv_local_then_answers_csv(images, tmp_path):
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(_QUESTIONS))
    vlm = make_standin_vlm(tmp_path / "vlm")
    dino = make_tiny_dinov2(tmp_path / "dino")
    local = tmp_path / "local"
    assert main(["geodiv", "--images", str(images), "--vqa-model", str(vlm), "--feature-model", str(dino),
                 "--cache", str(tmp_path / "cache.sqlite"), "--group-by", "model,city", "--device", "cpu",
                 "--questions", str(questions), "--convergence",
                 "--out", str(local), "-q"]) == 0
    groups = _table(local / "geodiv_groups.csv")
    assert [g["city"] for g in groups] == ["lagos", "lyon"]
    for g in groups:
        assert 1.0 <= float(g["vendi"]) <= 3.0
        assert 0.0 <= float(g["vdi_background"]) <= 1.0
        assert 1.0 <= float(g["affluence_mean"]) <= 5.0
    answers = _table(local / "geodiv_answers.csv")
    assert len(answers) == 6 * 4  # every image answers every question
    imported = tmp_path / "imported"
    assert main(["geodiv", "--answers", str(local / "geodiv_answers.csv"), "--group-by", "model,city",
                 "--questions", str(questions), "--out", str(imported), "-q"]) == 0
    assert _table(imported / "geodiv_questions.csv") == _table(local / "geodiv_questions.csv")
    drop = ("vendi",)
    assert [{k: v for k, v in g.items() if k not in drop} for g in groups] == _table(imported / "geodiv_groups.csv")
    assert (local / "geodiv_manifest.json").exists()
    convergence = _table(local / "geodiv_convergence.csv")
    assert [int(r["images_per_group"]) for r in convergence] == [2, 3]
    assert (local / "geodiv_convergence.png").stat().st_size > 5_000


def test_geodiv_explains_missing_inputs(tmp_path, capsys):
    assert main(["geodiv", "--out", str(tmp_path)]) != 0
    assert "nothing to compute" in capsys.readouterr().err
