"""Issue 28: the faster codes of the tables' rows give what the row-by-row dicts gave — integer
keys numbered by a sort, each unit's last row from a table, the shared-noise test without a loop
over units — written out here as the dicts they replace."""
from __future__ import annotations

import numpy as np
import pytest

from geofidelity_plugin.core.evaluation.statistics.row_columns import _factorize, last_rows, unit_codes, with_keys
from geofidelity_plugin.core.evaluation.statistics.tables import shared_noise


def dict_codes(values):
    lookup: dict = {}
    return [lookup.setdefault(v, len(lookup)) for v in values]


@pytest.mark.parametrize("values", [np.array([5, 3, 5, 9, 3, 0, 9]), np.array([True, False, True]),
                                    np.array([7, 7], dtype=np.uint8), np.array(["b", "a", "b"], dtype=object)])
def test_codes_are_numbered_in_order_of_first_appearance(values):
    assert _factorize(values).tolist() == dict_codes(values.tolist())


@pytest.mark.parametrize("codes", [np.array([4, 1, 4, 2, 1, 4]), np.array([10 ** 12, 3, 10 ** 12, 3, 7])])
def test_last_rows_are_the_rows_a_dict_keeps(codes):
    """Small codes go through a table, large ones through a sort (the second case)."""
    kept = {c: row for row, c in enumerate(codes.tolist())}
    known, last = last_rows(codes)
    assert known.tolist() == sorted(kept) and last.tolist() == [kept[c] for c in sorted(kept)]


def test_with_keys_codes_each_key_column_once_with_the_same_codes():
    cols = {"model": np.array(["m", "n", "m", "m"], dtype=object),
            "segment_id": np.array(["s", "s", "t", "s"], dtype=object), "sample": np.array([0, 1, 0, 1])}
    out = with_keys(cols, ("model", "segment_id", "sample"), ("model", "segment_id"), labels=False)
    for keys in (("model", "segment_id", "sample"), ("model", "segment_id")):
        alone = unit_codes(cols, keys)
        assert out["code:" + ",".join(keys)].tolist() == alone.tolist()
    assert "city_label" not in out


def dict_shared_noise(samples, base, treat):
    """The shared-noise test as dicts: each unit's last seed per condition, then every unit under
    both with one seed, not None, and seeds that vary between units (or a single unit)."""
    seeds = {base: {}, treat: {}}
    for m, s, k, c, seed in zip(samples["model"], samples["segment_id"], samples["sample"], samples["condition"],
                                samples["seed"]):
        if c in seeds:
            seeds[c][(m, s, k)] = seed
    both = [(seeds[base][u], seeds[treat][u]) for u in seeds[base] if u in seeds[treat]]
    if not both or not all(s is not None and s == t for s, t in both):
        return False
    return len(both) == 1 or len({s for s, _ in both}) > 1


def _samples(seeds, conditions, samples=(0, 1, 2)):
    rows = [(f"m{u % 2}", f"s{u}", k, c) for u in range(3) for k in samples for c in conditions]
    column = lambda i: np.array([r[i] for r in rows], dtype=object)  # noqa: E731
    return {"model": column(0), "segment_id": column(1), "sample": np.array([r[2] for r in rows]),
            "condition": column(3), "seed": np.array([seeds(*r) for r in rows], dtype=object)}


@pytest.mark.parametrize("seeds, expected", [
    (lambda m, s, k, c: 10 * k + int(s[1:]), True),                       # shared, varying: sample pairing
    (lambda m, s, k, c: 10 * k + (c == "L1"), False),                     # one seed per condition
    (lambda m, s, k, c: 7, False),                                        # one constant seed everywhere
    (lambda m, s, k, c: None if (s, k) == ("s1", 2) else 10 * k, False),  # a seed not recorded
])
def test_shared_noise_equals_the_dict_test(seeds, expected):
    samples = _samples(seeds, ("L0", "L1", "L2"))
    assert shared_noise(samples, "L0", "L1") is expected is dict_shared_noise(samples, "L0", "L1")
    one = _samples(seeds, ("L0", "L1"), samples=(0,))
    one = {k: v[:2] for k, v in one.items()}  # a single unit under both
    assert shared_noise(one, "L0", "L1") == dict_shared_noise(one, "L0", "L1")
