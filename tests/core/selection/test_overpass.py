"""Overpass client (method §1 road source) against a local HTTP server that answers in the
real Overpass JSON format, including its busy / timed-out / broken answers."""
from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from conftest import SleepRecorder
from shapely.geometry import Point, Polygon

from geofidelity_plugin.core.errors import Cancelled, InputError, RemoteServiceError
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.selection.osm_data import OsmData
from geofidelity_plugin.core.selection.overpass import (OverpassClient, build_query,
                                                        parse_elements)

DATA = Path(__file__).resolve().parents[2] / "data" / "overpass"
PATH = "/api/interpreter"
LON, LAT, RADIUS = 2.347, 48.86, 6000
CITY = (DATA / "paris_les_halles.json").read_bytes()
TIMEOUT_REMARK = (DATA / "remark_timeout.json").read_bytes()
OOM_REMARK = (DATA / "remark_out_of_memory.json").read_bytes()
BAD_QUERY_PAGE = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head><title>OSM3S Response</title></head>
<body>
<p>The data included in this document is from www.openstreetmap.org.</p>
<p><strong style="color:#FF0000">Error</strong>: line 3: parse error: ';' expected - ')' found. </p>
</body>
</html>
"""




def make_client(httpserver, sleeps, **kwargs) -> OverpassClient:
    options = dict(max_retries=3, backoff_s=1.0, jitter=0.0, sleep=sleeps)
    options.update(kwargs)
    return OverpassClient(httpserver.url_for(PATH), **options)


def answer(httpserver, body: bytes, status: int = 200, headers: dict | None = None,
           ordered: bool = True) -> None:
    expect = httpserver.expect_ordered_request if ordered else httpserver.expect_request
    expect(PATH, method="POST").respond_with_data(body, status=status, headers=headers,
                                                  content_type="application/json")


def unused_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- query -----------------------------------------------------------------------------------

def test_query_has_three_around_filters_with_the_given_numbers():
    query = build_query(LON, LAT, RADIUS, 180)
    assert query.startswith("[out:json][timeout:180];")
    around = "(around:6000,48.86,2.347)"
    assert query.count(around) == 3
    assert f'way["highway"]["name"]{around};' in query
    assert f'node["place"~"^(neighbourhood|suburb|quarter)$"]{around};' in query
    assert f'rel["boundary"="administrative"]["name"]{around};' in query
    assert query.rstrip().endswith("out geom;")


def test_query_keeps_fractional_radius_and_seven_decimals():
    query = build_query(-0.12345678, 51.5, 1500.5, 60)
    assert "[timeout:60]" in query
    assert "(around:1500.5,51.5,-0.1234568)" in query


@pytest.mark.parametrize("lon, lat, radius", [(200, 48, 10), (2, -91, 10), (2, 48, 0)])
def test_query_rejects_bad_input(lon, lat, radius):
    with pytest.raises(InputError):
        build_query(lon, lat, radius, 180)


def test_client_rejects_non_http_endpoint():
    with pytest.raises(InputError, match="not an http"):
        OverpassClient("overpass-api.de/api/interpreter")


# --- parsing ---------------------------------------------------------------------------------

def test_parse_counts_coordinate_order_and_polygons():
    data = parse_elements(json.loads(CITY))
    assert isinstance(data, OsmData)
    assert [w.way_id for w in data.ways] == [1001, 1002, 1003, 1004]  # 1005 has one point
    rivoli = data.ways[0]
    assert (rivoli.name, rivoli.highway) == ("Rue de Rivoli", "primary")
    assert rivoli.coords == ((2.34, 48.859), (2.345, 48.86), (2.35, 48.861))  # (lon, lat)
    assert data.ways[1].name == "Boulevard de Sébastopol"
    assert {(p.node_id, p.place) for p in data.places} == {
        (501, "neighbourhood"), (502, "quarter"), (503, "suburb")}
    halles = next(p for p in data.places if p.node_id == 501)
    assert (halles.lon, halles.lat) == (2.346, 48.862)

    areas = {a.area_id: a for a in data.admin_areas}
    assert set(areas) == {20001, 20002}  # 20003's only ring is not closed
    quartier = areas[20001]
    assert (quartier.name, quartier.admin_level) == ("Quartier des Halles", 10)
    assert len(quartier.polygons) == 1
    outer, inners = quartier.polygons[0]
    assert outer[0] == outer[-1] and len(inners) == 1
    shape = Polygon(outer, inners)
    assert shape.is_valid
    assert shape.area == pytest.approx(0.010 * 0.006 - 0.002 * 0.002, rel=1e-9)
    assert not shape.contains(Point(2.345, 48.861))  # inside the hole
    assert shape.contains(Point(2.342, 48.859))
    arrondissement = areas[20002]
    assert arrondissement.admin_level == 9
    assert len(arrondissement.polygons) == 2  # main ring + the ring with an empty role
    assert sorted(round(Polygon(o).area, 9) for o, _ in arrondissement.polygons) == [
        round(0.004 * 0.0015, 9), round(0.022 * 0.011, 9)]


def test_parse_skips_unnamed_and_unrelated_elements():
    payload = {"elements": [
        {"type": "way", "id": 1, "tags": {"highway": "service"},
         "geometry": [{"lat": 1, "lon": 2}, {"lat": 1.1, "lon": 2.1}]},
        {"type": "way", "id": 2, "tags": {"building": "yes", "name": "Hall"},
         "geometry": [{"lat": 1, "lon": 2}, {"lat": 1.1, "lon": 2.1}]},
        {"type": "node", "id": 3, "lat": 1, "lon": 2, "tags": {"place": "city", "name": "X"}},
        {"type": "way", "id": 4, "tags": {"highway": "tertiary", "name": " Main St "},
         "geometry": [{"lat": 1, "lon": 2}, None, {"lat": 1.1, "lon": 2.1}]},
    ]}
    data = parse_elements(payload)
    assert [(w.way_id, w.name) for w in data.ways] == [(4, "Main St")]
    assert data.ways[0].coords == ((2.0, 1.0), (2.1, 1.1))
    assert data.places == [] and data.admin_areas == []


# --- HTTP ------------------------------------------------------------------------------------

def test_fetch_success_posts_the_query_and_names_the_source(httpserver, sleeps):
    answer(httpserver, CITY)
    data = make_client(httpserver, sleeps).fetch_osm(LON, LAT, RADIUS)
    assert (len(data.ways), len(data.places), len(data.admin_areas)) == (4, 3, 2)
    assert sleeps.calls == []
    (request, _), = httpserver.log
    assert request.form["data"] == build_query(LON, LAT, RADIUS, 180)
    assert "geofidelity" in request.headers["User-Agent"].lower()
    assert httpserver.url_for(PATH) in data.source
    assert "2024-05-14T09:21:43Z" in data.source


def test_source_and_errors_never_show_credentials(httpserver, sleeps):
    answer(httpserver, CITY)
    answer(httpserver, b"busy", status=504)
    endpoint = f"http://alice:s3cret@127.0.0.1:{httpserver.port}{PATH}"
    client = OverpassClient(endpoint, max_retries=0, sleep=sleeps)
    data = client.fetch_osm(LON, LAT, RADIUS)
    assert "s3cret" not in data.source and "alice" not in data.source
    assert f"127.0.0.1:{httpserver.port}{PATH}" in data.source
    with pytest.raises(RemoteServiceError) as failure:
        client.fetch_osm(LON, LAT, RADIUS)
    assert f"127.0.0.1:{httpserver.port}{PATH}" in str(failure.value)
    assert "s3cret" not in str(failure.value) and "alice" not in str(failure.value)


def test_429_is_retried_after_the_retry_after_delay(httpserver, sleeps):
    answer(httpserver, b"rate limited", status=429, headers={"Retry-After": "7"})
    answer(httpserver, CITY)
    data = make_client(httpserver, sleeps, backoff_s=1.0).fetch_osm(LON, LAT, RADIUS)
    assert len(data.ways) == 4
    assert len(httpserver.log) == 2
    assert sleeps.total == pytest.approx(7.0)  # not the 1 s backoff
    assert max(sleeps.calls) <= 0.5  # sliced so that a cancel is seen quickly


def test_retry_after_as_an_http_date(httpserver, sleeps):
    answer(httpserver, b"rate limited", status=429,
           headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})  # already past: no wait
    answer(httpserver, CITY)
    make_client(httpserver, sleeps, backoff_s=1.0).fetch_osm(LON, LAT, RADIUS)
    assert len(httpserver.log) == 2 and sleeps.total == 0


def test_504_is_retried_with_backoff(httpserver, sleeps):
    answer(httpserver, b"<html>504 Gateway Time-out</html>", status=504)
    answer(httpserver, CITY)
    data = make_client(httpserver, sleeps, backoff_s=1.5).fetch_osm(LON, LAT, RADIUS)
    assert len(data.ways) == 4 and len(httpserver.log) == 2
    assert sleeps.total == pytest.approx(1.5)


@pytest.mark.parametrize("status", [502, 503])
def test_other_gateway_errors_are_retried(httpserver, sleeps, status):
    answer(httpserver, b"busy", status=status)
    answer(httpserver, CITY)
    make_client(httpserver, sleeps).fetch_osm(LON, LAT, RADIUS)
    assert len(httpserver.log) == 2


def test_timeout_remark_is_retried_and_never_cached(httpserver, sleeps, tmp_path):
    answer(httpserver, TIMEOUT_REMARK)
    answer(httpserver, CITY)
    client = make_client(httpserver, sleeps, cache_dir=tmp_path)
    data = client.fetch_osm(LON, LAT, RADIUS)
    assert len(data.ways) == 4 and len(httpserver.log) == 2
    (cache_file,) = tmp_path.iterdir()
    record = json.loads(cache_file.read_text(encoding="utf-8"))
    assert "remark" not in record["payload"]
    assert len(record["payload"]["elements"]) == len(json.loads(CITY)["elements"])


def test_remark_only_answers_fail_and_leave_no_cache(httpserver, sleeps, tmp_path):
    answer(httpserver, OOM_REMARK, ordered=False)
    client = make_client(httpserver, sleeps, cache_dir=tmp_path, max_retries=2)
    with pytest.raises(RemoteServiceError, match="out of memory"):
        client.fetch_osm(LON, LAT, RADIUS)
    assert len(httpserver.log) == 3
    assert list(tmp_path.iterdir()) == []


def test_all_attempts_failing_gives_a_useful_error(httpserver, sleeps):
    answer(httpserver, b"<html>504 Gateway Time-out</html>", status=504, ordered=False)
    client = make_client(httpserver, sleeps, max_retries=3, backoff_s=1.0)
    with pytest.raises(RemoteServiceError) as failure:
        client.fetch_osm(LON, LAT, RADIUS)
    message = str(failure.value)
    assert httpserver.url_for(PATH) in message
    assert "HTTP 504" in message and "4 attempt(s)" in message
    assert "endpoint URL" in message and "later" in message and "local OSM file" in message
    assert len(httpserver.log) == 4
    assert sleeps.total == pytest.approx(1 + 2 + 4)  # exponential, no wait after the last


def test_jitter_is_bounded_and_reproducible_with_a_seed(httpserver):
    answer(httpserver, b"busy", status=503, ordered=False)
    totals = []
    for _ in range(2):
        recorder = SleepRecorder()
        client = make_client(httpserver, recorder, max_retries=2, jitter=0.5, seed=11)
        with pytest.raises(RemoteServiceError):
            client.fetch_osm(LON, LAT, RADIUS)
        totals.append(recorder.total)
    assert totals[0] == pytest.approx(totals[1])
    assert 3.0 < totals[0] <= 4.5  # waits of 1 s and 2 s, each stretched by up to 50 %


def test_bad_query_400_is_not_retried(httpserver, sleeps):
    httpserver.expect_request(PATH, method="POST").respond_with_data(
        BAD_QUERY_PAGE, status=400, content_type="text/html")
    with pytest.raises(RemoteServiceError) as failure:
        make_client(httpserver, sleeps).fetch_osm(LON, LAT, RADIUS)
    assert "HTTP 400" in str(failure.value)
    assert "parse error: ';' expected" in str(failure.value)
    assert len(httpserver.log) == 1 and sleeps.calls == []


def test_connection_error_hides_the_key_in_the_query_string(sleeps):
    endpoint = f"http://127.0.0.1:{unused_port()}{PATH}?key=abc123secret"
    client = OverpassClient(endpoint, max_retries=0, sleep=sleeps)
    with pytest.raises(RemoteServiceError) as failure:
        client.fetch_osm(LON, LAT, RADIUS)
    assert "abc123secret" not in str(failure.value)
    assert endpoint.split("?")[0] in str(failure.value)


def test_connection_refused_names_the_endpoint(sleeps):
    endpoint = f"http://127.0.0.1:{unused_port()}{PATH}"
    client = OverpassClient(endpoint, max_retries=1, backoff_s=0.5, jitter=0.0, sleep=sleeps)
    with pytest.raises(RemoteServiceError) as failure:
        client.fetch_osm(LON, LAT, RADIUS)
    assert endpoint in str(failure.value)
    assert "could not reach" in str(failure.value)
    assert sleeps.total == pytest.approx(0.5)  # one retry was made


def test_truncated_json_is_retried(httpserver, sleeps, tmp_path):
    answer(httpserver, CITY[: len(CITY) // 2])
    answer(httpserver, CITY)
    data = make_client(httpserver, sleeps, cache_dir=tmp_path).fetch_osm(LON, LAT, RADIUS)
    assert len(data.ways) == 4 and len(httpserver.log) == 2


def test_truncated_json_every_time_fails(httpserver, sleeps, tmp_path):
    answer(httpserver, CITY[:300], ordered=False)
    client = make_client(httpserver, sleeps, max_retries=1, cache_dir=tmp_path)
    with pytest.raises(RemoteServiceError, match="invalid JSON"):
        client.fetch_osm(LON, LAT, RADIUS)
    assert len(httpserver.log) == 2 and list(tmp_path.iterdir()) == []


# --- cache -----------------------------------------------------------------------------------

def test_cache_hit_makes_no_request(httpserver, sleeps, tmp_path):
    answer(httpserver, CITY, ordered=False)  # would answer a second request too
    first = make_client(httpserver, sleeps, cache_dir=tmp_path).fetch_osm(LON, LAT, RADIUS)
    second = make_client(httpserver, sleeps, cache_dir=tmp_path).fetch_osm(LON, LAT, RADIUS)
    assert len(httpserver.log) == 1
    assert second.ways == first.ways and second.admin_areas == first.admin_areas
    make_client(httpserver, sleeps, cache_dir=tmp_path).fetch_osm(LON, LAT, RADIUS + 1)
    assert len(httpserver.log) == 2  # another query is another cache entry


def test_corrupt_cache_file_is_fetched_again(httpserver, sleeps, tmp_path):
    answer(httpserver, CITY, ordered=False)
    make_client(httpserver, sleeps, cache_dir=tmp_path).fetch_osm(LON, LAT, RADIUS)
    (cache_file,) = tmp_path.iterdir()
    cache_file.write_text('{"payload": {"elements": [', encoding="utf-8")
    data = make_client(httpserver, sleeps, cache_dir=tmp_path).fetch_osm(LON, LAT, RADIUS)
    assert len(data.ways) == 4 and len(httpserver.log) == 2
    assert json.loads(cache_file.read_text(encoding="utf-8"))["payload"]["elements"]


# --- cancellation ----------------------------------------------------------------------------

def test_cancel_during_backoff_stops_within_half_a_second(httpserver, sleeps):
    answer(httpserver, b"rate limited", status=429, headers={"Retry-After": "30"},
           ordered=False)
    progress = RecordingProgress(cancel_after=4)
    with pytest.raises(Cancelled):
        make_client(httpserver, sleeps).fetch_osm(LON, LAT, RADIUS, progress=progress)
    assert len(httpserver.log) == 1
    assert 0 < sleeps.total <= 1.0  # far less than the 30 s Retry-After


def test_cancel_before_the_first_request_sends_nothing(httpserver, sleeps):
    answer(httpserver, CITY, ordered=False)
    with pytest.raises(Cancelled):
        make_client(httpserver, sleeps).fetch_osm(LON, LAT, RADIUS,
                                                  progress=RecordingProgress(cancel_after=0))
    assert len(httpserver.log) == 0
