"""Issue 16: the scaled evaluation engine gives, at 1×, the results of the engine before it was
made linear — every quantity within 1e-12.

``tests/data/eval_scaling_golden.npz`` was written by the engine *before* the changes, with
``python benchmarks/eval_synthetic.py --write-golden tests/data/eval_scaling_golden.npz``:
the seeded 1× synthetic benchmark (112 segments × 67 reference images, 4,032 panels of 4
images, 768-d), γ, the reference terms, CosSim/MMD²/DCSF (biased and unbiased), retrieval in
both modes, the per-image retrieval of the sample pairing, and every cell of every bootstrap
table (5,000 resamples). ``tests/data/eval_scaling_galleries_golden.json`` holds, from the same
pre-change code and script (``--write-galleries-golden``), the method §3 galleries that
``build_galleries`` chose for 112 synthetic segment records (seeds 0 and 3, with kept entries).
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "data" / "eval_scaling_golden.npz"
sys.path.insert(0, str(ROOT / "benchmarks"))

import eval_synthetic  # noqa: E402


@pytest.fixture(scope="module")
def now():
    return eval_synthetic.golden_quantities(eval_synthetic.build(1))


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN) as z:
        return {k: z[k] for k in z.files}


def test_same_quantities(now, golden):
    assert sorted(now) == sorted(golden)
    assert len(golden) > 1000


def test_every_quantity_within_1e_12(now, golden):
    worst = {}
    for key, expected in golden.items():
        got = now[key]
        if key.endswith(":str"):
            assert got.tolist() == expected.tolist(), key
            continue
        got = np.asarray(got, dtype=np.float64)
        assert got.shape == expected.shape, key
        assert np.array_equal(np.isnan(got), np.isnan(expected)), f"{key}: missing values differ"
        both = ~np.isnan(expected)
        if both.any():
            worst[key] = float(np.max(np.abs(got[both] - expected[both])))
    bad = {k: v for k, v in worst.items() if v > 1e-12}
    assert not bad, f"quantities that moved by more than 1e-12: {sorted(bad.items())[:10]}"


def test_golden_is_not_trivial(golden):
    """The run exercises what the tables need: missing gallery kinds, sample pairing, intervals."""
    assert np.isnan(golden["retrieval.panel.margin_same_neighbourhood"]).any()
    assert golden["table.deltas.0.pairing:str"].tolist() == ['"sample"']
    low, high = golden["table.by_condition.0.top1_low"][0], golden["table.by_condition.0.top1_high"][0]
    assert low < high


def test_galleries_identical_to_the_golden_file():
    from geofidelity_plugin.core.evaluation.galleries import build_galleries

    golden = json.loads((ROOT / "tests" / "data" / "eval_scaling_galleries_golden.json").read_text())
    segments, keep = eval_synthetic.segment_records(1)
    for name, expected in golden.items():
        assert build_galleries(segments, int(name.removeprefix("seed")), keep) == expected
    assert any(g["random_other_city"] for g in golden["seed0"].values())
