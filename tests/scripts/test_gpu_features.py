"""scripts/gpu_features.py (the feature rows of ``make gpu-check``) on a machine without a GPU: the
rows it makes, through the product's decode paths, with PIL standing in for nvJPEG on the CPU,
so the one run on a GPU measures rather than debugs."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import gpu_features  # noqa: E402

from conftest import PHOTOS, external  # noqa: E402
from geofidelity_plugin.core.vision import batch_sources, decode_device  # noqa: E402
from tiny_models import make_tiny_dinov2  # noqa: E402


def pil_stand_in(datas, device):
    import torch

    out = []
    for data in datas:
        try:
            image = Image.open(io.BytesIO(data.numpy().tobytes())).convert("RGB")
            out.append(torch.from_numpy(np.array(image)).permute(2, 0, 1).contiguous())
        except OSError as exc:
            out.append(RuntimeError(str(exc)))
    return out


def test_feature_rows_on_the_cpu(tmp_path, monkeypatch):
    monkeypatch.setattr(batch_sources, "nvjpeg_unavailable", lambda device: None)
    monkeypatch.setattr(decode_device, "nvjpeg_decode", pil_stand_in)
    model = make_tiny_dinov2(tmp_path / "tiny")
    photos = external(PHOTOS)
    paths = gpu_features.make_jpegs(tmp_path / "jpeg", 10, photos, size=(320, 240))
    assert len({p.read_bytes() for p in paths}) == 10  # distinct images: the cache dedupes nothing
    odd = gpu_features.odd_files(tmp_path / "odd", photos / "leuvenA.jpg")
    rows = gpu_features.check_model("tiny", model, "random", paths, odd, tmp_path, "cpu", 4)
    speed = [r for r in rows if r.get("kind") != "fallbacks"]
    assert [(r["precision"], r["decode"]) for r in speed] == [("fp32", "device"), ("fp32", "cpu"),
                                                              ("tf32", "device"), ("bf16", "device")]
    assert all(r["computed"] == 10 and r["failed"] == 0 and r["ratio"] > 0 for r in speed)
    assert speed[0]["decode_run"]["path"] == "nvjpeg-device" and speed[1]["decode_run"]["path"] == "cpu"
    assert speed[0]["cosine_to_cpu_min"] > 0.99
    assert speed[2]["cosine_to_fp32_min"] == 1.0 or speed[2]["cosine_to_fp32_min"] > 0.99999  # no TF32 on a CPU
    assert 0.9 < speed[3]["cosine_to_fp32_min"] < 1.0
    fallbacks = rows[-1]
    assert fallbacks["kind"] == "fallbacks" and fallbacks["same_failures"]
    assert fallbacks["decode_run"]["cpu_fallback_reasons"] == {"CMYK JPEG": 1, "EXIF rotation": 1,
                                                               "PNG file, not JPEG": 1, "progressive JPEG": 1}
    assert set(fallbacks["failed_device"]) == {"truncated.jpg"}
    table = gpu_features.markdown(rows)
    assert table.count("\n") == 2 + len(rows) - 1 and "to the CPU path" in table and "to fp32" in table


def test_without_cuda_it_says_so(capsys):
    import torch

    if torch.cuda.is_available():
        return
    assert gpu_features.main(["--images", "4"]) == 0
    assert "no CUDA device" in capsys.readouterr().out
