"""A benchmark store drawn by hand for the coverage audit (method §2): its figures are known
without running the audit, so the coverage tests and the style tests check against them."""
from __future__ import annotations

from pathlib import Path

from shapely.geometry import LineString

from geofidelity_plugin.core.selection.geodesy import LocalFrame
from geofidelity_plugin.core.store.store import BenchmarkStore

FRAME = LocalFrame(24.94, 60.17)


def _lonlat(x, y):
    lon, lat = FRAME.to_lonlat(x, y)
    return float(lon), float(lat)


def _line(*points):
    return LineString([_lonlat(x, y) for x, y in points])


def _ms(day: str) -> int:
    import datetime as dt

    return int(dt.datetime.fromisoformat(day + "T12:00:00+00:00").timestamp() * 1000)


SEGMENTS = {"a": ("Testville", "Long Street", _line((-100, 0), (100, 0))),
            "b": ("Testville", "Short Street", _line((0, 500), (100, 500))),
            "c": ("Othertown", "Empty Road", _line((0, -800), (150, -800)))}

#: segment a's candidates: (id, x, y, status, tier, reason, day, sequence, creator)
CANDIDATES = [
    ("k1", -90, 5, "kept", None, None, "2019-03-10", "s1", {"id": "7", "username": "ana"}),
    ("k2", -60, 0, "kept", None, None, "2019-11-20", "s1", {"id": "7", "username": "ana"}),
    ("k3", 50, -12, "kept", None, None, "2020-02-01", "s2", {"id": "9"}),
    ("k4", 95, 25, "kept", None, None, "2020-09-15", "s2", None),
    ("r1", 0, 0, "rejected", 6, "blurred", "2018-01-01", "s3", {"id": "5", "username": "bo"}),
    ("c1", 0, 2, "capped", None, "cap", "2018-06-01", "s3", None),
]


def build_hand_store(root: Path) -> Path:
    """The store described above, in ``root``; other tests of the coverage outputs use it too."""
    path = root / "benchmark.sqlite"
    with BenchmarkStore(path) as store:
        store.put_segments([{"segment_id": sid, "city": city, "street_name": street, "centroid_lon": line.centroid.x,
                             "centroid_lat": line.centroid.y, "geometry_wkt": line.wkt}
                            for sid, (city, street, line) in SEGMENTS.items()])
        store.put_candidates([{"segment_id": "a", "image_id": i, "lon": _lonlat(x, y)[0], "lat": _lonlat(x, y)[1],
                               "captured_at_ms": _ms(day), "sequence": seq, "status": status, "tier": tier,
                               "reason": reason, "record": {"creator": creator} if creator else {}}
                              for i, x, y, status, tier, reason, day, seq, creator in CANDIDATES])
        # segment b: imported reference images, no candidates; one rejected in the manual audit
        ref_lon, ref_lat = _lonlat(50, 500)
        store.put_reference_images([
            {"reference_id": "b:0", "segment_id": "b", "image_id": "ref0", "image_path": str(root / "ref0.jpg"),
             "lon": ref_lon, "lat": ref_lat, "captured_at_ms": _ms("2021-05-05")},
            {"reference_id": "b:1", "segment_id": "b", "image_id": "ref1", "image_path": str(root / "ref1.jpg"),
             "lon": ref_lon, "lat": ref_lat, "captured_at_ms": _ms("2017-01-01")}])
        store.set_audit("b:1", "reject")
    return path
