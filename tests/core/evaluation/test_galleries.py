"""Galleries (method §3) checked with independent code: geodesic nearest via pyproj.Geod,
kind constraints, distinct negatives, K, seeding, the release's own neg_* ids."""
from __future__ import annotations

import pytest
from pyproj import Geod

from geofidelity_plugin.core.evaluation.galleries import (
    ALL_KINDS, MAIN_KINDS, NEAREST_SAME_CITY, RANDOM_OTHER_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD,
    SAME_DRIVING_SIDE_OTHER_CITY, SAME_NEIGHBOURHOOD, build_galleries, gallery_size)

GEOD = Geod(ellps="WGS84")


def _segments():
    out = []
    spec = [("Alpha", "right", 24.90, 60.10, 5), ("Beta", "left", -0.10, 51.50, 4),
            ("Gamma", "right", 25.50, 60.40, 3), ("Delta", "left", 139.7, 35.7, 2)]
    for city, side, lon, lat, n in spec:
        for k in range(n):
            out.append({"segment_id": f"{city}-{k}", "city": city, "neighbourhood": f"{city}-N{k % 2}",
                        "driving_side": side, "centroid_lon": lon + 0.013 * k * (-1) ** k,
                        "centroid_lat": lat + 0.007 * k})
    return out


def test_every_kind_obeys_its_rule():
    segs = _segments()
    by_id = {s["segment_id"]: s for s in segs}
    galleries = build_galleries(segs, seed=3)
    for sid, g in galleries.items():
        t = by_id[sid]
        same_city = [s for s in segs if s["city"] == t["city"] and s["segment_id"] != sid]
        # nearest: independent geodesic distances
        dists = {s["segment_id"]: GEOD.inv(t["centroid_lon"], t["centroid_lat"], s["centroid_lon"], s["centroid_lat"])[2]
                 for s in same_city}
        assert g[NEAREST_SAME_CITY] == min(dists, key=dists.get)
        neg = by_id[g[SAME_CITY_OTHER_NEIGHBOURHOOD]] if g[SAME_CITY_OTHER_NEIGHBOURHOOD] else None
        if neg:
            assert neg["city"] == t["city"] and neg["neighbourhood"] != t["neighbourhood"]
        side = by_id[g[SAME_DRIVING_SIDE_OTHER_CITY]]
        assert side["city"] != t["city"] and side["driving_side"] == t["driving_side"]
        assert by_id[g[RANDOM_OTHER_CITY]]["city"] != t["city"]
        main = [g[k] for k in MAIN_KINDS if g[k]]
        assert len(main) == len(set(main)) and sid not in main
        if g[SAME_NEIGHBOURHOOD]:
            strict = by_id[g[SAME_NEIGHBOURHOOD]]
            assert strict["neighbourhood"] == t["neighbourhood"] and strict["segment_id"] != sid


def test_single_city_gives_k3():
    segs = [s for s in _segments() if s["city"] == "Alpha"]
    galleries = build_galleries(segs)
    assert all(gallery_size(g) == 3 for g in galleries.values())
    assert all(g[RANDOM_OTHER_CITY] is None and g[SAME_DRIVING_SIDE_OTHER_CITY] is None for g in galleries.values())


def test_seeded_and_order_independent():
    segs = _segments()
    a = build_galleries(segs, seed=1)
    assert a == build_galleries(list(reversed(segs)), seed=1)
    assert a == build_galleries(segs, seed=1)
    assert any(a[s] != b for s, b in build_galleries(segs, seed=2).items())


def test_keep_release_negatives():
    segs = _segments()
    keep = {"Alpha-0": {SAME_CITY_OTHER_NEIGHBOURHOOD: "Alpha-3", RANDOM_OTHER_CITY: "Delta-1"}}
    g = build_galleries(segs, keep=keep)["Alpha-0"]
    assert g[SAME_CITY_OTHER_NEIGHBOURHOOD] == "Alpha-3" and g[RANDOM_OTHER_CITY] == "Delta-1"
    assert "Delta-1" not in (g[NEAREST_SAME_CITY], g[SAME_DRIVING_SIDE_OTHER_CITY])
    assert set(g) == set(ALL_KINDS)


def test_lone_segment_has_no_negatives():
    g = build_galleries(_segments()[:1])
    assert gallery_size(next(iter(g.values()))) == 1


def test_duplicate_ids_rejected():
    from geofidelity_plugin.core.errors import InputError

    with pytest.raises(InputError, match="not unique"):
        build_galleries(_segments()[:2] + _segments()[:1])


def test_a_city_is_its_name_and_its_country():
    """Two cities called Alpha, in Finland and in the United States: the same-city kinds stay in
    the target's own country and the other-city kinds may take the other Alpha."""
    segs = [{"segment_id": f"{cc}-{k}", "city": "Alpha", "country_code": cc, "neighbourhood": f"N{k % 2}",
             "driving_side": "right", "centroid_lon": lon + 0.01 * k, "centroid_lat": lat}
            for cc, lon, lat in (("FI", 24.9, 60.1), ("US", -87.6, 41.9)) for k in range(4)]
    galleries = build_galleries(segs, seed=1)
    for sid, gallery in galleries.items():
        country = sid.split("-")[0]
        for kind in (NEAREST_SAME_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD):
            assert gallery[kind] is not None and gallery[kind].split("-")[0] == country, (sid, kind)
        for kind in (SAME_DRIVING_SIDE_OTHER_CITY, RANDOM_OTHER_CITY):
            assert gallery[kind] is not None and gallery[kind].split("-")[0] != country, (sid, kind)
