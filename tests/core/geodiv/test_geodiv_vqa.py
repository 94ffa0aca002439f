"""GeoDiv's VQA path (docs/method.md, GeoDiv) with a tiny VLM built from a config and loaded
through the same code as Qwen2.5-VL: forced log-likelihoods agree with transformers' own loss,
the higher one wins, ties go to the first option, and the answers-CSV path reproduces the
local numbers."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from geofidelity_plugin.core.geodiv import questions as qs
from geofidelity_plugin.core.geodiv.answers import read_answers_csv, score_answers, write_table
from geofidelity_plugin.core.geodiv.standin import make_standin_vlm
from geofidelity_plugin.core.geodiv.vqa import OptionScorer, answer_rows, pick

SET = qs.parse({"name": "t", "questions": [
    {"id": "vis", "axis": "visibility", "question": "Is a road visible?", "options": ["yes", "no"]},
    {"id": "surf", "axis": "entity", "question": "Road surface?", "options": ["asphalt", "dirt", "cobbles"],
     "visibility": "vis"},
    {"id": "bg", "axis": "background", "question": "Background?", "options": ["trees", "hills"]},
    {"id": "aff", "axis": "affluence", "question": "Affluence?", "options": ["1", "2", "3", "4", "5"]},
]})


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    folder = make_standin_vlm(tmp_path_factory.mktemp("vlm"))
    return OptionScorer(str(folder), device="cpu", batch_size=4,
                        cache_dir=tmp_path_factory.mktemp("cache"))


def _image(seed: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, (40, 52, 3), dtype=np.uint8))


def test_pick_breaks_ties_by_option_order():
    assert pick([-3.0, -1.0, -1.0]) == 1
    assert pick([-2.0, -2.0]) == 0
    assert pick([-5.0, -4.0]) == 1


def test_loglik_matches_transformers_loss(scorer):
    import torch

    image, q = _image(1), SET["surf"]
    ours = scorer.score_image(image, [q])["surf"]
    prompt = scorer.prompt(q)
    for option, value in zip(q.options, ours):
        head = scorer.processor(text=[prompt], images=[image], return_tensors="pt")
        full = scorer.processor(text=[prompt + option], images=[image], return_tensors="pt")
        labels = full["input_ids"].clone()
        labels[:, :head["input_ids"].shape[1]] = -100
        with torch.no_grad():
            loss = scorer.model(**full, labels=labels).loss  # mean NLL over the option's tokens
        n = int((labels != -100).sum())
        assert value == pytest.approx(-float(loss) * n, rel=1e-4, abs=1e-4)
    assert len(set(ours)) == 3


def test_higher_forced_loglik_wins_and_ties_go_first(scorer):
    import torch

    image = _image(2)
    head = scorer.model.lm_head
    saved = head.weight.detach().clone()
    try:
        with torch.no_grad():  # hand-made: every next token equally likely (log 1/V each)
            head.weight.zero_()
        q = qs.parse({"questions": [{"id": "x", "axis": "entity", "question": "?",
                                     "options": ["stone road", "tar", "mud", "asphalt"]}]})["x"]
        values = scorer.score_image(image, [q])["x"]
        v = scorer.model.config.text_config.vocab_size
        assert values == pytest.approx([-len(o) * np.log(v) for o in q.options], rel=1e-5)  # byte tokens
        assert pick(values) == 1       # "tar" and "mud" tie (3 tokens each): the first listed wins
        original = scorer.model.lm_head
        biased = torch.nn.Linear(saved.shape[1], saved.shape[0], bias=True)
        with torch.no_grad():          # now "m" (the first token of "mud") is e^20 times likelier
            biased.weight.zero_()
            biased.bias.zero_()
            biased.bias[scorer.tokenizer.convert_tokens_to_ids("m")] = 20.0
        scorer.model.lm_head = biased
        try:
            values = scorer.score_image(image, [q])["x"]
        finally:
            scorer.model.lm_head = original
        norm = np.log(v - 1 + np.exp(20.0))
        assert values[2] == pytest.approx(20.0 - 3 * norm, rel=1e-5)
        assert values[1] == pytest.approx(-3 * norm, rel=1e-5)
        assert pick(values) == 2
    finally:
        with torch.no_grad():
            head.weight.copy_(saved)


def _same(a, b) -> bool:
    """Equal tables, NaN equal to NaN (a question nobody could vote on)."""
    import math

    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


def test_answers_csv_reproduces_the_local_numbers(scorer, tmp_path):
    rows = []
    for i in range(6):
        path = tmp_path / f"img{i}.png"
        _image(10 + i).save(path)
        logliks = scorer.score_file(path, SET)
        assert scorer.score_file(path, SET) == logliks  # second call from the cache
        rows += answer_rows(f"img{i}", logliks, SET, {"model": "m1" if i < 3 else "m2", "city": "x"})
    local = score_answers(rows, SET, ("model", "city"))
    csv_path = write_table(rows, tmp_path / "answers.csv")
    imported = score_answers(read_answers_csv(csv_path, ("model", "city")), SET, ("model", "city"))
    assert [g["model"] for g in local["groups"]] == ["m1", "m2"]
    assert _same(imported, local)
    assert any(r["gated"] for r in local["questions"]) or any(r["votes"] for r in local["questions"])
    assert all(abs(sum(float(p) for p in r["option_probs"].split("|")) - 1) < 1e-4 for r in rows)
