"""scripts/gpu_batch_check.py (run by `make gpu-check`): skips cleanly without CUDA, and on the
CPU compares batched panels with one call per image through the product's runner."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gpu_batch_check  # noqa: E402


def test_skips_without_cuda_and_writes_nothing(tmp_path):
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "gpu_batch_check.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0
    assert "skipped — no CUDA device" in done.stdout and not list(tmp_path.iterdir())


def test_compares_a_family_on_the_cpu(tmp_path):
    assert gpu_batch_check.main(["--device", "cpu", "--families", "sd", "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "gpu_batch_check.json").read_text())
    (row,) = result["families"]
    assert row["family"] == "sd" and row["images"] == 8 and row["max_level_diff"] >= 0
    assert "| sd | sdxl-base-1.0 |" in (tmp_path / "gpu_batch_check.md").read_text()


def test_compare_counts_differences(tmp_path):
    from PIL import Image

    paths = []
    for i, value in enumerate((10, 13)):
        path = tmp_path / f"{i}.png"
        Image.new("RGB", (4, 4), (value, value, value)).save(path)
        paths.append(path)
    same = gpu_batch_check.compare([paths[0]], [paths[0]])
    other = gpu_batch_check.compare([paths[0]], [paths[1]])
    assert same["identical_bytes"] and same["max_level_diff"] == 0
    assert not other["identical_bytes"] and other["max_level_diff"] == 3 and other["share_differing"] == 1.0
