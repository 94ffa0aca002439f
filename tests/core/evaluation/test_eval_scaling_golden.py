"""Issue 16: the scaled evaluation engine gives, at 1×, the results of the engine before it was
made linear — every quantity within 1e-12.

``tests/data/eval_scaling_golden.npz`` was written by the engine *before* the changes, with
``python benchmarks/eval_synthetic.py --write-golden tests/data/eval_scaling_golden.npz``:
the seeded 1× synthetic benchmark (112 segments × 67 reference images, 4,032 panels of 4
images, 768-d), γ, the reference terms, CosSim/MMD²/DCSF (biased and unbiased), retrieval in
both modes, the per-image retrieval of the sample pairing, and every cell of every bootstrap
table (5,000 resamples; those intervals are the paper's, ``--bootstrap-unit model-segment``, which
issue 41 kept as an option and which must still give them). ``tests/data/eval_scaling_galleries_golden.json`` holds, from the same
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


#: the columns issue 41 added to every table row with an interval (method §7): not in the golden file
NEW_COLUMNS = (".bootstrap_unit:str", ".cities", ".interval_note:str")
#: the interval bounds: the only quantities the default unit (cities, issue 41) changes
BOUNDS = ("_low", "_high", ".low", ".high")


@pytest.fixture(scope="module")
def data():
    return eval_synthetic.build(1)


@pytest.fixture(scope="module")
def now(data):
    """The run with the paper's intervals, which the golden file holds."""
    return eval_synthetic.golden_quantities(data, bootstrap_unit="model-segment")


@pytest.fixture(scope="module")
def default(data):
    """The run with the default intervals (cities resampled with their segments)."""
    return eval_synthetic.golden_quantities(data, bootstrap_unit="city")


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN) as z:
        return {k: z[k] for k in z.files}


def test_same_quantities(now, default, golden):
    """Every golden quantity is still computed; the only new ones are the columns that name each
    row's intervals (issue 41), under either unit."""
    for run in (now, default):
        assert set(golden) <= set(run)
        extra = set(run) - set(golden)
        assert extra and all(k.startswith("table.") and k.endswith(NEW_COLUMNS) for k in extra), sorted(extra)[:5]
    assert len(golden) > 1000
    assert now["table.deltas.0.bootstrap_unit:str"].tolist() == ['"model-segment"']
    assert default["table.deltas.0.bootstrap_unit:str"].tolist() == ['"city"']


def test_default_intervals_change_nothing_but_the_bounds(default, golden):
    """The default unit (cities with their segments) moves the interval bounds and nothing else:
    every estimate, count and note of the golden run stays within 1e-12, and a bound is missing
    where it was missing."""
    moved = []
    for key, expected in golden.items():
        if key.endswith(":str"):
            assert default[key].tolist() == expected.tolist(), key
            continue
        got = np.asarray(default[key], dtype=np.float64)
        both = ~np.isnan(expected) & ~np.isnan(got)
        assert np.array_equal(np.isnan(got), np.isnan(expected)), key
        if key.startswith("table.") and key.endswith(BOUNDS):
            if both.any() and np.max(np.abs(got[both] - expected[both])) > 1e-9:
                moved.append(key)
            continue
        assert not both.any() or np.max(np.abs(got[both] - expected[both])) <= 1e-12, key
    assert len(moved) > 100


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
