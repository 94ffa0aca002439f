"""Fault cases of stage 2, the reference panels: ``fetch-mapillary``, ``curate``, ``coverage``
and ``build-galleries`` against a local server that speaks the Mapillary Graph API
(``tests/mapillary_server.py``) — a broken image CDN, an unreachable or refusing API, inputs that
are not what they claim to be, and outputs that cannot be written (docs/method.md, "Errors and
exit codes"). The access token must appear in no message.
"""
from __future__ import annotations

import shutil
import socket
import sqlite3
from pathlib import Path

import pytest
from shapely.geometry import LineString

from faultkit import (assert_fails_cleanly, assert_no_partial_outputs, assert_qgis_fails_cleanly,
                      assert_store_ok, file_size_limit, no_traceback, run_cli,  # noqa: F401
                      run_qgis)
from geofidelity_plugin.core.errors import RemoteServiceError
from geofidelity_plugin.core.store.store import BenchmarkStore
from geofidelity_plugin.core.evaluation.store_steps import load_segments_gpkg
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.reference_panels.mapillary.breaker import FAILURE_BUDGET
from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient
from geofidelity_plugin.core.reference_panels.mapillary.thumbnails import cached_image_ok
from geofidelity_plugin.core.reference_panels.workflow import fetch_store
from mapillary_server import TOKEN, FakeMapillary, fake_images_along

pytestmark = pytest.mark.fault

SECRETS = (TOKEN, "f4k3T0k3nS3cr3tV4lu3", "MLY%7C4242424242")
ENV = {"MAPILLARY_ACCESS_TOKEN": TOKEN}
# two streets in Paris: ~1.1 km with a bend (10 images) and ~370 m (6 images)
SEGMENTS = {"paris-rue-alpha": [(2.3400, 48.8600), (2.3460, 48.8615), (2.3520, 48.8608)],
            "paris-rue-beta": [(2.3300, 48.8700), (2.3350, 48.8702)]}
IMAGES_A = fake_images_along(SEGMENTS["paris-rue-alpha"], 10, start_id=4_300_000_000_000)
IMAGES_B = fake_images_along(SEGMENTS["paris-rue-beta"], 6, start_id=4_400_000_000_000)
IMAGES = IMAGES_A + IMAGES_B
WORKERS = 8  # the CLI cases: one round of downloads covers the breaker's budget
RETRIED = ("truncated", "refused")  # transient kinds: each image is tried again after a back-off

# kind → (the cause the message must name, CDN requests per failed image)
CDN_FAULTS = {
    "html": ("returns HTML instead of JPEG", 1),
    "truncated": ("images arrive truncated", 1),
    "forbidden": ("HTTP 403", 2),  # the first 403 is an expired URL: renewed once, refused again
    "refused": ("refuses the connection", 1),
}


def closed_port() -> int:
    """A port on which nothing listens: bound, then closed."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def assert_secret_free(*outs) -> None:
    for out in outs:
        text = out.stdout + out.stderr
        assert not any(secret in text for secret in SECRETS), text[-2000:]


def set_cdn_fault(fake: FakeMapillary, kind: str | None, ids=None) -> None:
    fake.cdn_fault = kind if kind in ("html", "truncated", "forbidden") else None
    fake.cdn_fault_ids = ids
    fake.cdn_base_url = f"http://127.0.0.1:{closed_port()}" if kind == "refused" else None


def cache_is_clean(store_dir: Path) -> None:
    """Every cached image is a complete, checksummed JPEG; no temporary file is left."""
    images = store_dir / "mapillary" / "images"
    for path in images.rglob("*.jpg") if images.exists() else ():
        assert cached_image_ok(path), path
    assert_no_partial_outputs(store_dir)


@pytest.fixture(scope="module")
def segments_gpkg(tmp_path_factory) -> Path:
    from geofidelity_plugin.core.selection.segments import Segment
    from geofidelity_plugin.core.selection.writers import write_segments_gpkg

    rows = []
    for rank, (sid, coords) in enumerate(SEGMENTS.items()):
        line = LineString(coords)
        rows.append(Segment(segment_id=sid, city="Paris", country="France", country_code="FR",
                            street_name=sid.split("-", 1)[1], neighbourhood="Centre",
                            neighbourhood_source="test", road_class="residential",
                            highway="residential", length_m=500.0, merged_length_m=500.0,
                            centroid_lon=line.centroid.x, centroid_lat=line.centroid.y,
                            driving_side="right", osm_way_ids="1", distance_to_centre_m=100.0,
                            selection_rank=rank, geometry=line))
    return write_segments_gpkg(rows, tmp_path_factory.mktemp("segments") / "segments.gpkg")


@pytest.fixture
def fake():
    with FakeMapillary(IMAGES) as server:
        yield server


def fetch(store: Path, base_url: str, *extra, segments: Path | None = None, env=None, **kwargs):
    args = ["fetch-mapillary", "--store", store, "--base-url", base_url, "-q", *extra]
    if segments is not None:
        args += ["--segments", segments]
    return run_cli(*args, env=ENV if env is None else env, **kwargs)


@pytest.fixture(scope="module")
def fetched_store(tmp_path_factory, segments_gpkg) -> Path:
    """A store whose 16 candidates are all fetched (made in-process, once)."""
    store_path = tmp_path_factory.mktemp("fetched") / "bench" / "store.sqlite"
    with FakeMapillary(IMAGES) as server:
        client = MapillaryClient(TOKEN, base_url=server.base_url, requests_per_second=None, max_workers=4)
        with client, BenchmarkStore(store_path) as store:
            load_segments_gpkg(store, segments_gpkg)
            client.cache_dir = store.root / "mapillary"
            totals = fetch_store(store, client)
    assert totals["downloaded"] == 16 and totals["failed"] == 0
    return store_path


@pytest.fixture
def store_copy(fetched_store, tmp_path) -> Path:
    shutil.copytree(fetched_store.parent, tmp_path / "bench")
    return tmp_path / "bench" / fetched_store.name


def candidate_state(store_path: Path) -> list[tuple]:
    with sqlite3.connect(f"file:{store_path}?mode=ro", uri=True) as con:
        return con.execute("SELECT segment_id, image_id, status, audit, tier FROM candidates "
                           "ORDER BY 1, 2").fetchall()


# --- 1 · a broken image CDN: stop early, say why, fail; a clean re-run completes ----------------

@pytest.mark.parametrize("kind", list(CDN_FAULTS))
def test_broken_cdn_trips_the_breaker_in_process(kind, segments_gpkg, tmp_path, sleeps):
    """Core level, with the ``sleeps`` recorder: no back-off is really waited, and the client
    sends at most budget + workers image requests — two per image when a URL is renewed, and
    another round when the failure is retried (the first transient failure of an image is
    forgiven as a possible hiccup)."""
    cause, per_image = CDN_FAULTS[kind]
    workers = 4
    bound = per_image * (FAILURE_BUDGET + workers) + (workers if kind in RETRIED else 0)
    with FakeMapillary(IMAGES) as server:
        set_cdn_fault(server, kind)
        client = MapillaryClient(TOKEN, base_url=server.base_url, requests_per_second=None,
                                 max_workers=workers, sleep=sleeps, seed=1)
        progress = RecordingProgress()
        with client, BenchmarkStore(tmp_path / "store.sqlite") as store:
            load_segments_gpkg(store, segments_gpkg)
            client.cache_dir = store.root / "mapillary"
            with pytest.raises(RemoteServiceError) as failure:
                fetch_store(store, client, progress=progress)
            rows = store.candidates()
        message = str(failure.value)
        assert cause.lower() in message.lower() and "paris-rue-alpha" in message, message
        assert f"{FAILURE_BUDGET} image downloads failed in a row" in message, message
        assert client.image_requests <= bound, client.image_requests
        assert client.image_requests >= FAILURE_BUDGET
        if kind != "refused":
            assert server.counts["image"] == client.image_requests
        # recorded, never slept: a few back-offs, not 16 images × (1 + 2 + 4 + 8 + 16) s
        assert sleeps.total < 100
        # the candidates of the segment are kept, marked failed with the reason
        assert len(rows) == 10 and all(r["status"] == "download_failed" and r["reason"] for r in rows)
        assert not any(secret in message for secret in SECRETS)
    cache_is_clean(tmp_path)


@pytest.mark.parametrize("kind", list(CDN_FAULTS))
def test_broken_cdn_stops_fetch_mapillary_with_the_cause_then_a_rerun_completes(
        kind, fake, segments_gpkg, tmp_path):
    cause, per_image = CDN_FAULTS[kind]
    store = tmp_path / "bench" / "store.sqlite"
    set_cdn_fault(fake, kind)
    out = fetch(store, fake.base_url, "--workers", WORKERS, "--out", tmp_path / "images.gpkg",
                segments=segments_gpkg)
    assert_fails_cleanly(out, cause, "paris-rue-alpha", "no image could be downloaded",
                         "run the fetch again")
    assert fake.counts["image"] <= per_image * (FAILURE_BUDGET + WORKERS)
    assert not (tmp_path / "images.gpkg").exists()
    assert_store_ok(store)
    cache_is_clean(store.parent)
    set_cdn_fault(fake, None)
    again = fetch(store, fake.base_url, "--workers", WORKERS, "--out", tmp_path / "images.gpkg")
    assert again.returncode == 0, again.stderr[-2000:]
    assert "downloaded: 16" in again.stdout and "failed: 0" in again.stdout
    assert "warning" not in again.stderr.lower()
    assert (tmp_path / "images.gpkg").is_file()
    cache_is_clean(store.parent)
    assert_secret_free(out, again)


def test_segment_whose_every_image_fails_is_an_error_without_the_breaker(fake, segments_gpkg, tmp_path):
    """Six HTML pages in a row are under the budget: the fetch still ends with exit 2, naming the
    segment that has candidates but no image, and keeps the other segment's images."""
    store = tmp_path / "store.sqlite"
    set_cdn_fault(fake, "html", {img.image_id for img in IMAGES_B})
    out = fetch(store, fake.base_url, segments=segments_gpkg)
    stderr = assert_fails_cleanly(out, "paris-rue-beta", "no image could be downloaded",
                                  "returns HTML instead of JPEG")
    error_line = next(line for line in stderr.splitlines() if line.startswith("error:"))
    assert "paris-rue-alpha" not in error_line and "6 candidates" in error_line
    with BenchmarkStore(store, create=False) as opened:
        fetched = [c for c in opened.candidates() if c["status"] == "fetched"]
    assert len(fetched) == 10
    set_cdn_fault(fake, None)
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "downloaded: 6" in again.stdout and "from_cache: 10" in again.stdout
    assert_secret_free(out, again)


def test_partial_failure_exits_0_with_a_warning(fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    broken = {IMAGES_A[1].image_id, IMAGES_A[4].image_id, IMAGES_B[2].image_id}
    set_cdn_fault(fake, "html", broken)
    out = fetch(store, fake.base_url, segments=segments_gpkg)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "failed: 3" in out.stdout and no_traceback(out.stdout + out.stderr)
    assert "warning: 3 of 16 images could not be downloaded" in out.stderr
    assert "HTML instead of JPEG" in out.stderr
    set_cdn_fault(fake, None)
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "downloaded: 3" in again.stdout and "failed: 0" in again.stdout
    assert "warning" not in again.stderr.lower()
    assert_secret_free(out, again)


def test_truncated_file_in_the_image_cache_is_deleted_and_fetched_again(fake, store_copy):
    images = sorted((store_copy.parent / "mapillary" / "images").rglob("*.jpg"))
    victim = images[3]
    whole = victim.read_bytes()
    victim.write_bytes(whole[: len(whole) // 2])  # the sidecar still names the whole image
    out = fetch(store_copy, fake.base_url)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "downloaded: 1" in out.stdout and "from_cache: 15" in out.stdout
    assert "warning: 1 damaged or incomplete image file(s) in the cache" in out.stderr
    assert str(victim) in out.stderr  # the warning names the file
    assert fake.image_counts[victim.stem] == 1 and sum(fake.image_counts.values()) == 1
    assert victim.read_bytes() == whole and cached_image_ok(victim)
    cache_is_clean(store_copy.parent)
    assert_secret_free(out)


# --- 2 · the Mapillary API: advice that fits the failure ---------------------------------------

def test_unreachable_api_names_the_url_not_the_request_rate(fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    url = f"http://127.0.0.1:{closed_port()}"
    out = fetch(store, url, segments=segments_gpkg)
    stderr = assert_fails_cleanly(out, f"the Mapillary API at {url} could not be reached",
                                  "connection refused", "proxy")
    assert "request rate" not in stderr
    assert_store_ok(store)
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "downloaded: 16" in again.stdout, again.stderr[-2000:]
    assert_secret_free(out, again)


def test_missing_token_names_the_variable_and_the_qgis_alternative(fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    out = fetch(store, fake.base_url, segments=segments_gpkg, env={"MAPILLARY_ACCESS_TOKEN": ""})
    assert_fails_cleanly(out, "no Mapillary access token", "MAPILLARY_ACCESS_TOKEN",
                         "authentication configuration")
    assert fake.counts["api"] == 0 and not store.exists()


@pytest.mark.parametrize("refusal", ["wrong-token", "http-401", "http-403"])
def test_refused_token_is_named_and_never_printed(refusal, fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    wrong = "MLY|999|wr0ngT0k3nV4lu3"
    env = dict(ENV)
    if refusal == "wrong-token":
        env["MAPILLARY_ACCESS_TOKEN"] = wrong
    else:
        fake.reject_token, fake.token_status = True, int(refusal[-3:])
    out = fetch(store, fake.base_url, segments=segments_gpkg, env=env)
    assert_fails_cleanly(out, "the token was refused", "MAPILLARY_ACCESS_TOKEN")
    assert wrong not in out.stdout + out.stderr and "wr0ngT0k3n" not in out.stderr
    assert fake.counts["image"] == 0
    fake.reject_token = False
    again = fetch(store, fake.base_url)
    assert again.returncode == 0, again.stderr[-2000:]
    assert_secret_free(out, again)


def test_persistent_server_error_names_the_service_and_status(fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    fake.server_errors_next, fake.retry_after = 10_000, "0"  # no real back-off wait
    out = fetch(store, fake.base_url, segments=segments_gpkg)
    stderr = assert_fails_cleanly(out, f"the Mapillary API at {fake.base_url}", "HTTP 500",
                                  "6 attempt(s)", "try again later")
    assert "request rate" not in stderr
    fake.server_errors_next = 0
    again = fetch(store, fake.base_url)
    assert again.returncode == 0, again.stderr[-2000:]
    assert_secret_free(out, again)


# --- 3 · inputs that are not what they claim to be --------------------------------------------

def _bad_segments(kind: str, folder: Path) -> Path:
    import fiona

    path = folder / "segments.gpkg"
    if kind == "missing":
        return folder / "nowhere" / "segments.gpkg"
    if kind == "text":
        path.write_text("segment_id,city\nx,Paris\n", encoding="utf-8")
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "sqlite":  # e.g. a benchmark store given in its place: it has a segments table
        with sqlite3.connect(path) as con:
            con.execute("CREATE TABLE segments (segment_id TEXT, city TEXT, centroid_lon REAL, "
                        "centroid_lat REAL)")
        con.close()
    elif kind in ("no-layer", "no-fields"):
        layer = "roads" if kind == "no-layer" else "segments"
        schema = {"geometry": "LineString", "properties": {"street_name": "str"}}
        with fiona.open(path, "w", driver="GPKG", layer=layer, schema=schema, crs="EPSG:4326") as dst:
            dst.write({"geometry": {"type": "LineString", "coordinates": [(2.34, 48.86), (2.35, 48.86)]},
                       "properties": {"street_name": "Rue"}})
    return path


BAD_SEGMENTS = {"missing": "does not exist", "text": "is not a GeoPackage", "empty": "is empty",
                "sqlite": "is an SQLite database but not a GeoPackage",
                "no-layer": "has no 'segments' layer", "no-fields": "lacks the field(s) segment_id"}


@pytest.mark.parametrize("command", ["fetch-mapillary", "build-galleries"])
@pytest.mark.parametrize("kind", list(BAD_SEGMENTS))
def test_segments_file_that_is_not_a_segments_geopackage(command, kind, fake, tmp_path):
    bad = _bad_segments(kind, tmp_path)
    store = tmp_path / "bench" / "store.sqlite"
    if command == "fetch-mapillary":
        out = fetch(store, fake.base_url, segments=bad)
    else:
        out = run_cli("build-galleries", "--store", store, "--segments", bad)
    assert_fails_cleanly(out, str(bad), BAD_SEGMENTS[kind], "segments GeoPackage written by select-segments")
    assert fake.counts["api"] == 0 and not store.exists()


@pytest.mark.parametrize("option, value", [("--buffer", "0"), ("--buffer", "-5"), ("--buffer", "nan"),
                                           ("--buffer", "inf"), ("--tile-step", "0"),
                                           ("--tile-step", "nan"), ("--workers", "0"),
                                           ("--workers", "-3")])
def test_fetch_numbers_out_of_range(option, value, fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    out = fetch(store, fake.base_url, option, value, segments=segments_gpkg)
    assert_fails_cleanly(out, option, value)
    assert fake.counts["api"] == 0 and not store.exists()


def _audit(kind: str, folder: Path, image_id: str) -> Path:
    path = folder / "audit.csv"
    if kind == "missing":
        return folder / "no-audit.csv"
    if kind == "columns":
        path.write_text("id,verdict\n1,accept\n", encoding="utf-8")
    elif kind == "decision":
        path.write_text(f"image_id,decision\n{image_id},accept\n{image_id},maybe\n", encoding="utf-8")
    elif kind == "binary":
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x00")
    return path


AUDIT_FAULTS = {"missing": "audit CSV not found", "columns": "needs columns image_id,decision",
                "decision": "'maybe' is not accept/reject/empty", "binary": "is not UTF-8 text"}


@pytest.mark.parametrize("kind", list(AUDIT_FAULTS))
def test_curate_audit_csv_faults_change_nothing(kind, store_copy, tmp_path):
    before = candidate_state(store_copy)
    audit = _audit(kind, tmp_path, before[0][1])
    out = run_cli("curate", "--store", store_copy, "--audit-csv", audit, "--siglip-model", "",
                  "--vistas-model", "", "-q", "--out", tmp_path / "curated.gpkg")
    assert_fails_cleanly(out, AUDIT_FAULTS[kind], audit.name)
    assert candidate_state(store_copy) == before and not (tmp_path / "curated.gpkg").exists()
    assert_store_ok(store_copy)


def test_curate_cap_zero(store_copy, tmp_path):
    before = candidate_state(store_copy)
    out = run_cli("curate", "--store", store_copy, "--cap", "0", "--siglip-model", "", "--vistas-model", "", "-q")
    assert_fails_cleanly(out, "--cap", "at least 1")
    assert candidate_state(store_copy) == before


@pytest.mark.parametrize("value", ["nan", "0", "-3", "inf"])
def test_coverage_radius_out_of_range(value, store_copy, tmp_path):
    out = run_cli("coverage", "--store", store_copy, "--radius", value, "--out", tmp_path / "cov.gpkg")
    assert_fails_cleanly(out, "--radius", value)
    assert not (tmp_path / "cov.gpkg").exists()


# --- 4 · outputs that cannot be written ---------------------------------------------------------

def _blocked_output(kind: str, folder: Path) -> tuple[Path, str]:
    if kind == "folder":
        target = folder / "out.gpkg"
        target.mkdir()
        return target, "is a folder"
    blocker = folder / "notes.txt"
    blocker.write_text("keep me", encoding="utf-8")
    return blocker / "out.gpkg", "is a file, not a folder"


@pytest.mark.parametrize("kind", ["folder", "under-a-file"])
@pytest.mark.parametrize("command", ["fetch-mapillary", "curate", "coverage"])
def test_output_that_cannot_be_written_fails_before_the_work(command, kind, fake, segments_gpkg,
                                                            store_copy, tmp_path):
    target, fragment = _blocked_output(kind, tmp_path)
    before = candidate_state(store_copy)
    if command == "fetch-mapillary":
        out = fetch(tmp_path / "new.sqlite", fake.base_url, "--out", target, segments=segments_gpkg)
        assert not (tmp_path / "new.sqlite").exists()
    elif command == "curate":
        out = run_cli("curate", "--store", store_copy, "--out", target, "--siglip-model", "",
                      "--vistas-model", "", "-q")
    else:
        out = run_cli("coverage", "--store", store_copy, "--out", target)
    assert_fails_cleanly(out, fragment, "out.gpkg")
    assert fake.counts["api"] == 0 and candidate_state(store_copy) == before
    if kind == "under-a-file":
        assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep me"


GPKG_LIMIT = 100 * 1024  # the store (~90 KB with its write-ahead log) fits, a GeoPackage (≥ 104 KB) not


@pytest.mark.parametrize("command", ["fetch-mapillary", "curate", "coverage"])
def test_disk_full_while_writing_the_geopackage(command, fake, store_copy, tmp_path):
    """``file_size_limit``: the GeoPackage outgrows the limit; the store and the small cache
    files stay under it. The run ends with exit 2, no partial GeoPackage, the store intact."""
    target = tmp_path / "out" / "layer.gpkg"
    target.parent.mkdir()
    limit = file_size_limit(GPKG_LIMIT)
    if command == "fetch-mapillary":
        out = fetch(store_copy, fake.base_url, "--out", target, preexec_fn=limit)
    elif command == "curate":
        out = run_cli("curate", "--store", store_copy, "--out", target, "--siglip-model", "",
                      "--vistas-model", "", "-q", preexec_fn=limit)
    else:
        out = run_cli("coverage", "--store", store_copy, "--out", target, preexec_fn=limit)
    assert_fails_cleanly(out, str(target), "file size limit")
    assert list(target.parent.iterdir()) == []
    assert_store_ok(store_copy)
    assert_secret_free(out)
    again = (fetch(store_copy, fake.base_url, "--out", target) if command == "fetch-mapillary" else
             run_cli("curate", "--store", store_copy, "--out", target, "--siglip-model", "",
                     "--vistas-model", "", "-q") if command == "curate" else
             run_cli("coverage", "--store", store_copy, "--out", target))
    assert again.returncode == 0 and target.is_file(), again.stderr[-2000:]


# --- the Processing algorithm behaves the same --------------------------------------------------

def test_qgis_fetch_mapillary_with_an_unreachable_api(qgis_env, segments_gpkg, tmp_path):
    url = f"http://127.0.0.1:{closed_port()}"
    out = run_qgis(dict(qgis_env, **ENV), "fetch_mapillary", STORE=tmp_path / "s.sqlite",
                   SEGMENTS=segments_gpkg, BASE_URL=url, OUTPUT=tmp_path / "images.gpkg")
    text = assert_qgis_fails_cleanly(out, f"the Mapillary API at {url} could not be reached", "proxy")
    assert "request rate" not in text and not any(secret in text for secret in SECRETS)
    assert not (tmp_path / "images.gpkg").exists()


def test_qgis_fetch_mapillary_with_a_segments_file_that_is_not_a_geopackage(qgis_env, fake, tmp_path):
    bad = _bad_segments("text", tmp_path)
    out = run_qgis(dict(qgis_env, **ENV), "fetch_mapillary", STORE=tmp_path / "s.sqlite",
                   SEGMENTS=bad, BASE_URL=fake.base_url, OUTPUT=tmp_path / "images.gpkg")
    assert_qgis_fails_cleanly(out, str(bad), "is not a GeoPackage", "written by select-segments")
    assert fake.counts["api"] == 0 and not (tmp_path / "s.sqlite").exists()
