"""What the fetch asks the Mapillary API for (method §2), counted by the local server
(``tests/mapillary_server.py``):

- curation tiers 1–3 run on the search results, so thumbnail requests drop by exactly the
  number of images the metadata rules out, and curation keeps the same images;
- expired thumbnail URLs are renewed in batches (``/images?image_ids=…``), never more ids per
  request than allowed, with the single-id request as the fallback;
- the search boxes reach far enough past the buffer that an image whose GPS position lies 45 m
  out, but whose computed position lies in the buffer, is found when the server matches boxes
  on GPS positions; the buffer test itself stays on the computed position.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from shapely.geometry import LineString

from geofidelity_plugin.core.reference_panels.curation.curate import CurationOptions
from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient
from geofidelity_plugin.core.reference_panels.workflow import curate_store, fetch_store
from geofidelity_plugin.core.store.store import BenchmarkStore
from mapillary_server import TOKEN, FakeImage, FakeMapillary
from mapillary_worlds import DAY, START, dense_street, point

REPO = Path(__file__).resolve().parents[3]
NO_MODELS = dict(siglip_model=None, vistas_model=None)


def new_store(path: Path, line: LineString) -> BenchmarkStore:
    store = BenchmarkStore(path)
    store.put_segments([{"segment_id": "hel-1", "city": "Helsinki", "centroid_lon": line.centroid.x,
                         "centroid_lat": line.centroid.y, "geometry": line}])
    return store


def client_for(fake, store, **kwargs) -> MapillaryClient:
    return MapillaryClient(TOKEN, base_url=fake.base_url, cache_dir=store.root / "mapillary",
                           requests_per_second=None, **kwargs)


@pytest.fixture(scope="module")
def small_street():
    return dense_street(length_m=400.0, through=2, cluster_sequences=8, cluster_from_m=200.0,
                        cluster_to_m=260.0, per_cluster_sequence=6, rejectable_every=5)


def test_images_the_metadata_rules_out_are_never_downloaded(small_street, tmp_path):
    world, line = small_street, LineString(small_street.line)
    runs = {}
    for name, prefilter in (("all", False), ("prefilter", True)):
        with FakeMapillary(world.images) as fake, new_store(tmp_path / name / "s.sqlite", line) as store:
            client = client_for(fake, store)
            totals = fetch_store(store, client, prefilter=prefilter)
            result = curate_store(store, CurationOptions(**NO_MODELS, cap_per_segment=20))
            runs[name] = (fake.counts["image"], dict(fake.image_counts), totals, result,
                          {c["image_id"]: c for c in store.candidates()})
    (all_requests, _, all_totals, all_result, _), (requests, per_image, totals, result, rows) = runs.values()
    kinds = set(world.rejectable.values())
    assert kinds == {"pano", "fisheye", "night", "outside"} and len(world.rejectable) >= 20
    assert all_totals["images"] == totals["images"] == len(world.images)  # every image found
    assert all_requests - requests == len(world.rejectable) == totals["not_downloaded"]
    assert all_totals["not_downloaded"] == 0 and totals["downloaded"] == len(world.images) - len(world.rejectable)
    assert not any(per_image.get(i) for i in world.rejectable)
    assert sorted(result.kept()) == sorted(all_result.kept()) and len(result.kept()) == 20
    for image_id, kind in world.rejectable.items():
        row = rows[image_id]
        assert row["status"] == "rejected" and row["image_path"] is None
        assert row["tier"] == {"outside": 1, "pano": 2, "fisheye": 2, "night": 3}[kind], (kind, row["reason"])


def test_expired_urls_are_renewed_in_batches(tmp_path):
    world = dense_street(length_m=500.0, through=3, cluster_sequences=0, rejectable_every=0)
    n = len(world.images)
    line = LineString(world.line)
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "s" / "s.sqlite", line) as store:
        fake.stale_oe = True  # every URL of the search has expired: renewed before the downloads
        totals = fetch_store(store, client_for(fake, store, max_workers=8))
        assert totals["downloaded"] == n > 150
        assert fake.counts["batch"] == math.ceil(n / 50) and max(fake.batch_sizes) == 50
        assert fake.counts["batch_id"] == n and fake.counts["entity"] == 0 and fake.counts["image"] == n
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "t" / "s.sqlite", line) as store:
        fake.expire_first = True  # the CDN refuses each first URL: workers renew together
        totals = fetch_store(store, client_for(fake, store, max_workers=8))
        assert totals["downloaded"] == n and fake.counts["entity"] == 0
        assert fake.counts["batch_id"] == n and fake.counts["batch"] <= n / 2
        assert fake.counts["image"] == 2 * n


def test_batch_renewal_falls_back_to_one_image_at_a_time(tmp_path):
    world = dense_street(length_m=200.0, through=1, cluster_sequences=0, rejectable_every=0)
    n, line = len(world.images), LineString(world.line)
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "a" / "s.sqlite", line) as store:
        fake.stale_oe, fake.batch_unsupported = True, True  # an API without image_ids
        totals = fetch_store(store, client_for(fake, store))
        assert totals["downloaded"] == n and fake.counts["batch"] == 1 and fake.counts["entity"] == n
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "b" / "s.sqlite", line) as store:
        fake.stale_oe = True
        fake.batch_omit = {image.image_id for image in world.images[::4]}  # left out of the answers
        totals = fetch_store(store, client_for(fake, store))
        assert totals["downloaded"] == n and fake.counts["entity"] == len(fake.batch_omit)
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "c" / "s.sqlite", line) as store:
        fake.stale_oe, fake.max_image_ids = True, 10  # a stricter API: too many ids is a 400
        totals = fetch_store(store, client_for(fake, store, refresh_batch=10))
        assert totals["downloaded"] == n and max(fake.batch_sizes) == 10 and fake.counts["entity"] == 0
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "d" / "s.sqlite", line) as store:
        fake.stale_oe = True
        totals = fetch_store(store, client_for(fake, store, refresh_batch=1))  # the old way
        assert totals["downloaded"] == n and fake.counts["batch"] == 0 and fake.counts["entity"] == n


def far_gps_world():
    """On a 300 m street: ``gps-out`` is taken 5 m from it (computed position) but its GPS puts it
    45 m out; ``computed-out`` is the other way round; ``plain`` is an ordinary image."""
    when = int(DAY.timestamp() * 1000)

    def image(image_id, along, computed_north, gps_north):
        (lon, lat), (gps_lon, gps_lat) = point(along, computed_north), point(along, gps_north)
        return FakeImage(image_id=image_id, lon=lon, lat=lat, gps_lon=gps_lon, gps_lat=gps_lat,
                         captured_at=when, compass_angle=90.0, sequence=f"seq{image_id:0>19}")

    return [image("1001", 150.0, 5.0, 45.0), image("1002", 100.0, 45.0, 5.0), image("1003", 200.0, 2.0, 3.0)]


@pytest.mark.parametrize("pad, found", [(10.0, {"1002", "1003"}), (None, {"1001", "1002", "1003"})])
def test_an_image_whose_gps_lies_45_m_out_is_found_when_the_search_matches_gps(pad, found, tmp_path):
    line = LineString([START, point(300.0)])
    with FakeMapillary(far_gps_world()) as fake, new_store(tmp_path / "s" / "s.sqlite", line) as store:
        fake.match_on = "gps"
        options = {} if pad is None else {"search_pad_m": pad}  # 10 m: the reach before
        fetch_store(store, client_for(fake, store), **options)
        result = curate_store(store, CurationOptions(**NO_MODELS))
        rows = {c["image_id"]: c for c in store.candidates()}
    assert set(rows) == found
    kept = set(result.kept())
    assert ("1001" in kept) == ("1001" in found)  # in the buffer by its computed position
    assert "1002" not in kept and rows["1002"]["tier"] == 1  # 45 m out by its computed position
    if "1001" in found:
        assert rows["1001"]["measures"]["buffer_distance_m"] == pytest.approx(5.0, abs=0.2)


def test_fetch_mapillary_records_its_plan_in_the_manifest(small_street, tmp_path):
    world, line = small_street, LineString(small_street.line)
    segments = tmp_path / "segments.gpkg"
    import fiona
    from fiona.crs import CRS

    schema = {"geometry": "LineString", "properties": {"segment_id": "str", "city": "str",
                                                       "centroid_lon": "float", "centroid_lat": "float"}}
    with fiona.open(segments, "w", driver="GPKG", layer="segments", crs=CRS.from_epsg(4326), schema=schema) as dst:
        dst.write({"geometry": {"type": "LineString", "coordinates": list(line.coords)},
                   "properties": {"segment_id": "hel-1", "city": "Helsinki", "centroid_lon": line.centroid.x,
                                  "centroid_lat": line.centroid.y}})
    env = dict(os.environ, MAPILLARY_ACCESS_TOKEN=TOKEN)
    with FakeMapillary(world.images) as fake:
        out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "fetch-mapillary", "--store",
                              str(tmp_path / "bench" / "store.sqlite"), "--segments", str(segments),
                              "--base-url", fake.base_url, "--out", str(tmp_path / "images.gpkg"), "-q"],
                             cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert f"not_downloaded: {len(world.rejectable)}" in out.stdout
    manifest = json.loads((tmp_path / "images.manifest.json").read_text(encoding="utf-8"))
    assert manifest["options"]["search_pad_m"] == 50.0 and manifest["options"]["prefilter_tiers_1_to_3"]
    assert manifest["options"]["refresh_batch"] == 50
    assert manifest["outputs"]["totals"]["not_downloaded"] == len(world.rejectable)
    assert manifest["requests"]["image"] == len(world.images) - len(world.rejectable)
    assert TOKEN not in json.dumps(manifest)


def test_curating_with_a_wider_buffer_than_the_fetch_says_how_to_get_the_missing_images(small_street, tmp_path):
    from geofidelity_plugin.core.progress import RecordingProgress

    world, line = small_street, LineString(small_street.line)
    outside = {i for i, kind in world.rejectable.items() if kind == "outside"}
    with FakeMapillary(world.images) as fake, new_store(tmp_path / "s" / "s.sqlite", line) as store:
        fetch_store(store, client_for(fake, store))  # buffer 30 m: the parallel street is not downloaded
        progress = RecordingProgress()
        result = curate_store(store, CurationOptions(**NO_MODELS, buffer_m=70.0), progress=progress)
    rows = {r.image_id: r for r in result.rows}
    assert outside and all(rows[i].tiers[1] == "pass" and "no image file" in rows[i].reason for i in outside)
    warning = next(w for w in progress.warnings if "were not downloaded" in w)
    assert warning.startswith(f"{len(outside)} image(s) pass tiers 1–3") and "--buffer 70" in warning
