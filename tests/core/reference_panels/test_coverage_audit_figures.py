"""Coverage figures checked by hand (method §2, coverage audit): a small store whose segments
and images sit at known places in a local metric frame (metres east x, north y of a centre in
Helsinki), turned into lon/lat. Every expected number below is worked out by hand in the
comments — from the geometry, not from the code.

Segment "a" runs 200 m west → east along y = 0, from x = −100 to x = +100, so the position
along it is s = x + 100. Segment "b" runs 100 m along y = 500 from x = 0 to x = 100 (s = x).
Segment "c" (another city) is 150 m along y = −800 and has no image.
"""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import fiona
import pytest
from shapely.geometry import LineString

from geofidelity_plugin.core.reference_panels.coverage.audit import audit_store
from geofidelity_plugin.core.reference_panels.coverage.layers import write_coverage_outputs
from geofidelity_plugin.core.selection.geodesy import LocalFrame
from geofidelity_plugin.core.store.store import BenchmarkStore
from coverage_fixture import (CANDIDATES, FRAME, SEGMENTS, _line, _lonlat, _ms,  # noqa: F401
                              build_hand_store)

REPO = Path(__file__).resolve().parents[3]
TOL = 0.05  # metres: two local frames with different centres differ by far less over 1 km


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    return build_hand_store(tmp_path_factory.mktemp("coverage_by_hand"))


@pytest.fixture(scope="module")
def audit(store_path):
    with BenchmarkStore(store_path, create=False) as store:
        return audit_store(store, radius_m=30.0, gap_radius_m=20.0)


def _by_id(audit):
    return {c.segment_id: c for c in audit.coverage}


def test_segment_a_gaps_and_shares_by_hand(audit):
    a = _by_id(audit)["a"]
    assert a.length_m == pytest.approx(200.0, abs=TOL)
    # Within 20 m, an image at distance d from the line covers s ± √(20² − d²):
    #   k1 (s = 10, d = 5):  √375 = 19.365 → [0, 29.365]   k2 (s = 40, d = 0): [20, 60]
    #   k3 (s = 150, d = 12): √256 = 16 → [134, 166]          k4 (d = 25 > 20): nothing
    # covered [0, 60] ∪ [134, 166]; gaps [60, 134] = 74 m and [166, 200] = 34 m
    assert a.gap_lengths_m == pytest.approx([74.0, 34.0], abs=TOL)
    assert a.longest_gap_m == pytest.approx(74.0, abs=TOL)
    assert a.share_uncovered_20m == pytest.approx(108 / 200, abs=0.001)  # 0.54
    # Within 30 m (uncovered_fraction): k1 √875 = 29.580 → [0, 39.580]; k2 [10, 70];
    # k3 √756 = 27.495 → [122.505, 177.495]; k4 (s = 195, d = 25) √275 = 16.583 → [178.417, 200]
    # uncovered: 122.505 − 70 = 52.505 and 178.417 − 177.495 = 0.921 → 53.426 m of 200 = 0.2671
    assert a.uncovered_fraction == pytest.approx(0.2671, abs=0.0005)
    # the rejected (r1) and capped (c1) images sit on the line at s = 100 but cover nothing
    attrs = a.attributes()
    assert (attrs["images_kept"], attrs["images_rejected"], attrs["images_capped"]) == (4, 1, 1)
    assert attrs["images_per_km"] == pytest.approx(20.0, abs=0.01)  # 4 kept images / 0.2 km
    assert attrs["sequences"] == 2  # s1, s2 (s3 holds only the rejected and the capped image)
    assert attrs["gaps"] == 2 and attrs["rejected_tier6"] == 1


def test_segment_a_dates_by_hand(audit):
    a = _by_id(audit)["a"]
    # kept images: 2019-03-10, 2019-11-20, 2020-02-01, 2020-09-15 (r1 2018-01-01 is rejected)
    assert (a.date_first, a.date_last) == ("2019-03-10", "2020-09-15")
    # 2019-03-10 → 2020-03-10 = 366 days (29 Feb 2020 in between); → 2020-09-10 = 31+30+31+30+31+31 = 184;
    # → 2020-09-15 = 5: 366 + 184 + 5 = 555 days, under two years: one bin per month
    assert a.date_span_days == 555 and a.date_unit == "month"
    # March 2019 … September 2020 = 10 + 9 = 19 months, four of them holding one image each
    assert len(a.date_histogram) == 19
    assert list(a.date_histogram)[:2] == ["2019-03", "2019-04"] and list(a.date_histogram)[-1] == "2020-09"
    assert {k: v for k, v in a.date_histogram.items() if v} == {"2019-03": 1, "2019-11": 1, "2020-02": 1,
                                                                "2020-09": 1}
    assert json.loads(a.attributes()["date_histogram"]) == a.date_histogram


def test_reference_only_segment_and_empty_segment_by_hand(audit):
    b, c = _by_id(audit)["b"], _by_id(audit)["c"]
    # b: one usable reference image at s = 50 on the line covers [30, 70]: gaps 30 m and 30 m
    assert b.images_reference == 1 and b.images_kept == 0 and b.images == 1
    assert b.gap_lengths_m == pytest.approx([30.0, 30.0], abs=TOL)
    assert b.share_uncovered_20m == pytest.approx(0.6, abs=0.001) and b.images_per_km == pytest.approx(10.0, abs=0.01)
    # the audit-rejected reference image (2017) neither covers nor dates the segment
    assert (b.date_first, b.date_last, b.date_span_days) == ("2021-05-05", "2021-05-05", 0)
    assert b.date_histogram == {"2021-05": 1}
    # c: no image at all — one gap the whole 150 m
    assert c.gap_lengths_m == pytest.approx([150.0], abs=TOL) and c.share_uncovered_20m == pytest.approx(1.0)
    assert (c.date_first, c.images_per_km, c.sequences) == (None, 0.0, 0)


def test_city_summary_by_hand(audit):
    cities = {row["city"]: row for row in audit.cities}
    test, other = cities["Testville"], cities["Othertown"]
    # Testville: a (200 m) + b (100 m) = 0.3 km; 4 + 1 = 5 images → 16.67 per km
    assert (test["segments"], test["km"], test["images"]) == (2, pytest.approx(0.3, abs=1e-3), 5)
    assert test["images_per_km"] == pytest.approx(16.67, abs=0.01)
    assert test["median_share_uncovered_20m"] == pytest.approx((0.54 + 0.6) / 2, abs=0.001)  # 0.57
    assert test["segments_gap_over_100m"] == 0  # longest gaps 74 m and 30 m
    # 2019-03-10 → 2021-03-10 = 366 + 365 = 731; → 2021-05-05 = 31 + 25 = 56: 787 days
    assert (test["date_first"], test["date_last"], test["date_span_days"]) == ("2019-03-10", "2021-05-05", 787)
    # Othertown: c alone, 150 m with no image: a gap over 100 m, no dates
    assert (other["segments"], other["images"], other["images_per_km"]) == (1, 0, 0.0)
    assert other["median_share_uncovered_20m"] == 1.0 and other["segments_gap_over_100m"] == 1
    assert (other["date_first"], other["date_span_days"]) == (None, 0)


def test_layers_hold_statuses_creators_gaps_buffers_and_cities(audit, tmp_path):
    gpkg, csv_path = write_coverage_outputs(tmp_path / "coverage.gpkg", audit)
    assert csv_path == tmp_path / "coverage_cities.csv"
    assert set(fiona.listlayers(gpkg)) == {"coverage", "coverage_gaps", "coverage_images", "coverage_buffers",
                                           "coverage_cities", "coverage_dates"}
    with fiona.open(gpkg, layer="coverage_images") as src:
        images = {(f["properties"]["segment_id"], f["properties"]["image_id"]): dict(f["properties"]) for f in src}
    status = {k[1]: v["status"] for k, v in images.items()}
    assert status == {"k1": "kept", "k2": "kept", "k3": "kept", "k4": "kept", "r1": "rejected", "c1": "capped",
                      "ref0": "reference", "ref1": "rejected"}
    creator = {k[1]: v["creator"] for k, v in images.items()}
    # the username when the API gave one, else the creator id, else nothing
    assert (creator["k1"], creator["k3"], creator["k4"], creator["r1"], creator["ref0"]) == ("ana", "9", None, "bo",
                                                                                             None)
    assert images[("a", "r1")]["tier"] == 6 and images[("a", "r1")]["reason"] == "blurred"
    assert images[("a", "k1")]["captured_at"] == "2019-03-10" and images[("a", "k1")]["sequence"] == "s1"
    assert images[("b", "ref1")]["reason"] == "manual audit: reject"
    with fiona.open(gpkg, layer="coverage_gaps") as src:
        gaps = sorted((f["properties"]["segment_id"], f["properties"]["gap_length_m"]) for f in src)
    assert gaps == [("a", 34.0), ("a", 74.0), ("b", 30.0), ("b", 30.0), ("c", 150.0)]
    with fiona.open(gpkg, layer="coverage") as src:
        seg = {f["properties"]["segment_id"]: dict(f["properties"]) for f in src}
    assert seg["a"]["share_uncovered_20m"] == 0.54 and seg["a"]["longest_gap_m"] == 74.0
    assert (seg["a"]["date_first"], seg["a"]["date_last"], seg["a"]["date_span_days"]) == ("2019-03-10", "2020-09-15",
                                                                                           555)
    assert seg["a"]["images_per_km"] == 20.0 and seg["a"]["sequences"] == 2 and seg["a"]["street_name"] == "Long Street"
    with fiona.open(gpkg, layer="coverage_buffers") as src:
        buffers = {f["properties"]["segment_id"]: f for f in src}
    from shapely.geometry import shape

    # a 30 m buffer of a 200 m line: 200·60 + π·30² = 14 827 m² (polygonised arcs: a little less)
    area = FRAME_AREA(shape(buffers["a"]["geometry"]))
    assert buffers["a"]["properties"]["buffer_m"] == 30.0 and area == pytest.approx(14827, rel=0.003)
    with fiona.open(gpkg, layer="coverage_cities") as src:
        cities = {f["properties"]["city"]: dict(f["properties"]) for f in src}
    assert cities["Testville"]["segments_gap_over_100m"] == 0 and cities["Othertown"]["segments_gap_over_100m"] == 1
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert [r["city"] for r in rows] == ["Othertown", "Testville"]
    assert rows[1]["images"] == "5" and rows[1]["date_span_days"] == "787" and rows[0]["date_first"] == ""
    with fiona.open(gpkg, layer="coverage_dates") as src:
        dates = [dict(f["properties"]) for f in src if f["properties"]["segment_id"] == "a"]
    assert len(dates) == 19 and sum(d["images"] for d in dates) == 4 and {d["unit"] for d in dates} == {"month"}


def FRAME_AREA(polygon_lonlat) -> float:  # noqa: N802 (reads like the quantity it is)
    from shapely.ops import transform

    return transform(lambda x, y, z=None: FRAME.to_metric(x, y), polygon_lonlat).area


def test_cli_writes_the_gpkg_csv_and_manifest_with_the_gap_radius(store_path, tmp_path):
    out = tmp_path / "cov" / "coverage.gpkg"
    run = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "coverage", "--store", str(store_path),
                          "--out", str(out), "--gap-radius", "25"], cwd=REPO, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    manifest = json.loads((tmp_path / "cov" / "coverage.manifest.json").read_text(encoding="utf-8"))
    assert manifest["stage"] == "coverage" and manifest["options"]["gap_radius_m"] == 25.0
    assert manifest["options"]["radius_m"] == 30.0 and Path(manifest["inputs"]["store"]) == store_path.resolve()
    assert (tmp_path / "cov" / "coverage_cities.csv").is_file()
    # at 25 m, segment b's reference image covers s = 50 ± 25: gaps of 25 m at both ends
    with fiona.open(out, layer="coverage_gaps") as src:
        b = sorted(f["properties"]["gap_length_m"] for f in src if f["properties"]["segment_id"] == "b")
    assert b == pytest.approx([25.0, 25.0], abs=TOL)
    assert "Testville: 2 segments" in run.stdout


def test_gap_radius_must_be_positive(store_path, tmp_path):
    run = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "coverage", "--store", str(store_path),
                          "--out", str(tmp_path / "c.gpkg"), "--gap-radius", "0"], cwd=REPO, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode != 0 and "--gap-radius" in run.stderr and not (tmp_path / "c.gpkg").exists()
