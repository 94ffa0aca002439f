"""``--only-segments``: the ids it reads, the errors it gives, and that scoring some roads gives
those roads exactly the rows of a run over every road."""
from __future__ import annotations

import pytest

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store
from geofidelity_plugin.core.segment_subset import parse_only_segments

FAST = EvaluationOptions(n_bootstrap=200)


def test_ids_from_a_list_or_a_file(tmp_path):
    assert parse_only_segments(None) is None and parse_only_segments("  ") is None
    assert parse_only_segments("a, b,,c") == {"a", "b", "c"}
    ids = tmp_path / "ids.txt"
    ids.write_text("# picked on the map\nseg-1\n\nseg-2\n", encoding="utf-8")
    assert parse_only_segments(f"@{ids}") == {"seg-1", "seg-2"}


@pytest.mark.parametrize("text, message", [(",", "no segment id given"), ("@/nonexistent/ids.txt", "does not exist")])
def test_unusable_lists_are_named(text, message):
    with pytest.raises(InputError, match=message):
        parse_only_segments(text)


def test_some_roads_score_as_in_the_run_over_every_road(tmp_path):
    store, vectors = make_store(tmp_path)
    try:
        every = evaluate_store(store, TableEmbedder(vectors), FAST)
        ids = sorted(s["segment_id"] for s in store.segments())
        picked = frozenset(ids[::3])
        some = evaluate_store(store, TableEmbedder(vectors), FAST, only=picked)
        with pytest.raises(InputError, match="not segments of"):
            evaluate_store(store, TableEmbedder(vectors), FAST, only=frozenset({ids[0], "no-such-road"}))
    finally:
        store.close()
    assert {r["segment_id"] for r in some.rows} == picked
    full = {(r["model"], r["condition"], r["segment_id"]): r for r in every.rows}
    assert len(some.rows) == sum(1 for key in full if key[2] in picked)
    assert some.gamma == pytest.approx(every.gamma, rel=1e-12)
    for row in some.rows:
        twin = full[(row["model"], row["condition"], row["segment_id"])]
        for key in ("cos_sim", "mmd2", "dcsf", "margin_hard", "top1", "rank", "chance_adjusted_top1"):
            assert row[key] == pytest.approx(twin[key], abs=1e-12, nan_ok=True), key
