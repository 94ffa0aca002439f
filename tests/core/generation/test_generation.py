"""Stage 3 (method §4): prompts, seeds, the generator registry, generation with a tiny real
Stable Diffusion pipeline loaded through the runner's own loading code, and the import of a
folder of images made elsewhere."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from qgis.core import QgsProcessingFeedback

from geofidelity_plugin.core.errors import Cancelled, InputError
from geofidelity_plugin.core.store.store import BenchmarkStore
from geofidelity_plugin.core.generation.generators import GENERATORS, custom_generator, generator_spec
from geofidelity_plugin.core.generation.runner import make_runner
from geofidelity_plugin.core.generation.import_folder import import_generated_folder
from geofidelity_plugin.core.generation.prompts import (CONDITIONS, CONTROLS, PromptRow, PromptTemplates,
                                                        build_prompts)
from geofidelity_plugin.core.generation.runner import GenerationRunner
from geofidelity_plugin.core.generation.seeds import seed_for
from geofidelity_plugin.core.progress import RecordingProgress

REPO = Path(__file__).resolve().parents[3]


def _segment(sid, street, neighbourhood, city="Helsinki", country="Finland", lat=60.16987, lon=24.95061):
    return {"segment_id": sid, "city": city, "country": country, "country_code": "FI",
            "street_name": street, "neighbourhood": neighbourhood, "centroid_lon": lon, "centroid_lat": lat}


SEGMENTS = [
    _segment("hel-001", "Unioninkatu", "Kluuvi", lat=60.169871, lon=24.950614),
    _segment("hel-002", "Mannerheimintie", "Kamppi", lat=60.1702, lon=24.9375),
    _segment("hel-003", "Aleksanterinkatu", "Kluuvi", lat=60.1688, lon=24.9490),
    _segment("hel-004", "Unioninkatu", "Kruununhaka", lat=60.1731, lon=24.9530),  # same street, 2nd segment
    _segment("hel-005", "Fredrikinkatu", "Punavuori", lat=60.1610, lon=24.9380),
    _segment("tre-001", "Hämeenkatu", "Keskusta", city="Tampere", lat=61.4980, lon=23.7610),
    _segment("tre-002", "Satakunnankatu", "Amuri", city="Tampere", lat=61.4990, lon=23.7480),
]
SUFFIX = " Photorealistic, daytime, clear weather."


def _by_key(rows):
    return {(r.segment_id, r.condition): r for r in rows}


# -- prompts -------------------------------------------------------------------------------------
def test_default_prompt_texts_for_a_known_segment():
    rows = _by_key(build_prompts(SEGMENTS))
    assert rows[("hel-001", "L0")].prompt == "A street-level photo taken in Helsinki, Finland." + SUFFIX
    assert rows[("hel-001", "L1")].prompt == ("A street-level photo taken on Unioninkatu in the Kluuvi "
                                              "district of Helsinki, Finland." + SUFFIX)
    assert rows[("hel-001", "L2")].prompt == ("A street-level photo taken on Unioninkatu in the Kluuvi district "
                                              "of Helsinki, Finland near GPS coordinates (60.1699, 24.9506)."
                                              + SUFFIX)
    assert rows[("hel-001", "L1")].prompt_meta["template"] == PromptTemplates().l1
    assert rows[("hel-001", "L1")].prompt_meta["substitutes"] == {}
    assert {c for (_, c) in rows} == set(CONDITIONS)
    assert len(rows) == len(SEGMENTS) * len(CONDITIONS)


def test_controls_take_other_same_city_segments_that_differ_from_the_truth():
    segments = {s["segment_id"]: s for s in SEGMENTS}
    for seed in range(25):
        rows = build_prompts(SEGMENTS, seed=seed)
        assert not rows.skipped
        for row in rows:
            if row.condition not in CONTROLS:
                continue
            truth = segments[row.segment_id]
            subs = row.prompt_meta["substitutes"]
            sources = {s["source_segment_id"] for s in subs.values()}
            assert len(sources) == 1  # "both wrong" takes street and neighbourhood from one segment
            source = segments[sources.pop()]
            assert source["segment_id"] != row.segment_id and source["city"] == truth["city"]
            street = subs["street"]["value"] if "street" in subs else truth["street_name"]
            hood = subs["neighborhood"]["value"] if "neighborhood" in subs else truth["neighbourhood"]
            if "street" in subs:
                assert street == source["street_name"] != truth["street_name"]
            if "neighborhood" in subs:
                assert hood == source["neighbourhood"] != truth["neighbourhood"]
            assert set(subs) == {"C_WRONG_STREET": {"street"}, "C_SHUFFLED_NEIGHBORHOOD": {"neighborhood"},
                                 "C_WRONG_STREET_NEIGHBORHOOD": {"street", "neighborhood"}}[row.condition]
            assert row.prompt == (f"A street-level photo taken on {street} in the {hood} district of "
                                  f"{truth['city']}, {truth['country']}." + SUFFIX)


def test_controls_are_seeded_and_independent_of_segment_order():
    first = [(r.segment_id, r.condition, r.prompt) for r in build_prompts(SEGMENTS, seed=7)]
    again = [(r.segment_id, r.condition, r.prompt) for r in build_prompts(list(reversed(SEGMENTS)), seed=7)]
    assert first == again
    choices = {tuple(r.prompt for r in build_prompts(SEGMENTS, seed=s) if r.condition in CONTROLS)
               for s in range(10)}
    assert len(choices) > 1  # the seed matters


def test_a_lone_segment_skips_its_controls_and_reports_them():
    lone = _segment("tku-001", "Aurakatu", "Keskusta", city="Turku")
    progress = RecordingProgress()
    rows = build_prompts(SEGMENTS + [lone], progress=progress)
    built = {c for (sid, c) in _by_key(rows) if sid == "tku-001"}
    assert built == {"L0", "L1", "L2"}
    skipped = {(s.segment_id, s.condition): s.reason for s in rows.skipped}
    assert set(skipped) == {("tku-001", c) for c in CONTROLS}
    assert all("no other segment" in reason for reason in skipped.values())
    assert progress.warnings and "tku-001" in progress.warnings[0]


def test_equal_neighbourhoods_skip_only_the_neighbourhood_controls():
    same = [_segment("a", "Street A", "Centre"), _segment("b", "Street B", "Centre")]
    rows = build_prompts(same)
    assert {(s.segment_id, s.condition) for s in rows.skipped} == {
        (sid, c) for sid in "ab" for c in ("C_SHUFFLED_NEIGHBORHOOD", "C_WRONG_STREET_NEIGHBORHOOD")}
    assert _by_key(rows)[("a", "C_WRONG_STREET")].prompt.startswith("A street-level photo taken on Street B ")


def test_user_templates_and_bad_placeholders():
    templates = PromptTemplates(l0="Street view, {city} ({country_code}).", suffix="")
    assert _by_key(build_prompts(SEGMENTS, templates))[("hel-001", "L0")].prompt == "Street view, Helsinki (FI)."
    with pytest.raises(InputError) as err:
        PromptTemplates(l1="On {streeet} in {neighborhood}, {city}, {postcode}.")
    assert "{postcode}" in str(err.value) and "{streeet}" in str(err.value) and "{street}?" in str(err.value)
    with pytest.raises(InputError, match="unknown placeholder"):
        build_prompts(SEGMENTS, {"L0": "In {town}."})
    with pytest.raises(InputError, match=r"must use \{neighborhood\}"):
        PromptTemplates(l1="On {street} in {city}.")
    with pytest.raises(InputError, match="unbalanced"):
        PromptTemplates(l0="In {city.")
    with pytest.raises(InputError, match="cannot be filled"):
        PromptTemplates(l0="In {city:.2f}.")


# -- seeds -----------------------------------------------------------------------------------------
def test_seeds_are_distinct_by_default_and_shared_across_conditions_in_shared_noise_mode():
    keys = [(m, s, c, k) for m in ("sdxl", "flux") for s in ("hel-001", "hel-002") for c in CONDITIONS
            for k in range(4)]
    distinct = {seed_for(0, *key) for key in keys}
    assert len(distinct) == len(keys) and all(0 <= s < 2**32 for s in distinct)
    shared = {key: seed_for(0, *key, shared_noise=True) for key in keys}
    for (m, s, c, k), seed in shared.items():
        assert seed == shared[(m, s, "L0", k)]
    assert len(set(shared.values())) == 2 * 2 * 4  # still distinct per (model, segment, sample)
    assert seed_for(1, "sdxl", "hel-001", "L1", 0) != seed_for(0, "sdxl", "hel-001", "L1", 0)


def test_seeds_are_stable_across_processes():
    code = ("from geofidelity_plugin.core.generation.seeds import seed_for;"
            "print(seed_for(3, 'sdxl-base-1.0', 'hel-001', 'L1', 2), seed_for(3, 'x', 'y', 'L0', 1, True))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout.split()
    assert [int(v) for v in out] == [seed_for(3, "sdxl-base-1.0", "hel-001", "L1", 2),
                                     seed_for(3, "x", "y", "L0", 1, True)]
    assert seed_for(0, "sdxl-base-1.0", "hel-001", "L1", 0) == 147903046  # pinned: never changes


# -- generator registry ------------------------------------------------------------------------------
def test_registry_holds_the_six_protocol_generators():
    expected = {"stabilityai/stable-diffusion-xl-base-1.0": (30, 5.0, "fp16", False),
                "stabilityai/stable-diffusion-3.5-large": (28, 3.5, "bf16", True),
                "black-forest-labs/FLUX.1-dev": (28, 3.5, "bf16", True),
                "black-forest-labs/FLUX.1-schnell": (4, 0.0, "bf16", False),
                "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS": (20, 4.5, "fp16", False),
                "Tencent-Hunyuan/HunyuanDiT-v1.2-Diffusers": (50, 5.0, "fp16", False)}
    got = {s.model_id: (s.steps, s.guidance, s.dtype, s.gated) for s in GENERATORS.values()}
    assert got == expected
    assert all(s.resolution == 1024 and s.licence for s in GENERATORS.values())
    assert generator_spec("black-forest-labs/FLUX.1-schnell").steps == 4
    with pytest.raises(InputError, match="unknown generator"):
        generator_spec("dall-e")


# -- the runner, with a tiny Stable Diffusion ---------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_sd(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_sd

    return make_tiny_sd(tmp_path_factory.mktemp("tiny-sd"))


def _runner(folder, name="tiny-sd"):
    return GenerationRunner(folder, steps=2, guidance=5.0, resolution=32, dtype="fp16", device="cpu", name=name)


def _references(segment_ids, audit=None, per_segment=1) -> list[dict]:
    """Reference image records (the files need not exist: generation reads only the records)."""
    return [{"reference_id": f"{sid}:{k}", "segment_id": sid, "image_id": f"img-{sid}-{k}",
             "image_path": f"reference/{sid}/{k:02d}.jpg", "audit": audit} for sid in segment_ids
            for k in range(per_segment)]


def _store(tmp_path) -> BenchmarkStore:
    """Every segment with a reference panel that carries no curation decision (as an imported
    release's): every segment counts as retained."""
    store = BenchmarkStore(tmp_path / "benchmark.sqlite")
    store.put_segments(SEGMENTS)
    store.put_reference_images(_references(s["segment_id"] for s in SEGMENTS))
    return store


def _rows():
    rows = _by_key(build_prompts(SEGMENTS))
    return [rows[("hel-001", "L1")], rows[("hel-002", "C_WRONG_STREET")]]


def _pixels(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)


def test_tiny_pipeline_loads_generates_and_records_in_the_release_layout(tiny_sd, tmp_path):
    # the tokenizer really tokenises (not every token <|endoftext|>), as the trap in ENVIRONMENT.md warns
    from transformers import CLIPTokenizer
    assert len(set(CLIPTokenizer.from_pretrained(tiny_sd / "tokenizer")("Kluuvi").input_ids)) > 3

    store, out = _store(tmp_path), tmp_path / "generations"
    runner = _runner(tiny_sd)
    result = runner.generate(_rows(), samples=2, base_seed=5, out_dir=out, store=store)
    assert (result.generated, result.skipped_existing, result.requested) == (4, 0, 4)
    expected = {out / "tiny-sd" / c / s / f"{k:02d}.jpg" for s, c in (("hel-001", "L1"), ("hel-002", "C_WRONG_STREET"))
                for k in (0, 1)}
    assert set(result.paths) == expected
    for path in expected:
        with Image.open(path) as image:
            assert image.format == "JPEG" and image.size == (32, 32)
    panels = store.generated_panels()
    assert set(panels) == {("tiny-sd", "L1", "hel-001"), ("tiny-sd", "C_WRONG_STREET", "hel-002")}
    for (model, condition, sid), images in panels.items():
        assert [i["sample_index"] for i in images] == [0, 1]
        for image in images:
            assert image["seed"] == seed_for(5, "tiny-sd", sid, condition, image["sample_index"])
            assert image["origin"] == "generated" and image["prompt"].endswith("clear weather.")
            assert Path(image["abs_path"]) in expected
            meta = json.loads(image["prompt_meta"])
            gen = meta["generation"]
            assert (gen["steps"], gen["guidance"], gen["resolution"], gen["dtype"]) == (2, 5.0, 32, "fp16")
            assert gen["torch_dtype"] == "float32" and gen["pipeline_class"] == "StableDiffusionPipeline"
            assert gen["revision"].startswith("sha256:") and gen["diffusers_version"]
            assert meta["seed"] == image["seed"] and meta["condition"] == condition
    assert panels[("tiny-sd", "C_WRONG_STREET", "hel-002")][0]["prompt_meta"].count("source_segment_id") == 1
    assert (out / "tiny-sd" / "generation_manifest.json").is_file()

    stamps = {p: p.stat().st_mtime_ns for p in expected}
    rerun = _runner(tiny_sd)
    again = rerun.generate(_rows(), samples=2, base_seed=5, out_dir=out, store=store)
    assert (again.generated, again.skipped_existing) == (0, 4)
    assert again.paths == [] and rerun._pipe is None  # nothing to make: the weights never load
    assert {p: p.stat().st_mtime_ns for p in expected} == stamps

    lost = out / "tiny-sd" / "L1" / "hel-001" / "01.jpg"
    lost.unlink()  # recorded but gone: made again
    healed = _runner(tiny_sd).generate(_rows(), samples=2, base_seed=5, out_dir=out, store=store)
    assert (healed.generated, healed.skipped_existing, healed.paths) == (1, 3, [lost])
    with pytest.raises(InputError, match=r"seed \(4 images\).*--force"):  # other seeds: a panel can't mix
        _runner(tiny_sd).generate(_rows(), samples=2, base_seed=6, out_dir=out, store=store)
    reseeded = _runner(tiny_sd).generate(_rows(), samples=2, base_seed=6, out_dir=out, store=store, force=True)
    assert (reseeded.generated, reseeded.skipped_existing) == (4, 0)  # other seeds: nothing reusable


def test_same_seed_same_pixels_different_seed_different_pixels(tiny_sd, tmp_path):
    row = _rows()[:1]
    a = _runner(tiny_sd).generate(row, samples=2, base_seed=1, out_dir=tmp_path / "a").paths
    b = _runner(tiny_sd).generate(row, samples=2, base_seed=1, out_dir=tmp_path / "b").paths
    c = _runner(tiny_sd).generate(row, samples=2, base_seed=2, out_dir=tmp_path / "c").paths
    assert np.array_equal(_pixels(a[0]), _pixels(b[0])) and np.array_equal(_pixels(a[1]), _pixels(b[1]))
    assert np.abs(_pixels(a[0]) - _pixels(c[0])).mean() > 2.0
    assert np.abs(_pixels(a[0]) - _pixels(a[1])).mean() > 2.0  # two samples, two seeds


def test_shared_noise_mode_records_one_seed_across_conditions(tiny_sd, tmp_path):
    rows = _by_key(build_prompts(SEGMENTS))
    pair = [rows[("hel-001", "L1")], rows[("hel-001", "C_WRONG_STREET")]]
    store = _store(tmp_path)
    _runner(tiny_sd).generate(pair, samples=1, shared_noise=True, out_dir=tmp_path / "g", store=store)
    seeds = {cond: imgs[0]["seed"] for (_, cond, _), imgs in store.generated_panels().items()}
    assert seeds["L1"] == seeds["C_WRONG_STREET"] == seed_for(0, "tiny-sd", "hel-001", "L2", 0, True)


def test_cancel_keeps_finished_images_and_a_resume_completes(tiny_sd, tmp_path):
    store, out = _store(tmp_path), tmp_path / "generations"
    progress = RecordingProgress(cancel_after=3)  # one check before the first panel's call + one per step (2)
    with pytest.raises(Cancelled) as err:
        _runner(tiny_sd).generate(_rows(), samples=2, out_dir=out, store=store, progress=progress)
    assert err.value.result.generated == 2 and err.value.result.cancelled
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.jpg")) == ["tiny-sd/L1/hel-001/00.jpg",
                                                                                 "tiny-sd/L1/hel-001/01.jpg"]
    assert store.counts()["generated_images"] == 2
    resumed = _runner(tiny_sd).generate(_rows(), samples=2, out_dir=out, store=store)
    assert (resumed.generated, resumed.skipped_existing) == (2, 2)
    assert store.counts()["generated_images"] == 4


def test_a_file_without_a_store_record_is_made_again(tiny_sd, tmp_path):
    store, out = _store(tmp_path), tmp_path / "generations"
    stray = out / "tiny-sd" / "L1" / "hel-001" / "00.jpg"
    stray.parent.mkdir(parents=True)
    Image.new("RGB", (32, 32), "red").save(stray)
    result = _runner(tiny_sd).generate(_rows()[:1], samples=1, out_dir=out, store=store)
    assert (result.generated, result.skipped_existing) == (1, 0)
    assert _pixels(stray).std() > 0  # replaced by a generated image


def test_unavailable_models_are_input_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    runner = GenerationRunner("geofidelity-tests/no-such-generator", 2, 5.0, 64, "fp16", device="cpu")
    with pytest.raises(InputError) as err:
        runner.generate(_rows()[:1], samples=1, out_dir=tmp_path)
    assert "geofidelity-tests/no-such-generator" in str(err.value)
    message = str(err.value)
    assert " — download it with `python -m geofidelity_plugin models download geofidelity-tests/no-such-generator`" \
        in message and "HF_HUB_OFFLINE" in message and "huggingface-cli" not in message
    assert not list(tmp_path.rglob("*.jpg"))
    with pytest.raises(InputError, match="not found"):
        GenerationRunner(tmp_path / "missing-folder", 2, 5.0, 64, "fp16")
    with pytest.raises(InputError, match="model_index.json"):
        GenerationRunner(tmp_path, 2, 5.0, 64, "fp16", name="empty").load()
    with pytest.raises(InputError, match="multiple of 8"):
        GenerationRunner("a/b", 2, 5.0, 30, "fp16")
    with pytest.raises(InputError, match="unknown condition"):
        GenerationRunner("a/b", 2, 5.0, 64, "fp16").generate([PromptRow("hel-001", "L9", "x")], out_dir=tmp_path)


def test_custom_generator_from_a_local_folder(tiny_sd, tmp_path):
    spec = custom_generator("my-model", tiny_sd, steps=2, guidance=3.0, dtype="float32", resolution=32)
    assert spec.custom and spec.dtype == "fp32" and spec.model_id == str(tiny_sd.resolve())
    result = make_runner(spec, device="cpu").generate(_rows()[:1], samples=1, out_dir=tmp_path)
    assert result.paths == [tmp_path / "my-model" / "L1" / "hel-001" / "00.jpg"]
    with pytest.raises(InputError, match="model_index.json"):
        custom_generator("other", tmp_path, steps=2, guidance=3.0, dtype="fp16")
    with pytest.raises(InputError, match="folder name"):
        custom_generator("bad/name", tiny_sd, steps=2, guidance=3.0, dtype="fp16")


# -- only what will be scored -------------------------------------------------------------------------
def _tiny_custom(folder) -> dict:
    return {"custom_folder": folder, "steps": 2, "guidance": 5.0, "dtype": "fp32", "resolution": 32}


def test_generation_covers_only_segments_with_a_curated_reference_panel(tiny_sd, tmp_path):
    """Three segments of one city: one without reference images, one whose images were all
    rejected in curation, one with a kept image: only the third is generated for, its controls
    find no substitute (the other two are not places of the benchmark), and the left-out
    segments are counted in one info line and in the manifest."""
    from geofidelity_plugin.core.generation.request import GenerationRequest
    from geofidelity_plugin.core.generation.workflow import generate_store

    store = BenchmarkStore(tmp_path / "benchmark.sqlite")
    store.put_segments(SEGMENTS[:3])  # hel-001..003: three streets of Helsinki
    store.put_reference_images(_references(["hel-002"], audit="reject", per_segment=2)
                               + _references(["hel-003"], audit="accept") + [
                                   {**_references(["hel-003"], audit="reject")[0], "reference_id": "hel-003:9"}])
    progress = RecordingProgress()
    result, skipped = generate_store(store, GenerationRequest("tiny", samples=1, conditions=("L1", "C_WRONG_STREET"),
                                                              device="cpu", **_tiny_custom(tiny_sd)), progress)
    assert set(store.generated_panels()) == {("tiny", "L1", "hel-003")}
    assert result.generated == 1
    assert [(s.segment_id, s.condition, s.reason) for s in skipped] == [
        ("hel-003", "C_WRONG_STREET", "no other segment in this city")]
    (line,) = [m for m in progress.infos if "left out" in m]
    assert "generating for 1 of 3 segments: 2 left out" in line
    assert "1 with no reference images (hel-001)" in line
    assert "1 with every reference image rejected in curation (hel-002)" in line
    manifest = json.loads((store.root / "generations" / "tiny" / "generation_manifest.json").read_text())
    assert manifest["inputs"]["segments"]["generated_for"] == 1
    request = manifest["options"]["request"]  # the run's GenerationRequest, as given
    assert (request["generator"], request["conditions"], request["samples"]) == ("tiny", ["L1", "C_WRONG_STREET"], 1)
    assert manifest["inputs"]["segments"]["left_out"] == {"no reference images": ["hel-001"],
                                                          "every reference image rejected in curation": ["hel-002"]}


def test_control_substitutes_come_only_from_retained_segments_of_the_same_city(tiny_sd, tmp_path):
    from geofidelity_plugin.core.generation.request import GenerationRequest
    from geofidelity_plugin.core.generation.workflow import generate_store, scored_segments

    store = _store(tmp_path)  # 5 Helsinki segments, 2 Tampere ones
    store.set_audit("hel-004:0", "reject")
    store.db.execute("DELETE FROM reference_images WHERE segment_id IN ('hel-003', 'hel-005', 'tre-002')")
    retained = {"hel-001", "hel-002", "tre-001"}
    assert {s["segment_id"] for s in scored_segments(store)[0]} == retained
    controls = ("C_WRONG_STREET", "C_SHUFFLED_NEIGHBORHOOD")
    unfiltered = [r for r in build_prompts(SEGMENTS, seed=0, conditions=controls) if r.segment_id in retained]
    assert any(sub["source_segment_id"] not in retained  # the check below can fail: without the rule it would
               for r in unfiltered for sub in r.prompt_meta["substitutes"].values())
    generate_store(store, GenerationRequest("tiny", samples=1, seed=0, conditions=controls, device="cpu",
                                            **_tiny_custom(tiny_sd)))
    panels = store.generated_panels()
    assert set(panels) == {("tiny", c, s) for c in controls for s in ("hel-001", "hel-002")}  # tre-001 is alone
    city = {s["segment_id"]: s["city"] for s in SEGMENTS}
    for (_, _, sid), (image,) in panels.items():
        sources = {sub["source_segment_id"] for sub in json.loads(image["prompt_meta"])["substitutes"].values()}
        assert sources == {"hel-002" if sid == "hel-001" else "hel-001"}
        assert all(city[source] == city[sid] for source in sources)


def test_stores_without_curated_panels_are_refused_and_uncurated_panels_count(tmp_path):
    """No reference images at all: refused before any model loads, naming the fix. Reference
    images without a curation decision (an imported release's, curated before publication)
    count: every segment with at least one is retained."""
    from geofidelity_plugin.core.generation.request import GenerationRequest
    from geofidelity_plugin.core.generation.workflow import generate_store, scored_segments

    store = BenchmarkStore(tmp_path / "benchmark.sqlite")
    store.put_segments(SEGMENTS)
    (tmp_path / "unloadable").mkdir()  # the refusal comes before any model load
    (tmp_path / "unloadable" / "model_index.json").write_text('{"_class_name": "StableDiffusionPipeline"}')
    with pytest.raises(InputError, match=r"no segment of benchmark.sqlite has a curated reference panel "
                                         r"\(7 with no reference images \(hel-001, .* and 2 more\)\).* — run curate "
                                         r"first .*or import a release"):
        generate_store(store, GenerationRequest("tiny", custom_folder=tmp_path / "unloadable", device="cpu"))
    store.put_reference_images(_references(["hel-001", "tre-002"]))  # audit None: no curation decision
    retained, left_out = scored_segments(store)
    assert [s["segment_id"] for s in retained] == ["hel-001", "tre-002"]
    assert sum(len(ids) for ids in left_out.values()) == 5 and list(left_out) == ["no reference images"]
    store.set_audit("hel-001:0", "reject")
    assert [s["segment_id"] for s in scored_segments(store)[0]] == ["tre-002"]


# -- import a folder of images -------------------------------------------------------------------------
def _write_images(root: Path, entries) -> None:
    for rel in entries:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (16, 16), (len(rel) * 7 % 255, 80, 120)).save(path)


def test_import_folder_in_the_release_layout_with_a_sidecar(tmp_path):
    store = _store(tmp_path)
    folder = tmp_path / "elsewhere"
    _write_images(folder, ["L1/hel-001/00.jpg", "L1/hel-001/01.png", "C_WRONG_STREET/tre-001/00.jpg"])
    with open(folder / "prompts.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["segment_id", "condition", "sample_index", "prompt", "seed"])
        writer.writerow(["hel-001", "L1", "0", "a prompt", "1234"])
        writer.writerow(["hel-001", "L1", "1", "another prompt", "missing"])
        writer.writerow(["hel-002", "L0", "0", "no such image", "9"])
    result = import_generated_folder(folder, store, "dalle-3")
    assert (result.images, result.with_prompt, result.with_seed, result.unmatched_sidecar_rows) == (3, 2, 1, 1)
    panels = store.generated_panels()
    assert set(panels) == {("dalle-3", "L1", "hel-001"), ("dalle-3", "C_WRONG_STREET", "tre-001")}
    first, second = panels[("dalle-3", "L1", "hel-001")]
    assert (first["seed"], first["prompt"], first["origin"]) == (1234, "a prompt", "imported")
    assert second["seed"] is None and json.loads(second["prompt_meta"])["seed"] == "missing"
    assert Path(second["abs_path"]) == (folder / "L1" / "hel-001" / "01.png").resolve()

    multi = tmp_path / "many"
    _write_images(multi, ["m1/L0/hel-002/00.jpg", "m2/L2/hel-003/03.jpg"])
    assert import_generated_folder(multi, store, None).models == ["m1", "m2"]
    assert ("m2", "L2", "hel-003") in store.generated_panels()


def test_import_folder_names_unknown_conditions_and_segments(tmp_path):
    store = _store(tmp_path)
    folder = tmp_path / "elsewhere"
    _write_images(folder, ["L1/hel-001/00.jpg", "L3/hel-001/00.jpg", "L1/ams-404/00.jpg",
                           "L0/hel-002/first.jpg"])
    with pytest.raises(InputError) as err:
        import_generated_folder(folder, store, "dalle-3")
    message = str(err.value)
    assert "L3" in message and "ams-404" in message and "first.jpg" in message
    assert "{condition}/{segment_id}/{sample}.jpg" in message
    assert store.counts()["generated_images"] == 0  # nothing half-imported
    (tmp_path / "empty" / "m1" / "L1").mkdir(parents=True)
    with pytest.raises(InputError, match="no images found"):
        import_generated_folder(tmp_path / "empty", store, None)


# -- through Processing: the generator runs in the backend process --------------------------------------
def test_generate_panels_algorithm_runs_the_generator_in_the_backend(qgis_provider, tiny_sd, tmp_path):
    """Every parameter reaches ``generate`` in a child process; its counts, folder and stages come
    back; a second run keeps every image without loading the generator again."""
    import os

    import processing
    from geofidelity_plugin.qgis_side import backend_runner as backend
    from geofidelity_plugin.core.generation.options import PLAN_CHOICES, generator_choices

    _store(tmp_path).close()
    params = {"STORE": str(tmp_path / "benchmark.sqlite"), "GENERATOR": generator_choices().index("custom folder"),
              "CUSTOM_FOLDER": str(tiny_sd), "CUSTOM_NAME": "tiny", "CONDITIONS": [CONDITIONS.index("L1")],
              "SAMPLES": 2, "SEED": 3, "STEPS": 2, "RESOLUTION": 32, "DEVICE": "cpu",
              "PLAN": PLAN_CHOICES.index("model-offload"), "VRAM_BUDGET": "8GB",
              "GENERATIONS_FOLDER": str(tmp_path / "gens")}
    from recording import RecordingFeedback  # QGIS's feedback: these two tests face QGIS

    feedback = RecordingFeedback()
    result = processing.run("geofidelity:generate_panels", params, feedback=feedback)
    assert (result["GENERATED"], result["KEPT"]) == (2 * len(SEGMENTS), 0)
    assert backend.LAST_RUN["command"] == "generate" and backend.LAST_RUN["pid"] != os.getpid()
    command = next(line for line in feedback.lines if line.startswith("GeoFidelity backend:"))
    for part in ("--generator tiny", "--steps 2", "--resolution 32", "--samples 2", "--seed 3", "--conditions L1",
                 "--device cpu", f"--out {tmp_path / 'gens'}", "--plan model-offload", "--vram-budget 8GB",
                 "--precision auto"):
        assert part in command, command
    assert any(line.startswith("loading the generator tiny") for line in feedback.lines), feedback.lines
    assert Path(result["GENERATIONS"]) == tmp_path / "gens" / "tiny" and Path(result["MANIFEST"]).is_file()
    assert len(list((tmp_path / "gens" / "tiny" / "L1").rglob("*.jpg"))) == 2 * len(SEGMENTS)
    with BenchmarkStore(tmp_path / "benchmark.sqlite", create=False) as store:
        panels = store.generated_panels()
    assert sorted(img["seed"] for img in panels[("tiny", "L1", "hel-001")]) == sorted(
        seed_for(3, "tiny", "hel-001", "L1", sample, False) for sample in range(2))
    from recording import RecordingFeedback  # QGIS's feedback: these two tests face QGIS

    feedback = RecordingFeedback()
    again = processing.run("geofidelity:generate_panels", params, feedback=feedback)
    assert (again["GENERATED"], again["KEPT"]) == (0, 2 * len(SEGMENTS))
    assert not any(line.startswith("loading the generator") for line in feedback.lines)


def test_generate_panels_algorithm_messages(qgis_provider, tmp_path):
    """A custom folder without its name is refused before the backend starts; the backend's own
    refusal (an unknown device, before any model loads) reaches the dialog as its message."""
    import processing
    from qgis.core import QgsProcessingException
    from geofidelity_plugin.core.generation.options import generator_choices

    _store(tmp_path).close()
    store = str(tmp_path / "benchmark.sqlite")
    with pytest.raises(QgsProcessingException, match="needs its diffusers folder and a name"):
        processing.run("geofidelity:generate_panels", {"STORE": store, "GENERATOR": generator_choices().index(
            "custom folder"), "CUSTOM_FOLDER": str(tmp_path)})
    with pytest.raises(QgsProcessingException, match="unknown device 'quantum'"):
        processing.run("geofidelity:generate_panels", {"STORE": store, "GENERATOR": 0, "DEVICE": "quantum"})
    assert not (tmp_path / "generations").exists()


def test_import_generated_algorithm_runs_in_the_backend(qgis_provider, tmp_path):
    import processing
    from geofidelity_plugin.qgis_side import backend_runner as backend

    _store(tmp_path).close()
    _write_images(tmp_path / "elsewhere", ["L1/hel-001/00.jpg", "L1/hel-001/01.jpg", "L0/tre-001/00.jpg"])
    params = {"STORE": str(tmp_path / "benchmark.sqlite"), "FOLDER": str(tmp_path / "elsewhere"), "MODEL_NAME": "ext"}
    assert processing.run("geofidelity:import_generated", params)["IMAGES"] == 3
    assert backend.LAST_RUN["command"] == "import-generated"
    with BenchmarkStore(tmp_path / "benchmark.sqlite", create=False) as store:
        assert set(store.generated_panels()) == {("ext", "L1", "hel-001"), ("ext", "L0", "tre-001")}
