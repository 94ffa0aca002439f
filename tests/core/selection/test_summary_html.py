"""The selection's HTML summary reads as a person writes: "1 city", "6 km", "400 m"."""
from __future__ import annotations

import re

from geofidelity_plugin.core.selection.segments import Segment
from geofidelity_plugin.core.selection.writers import summary_html


def _segment(sid: str, city: str) -> Segment:
    return Segment(sid, city, "Finland", "FI", "Mikonkatu", "Kluuvi", "osm", "secondary", "secondary", 400.0, 420.0,
                   24.94, 60.17, "right", "1", 100.0, 1)


def _intro(text: str) -> str:
    return re.sub(r"\s+", " ", re.search(r"<p>(.*?)</p>", text, re.S).group(1))


def test_counts_and_distances_read_as_people_write_them():
    manifest = {"inputs": {"road_source": "helsinki.osm.pbf"},
                "options": {"radius_m": 6000.0, "min_length_m": 150.0, "clip_length_m": 400.0,
                            "min_spacing_m": 12.5, "seed": 0}}
    one = _intro(summary_html([_segment("a", "Helsinki")], manifest))
    assert one.startswith("1 segment in 1 city from helsinki.osm.pbf.")
    assert "Radius 6 km, minimum length 150 m, clipped to 400 m, spacing ≥ 12.5 m, seed 0" in one
    two = _intro(summary_html([_segment("a", "Helsinki"), _segment("b", "Espoo")], {"options": {}}))
    assert two.startswith("2 segments in 2 cities from .") and "Radius —" in two
