"""Every architecture family of the registered generators (method §4 Generators) — SDXL's UNet,
SD 3.5's MMDiT, FLUX.1 (dev with distilled guidance, schnell without), PixArt-Σ, HunyuanDiT — as a
tiny random pipeline saved to a folder, loaded and run through the same runner and the same
``generate --custom-folder`` command as the full models: images of the asked size, seeds
recorded per image, one seed giving the same bytes every time, and a batched panel giving the
bytes of one call per image on the CPU."""
from __future__ import annotations

import functools
import json
import os
import subprocess
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest
from PIL import Image

from backends.support import REPO, venv_python
from geofidelity_plugin.core.generation.generators import GENERATORS
from geofidelity_plugin.core.generation.prompts import PromptRow
from geofidelity_plugin.core.generation.runner import GenerationRunner
from geofidelity_plugin.core.generation.seeds import seed_for
from geofidelity_plugin.core.store.store import BenchmarkStore
from tiny_models import (make_tiny_flux, make_tiny_hunyuandit, make_tiny_pixart_sigma, make_tiny_sd3,
                         make_tiny_sdxl)

RESOLUTION = 32
STEPS = 2


@dataclass(frozen=True)
class Family:
    generator: str  # the registered generator whose sampling settings (guidance, dtype) the tiny twin runs with
    build: Callable
    pipeline_class: str


FAMILIES = {
    "sdxl": Family("sdxl-base-1.0", make_tiny_sdxl, "StableDiffusionXLPipeline"),
    "sd3": Family("sd3.5-large", make_tiny_sd3, "StableDiffusion3Pipeline"),
    "flux-dev": Family("flux.1-dev", make_tiny_flux, "FluxPipeline"),
    "flux-schnell": Family("flux.1-schnell", functools.partial(make_tiny_flux, guidance_embeds=False),
                           "FluxPipeline"),
    "pixart-sigma": Family("pixart-sigma-xl-1024", make_tiny_pixart_sigma, "PixArtSigmaPipeline"),
    "hunyuandit": Family("hunyuandit-v1.2", make_tiny_hunyuandit, "HunyuanDiTPipeline"),
}
SEGMENTS = [
    {"segment_id": "hel-001", "city": "Helsinki", "country": "Finland", "country_code": "FI",
     "street_name": "Unioninkatu", "neighbourhood": "Kluuvi", "centroid_lon": 24.950614, "centroid_lat": 60.169871},
    {"segment_id": "hel-002", "city": "Helsinki", "country": "Finland", "country_code": "FI",
     "street_name": "Hämeentie", "neighbourhood": "Sörnäinen", "centroid_lon": 24.9615, "centroid_lat": 60.1873},
]
ROW = PromptRow("hel-002", "L2", "A street-level photo taken on Hämeentie in the Sörnäinen district of Helsinki, "
                                 "Finland near GPS coordinates (60.1873, 24.9615). Photorealistic, daytime.")


@pytest.fixture(scope="module", params=list(FAMILIES))
def family(request, tmp_path_factory):
    """(name, Family, folder): the family's tiny pipeline written by ``save_pretrained``."""
    name = request.param
    fam = FAMILIES[name]
    return name, fam, fam.build(tmp_path_factory.mktemp(f"tiny-{name}"))


def _runner(name: str, fam: Family, folder, resolution: int = RESOLUTION, **options) -> GenerationRunner:
    spec = GENERATORS[fam.generator]
    return GenerationRunner(folder, steps=STEPS, guidance=spec.guidance, resolution=resolution, dtype=spec.dtype,
                            device="cpu", name=f"tiny-{name}", **options)


def test_family_generates_through_the_runner(family, tmp_path):
    """Loaded by the runner's own ``DiffusionPipeline.from_pretrained``; every image has the asked
    size, its seed and settings on record; real tokenizers; same seed → same bytes."""
    name, fam, folder = family
    spec = GENERATORS[fam.generator]
    store = BenchmarkStore(tmp_path / "benchmark.sqlite")
    store.put_segments(SEGMENTS)
    runner = _runner(name, fam, folder)
    result = runner.generate([ROW], samples=2, base_seed=7, out_dir=tmp_path / "a", store=store)
    assert (result.generated, result.requested) == (2, 2)
    assert type(runner._pipe).__name__ == fam.pipeline_class
    for attr in ("tokenizer", "tokenizer_2", "tokenizer_3"):
        tokenizer = getattr(runner._pipe, attr, None)
        if tokenizer is not None:  # a tokenizer that maps every word to <unk> would make all prompts alike
            ids = tokenizer("Sörnäinen Kluuvi", add_special_tokens=False).input_ids
            assert len(set(ids)) > 5 and tokenizer.unk_token_id not in ids, (attr, ids)

    for path in result.paths:
        with Image.open(path) as image:
            assert image.format == "JPEG"
            assert image.size == (RESOLUTION, RESOLUTION), (
                f"{fam.pipeline_class} made {image.size} for resolution {RESOLUTION} (a pipeline with resolution "
                "bins must be called with use_resolution_binning=False)")
    first, second = (np.asarray(Image.open(p).convert("RGB"), dtype=np.int16) for p in result.paths)
    assert first.std() > 2.0 and np.abs(first - second).mean() > 2.0  # images, and two seeds, two images

    images = store.generated_panels()[(f"tiny-{name}", "L2", "hel-002")]
    assert [i["sample_index"] for i in images] == [0, 1]
    for image in images:
        assert image["seed"] == seed_for(7, f"tiny-{name}", "hel-002", "L2", image["sample_index"])
        gen = json.loads(image["prompt_meta"])["generation"]
        assert gen["pipeline_class"] == fam.pipeline_class and gen["torch_dtype"] == "float32"
        assert (gen["steps"], gen["guidance"], gen["resolution"], gen["dtype"]) == (
            STEPS, spec.guidance, RESOLUTION, spec.dtype)
        # PixArt-Σ's caption cleaning (bs4/ftfy when installed) is off, so the prompt is the one recorded
        assert json.loads(image["prompt_meta"]).get("clean_caption", "not taken") == (
            False if name == "pixart-sigma" else "not taken")

    again = _runner(name, fam, folder).generate([ROW], samples=2, base_seed=7, out_dir=tmp_path / "b")
    assert [p.read_bytes() for p in again.paths] == [p.read_bytes() for p in result.paths]


def test_family_generates_through_the_command_line(family, tmp_path):
    """``generate --custom-folder`` in a child process, as the Processing algorithm runs it: one
    image per segment, seeds recorded, the same bytes as the runner makes in this process."""
    name, fam, folder = family
    spec = GENERATORS[fam.generator]
    with BenchmarkStore(tmp_path / "benchmark.sqlite") as store:
        store.put_segments(SEGMENTS)  # generation covers segments with a reference panel only
        store.put_reference_images([{"reference_id": f"{s['segment_id']}:0", "segment_id": s["segment_id"],
                                     "image_path": f"reference/{s['segment_id']}/00.jpg"} for s in SEGMENTS])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run(
        [venv_python(), "-m", "geofidelity_plugin", "--events", "jsonl", "generate",
         "--store", str(tmp_path / "benchmark.sqlite"), "--generator", f"tiny-{name}", "--custom-folder", str(folder),
         "--steps", str(STEPS), "--guidance", str(spec.guidance), "--dtype", spec.dtype,
         "--resolution", str(RESOLUTION), "--samples", "1", "--seed", "7", "--conditions", "L1", "--device", "cpu"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["event"] == "result", result
    assert (result["values"]["GENERATED"], result["values"]["REQUESTED"]) == (2, 2), result

    with BenchmarkStore(tmp_path / "benchmark.sqlite", create=False) as store:
        panels = store.generated_panels()
    assert set(panels) == {(f"tiny-{name}", "L1", s["segment_id"]) for s in SEGMENTS}
    (image,) = panels[(f"tiny-{name}", "L1", "hel-002")]
    assert image["seed"] == seed_for(7, f"tiny-{name}", "hel-002", "L1", 0)
    with Image.open(image["abs_path"]) as made:
        assert made.size == (RESOLUTION, RESOLUTION)
    here = _runner(name, fam, folder).generate([PromptRow("hel-002", "L1", image["prompt"])], samples=1,
                                               base_seed=7, out_dir=tmp_path / "here")
    assert here.paths[0].read_bytes() == open(image["abs_path"], "rb").read()


def test_family_batched_panel_has_the_bytes_of_one_call_per_image(family, tmp_path):
    """A panel of 4 in one pipeline call and the same 4 images one call each, at 64² (where one
    forward of the whole batch differs by up to 5 levels on this project's CPU): the same bytes,
    because the CPU denoiser sees per image what a one-image call gives it."""
    name, fam, folder = family
    made = {}
    for per_call in (4, 1):
        runner = _runner(name, fam, folder, resolution=64, images_per_call=per_call)
        made[per_call] = runner.generate([ROW], samples=4, base_seed=7, out_dir=tmp_path / str(per_call)).paths
        options = json.loads((tmp_path / str(per_call) / f"tiny-{name}" / "generation_manifest.json").read_text())[
            "options"]
        assert options["images_per_call"] == per_call
    assert [p.relative_to(tmp_path / "4") for p in made[4]] == [p.relative_to(tmp_path / "1") for p in made[1]]
    assert [p.read_bytes() for p in made[4]] == [p.read_bytes() for p in made[1]]
    first, second = (np.asarray(Image.open(p).convert("RGB"), dtype=np.int16) for p in made[4][:2])
    assert np.abs(first - second).mean() > 2.0  # four seeds, four images
