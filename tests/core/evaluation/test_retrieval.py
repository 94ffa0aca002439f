"""method §6 retrieval over method §3 galleries, against hand computations and plain loops."""
import math

import numpy as np
import pytest

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.metrics import retrieval
from geofidelity_plugin.core.evaluation.metrics.retrieval import GALLERY_COLUMNS, NEGATIVE_KINDS

NAN = float("nan")


def sims_row(target, nearest=NAN, other_nb=NAN, same_side=NAN, random_city=NAN, strict=NAN):
    return [target, nearest, other_nb, same_side, random_city, strict]


def test_hand_example_k3_and_k5():
    rows = np.array([
        sims_row(0.8, nearest=0.9, random_city=0.5),                              # K = 3, rank 2
        sims_row(0.7, nearest=0.6, other_nb=0.1, same_side=0.2, random_city=0.3),  # K = 5, rank 1
    ])
    out = retrieval.retrieval_from_similarities(rows)
    assert out["gallery_size"].tolist() == [3, 5]
    assert out["rank"].tolist() == [2, 1]
    assert out["top1"].tolist() == [0, 1]
    assert out["reciprocal_rank"].tolist() == [0.5, 1.0]
    # (a − 1/K) / (1 − 1/K): (0 − 1/3) / (2/3) = −0.5 and (1 − 1/5) / (4/5) = 1.
    assert out["chance_adjusted_top1"] == pytest.approx([-0.5, 1.0])
    assert out["chance_adjusted_top1"].mean() == pytest.approx(0.25)
    assert out["margin_hard"] == pytest.approx([0.8 - 0.9, 0.7 - 0.6])
    assert out["margin_mean"] == pytest.approx([0.8 - 0.7, 0.7 - 0.3])
    assert out["margin_nearest_same_city"] == pytest.approx([-0.1, 0.1])
    assert math.isnan(out["margin_same_city_other_neighbourhood"][0])
    assert out["margin_same_city_other_neighbourhood"][1] == pytest.approx(0.6)
    assert out["margin_random_other_city"] == pytest.approx([0.3, 0.4])


def test_tie_counts_against_the_target():
    out = retrieval.retrieval_from_similarities(np.array([sims_row(0.5, nearest=0.5,
                                                                   random_city=0.1)]))
    assert out["rank"][0] == 2 and out["top1"][0] == 0
    assert out["margin_hard"][0] == 0.0


def test_strict_negative_is_reported_but_not_ranked():
    out = retrieval.retrieval_from_similarities(np.array([sims_row(0.5, nearest=0.4,
                                                                   strict=0.9)]))
    assert out["rank"][0] == 1 and out["gallery_size"][0] == 2
    assert out["margin_same_neighbourhood"][0] == pytest.approx(-0.4)


def test_gallery_without_negatives_is_a_clear_error():
    with pytest.raises(ValueError, match="no negative panels") as caught:
        retrieval.retrieval_from_similarities(np.array([sims_row(0.5, strict=0.2)]))
    assert isinstance(caught.value, InputError)
    assert "nearest_same_city" in str(caught.value)  # names the fix
    with pytest.raises(ValueError, match="no negative panels"):
        retrieval.gallery_table([{"target": 0, "same_neighbourhood": 1}])
    with pytest.raises(ValueError, match="no negative panels"):
        retrieval.score_gallery(np.ones((2, 3)), np.ones((2, 3)), {})


def test_gallery_table_layout_and_checks():
    table = retrieval.gallery_table([
        {"target": 3, "nearest_same_city": 1, "random_other_city": 7},
        {"target": 1, "same_driving_side_other_city": 0, "same_neighbourhood": 2,
         "same_city_other_neighbourhood": None},
    ])
    assert table.tolist() == [[3, 1, -1, -1, 7, -1], [1, -1, -1, 0, -1, 2]]
    with pytest.raises(ValueError, match="unknown kinds"):
        retrieval.gallery_table([{"target": 0, "nearest_same_cty": 1}])
    with pytest.raises(ValueError, match="target panel as a negative"):
        retrieval.gallery_table([{"target": 0, "nearest_same_city": 0}])
    with pytest.raises(ValueError, match="no target"):
        retrieval.gallery_table([{"nearest_same_city": 0}])


def cos(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.fixture
def world():
    rng = np.random.default_rng(21)
    reference = [rng.normal(0, 1, (n, 5)) + rng.normal(0, 1, 5) for n in (6, 8, 3, 7, 5, 9)]
    galleries = [
        {"target": 0, "nearest_same_city": 1, "same_city_other_neighbourhood": 2,
         "same_driving_side_other_city": 3, "random_other_city": 4, "same_neighbourhood": 5},
        {"target": 1, "nearest_same_city": 0, "random_other_city": 5},           # K = 3
        {"target": 2, "same_driving_side_other_city": 4},                          # K = 2
        {"target": 3, "nearest_same_city": 4, "same_city_other_neighbourhood": 5,
         "random_other_city": 0, "same_neighbourhood": 1},
    ]
    generated = rng.normal(0, 1, (4, 4, 5)) + np.stack([reference[g["target"]].mean(0)
                                                       for g in galleries])[:, None, :]
    generated[3] = reference[3][:4]
    return reference, galleries, generated


def single(reference, gallery, generated_panel, mode):
    negatives = {k: reference[v] for k, v in gallery.items() if k in NEGATIVE_KINDS}
    strict = gallery.get("same_neighbourhood")
    return retrieval.score_gallery(generated_panel, reference[gallery["target"]], negatives,
                                   None if strict is None else reference[strict], mode=mode)


@pytest.mark.parametrize("mode", ["panel", "image"])
def test_batch_equals_single(world, mode):
    reference, galleries, generated = world
    means = np.stack([r.mean(0) for r in reference])
    rows = retrieval.gallery_table(galleries)
    batch = retrieval.retrieval_batch(generated, rows, means, mode=mode)
    for p, gallery in enumerate(galleries):
        one = single(reference, gallery, generated[p], mode)
        for key, value in one.items():
            if math.isnan(value):
                assert math.isnan(batch[key][p]), key
            else:
                assert batch[key][p] == pytest.approx(value, abs=1e-12), key


def test_panel_similarity_is_cosine_of_means(world):
    reference, galleries, generated = world
    means = np.stack([r.mean(0) for r in reference])
    sims = retrieval.gallery_similarities(generated, retrieval.gallery_table(galleries), means)
    g_mean = generated[0].mean(0)
    for col, name in enumerate(GALLERY_COLUMNS):
        assert sims[0, col] == pytest.approx(cos(g_mean, means[galleries[0][name]]), abs=1e-12)
    assert np.isnan(sims[2, 1]) and np.isnan(sims[2, 5])


def test_image_mode_ranks_each_image(world):
    reference, galleries, generated = world
    gallery = galleries[1]
    means = {k: reference[v].mean(0) for k, v in gallery.items()}
    expected_top1 = []
    for image in generated[1]:
        s_t = cos(image, means["target"])
        beaten = sum(cos(image, means[k]) >= s_t for k in ("nearest_same_city",
                                                           "random_other_city"))
        expected_top1.append(1.0 if beaten == 0 else 0.0)
    out = single(reference, gallery, generated[1], "image")
    assert out["top1"] == pytest.approx(np.mean(expected_top1))


def test_identical_panel_margins(world):
    reference, _, _ = world
    out = retrieval.score_gallery(reference[3], reference[3], {"nearest_same_city": reference[4]})
    assert out["similarity_target"] == pytest.approx(1.0, abs=1e-12)
    assert out["margin_nearest_same_city"] == pytest.approx(
        1.0 - cos(reference[3].mean(0), reference[4].mean(0)), abs=1e-12)
    assert out["margin_hard"] == out["margin_mean"] == out["margin_nearest_same_city"]
    assert out["rank"] == 1 and out["top1"] == 1 and out["chance_adjusted_top1"] == 1


def test_ragged_generated_panels(world):
    reference, galleries, generated = world
    means = np.stack([r.mean(0) for r in reference])
    ragged = [generated[0], generated[1][:2], generated[2][:1], generated[3]]
    batch = retrieval.retrieval_batch(ragged, retrieval.gallery_table(galleries), means)
    for p, gallery in enumerate(galleries):
        assert batch["margin_hard"][p] == pytest.approx(
            single(reference, gallery, ragged[p], "panel")["margin_hard"], abs=1e-12)
    with pytest.raises(ValueError, match="one size"):
        retrieval.retrieval_batch(ragged, retrieval.gallery_table(galleries), means,
                                  mode="image")


def test_bad_mode_and_rows(world):
    reference, galleries, generated = world
    means = np.stack([r.mean(0) for r in reference])
    rows = retrieval.gallery_table(galleries)
    with pytest.raises(ValueError, match="mode"):
        retrieval.retrieval_batch(generated, rows, means, mode="pixel")
    with pytest.raises(ValueError, match="one gallery row per generated panel"):
        retrieval.retrieval_batch(generated, rows[:2], means)
