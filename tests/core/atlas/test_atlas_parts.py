"""The qgis-free parts of the atlas: thumbnail strips (rejected images marked), the page texts
and the per-segment data gathered from a store (no QGIS, no torch)."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from geofidelity_plugin.core.atlas.data import Thumb
from geofidelity_plugin.core.atlas.strips import BORDER, REJECTED_RGB, compose_row, compose_strip
from geofidelity_plugin.core.errors import InputError


def _photo(path, colour):
    Image.new("RGB", (400, 300), colour).save(path)
    return str(path)


def test_the_strip_frames_rejected_images_in_red_and_says_so(tmp_path):
    thumbs = [Thumb(_photo(tmp_path / "a.jpg", (0, 90, 200)), "#1"),
              Thumb(_photo(tmp_path / "b.jpg", (0, 90, 200)), "#2", rejected=True),
              Thumb(str(tmp_path / "missing.jpg"), "#3")]
    strip = np.asarray(Image.open(compose_strip(thumbs, tmp_path / "strip.png", height=120)).convert("RGB"))
    tile_w = 160 + 2 * BORDER  # 4:3 tiles of height 120
    assert strip.shape[0] == 120 + 2 * BORDER + 22 and strip.shape[1] == 3 * tile_w + 2 * 8
    red = np.all(np.abs(strip.astype(int) - REJECTED_RGB) < 10, axis=2)
    first, second, third = (red[:, i * (tile_w + 8):i * (tile_w + 8) + tile_w] for i in range(3))
    assert second[:BORDER].mean() > 0.9 and second[:120, :BORDER].mean() > 0.9  # a full red frame
    assert first.sum() == 0 and third.sum() == 0  # only the rejected one
    caption = second[120 + 2 * BORDER:]
    assert caption.sum() > 50  # "#2 rejected", written in red under it
    assert np.abs(strip[60, BORDER + 80].astype(int) - (0, 90, 200)).max() < 10  # the image itself
    grey = strip[20, 2 * (tile_w + 8) + BORDER + 20]
    assert tuple(grey) == (210, 210, 210)  # the missing image is a grey tile, not a crash
    assert compose_strip([], tmp_path / "none.png") is None and not (tmp_path / "none.png").exists()
    row = compose_row([("model a", tmp_path / "strip.png"), ("model b", tmp_path / "strip.png")], tmp_path / "row.png")
    assert Image.open(row).width == 2 * strip.shape[1] + 30


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


def _bars(png):
    """The bars of a chart: (centre x, height in px) per run of bar-coloured columns."""
    from geofidelity_plugin.core.atlas.dates import BAR_RGB

    rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
    mask = np.all(np.abs(rgb - BAR_RGB) <= 2, axis=2)
    columns = mask.any(axis=0)
    runs, start = [], None
    for x, on in enumerate(list(columns) + [False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            runs.append((start, x))
            start = None
    return [((a + b - 1) / 2, int(mask[:, (a + b) // 2].sum())) for a, b in runs]


def test_the_date_chart_draws_the_audits_bins_as_bars(tmp_path):
    """One bar per dated bin, heights in proportion to the audit's counts, an empty bin an empty
    slot (a gap in time reads as a gap); the bins come from the audit, never re-binned."""
    from geofidelity_plugin.core.atlas.data import AtlasSegment
    from geofidelity_plugin.core.atlas.dates import (NO_DATES, SIZE, BOTTOM, TOP, dates_title, draw_histogram,
                                                     histogram_of, segment_dates_chart)

    row = {"date_unit": "year", "date_histogram": '{"2019":3,"2020":0,"2021":6,"2022":1}'}
    unit, counts = histogram_of(row)
    assert unit == "year" and counts == {"2019": 3, "2020": 0, "2021": 6, "2022": 1}
    table = [{"segment_id": "s", "unit": "year", "period": p, "images": n} for p, n in counts.items()]
    assert histogram_of({"date_unit": "year"}, table) == ("year", counts)  # an audit without the field
    bars = _bars(draw_histogram(counts, tmp_path / "chart.png"))
    assert len(bars) == 3  # 2019, 2021, 2022: the empty 2020 has no bar
    plot_h = SIZE[1] - TOP - BOTTOM
    assert [h for _, h in bars] == [round(plot_h * n / 6) for n in (3, 6, 1)]
    (x19, _), (x21, _), (x22, _) = bars
    assert abs((x21 - x19) / (x22 - x21) - 2.0) < 0.02  # 2020 keeps its slot
    monthly = {f"2019-{m:02d}": (m * 7) % 5 for m in range(1, 13)} | {f"2020-{m:02d}": m % 3 for m in range(1, 13)}
    heights = [h for _, h in _bars(draw_histogram(monthly, tmp_path / "monthly.png"))]
    peak = max(monthly.values())
    assert heights == [round(plot_h * n / peak) for n in monthly.values() if n]
    assert draw_histogram({"2019": 0}, tmp_path / "none.png") is None and not (tmp_path / "none.png").exists()
    page = AtlasSegment("a/b", {}, [], {}, {}, {"date_unit": "month", "date_histogram": '{"2019-06":8}'})
    assert dates_title(page) == "Capture dates: images per month (8 dated images)"
    assert len(_bars(segment_dates_chart(page, tmp_path))) == 1 and (tmp_path / "a_b_dates.png").is_file()
    undated = AtlasSegment("c", {}, [], {}, {}, {"images_kept": 3, "date_histogram": "{}"})
    assert dates_title(undated) == f"Capture dates: {NO_DATES}" and segment_dates_chart(undated, tmp_path) is None
    assert dates_title(AtlasSegment("d", {}, [], {}, {})) == ""  # no audit: the coverage text says so
    older = AtlasSegment("e", {}, [], {}, {}, {"date_first": "2019-06-08"})  # an audit before the histogram
    assert "no histogram" in dates_title(older) and " — run the coverage audit again" in dates_title(older)
    assert dates_title(AtlasSegment("e", {}, [], {}, {}, {"date_first": "2019-06-08"}, dates=table)).startswith(
        "Capture dates: images per year")


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
