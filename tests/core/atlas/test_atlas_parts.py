"""The qgis-free parts of the atlas: the page texts, the capture-date bins and the per-segment
data gathered from a store (no QGIS, no torch). Qt draws the pictures: tests/qgis_side/test_atlas_pictures.py."""
from __future__ import annotations

import pytest
from PIL import Image

from geofidelity_plugin.core.atlas.data import Thumb
from geofidelity_plugin.core.errors import InputError


def _photo(path, colour):
    Image.new("RGB", (400, 300), colour).save(path)
    return str(path)


def test_the_date_bins_and_title_come_from_the_audit():
    """The bins are the audit's own — its ``date_histogram`` field, else its ``coverage_dates``
    rows — never re-binned; the chart's title says the unit or why there is no chart."""
    from geofidelity_plugin.core.atlas.data import AtlasSegment
    from geofidelity_plugin.core.atlas.dates import NO_DATES, dates_title, histogram_of

    row = {"date_unit": "year", "date_histogram": '{"2019":3,"2020":0,"2021":6,"2022":1}'}
    unit, counts = histogram_of(row)
    assert unit == "year" and counts == {"2019": 3, "2020": 0, "2021": 6, "2022": 1}
    table = [{"segment_id": "s", "unit": "year", "period": p, "images": n} for p, n in counts.items()]
    assert histogram_of({"date_unit": "year"}, table) == ("year", counts)  # an audit without the field
    assert histogram_of({"date_histogram": "not json"}) == ("year", {})
    assert histogram_of({"date_histogram": '{"2019": "x", "2020": -2}'}) == ("year", {"2020": 0})
    page = AtlasSegment("a/b", {}, [], {}, {}, {"date_unit": "month", "date_histogram": '{"2019-06":8}'})
    assert dates_title(page) == "Capture dates: images per month (8 dated images)"
    undated = AtlasSegment("c", {}, [], {}, {}, {"images_kept": 3, "date_histogram": "{}"})
    assert dates_title(undated) == f"Capture dates: {NO_DATES}"
    assert dates_title(AtlasSegment("d", {}, [], {}, {})) == ""  # no audit: the coverage text says so
    older = AtlasSegment("e", {}, [], {}, {}, {"date_first": "2019-06-08"})  # an audit before the histogram
    assert "no histogram" in dates_title(older) and " — run the coverage audit again" in dates_title(older)
    assert dates_title(AtlasSegment("e", {}, [], {}, {}, {"date_first": "2019-06-08"}, dates=table)).startswith(
        "Capture dates: images per year")


def test_page_texts_show_scores_beside_the_anchors_and_the_coverage():
    from geofidelity_plugin.core.atlas.data import AtlasSegment
    from geofidelity_plugin.core.atlas.text import coverage_text, scores_text
    from geofidelity_plugin.core.attribution import MAPILLARY, OSM, STAND_IN

    page = AtlasSegment("s1", {"street_name": "Mikonkatu", "city": "Helsinki"}, [], {},
                        {"m1": {"cos_sim": 0.5, "margin_hard": -0.1234, "top1": None},
                         "anchor:held_out_real": {"cos_sim": 0.97, "margin_hard": 0.2, "top1": 1.0}},
                        {"images_kept": 8, "images_per_km": 18.55, "sequences": 2, "date_first": "2019-06-08",
                         "date_last": "2021-06-07", "date_span_days": 730, "share_uncovered_20m": 0.297,
                         "longest_gap_m": 127.6},
                        creators=[{"id": "1", "username": "kari"}], stand_in="STAND-IN DATA")
    lines = scores_text(page).splitlines()
    assert lines[0].split() == ["Scores", "CosSim", "Δhard", "top-1"]  # MMD² and GADS: no value, no column
    assert lines[1].split() == ["m1", "0.500", "-0.123", "—"]
    assert lines[2].split() == ["real", "held_out_real", "0.970", "0.200", "1.000"]
    assert lines[3] == "↑ higher is better: CosSim, Δhard, top-1" and lines[4].startswith("Δhard > 0: closer to this")
    assert coverage_text(page).splitlines() == [
        "Coverage (audit)", "8 images kept, 18.6 / km, 2 sequences", "captured 2019-06-08 … 2021-06-07 (730 days)",
        "30 % of its length > 20 m from an image; longest gap 128 m"]
    assert page.credits() == [OSM, f"{MAPILLARY} — photos by kari", STAND_IN]
    bare = AtlasSegment("s2", {}, [], {}, {})
    assert "not evaluated" in scores_text(bare) and "no coverage audit" in coverage_text(bare)
    assert bare.credits() == [OSM, MAPILLARY] and bare.street_name == "s2"


def test_gather_reads_panels_audit_and_creators_from_a_store(tmp_path):
    from geofidelity_plugin.core.atlas.data import gather
    from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage

    photo = _photo(tmp_path / "p.jpg", (10, 10, 10))
    with BenchmarkStore(tmp_path / "s.sqlite") as store:
        store.put_segments([{"segment_id": sid, "city": "Oslo", "street_name": name, "centroid_lon": 10.0,
                             "centroid_lat": 59.9} for sid, name in (("b", "Storgata"), ("a", "Akersgata"))])
        store.put_reference_images([{"reference_id": f"a:{i}", "segment_id": "a", "image_id": f"i{i}",
                                     "image_path": photo} for i in range(3)])
        store.set_audit("a:1", "reject")
        store.put_candidates([{"segment_id": "a", "image_id": "i0", "status": "kept",
                               "record": {"creator": {"username": "ola"}}}])
        store.put_generated([GeneratedImage(m, c, "a", 0, photo) for m in ("m1", "m2") for c in ("L0", "L1")])
    pages = gather(tmp_path / "s.sqlite", None, condition="L0")
    assert [p.street_name for p in pages] == ["Akersgata", "Storgata"]  # by city, then street name
    a = pages[0]
    assert [(t.label, t.rejected) for t in a.references] == [("#1", False), ("#2", True), ("#3", False)]
    assert sorted(a.generated) == ["m1", "m2"] and all(len(v) == 1 for v in a.generated.values())
    assert a.creators == [{"username": "ola"}] and a.stand_in is None and pages[1].generated == {}
    assert list(gather(tmp_path / "s.sqlite", None, models=["m2"], condition="L1")[0].generated) == ["m2"]
    with pytest.raises(InputError, match="model 'm3' has no generated images .* — choose among m1, m2"):
        gather(tmp_path / "s.sqlite", None, models=["m3"])


def test_a_page_names_at_most_six_photographers():
    from geofidelity_plugin.core.atlas.data import AtlasSegment
    from geofidelity_plugin.core.attribution import MAPILLARY, OSM

    names = [f"user{i}" for i in range(9)]
    creators = [{"id": str(i), "username": n} for i, n in enumerate(names)] + ['{"username": "user0"}']
    page = AtlasSegment("s", {}, [], {}, {}, creators=creators)
    assert page.photographers == names  # the manifest's full list: every name once
    assert page.credits() == [OSM, f"{MAPILLARY} — photos by user0, user1, user2, user3, user4, user5 and 3 more"]
    six = AtlasSegment("s", {}, [], {}, {}, creators=names[:6])
    assert six.credits()[1] == f"{MAPILLARY} — photos by {', '.join(names[:6])}"


def test_the_city_table_of_the_cover():
    from geofidelity_plugin.core.atlas.text import MAX_CITY_ROWS, city_table_text

    row = {"city": "Helsinki", "segments": 10, "km": 5.302, "images": 80, "images_per_km": 15.09,
           "median_share_uncovered_20m": 0.2962, "segments_gap_over_100m": 7, "date_first": "2019-06-08",
           "date_last": "2021-06-07", "date_span_days": 730}
    lines = city_table_text([row, {"city": "Oslo", "segments": 1, "km": 0.4, "images": 0, "images_per_km": 0.0,
                                   "median_share_uncovered_20m": 1.0, "segments_gap_over_100m": 1}]).splitlines()
    assert lines[0] == "City coverage (audit)" and lines[1].split()[:3] == ["City", "Segments", "km"]
    assert lines[2].split() == ["Helsinki", "10", "5.30", "80", "15.1", "30", "%", "7", "2019-06-08", "…",
                                "2021-06-07", "(730", "days)"]
    assert lines[3].endswith("1  no capture dates") and "100 %" in lines[3]
    many = city_table_text([dict(row, city=f"c{i}") for i in range(MAX_CITY_ROWS + 2)]).splitlines()
    assert len(many) == 2 + MAX_CITY_ROWS + 1 and many[-1].startswith("… and 2 more cities")
    assert "no coverage audit given — " in city_table_text([], coverage_given=False)
    assert "no city summary" in city_table_text([]) and " — run the coverage audit again" in city_table_text([])
