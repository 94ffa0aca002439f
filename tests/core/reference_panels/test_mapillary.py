"""Mapillary client of the reference panels (method §2) against a local server that speaks the
real Graph API v4 format (``tests/mapillary_server.py``), including its refusals, rate limits,
"reduce the amount of data" answers, truncated answers and expiring thumbnail URLs."""
from __future__ import annotations

import hashlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SleepRecorder
from PIL import Image
from pyproj import Geod
from shapely.geometry import LineString, Point, box as shapely_box
from shapely.ops import unary_union

from geofidelity_plugin.core.errors import Cancelled, InputError, RemoteServiceError
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.reference_panels.mapillary.client import (SEARCH_FIELDS, ImageRecord, MapillaryClient, TokenBucket, TokenRejected, TooMuchData, token_from_env)
from geofidelity_plugin.core.reference_panels.mapillary.thumbnails import (cached_image_ok, image_path, jpeg_complete)
from geofidelity_plugin.core.reference_panels.mapillary.tiles import (MAX_BOX_DEG2, box_area_deg2, split_box, tiles_along)
from geofidelity_plugin.core.selection.geodesy import LocalFrame
from mapillary_server import TOKEN, FakeMapillary, fake_images_along, jpeg_bytes

REPO = Path(__file__).resolve().parents[3]
GEOD = Geod(ellps="WGS84")
# about 1.1 km through central Paris, with a bend
COORDS = [(2.3400, 48.8600), (2.3460, 48.8615), (2.3520, 48.8608)]
LINE = LineString(COORDS)




@pytest.fixture
def fake():
    with FakeMapillary(fake_images_along(COORDS, 24)) as server:
        yield server


def make_client(server, sleeps, cache_dir=None, **kwargs) -> MapillaryClient:
    options = dict(base_url=server.base_url, requests_per_second=None, max_retries=3,
                   backoff_s=1.0, jitter=0.0, sleep=sleeps, cache_dir=cache_dir, max_workers=4)
    options.update(kwargs)
    return MapillaryClient(TOKEN, **options)


def unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def decodes(path: Path) -> bool:
    with Image.open(path) as image:
        image.load()
    return True


# --- parsing ---------------------------------------------------------------------------------

ITEM = {"id": "498763468214164", "captured_at": 1560081602000, "compass_angle": 123.4,
        "computed_geometry": {"type": "Point", "coordinates": [2.34512, 48.86071]},
        "geometry": {"type": "Point", "coordinates": [2.34519, 48.86066]}, "is_pano": False,
        "camera_type": "perspective", "sequence": "zcGPxK1ugNqvt7Rb3MGdyZ", "width": 2048,
        "height": 1536, "thumb_1024_url": "https://scontent.example/t.jpg?oe=6A0B1C2D"}


def test_parse_prefers_the_computed_geometry_and_keeps_the_original():
    record = ImageRecord.from_api(ITEM, segment_id="seg-7")
    assert (record.lon, record.lat) == (2.34512, 48.86071)
    assert (record.original_lon, record.original_lat) == (2.34519, 48.86066)
    assert record.captured_at_ms == 1560081602000 and isinstance(record.captured_at_ms, int)
    assert record.compass_angle == 123.4 and record.is_pano is False
    assert (record.camera_type, record.sequence, record.width, record.height) == (
        "perspective", "zcGPxK1ugNqvt7Rb3MGdyZ", 2048, 1536)
    assert record.thumb_url == ITEM["thumb_1024_url"] and record.segment_id == "seg-7"


def test_parse_falls_back_to_the_gps_geometry_and_tolerates_missing_fields():
    item = {k: v for k, v in ITEM.items() if k not in ("computed_geometry", "compass_angle",
                                                       "camera_type", "thumb_1024_url")}
    record = ImageRecord.from_api(item)
    assert (record.lon, record.lat) == (2.34519, 48.86066)
    assert record.compass_angle is None and record.camera_type is None
    assert record.thumb_url is None


@pytest.mark.parametrize("change", [{"id": "../../etc/passwd"}, {"id": None},
                                    {"captured_at": None}, {"captured_at": "yesterday"},
                                    {"computed_geometry": None, "geometry": None},
                                    {"computed_geometry": {"type": "LineString",
                                                           "coordinates": [[0, 0], [1, 1]]},
                                     "geometry": {"type": "Point", "coordinates": []}}])
def test_parse_rejects_items_without_a_safe_id_time_or_position(change):
    assert ImageRecord.from_api({**ITEM, **change}) is None


# --- tiles -----------------------------------------------------------------------------------

def buffer_lonlat(line: LineString, buffer_m: float):
    """The buffer in lon/lat, from a line with a vertex every metre (so that its sides bend)."""
    frame = LocalFrame(line.centroid.x, line.centroid.y)
    metric = frame.line_to_metric(line.coords)
    points = []
    for (x0, y0), (x1, y1) in zip(metric.coords, metric.coords[1:]):
        steps = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5))
        points += [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps)]
    dense = LineString(points + [metric.coords[-1]])
    return frame.geometry_to_lonlat(dense.buffer(buffer_m))


def test_tiles_are_small_about_200_m_apart_and_cover_the_buffer():
    tiles = tiles_along(LINE, buffer_m=30, step_m=200)
    length = GEOD.line_length(*zip(*COORDS))
    assert len(tiles) == pytest.approx(length / 200, abs=1)
    assert all(box_area_deg2(t) < MAX_BOX_DEG2 for t in tiles)
    union = unary_union([shapely_box(*t) for t in tiles])
    assert buffer_lonlat(LINE, 30).difference(union).area < 1e-14
    # independent check: points 29.9 m either side of the line, measured on the ellipsoid
    for (lon0, lat0), (lon1, lat1) in zip(COORDS, COORDS[1:]):
        azimuth = GEOD.inv(lon0, lat0, lon1, lat1)[0]
        for t in (0.0, 0.37, 0.81, 1.0):
            lon, lat = lon0 + t * (lon1 - lon0), lat0 + t * (lat1 - lat0)
            for side in (-90, 90):
                plon, plat, _ = GEOD.fwd(lon, lat, azimuth + side, 29.9)
                assert union.covers(Point(plon, plat)), (plon, plat)


def test_tiles_do_not_cover_far_more_than_the_buffer():
    tiles = tiles_along(LINE, buffer_m=30, step_m=200)
    union = unary_union([shapely_box(*t) for t in tiles])
    assert union.area < 3 * buffer_lonlat(LINE, 30).area


def test_tiles_stay_under_the_area_cap_at_high_latitude_and_with_huge_steps():
    north = LineString([(25.0, 70.0), (25.4, 70.02)])
    for step_m, buffer_m in ((200, 30), (50_000, 6_000)):
        tiles = tiles_along(north, buffer_m=buffer_m, step_m=step_m)
        assert all(box_area_deg2(t) < MAX_BOX_DEG2 for t in tiles)
        union = unary_union([shapely_box(*t) for t in tiles])
        assert buffer_lonlat(north, buffer_m).difference(union).area < 1e-12


def test_tiles_of_a_line_that_runs_back_over_itself_are_deduplicated():
    there = LineString([(2.34, 48.86), (2.3454, 48.86)])  # ~396 m: two pieces
    there_and_back = LineString([(2.34, 48.86), (2.3454, 48.86), (2.34, 48.86)])
    assert len(tiles_along(there, step_m=200)) == 2
    assert sorted(tiles_along(there_and_back, step_m=200)) == sorted(tiles_along(there, step_m=200))


def test_split_box_gives_four_quarters_that_tile_the_box():
    box = (2.30, 48.80, 2.34, 48.82)
    quarters = split_box(box)
    assert len(quarters) == 4 and len(set(quarters)) == 4
    assert all(box_area_deg2(q) == pytest.approx(box_area_deg2(box) / 4) for q in quarters)
    assert unary_union([shapely_box(*q) for q in quarters]).equals(shapely_box(*box))


@pytest.mark.parametrize("line, kwargs", [(LINE, {"step_m": 0}), (LINE, {"buffer_m": -1}),
                                          (LineString([(200.0, 48.0), (201.0, 48.0)]), {}),
                                          (Point(2.3, 48.8), {})])
def test_bad_tile_input_is_an_input_error(line, kwargs):
    with pytest.raises(InputError):
        tiles_along(line, **kwargs)


# --- search ----------------------------------------------------------------------------------

def test_search_sends_the_protocol_query_with_an_oauth_header(fake, sleeps):
    client = make_client(fake, sleeps)
    records = client.search((2.339, 48.859, 2.353, 48.862))
    assert len(records) == 24 and client.api_requests == 1
    assert fake.auth_headers == [f"OAuth {TOKEN}"]
    (params,) = fake.search_params
    assert params["bbox"] == ["2.339,48.859,2.353,48.862"]
    assert params["fields"][0].split(",") == list(SEARCH_FIELDS)
    assert params["limit"] == ["2000"]
    by_id = {img.image_id: img for img in fake.images.values()}
    for record in records:
        img = by_id[record.image_id]
        expected = (img.lon, img.lat) if img.has_computed else (img.gps_lon, img.gps_lat)
        assert (record.lon, record.lat) == expected
        assert (record.original_lon, record.original_lat) == (img.gps_lon, img.gps_lat)
        assert record.captured_at_ms == img.captured_at
        assert record.compass_angle == img.compass_angle


def test_images_along_finds_every_image_once(fake, sleeps):
    progress = RecordingProgress()
    records = make_client(fake, sleeps).images_along(LINE, progress=progress, segment_id="s1")
    assert sorted(r.image_id for r in records) == sorted(fake.images)
    assert all(r.segment_id == "s1" for r in records)
    assert fake.counts["search"] == len(tiles_along(LINE)) and not fake.oversized_boxes
    assert progress.percents[-1] == pytest.approx(100.0)


def test_full_tiles_are_split_until_every_image_is_found(sleeps):
    with FakeMapillary(fake_images_along(COORDS, 120)) as server:
        client = make_client(server, sleeps, limit=10)
        records = client.images_along(LINE)
        assert sorted(r.image_id for r in records) == sorted(server.images)
        assert server.counts["search"] > len(tiles_along(LINE)) + 4
        assert not server.oversized_boxes


def test_a_box_still_full_at_the_depth_cap_is_reported(sleeps, caplog):
    spot = (2.3405, 48.86012)  # near the start: inside the first tile only
    assert sum(t[0] <= spot[0] <= t[2] and t[1] <= spot[1] <= t[3] for t in tiles_along(LINE)) == 1
    crowd = fake_images_along([spot, spot], 30)
    with FakeMapillary(crowd) as server:
        progress = RecordingProgress()
        client = make_client(server, sleeps, limit=10, max_split_depth=2)
        with caplog.at_level(logging.WARNING, logger="geofidelity"):
            records = client.images_along(LINE, progress=progress)
        assert len(records) == 10
        assert server.counts["search"] == len(tiles_along(LINE)) + 4 + 4  # one quarter full
        assert any("1 box(es) still full" in w for w in progress.warnings)
        assert caplog.text.count("still full after 2 splits") == 1


def test_reduce_the_amount_of_data_splits_the_box(sleeps):
    with FakeMapillary(fake_images_along(COORDS, 60)) as server:
        server.too_much_above = 8
        client = make_client(server, sleeps)
        with pytest.raises(TooMuchData):
            client.search(tiles_along(LINE)[0])
        records = client.images_along(LINE)
        assert sorted(r.image_id for r in records) == sorted(server.images)
        assert sleeps.calls == []  # split at once, no backoff


def test_unknown_error_500_is_retried_not_split(fake, sleeps):
    fake.server_errors_next = 1
    records = make_client(fake, sleeps).search((2.339, 48.859, 2.353, 48.862))
    assert len(records) == 24 and fake.counts["api"] == 2
    assert sleeps.total == pytest.approx(1.0)


@pytest.mark.parametrize("status", [400, 401])
def test_rejected_token_names_the_fix_and_is_not_retried(fake, sleeps, status):
    fake.reject_token, fake.token_status = True, status
    with pytest.raises(TokenRejected) as failure:
        make_client(fake, sleeps).search((2.339, 48.859, 2.353, 48.862))
    message = str(failure.value)
    assert "OAuthException 190" in message and "MAPILLARY_ACCESS_TOKEN" in message
    assert "QGIS authentication config" in message and TOKEN not in message
    assert isinstance(failure.value, RemoteServiceError)
    assert fake.counts["api"] == 1 and sleeps.calls == []


def test_wrong_token_is_refused_by_the_server(fake, sleeps):
    client = MapillaryClient("MLY|1|wrong", base_url=fake.base_url, sleep=sleeps)
    with pytest.raises(TokenRejected):
        client.images_along(LINE)


def test_429_is_retried_after_the_retry_after_delay(fake, sleeps):
    fake.rate_limit_next, fake.retry_after = 2, "3"
    records = make_client(fake, sleeps, backoff_s=1.0).search((2.339, 48.859, 2.353, 48.862))
    assert len(records) == 24 and fake.counts["api"] == 3
    assert sleeps.total == pytest.approx(6.0)  # Retry-After twice, not the 1 s / 2 s backoff
    assert max(sleeps.calls) <= 0.25  # sliced, so that a cancel is seen quickly


def test_429_without_retry_after_backs_off_exponentially_with_bounded_jitter(fake):
    totals = []
    for _ in range(2):
        recorder = SleepRecorder()
        fake.rate_limit_next = 2
        make_client(fake, recorder, jitter=0.5, seed=3).search((2.339, 48.859, 2.353, 48.862))
        totals.append(recorder.total)
    assert totals[0] == pytest.approx(totals[1])  # reproducible with a seed
    assert 3.0 < totals[0] <= 4.5  # 1 s then 2 s, each stretched by up to 50 %


def test_every_attempt_failing_gives_a_useful_error(fake, sleeps):
    fake.server_errors_next = 10
    with pytest.raises(RemoteServiceError) as failure:
        make_client(fake, sleeps, max_retries=3).search((2.339, 48.859, 2.353, 48.862))
    assert "4 attempt(s)" in str(failure.value) and "HTTP 500" in str(failure.value)
    assert fake.counts["api"] == 4 and sleeps.total == pytest.approx(1 + 2 + 4)


def test_slow_answer_times_out_and_is_retried(fake, sleeps):
    fake.slow_next, fake.slow_s = 1, 2.0
    started = time.monotonic()
    records = make_client(fake, sleeps, timeout_s=0.4).search((2.339, 48.859, 2.353, 48.862))
    assert len(records) == 24 and fake.counts["api"] == 2
    assert time.monotonic() - started < 1.8  # did not wait for the slow answer


def test_truncated_json_is_retried(fake, sleeps):
    fake.truncate_json_next = 1
    records = make_client(fake, sleeps).search((2.339, 48.859, 2.353, 48.862))
    assert len(records) == 24 and fake.counts["api"] == 2 and sleeps.total == pytest.approx(1)


def test_connection_refused_is_retried_then_named(sleeps):
    client = MapillaryClient(TOKEN, base_url=f"http://127.0.0.1:{unused_port()}",
                             requests_per_second=None, max_retries=1, backoff_s=0.5, jitter=0,
                             sleep=sleeps)
    with pytest.raises(RemoteServiceError, match="could not reach 127.0.0.1"):
        client.search((2.339, 48.859, 2.353, 48.862))
    assert sleeps.total == pytest.approx(0.5) and client.api_requests == 2


def test_cancel_before_the_search_sends_nothing(fake, sleeps):
    with pytest.raises(Cancelled):
        make_client(fake, sleeps).images_along(LINE, progress=RecordingProgress(cancel_after=0))
    assert fake.counts["api"] == 0


def test_cancel_during_a_long_retry_after_stops_quickly(fake, sleeps):
    fake.rate_limit_next, fake.retry_after = 5, "30"
    progress = RecordingProgress(cancel_after=3)
    with pytest.raises(Cancelled):
        make_client(fake, sleeps).search((2.339, 48.859, 2.353, 48.862), progress=progress)
    assert fake.counts["api"] == 1 and sleeps.total <= 1.0


# --- throttle --------------------------------------------------------------------------------

class FakeClock:
    def __init__(self):
        self.now, self.sleeps = 100.0, []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_token_bucket_allows_a_burst_then_the_rate():
    clock = FakeClock()
    bucket = TokenBucket(10.0, burst=3, clock=clock, sleep=clock.sleep)
    for _ in range(3):
        bucket.acquire()
    assert clock.sleeps == []
    for _ in range(5):
        bucket.acquire()
    assert sum(clock.sleeps) == pytest.approx(0.5)


def test_client_throttles_api_calls_to_the_rate(fake, sleeps):
    client = make_client(fake, sleeps, requests_per_second=40.0)  # burst of 40
    started = time.monotonic()
    for _ in range(60):
        client.search((2.339, 48.859, 2.353, 48.862))
    assert time.monotonic() - started >= 0.45  # 20 beyond the burst at 40 per second
    assert sleeps.calls == []  # throttling is not a retry wait


# --- downloads and the cache -----------------------------------------------------------------

def fetch_all(server, sleeps, cache, **kwargs):
    client = make_client(server, sleeps, cache_dir=cache, **kwargs)
    return client, client.download(client.images_along(LINE))


def test_download_stores_verified_images_by_id_and_never_sends_the_token(fake, sleeps, tmp_path):
    client, result = fetch_all(fake, sleeps, tmp_path)
    assert sorted(result.paths) == sorted(fake.images) and result.failed == {}
    assert result.downloaded == 24 and result.from_cache == 0
    for image_id, path in result.paths.items():
        assert path == tmp_path / "images" / image_id[:2] / f"{image_id}.jpg"
        assert path.read_bytes() == fake.jpegs[image_id]
        sidecar = path.with_suffix(".sha256").read_text().split()[0]
        assert sidecar == hashlib.sha256(fake.jpegs[image_id]).hexdigest()
    assert client.image_requests == fake.counts["image"] == 24
    assert fake.cdn_auth_headers == []


def test_second_download_makes_no_image_request(fake, sleeps, tmp_path):
    fetch_all(fake, sleeps, tmp_path)
    client, result = fetch_all(fake, sleeps, tmp_path)
    assert result.from_cache == 24 and result.downloaded == 0
    assert client.image_requests == 0 and fake.counts["image"] == 24


def test_download_into_a_given_folder(fake, sleeps, tmp_path):
    client = make_client(fake, sleeps)
    result = client.download(client.images_along(LINE), folder=tmp_path / "panels")
    assert all(p.parent.parent == tmp_path / "panels" for p in result.paths.values())


@pytest.mark.parametrize("mode", ["short_body", "honest_length"])
def test_truncated_jpeg_is_never_trusted_and_fetched_again(fake, sleeps, tmp_path, mode):
    fake.truncate_jpeg_first = mode
    _, result = fetch_all(fake, sleeps, tmp_path)
    assert len(result.paths) == 24 and result.failed == {}
    assert fake.counts["image_truncated"] == 24 and fake.counts["image"] == 48
    for image_id, path in result.paths.items():
        assert path.read_bytes() == fake.jpegs[image_id] and decodes(path)


def test_cache_trust_rules(tmp_path):
    data = jpeg_bytes("x", (96, 64))
    path = image_path(tmp_path, "123456")
    path.parent.mkdir(parents=True)

    def put(image: bytes, sidecar_of: bytes | None) -> bool:
        path.write_bytes(image)
        path.with_suffix(".sha256").unlink(missing_ok=True)
        if sidecar_of is not None:
            path.with_suffix(".sha256").write_text(hashlib.sha256(sidecar_of).hexdigest())
        return cached_image_ok(path)

    assert put(data, data)
    assert not put(data, None)  # killed before the sidecar
    assert not put(data[:-1] + b"\x00", data)  # changed bytes
    truncated = data[: len(data) // 2]
    assert not put(truncated, truncated)  # matching sidecar, but not a whole JPEG
    assert not jpeg_complete(truncated) and jpeg_complete(data)
    broken_middle = data[:200] + bytes(len(data) - 202) + data[-2:]
    assert not jpeg_complete(broken_middle)  # markers right, contents not decodable


def test_a_corrupted_cache_file_is_fetched_again(fake, sleeps, tmp_path):
    _, first = fetch_all(fake, sleeps, tmp_path)
    victim = sorted(first.paths)[5]
    first.paths[victim].write_bytes(first.paths[victim].read_bytes()[:300])
    client, second = fetch_all(fake, sleeps, tmp_path)
    assert second.downloaded == 1 and second.from_cache == 23
    assert client.image_requests == 1 and fake.image_counts[victim] == 2
    assert second.paths[victim].read_bytes() == fake.jpegs[victim]


def test_expired_url_is_queried_again_once(fake, sleeps, tmp_path):
    fake.expire_first = True
    client, result = fetch_all(fake, sleeps, tmp_path)
    assert len(result.paths) == 24 and result.failed == {}
    # renewed once each, the ids refused together asked for in one request
    assert fake.counts["image_expired"] == 24 and fake.counts["batch_id"] == 24
    assert fake.counts["entity"] == 0 and fake.counts["batch"] < 24
    assert fake.counts["image"] == 48
    assert fake.auth_headers.count(f"OAuth {TOKEN}") == fake.counts["api"]


def test_url_with_a_past_oe_is_renewed_before_any_download(fake, sleeps, tmp_path):
    fake.stale_oe = True
    _, result = fetch_all(fake, sleeps, tmp_path)
    assert len(result.paths) == 24
    assert fake.counts["batch"] == 1 and fake.counts["batch_id"] == 24  # one request for all 24
    assert fake.counts["entity"] == 0 and fake.counts["image"] == 24


def test_url_refused_even_after_renewal_is_a_failure_not_an_exception(fake, sleeps, tmp_path):
    fake.expire_always = True
    # every image tried: the failure budget that stops such a run early is covered in
    # tests/faults/test_faults_reference_panels.py
    _, result = fetch_all(fake, sleeps, tmp_path, failure_budget=None)
    assert result.paths == {} and len(result.failed) == 24
    assert all("HTTP 403" in reason for reason in result.failed.values())
    assert fake.counts["batch_id"] == 24 and fake.counts["image"] == 48
    assert not list((tmp_path / "images").rglob("*.jpg"))


def test_renewal_that_needs_less_data_is_retried(fake, sleeps, tmp_path):
    client = make_client(fake, sleeps, cache_dir=tmp_path, max_workers=1)
    records = client.images_along(LINE)[:3]
    fake.expire_first, fake.server_errors_next = True, 1
    fake.server_error = {"error": {"message": "Please reduce the amount of data you're asking "
                                   "for, then retry your request", "code": 1}}
    result = client.download(records)
    assert len(result.paths) == 3 and fake.counts["batch_id"] == 3
    assert sleeps.total == pytest.approx(1.0)


def test_cancel_keeps_finished_images_and_a_resume_fetches_each_image_once(sleeps, tmp_path):
    with FakeMapillary(fake_images_along(COORDS, 40), latency_s=0.1) as server:
        client = make_client(server, sleeps, cache_dir=tmp_path)
        records = client.images_along(LINE)
        started = time.monotonic()
        with pytest.raises(Cancelled) as cancelled:
            client.download(records, progress=RecordingProgress(cancel_after=2))
        assert time.monotonic() - started < 1.5
        kept = cancelled.value.result
        assert 0 < len(kept.paths) < 40
        assert server.counts["image"] == len(kept.paths)  # nothing in flight was thrown away
        assert all(cached_image_ok(p) for p in kept.paths.values())
        resumed = make_client(server, sleeps, cache_dir=tmp_path).download(records)
        assert len(resumed.paths) == 40 and resumed.from_cache == len(kept.paths)
        assert server.counts["image"] == 40 and max(server.image_counts.values()) == 1
        assert all(decodes(p) for p in resumed.paths.values())


RUNNER = """
import sys
from pathlib import Path
from shapely.geometry import LineString
sys.path.insert(0, sys.argv[1])
from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient, token_from_env
client = MapillaryClient(token_from_env(), base_url=sys.argv[2], cache_dir=Path(sys.argv[3]),
                         max_workers=2, requests_per_second=None)
client.download(client.images_along(LineString(eval(sys.argv[4]))))
"""


def test_a_killed_run_resumes_with_every_image_intact(sleeps, tmp_path):
    with FakeMapillary(fake_images_along(COORDS, 40), latency_s=0.05) as server:
        env = {**os.environ, "MAPILLARY_ACCESS_TOKEN": TOKEN}
        child = subprocess.Popen([sys.executable, "-c", RUNNER, str(REPO), server.base_url,
                                  str(tmp_path), repr(COORDS)], env=env)
        deadline = time.monotonic() + 30
        while (len([p for p in tmp_path.rglob("*.sha256") if not p.name.startswith(".")]) < 6
               and time.monotonic() < deadline):  # atomic writes' temporary files start with "."
            time.sleep(0.01)
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert child.returncode == -signal.SIGKILL  # killed mid-run, not finished
        images = tmp_path / "images"
        stored = {p.stem for p in images.rglob("*.jpg") if cached_image_ok(p)}
        assert 6 <= len(stored) < 40
        before = server.image_counts.copy()
        client = make_client(server, sleeps, cache_dir=tmp_path)
        result = client.download(client.images_along(LINE))
        assert len(result.paths) == 40 and result.from_cache == len(stored)
        assert client.image_requests == 40 - len(stored)
        assert all(server.image_counts[i] == before[i] for i in stored)  # none fetched twice
        assert all(cached_image_ok(p) and decodes(p) for p in result.paths.values())


# --- the token stays secret ------------------------------------------------------------------

def test_token_appears_in_no_log_message_file_or_repr(fake, sleeps, tmp_path, caplog):
    secrets = (TOKEN, "f4k3T0k3nS3cr3tV4lu3", "MLY%7C4242424242")
    texts = []
    with caplog.at_level(logging.DEBUG):
        fake.rate_limit_next, fake.truncate_json_next = 1, 1
        fake.expire_first, fake.truncate_jpeg_first = True, "short_body"
        client, result = fetch_all(fake, sleeps, tmp_path)
        assert len(result.paths) == 24
        texts.append(repr(client))
        fake.reject_token = True
        for call in (lambda: client.images_along(LINE),
                     lambda: MapillaryClient(TOKEN, base_url=f"http://127.0.0.1:{unused_port()}",
                                             max_retries=0).search((2.3, 48.8, 2.31, 48.81)),
                     lambda: MapillaryClient(TOKEN.replace("|", " | "), base_url=fake.base_url)):
            with pytest.raises((RemoteServiceError, InputError)) as failure:
                call()
            texts.append(str(failure.value))
            texts.append(repr(failure.value))
    texts.append(caplog.text)
    assert "Mapillary image" in caplog.text or "Mapillary" in caplog.text  # something was logged
    for text in texts:
        assert not any(secret in text for secret in secrets), text
    for path in tmp_path.rglob("*"):
        assert not any(secret in path.name for secret in secrets)
        if path.is_file():
            assert not any(secret.encode() in path.read_bytes() for secret in secrets)


def test_redact_hides_plain_and_url_encoded_token(fake, sleeps):
    client = make_client(fake, sleeps)
    text = client.redact(f"a {TOKEN} b {TOKEN.replace('|', '%7C')} c")
    assert TOKEN not in text and "%7C4242424242" not in text and text.count("***") == 2


def test_token_from_env(monkeypatch):
    monkeypatch.delenv("MAPILLARY_ACCESS_TOKEN", raising=False)
    with pytest.raises(InputError, match="MAPILLARY_ACCESS_TOKEN"):
        token_from_env()
    monkeypatch.setenv("MAPILLARY_ACCESS_TOKEN", f"  {TOKEN}\n")
    assert token_from_env() == TOKEN
