"""docs/mfp-training.md: its training script is the file it names, and it runs — a tiny generator
trained with MFPLoss improves on the held-out maps (with a tiny ViT, so that the test is quick)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import REPO
from tiny_models import make_tiny_dinov2


def test_doc_shows_the_script_it_names():
    doc = (REPO / "docs" / "mfp-training.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert (REPO / "docs" / "mfp_toy_training.py").read_text() in blocks


def test_toy_training_improves_the_held_out_maps(tmp_path):
    model = make_tiny_dinov2(tmp_path / "vit", seed=1, crop=56)
    env = dict(os.environ, MFP_MODEL=str(model), MFP_STEPS="25", PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, str(REPO / "docs" / "mfp_toy_training.py")], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = {line.split()[1]: line for line in out.stdout.splitlines() if line.startswith("held-out")}
    before, after = (float(v) for v in lines["loss"].split()[-3::2])
    assert after < 0.8 * before, out.stdout
