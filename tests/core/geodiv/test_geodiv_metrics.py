"""GeoDiv numbers (docs/method.md, GeoDiv): Hill numbers checked against scipy's entropy,
VDI edge cases, SEVI, the Vendi score, and visibility gating on a hand-made answers table."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import entropy

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.geodiv import questions as qs
from geofidelity_plugin.core.geodiv.answers import score_answers, tally
from geofidelity_plugin.core.geodiv.diversity import hill_number, normalised_hill, sevi, vdi, vendi_score


@pytest.mark.parametrize("counts", [[3, 1], [1, 1], [5, 0, 2, 7], [0, 4, 0, 4, 1], [10, 1, 1, 1, 1, 1]])
def test_hill_number_matches_scipy_entropy(counts):
    expected = 2.0 ** entropy(counts, base=2)
    assert hill_number(counts) == pytest.approx(expected, rel=1e-12)
    k = len(counts)
    assert vdi(counts) == pytest.approx((expected - 1) / (k - 1), rel=1e-12)


def test_k2_one_hot_uniform_and_zero_count_options():
    assert vdi([3, 1]) == pytest.approx(2 ** entropy([0.75, 0.25], base=2) - 1)  # K = 2: (D−1)/1
    assert vdi([9, 0, 0, 0]) == 0.0                       # one-hot: every image the same answer
    assert vdi([4, 4, 4, 4]) == pytest.approx(1.0)         # uniform over K
    assert vdi([5, 5]) == pytest.approx(1.0)
    # zero-count options stay in K: two options chosen evenly out of four is D = 2, VDI 1/3
    assert vdi([6, 6, 0, 0]) == pytest.approx(1 / 3)
    assert vdi([6, 6, 0, 0], count_zero_options=False) == pytest.approx(1.0)
    assert math.isnan(vdi([6, 0, 0], count_zero_options=False))
    assert hill_number([6, 6, 0, 0]) == pytest.approx(hill_number([6, 6]))
    with pytest.raises(ValueError):
        normalised_hill([4])


def test_sevi_mean_and_diversity():
    mean, div = sevi([0, 2, 0, 0, 2])
    assert mean == pytest.approx(3.5)                      # (2·2 + 2·5) / 4
    assert div == pytest.approx((2 - 1) / 4)
    assert sevi([0, 0, 7, 0, 0]) == (3.0, 0.0)


def test_vendi_score_identical_orthogonal_and_between():
    rng = np.random.default_rng(0)
    v = rng.normal(size=16)
    assert vendi_score(np.stack([v] * 5)) == pytest.approx(1.0, abs=1e-9)
    assert vendi_score(np.eye(6) * 3.0) == pytest.approx(6.0)
    x = rng.normal(size=(20, 8))
    sim = (x / np.linalg.norm(x, axis=1, keepdims=True))
    lam = np.linalg.eigvalsh(sim @ sim.T / 20)
    lam = lam[lam > 1e-12]
    assert vendi_score(x) == pytest.approx(math.exp(entropy(lam)), rel=1e-9)  # scipy normalises; Σλ = 1
    assert 1.0 < vendi_score(x) < 8.0 + 1e-9


_SET = qs.parse({"name": "hand", "questions": [
    {"id": "sw", "axis": "visibility", "question": "Is a sidewalk visible?", "options": ["yes", "no"]},
    {"id": "sw_mat", "axis": "entity", "question": "Sidewalk material?", "options": ["concrete", "stone", "dirt"],
     "visibility": "sw"},
    {"id": "bg", "axis": "background", "question": "Background?", "options": ["trees", "hills"]},
    {"id": "aff", "axis": "affluence", "question": "Affluence 1-5?", "options": ["1", "2", "3", "4", "5"]},
]})


def _rows():
    table = [  # image, sidewalk visible?, material, background, affluence
        ("a", "yes", "concrete", "trees", "2"),
        ("b", "yes", "stone", "trees", "4"),
        ("c", "no", "concrete", "hills", "4"),   # says no sidewalk: its material answer must not vote
        ("d", "no", "concrete", "hills", "5"),
        ("e", "yes", "cannot tell", "trees", "3"),
    ]
    rows = []
    for image, vis, mat, bg, aff in table:
        for qid, answer in (("sw", vis), ("sw_mat", mat), ("bg", bg), ("aff", aff)):
            rows.append({"image_id": image, "question_id": qid, "answer": answer, "model": "m1"})
    return rows


def test_visibility_gating_on_a_hand_made_table():
    cells = tally(_rows(), _SET, ("model",))
    mat = cells[(("m1",), "sw_mat")]
    assert mat == {"counts": [1, 1, 0], "gated": 2, "abstained": 1}
    assert cells[(("m1",), "bg")]["counts"] == [3, 2]
    scored = score_answers(_rows(), _SET, ("model",))
    group = scored["groups"][0]
    assert group["images"] == 5
    assert group["vdi_entity"] == pytest.approx((2 - 1) / 2)          # concrete 1, stone 1, dirt 0: D = 2
    assert group["vdi_background"] == pytest.approx(2 ** entropy([3, 2], base=2) - 1)
    assert group["vdi_overall"] == pytest.approx((group["vdi_entity"] + group["vdi_background"]) / 2)
    assert group["affluence_mean"] == pytest.approx(18 / 5)
    # without gating the two "no" images would have made concrete the majority
    ungated = [dict(r, answer="yes") if r["question_id"] == "sw" else r for r in _rows()]
    assert tally(ungated, _SET, ("model",))[(("m1",), "sw_mat")]["counts"] == [3, 1, 0]


def test_bad_answers_and_sets_are_explained():
    rows = _rows() + [{"image_id": "f", "question_id": "bg", "answer": "ocean", "model": "m1"}]
    with pytest.raises(InputError, match="none of its options"):
        score_answers(rows, _SET, ("model",))
    with pytest.raises(InputError, match="grouping column"):
        score_answers(_rows(), _SET, ("city",))
    with pytest.raises(InputError, match="five options"):
        qs.parse({"questions": [{"id": "x", "axis": "maintenance", "question": "?", "options": ["a", "b"]}]})
    with pytest.raises(InputError, match="not a visibility question"):
        qs.parse({"questions": [{"id": "x", "axis": "entity", "question": "?", "options": ["a", "b"],
                                 "visibility": "nope"}]})


def test_street_scene_set_loads_and_gates_each_dependent_question():
    qset = qs.load()
    assert {q.axis for q in qset.questions} == set(qs.AXES)
    assert len(qset.on_axis("background")) == 2 and len(qset.on_axis("affluence")) == 1
    assert all(qset[q.visibility].axis == "visibility" for q in qset.questions if q.visibility)
    assert qs.load().digest == qset.digest


def _paired_rows(model_answers, real_answers):
    rows = []
    for model, answers in (("gen", model_answers), ("real", real_answers)):
        for i, (segment, answer) in enumerate(answers):
            rows.append({"image_id": f"{model}{i}", "question_id": "bg", "answer": answer, "model": model,
                         "city": "c", "segment_id": segment})
    return rows


def test_paired_bootstrap_of_model_minus_real():
    from geofidelity_plugin.core.geodiv.intervals import model_minus_real

    bg = qs.parse({"questions": [{"id": "bg", "axis": "background", "question": "?", "options": ["a", "b"]}]})
    segments = [f"s{i}" for i in range(8)]
    same = [(s, "a" if i % 2 else "b") for i, s in enumerate(segments)]
    row = model_minus_real(_paired_rows(same, same), bg, ("model", "city"), n_resamples=200)[0]
    assert row["segments"] == 8
    assert row["vdi_overall_minus_real"] == 0.0
    assert row["vdi_overall_minus_real_low"] == row["vdi_overall_minus_real_high"] == 0.0
    collapsed = [(s, "a") for s in segments]  # the model draws one answer; real spreads evenly
    row = model_minus_real(_paired_rows(collapsed, same), bg, ("model", "city"), n_resamples=200)[0]
    assert row["vdi_overall_minus_real"] == pytest.approx(-1.0)
    assert row["vdi_overall_minus_real_low"] <= -0.5 and row["vdi_overall_minus_real_high"] < 0
    assert model_minus_real([{k: v for k, v in r.items() if k != "segment_id"} for r in _paired_rows(same, same)],
                            bg, ("model", "city")) == []


def test_vectorised_vdi_rows_match_vdi():
    from geofidelity_plugin.core.geodiv.intervals import _vdi_rows

    counts = np.random.default_rng(1).integers(0, 5, size=(30, 4)).astype(float)
    counts[0] = 0
    got = _vdi_rows(counts, True)
    assert math.isnan(got[0])
    assert got[1:] == pytest.approx([vdi(row) if row.sum() else math.nan for row in counts[1:]], nan_ok=True)


def test_ranking_convergence_reaches_one_with_all_images():
    from geofidelity_plugin.core.geodiv.convergence import ranking_convergence

    bg = qs.parse({"questions": [{"id": "bg", "axis": "background", "question": "?",
                                  "options": ["a", "b", "c", "d"]}]})
    rng = np.random.default_rng(0)
    rows = []
    for city, spread in (("c1", 1), ("c2", 2), ("c3", 3), ("c4", 4)):  # c4 the most diverse
        for i in range(16):
            rows.append({"image_id": f"{city}{i}", "question_id": "bg", "answer": "abcd"[rng.integers(spread)],
                         "city": city})
    out = ranking_convergence(rows, bg, ("city",), draws=10)
    assert [r["images_per_group"] for r in out] == [2, 4, 8, 16]
    assert out[-1]["spearman_mean"] == pytest.approx(1.0)  # all 16 images: the full ranking itself
    assert out[0]["spearman_mean"] < out[-1]["spearman_mean"]
