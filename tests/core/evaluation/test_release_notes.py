"""The notes of a release-protocol run (issue 41): a baseline panel that is not scored is counted
once, under the baselines, never among the "generated panels not scored"."""
from __future__ import annotations

import re

import numpy as np

from geofidelity_plugin.core.evaluation.options import EvaluationOptions
from geofidelity_plugin.core.evaluation.release.evaluate import _notes
from geofidelity_plugin.core.evaluation.release.protocol import (BASELINE_LEVEL, RANDOM_SAME_COUNTRY, UNUSED_OPTIONS,
                                                                 split_unused_options)


def test_skipped_baselines_are_counted_once_and_apart_from_the_generated_panels():
    generated = [{"model": "m1", "condition": "L1", "segment_id": f"b{i}",
                  "reason": "every image failed to load"} for i in range(5)]
    baselines = [{"model": RANDOM_SAME_COUNTRY, "condition": BASELINE_LEVEL, "segment_id": f"b{i}",
                  "reason": "no other block of its country"} for i in range(5)]
    rows = [{"mmd": 0.1, "gaas": np.nan}]
    notes = _notes(rows, generated + baselines, {}, None, {}, EvaluationOptions(protocol="release"))
    said = [re.match(r"(\d+) (\w+) panel(?:s|\(s\))? not scored", n) for n in notes]
    counted = {m.group(2): int(m.group(1)) for m in said if m}
    assert counted == {"generated": 5, "baseline": 5}
    assert sum(counted.values()) == len(generated + baselines)
    only_baselines = _notes(rows, baselines, {}, None, {}, EvaluationOptions(protocol="release"))
    assert not any("generated panel" in n for n in only_baselines)


def test_unused_options_move_out_of_the_options():
    manifest = {"options": {"seed": 3, "mmd_unbiased": False, "retrieval_mode": "panel", "holdout_size": 4,
                            "feature_model": "x"}, "notes": []}
    split = split_unused_options(manifest)
    assert split["options"] == {"seed": 3, "feature_model": "x"}
    assert split["options_not_used"] == {"mmd_unbiased": False, "retrieval_mode": "panel", "holdout_size": 4}
    assert manifest["options"]["holdout_size"] == 4  # the caller's dict is left alone
    assert {"mmd_unbiased", "retrieval_mode", "holdout_size"} <= set(UNUSED_OPTIONS)
