"""Coverage audit (stage 2) against an independent computation: gaps measured on the ellipsoid
with pyproj.Geod from points placed at known distances along a real street line."""
from __future__ import annotations

import pytest
from pyproj import Geod
from shapely.geometry import LineString

from geofidelity_plugin.core.reference_panels.coverage.segment_coverage import segment_coverage

GEOD = Geod(ellps="WGS84")


def _point_at(lon, lat, azimuth, metres):
    x, y, _ = GEOD.fwd(lon, lat, azimuth, metres)
    return x, y


def test_gap_between_kept_images_matches_the_ellipsoid():
    start = (24.9400, 60.1700)
    end = _point_at(*start, 90, 600)
    line = LineString([start, end])
    kept_at = [0, 50, 100, 400, 450]  # metres along: one hole 100 → 400 m
    rows = [{"status": "kept", "lon": x, "lat": y, "sequence": f"s{i % 2}", "captured_at_ms": 1_500_000_000_000,
             "tier": None} for i, (x, y) in enumerate(_point_at(*start, 90, d) for d in kept_at)]
    rows += [{"status": "rejected", "tier": 6, "lon": start[0], "lat": start[1]},
             {"status": "rejected", "tier": 2, "lon": start[0], "lat": start[1]},
             {"status": "capped", "lon": start[0], "lat": start[1]}]
    cov = segment_coverage("s", line, rows, radius_m=30.0, gap_radius_m=30.0)
    # hole: from 100 + 30 to 400 − 30 = 240 m; tail: from 450 + 30 to 600 = 120 m
    assert cov.longest_gap_m == pytest.approx(240, abs=1.5)
    lengths = sorted(GEOD.line_length(*zip(*g.coords)) for g in cov.gaps)
    assert lengths == pytest.approx([120, 240], abs=1.5)
    assert sorted(cov.gap_lengths_m) == pytest.approx([120, 240], abs=1.5)
    assert cov.uncovered_fraction == pytest.approx(360 / 600, abs=0.005)
    assert cov.share_uncovered_20m == pytest.approx(360 / 600, abs=0.005)  # the gap radius is 30 m here
    # at the default gap radius (20 m) the two gaps widen by 10 m at each covered end (260 m, 130 m),
    # and images 50 m apart leave 50 − 2·20 = 10 m between them: 0–50, 50–100, 400–450
    narrow = segment_coverage("s", line, rows, radius_m=30.0)
    assert sorted(narrow.gap_lengths_m) == pytest.approx([10, 10, 10, 130, 260], abs=0.5)
    assert narrow.longest_gap_m == pytest.approx(260, abs=0.5)
    assert narrow.share_uncovered_20m == pytest.approx(420 / 600, abs=0.002)
    assert narrow.uncovered_fraction == pytest.approx(360 / 600, abs=0.005)  # still at the 30 m radius
    a = cov.attributes()
    assert (a["images_kept"], a["images_rejected"], a["images_capped"], a["sequences"]) == (5, 2, 1, 2)
    assert a["rejected_tier6"] == 1 and a["rejected_tier2"] == 1 and a["year_span"] == 1


def test_no_images_is_one_full_gap():
    start = (2.35, 48.85)
    line = LineString([start, _point_at(*start, 0, 300)])
    cov = segment_coverage("s", line, [], radius_m=30)
    assert cov.images_kept == 0 and cov.uncovered_fraction == pytest.approx(1.0)
    assert cov.longest_gap_m == pytest.approx(300, abs=1.0) and len(cov.gaps) == 1
