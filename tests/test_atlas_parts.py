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
