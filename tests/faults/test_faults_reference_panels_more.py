"""More fault cases of stage 2 (``fetch-mapillary``, ``curate``, ``coverage``, ``build-galleries``),
found by an independent tester: an output that is one of the run's inputs, Mapillary items whose
fields have the wrong type, a token with non-ASCII characters, a thumbnail cache that is gone,
an audit CSV that contradicts itself, an API that accepts connections and never answers (and
Ctrl-C / Cancel while it does), a negative seed and a new store with nothing to fill it
(docs/method.md, "Errors and exit codes"). The access token must appear in no message.
"""
from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from shapely.geometry import LineString

from conftest import REPO
from faultkit import (assert_fails_cleanly, assert_no_partial_outputs,  # noqa: F401
                      assert_qgis_fails_cleanly, assert_store_ok, no_traceback, run_cli, run_qgis)
from geofidelity_plugin.core.errors import Cancelled, InputError, RemoteServiceError
from geofidelity_plugin.core.store.store import BenchmarkStore
from geofidelity_plugin.core.evaluation.store_steps import build_store_galleries, load_segments_gpkg
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient
from geofidelity_plugin.core.reference_panels.mapillary.tiles import tiles_along
from geofidelity_plugin.core.reference_panels.workflow import fetch_store
from mapillary_server import TOKEN, FakeMapillary
from test_faults_reference_panels import (ENV, IMAGES, IMAGES_A, SECRETS, SEGMENTS,  # noqa: F401
                                          assert_secret_free, cache_is_clean, candidate_state, fake,
                                          fetch, fetched_store, segments_gpkg, store_copy)

pytestmark = pytest.mark.fault

NO_MODELS = ("--siglip-model", "", "--vistas-model", "", "-q")


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


def last_line(stderr: str) -> str:
    return [line for line in stderr.replace("\r", "\n").splitlines() if line.strip()][-1]


def mapillary_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("mapillary-") and t.is_alive()]


# --- items 1–4 · an output that is one of the run's inputs -------------------------------------

OUTPUT_IS_INPUT = {  # case → (command, which input is given as --out, the words of the message)
    "curate-out-store": ("curate", "store", "is the benchmark store (--store)"),
    "curate-out-audit": ("curate", "audit", "is the audit CSV (--audit-csv)"),
    "fetch-out-store": ("fetch-mapillary", "store", "is the benchmark store (--store)"),
    "fetch-out-segments": ("fetch-mapillary", "segments", "is the segments GeoPackage (--segments)"),
    "coverage-out-store": ("coverage", "store", "is the benchmark store (--store)"),
}


def _run_stage2(command: str, store: Path, out: Path, fake, segments: Path | None = None,
                audit: Path | None = None):
    if command == "curate":
        extra = ("--audit-csv", audit) if audit else ()
        return run_cli("curate", "--store", store, "--out", out, *extra, *NO_MODELS)
    if command == "coverage":
        return run_cli("coverage", "--store", store, "--out", out)
    return fetch(store, fake.base_url, "--out", out, segments=segments)


@pytest.mark.parametrize("case", list(OUTPUT_IS_INPUT))
def test_output_that_is_an_input_is_refused_and_nothing_changes(case, fake, segments_gpkg, store_copy,
                                                               tmp_path):
    command, which, words = OUTPUT_IS_INPUT[case]
    segments = tmp_path / "segments.gpkg"
    segments.write_bytes(segments_gpkg.read_bytes())
    audit = tmp_path / "audit.csv"
    audit.write_text(f"image_id,decision\n{IMAGES_A[0].image_id},reject\n", encoding="utf-8")
    victim = {"store": store_copy, "segments": segments, "audit": audit}[which]
    before = {p: digest(p) for p in (store_copy, segments, audit)}
    state = candidate_state(store_copy)
    out = _run_stage2(command, store_copy, victim, fake, segments if command == "fetch-mapillary" else None,
                      audit if which == "audit" else None)
    assert_fails_cleanly(out, str(victim), words, "must not replace an input")
    assert {p: digest(p) for p in before} == before and candidate_state(store_copy) == state
    assert fake.counts["api"] == 0
    assert_store_ok(store_copy)
    again = _run_stage2(command, store_copy, tmp_path / "layer.gpkg", fake,
                        segments if command == "fetch-mapillary" else None, audit if which == "audit" else None)
    assert again.returncode == 0 and (tmp_path / "layer.gpkg").is_file(), again.stderr[-2000:]
    assert_secret_free(out, again)


def test_fetch_into_a_new_store_that_is_also_the_output(fake, segments_gpkg, tmp_path):
    """The tester's form of item 2: the store does not exist yet and --out names the same file."""
    store = tmp_path / "bench" / "store.sqlite"
    out = fetch(store, fake.base_url, "--out", store, segments=segments_gpkg)
    assert_fails_cleanly(out, "is the benchmark store (--store)")
    assert not store.exists() and fake.counts["api"] == 0


def test_qgis_curate_output_that_is_the_store(qgis_env, store_copy):
    before = digest(store_copy)
    out = run_qgis(qgis_env, "curate_panels", STORE=store_copy, SIGLIP_MODEL="", VISTAS_MODEL="",
                   OUTPUT=store_copy)
    assert_qgis_fails_cleanly(out, "is the benchmark store", "must not replace an input")
    assert digest(store_copy) == before
    assert_store_ok(store_copy)


# --- items 14–16, 20 · Mapillary items whose fields are unusable --------------------------------

BAD_FIELDS = {  # case → (fields sent for three images of the first street, the field the warning names)
    "compass-north": ({"compass_angle": "north"}, "compass_angle"),
    "captured-1e400": ({"captured_at": float("inf")}, "captured_at"),
    "thumb-number": ({"thumb_1024_url": 12345}, "thumb_1024_url"),
    "camera-list-sequence-object": ({"camera_type": ["x"], "sequence": {"a": 1}}, "camera_type"),
    "position-nan": ({"computed_geometry": {"type": "Point", "coordinates": [float("nan"), 48.86]}},
                     "position"),
    "width-text": ({"width": "wide"}, "width"),
    "pano-text": ({"is_pano": "no"}, "is_pano"),
}


@pytest.mark.parametrize("case", list(BAD_FIELDS))
def test_items_with_unusable_fields_are_skipped_with_one_warning(case, fake, segments_gpkg, tmp_path):
    fields, named = BAD_FIELDS[case]
    bad = {img.image_id for img in IMAGES_A[2:5]}
    fake.item_overrides = {image_id: fields for image_id in bad}
    store = tmp_path / "bench" / "store.sqlite"
    out = fetch(store, fake.base_url, segments=segments_gpkg)
    assert out.returncode == 0, out.stderr[-2000:]
    assert no_traceback(out.stdout + out.stderr) and "images: 13" in out.stdout
    warnings = warning_lines(out.stderr)
    assert len(warnings) == 1, out.stderr[-2000:]
    assert "skipped 3 Mapillary image(s)" in warnings[0] and named in warnings[0]
    with BenchmarkStore(store, create=False) as opened:
        stored = {c["image_id"] for c in opened.candidates()}
    assert len(stored) == 13 and not stored & bad  # never reach the store
    assert_store_ok(store)
    cache_is_clean(store.parent)
    fake.item_overrides = {}
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "images: 16" in again.stdout and not warning_lines(again.stderr)
    assert_secret_free(out, again)


def test_two_kinds_of_unusable_fields_give_one_warning_each(fake, segments_gpkg, tmp_path):
    fake.item_overrides = {IMAGES_A[0].image_id: {"compass_angle": "north"},
                           IMAGES_A[1].image_id: {"compass_angle": [1]},
                           IMAGES_A[6].image_id: {"sequence": {"a": 1}}}
    out = fetch(tmp_path / "store.sqlite", fake.base_url, segments=segments_gpkg)
    assert out.returncode == 0 and "images: 13" in out.stdout, out.stderr[-2000:]
    warnings = warning_lines(out.stderr)
    assert len(warnings) == 2, warnings
    assert "skipped 2" in warnings[0] and "compass_angle" in warnings[0]
    assert "skipped 1" in warnings[1] and "sequence" in warnings[1]


def test_every_item_unusable_is_an_error_after_the_warning(fake, segments_gpkg, tmp_path):
    fake.item_overrides = {img.image_id: {"captured_at": "yesterday"} for img in IMAGES}
    store = tmp_path / "store.sqlite"
    out = fetch(store, fake.base_url, segments=segments_gpkg)
    stderr = assert_fails_cleanly(out, "none of the 16 images", "check the API URL", fake.base_url)
    assert len(warning_lines(stderr)) == 1 and "captured_at" in warning_lines(stderr)[0]
    assert last_line(stderr).startswith("error:")
    assert_store_ok(store)
    fake.item_overrides = {}
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "images: 16" in again.stdout, again.stderr[-2000:]


# --- item 17 · a token with non-ASCII characters -------------------------------------------------

@pytest.mark.parametrize("token", ["MLY|4242424242|f4k3Tök3n", "\u201cMLY|4242424242|f4k3T0k3n\u201d"])
def test_token_with_non_ascii_characters(token, fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    out = fetch(store, fake.base_url, segments=segments_gpkg, env={"MAPILLARY_ACCESS_TOKEN": token})
    assert_fails_cleanly(out, "contains non-ASCII characters", "copy the token again", "MAPILLARY_ACCESS_TOKEN")
    assert token not in out.stderr and "f4k3T" not in out.stderr + out.stdout
    assert fake.counts["api"] == 0 and not store.exists()
    again = fetch(store, fake.base_url, segments=segments_gpkg)
    assert again.returncode == 0, again.stderr[-2000:]


def test_qgis_auth_config_token_with_non_ascii_characters(qgis_provider, fake, segments_gpkg, tmp_path,
                                                          monkeypatch):
    """The Processing algorithm takes the token from a QGIS authentication config: the same check,
    the same message, the token in no word of it."""
    import processing
    from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsProcessingException

    monkeypatch.delenv("MAPILLARY_ACCESS_TOKEN", raising=False)
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geofidelity-tests", True)
    token = "MLY|4242424242|f4k3Tök3nSécret"
    cfg = QgsAuthMethodConfig("Basic")
    cfg.setName("mapillary (non-ASCII test)")
    cfg.setConfig("username", "mapillary")
    cfg.setConfig("password", token)
    assert manager.storeAuthenticationConfig(cfg)
    store = tmp_path / "store.sqlite"
    with pytest.raises(QgsProcessingException) as failure:
        processing.run("geofidelity:fetch_mapillary", {
            "STORE": str(store), "SEGMENTS": str(segments_gpkg), "AUTH": cfg.id(),
            "BASE_URL": fake.base_url, "OUTPUT": str(tmp_path / "images.gpkg")})
    message = str(failure.value)
    assert "contains non-ASCII characters" in message and "authentication config" in message
    assert "Tök3n" not in message and "Sécret" not in message
    assert fake.counts["api"] == 0 and not store.exists()


# --- item 32 · curation when the thumbnail cache is gone -----------------------------------------

def test_curate_with_every_thumbnail_missing_stops_and_says_fetch_again(fake, store_copy, tmp_path):
    import shutil

    shutil.rmtree(store_copy.parent / "mapillary")
    audit = tmp_path / "audit.csv"
    audit.write_text(f"image_id,decision\n{IMAGES_A[0].image_id},reject\n", encoding="utf-8")
    state = candidate_state(store_copy)
    out = run_cli("curate", "--store", store_copy, "--audit-csv", audit, "--out", tmp_path / "c.gpkg", *NO_MODELS)
    assert_fails_cleanly(out, "none of the 16 fetched images", str(store_copy), "run fetch-mapillary",
                         "again")
    assert candidate_state(store_copy) == state  # the audit CSV was not applied either
    assert not (tmp_path / "c.gpkg").exists()
    assert_store_ok(store_copy)
    refetch = fetch(store_copy, fake.base_url)
    assert refetch.returncode == 0 and "downloaded: 16" in refetch.stdout, refetch.stderr[-2000:]
    again = run_cli("curate", "--store", store_copy, "--audit-csv", audit, "--out", tmp_path / "c.gpkg",
                    *NO_MODELS)
    assert again.returncode == 0 and "thumbnail" not in again.stderr, again.stderr[-2000:]
    assert "missing" not in again.stderr


def test_curate_with_some_thumbnails_missing_warns_once_with_the_count(store_copy, tmp_path):
    images = sorted((store_copy.parent / "mapillary" / "images").rglob("*.jpg"))
    for path in images[:3]:
        path.unlink()
    out = run_cli("curate", "--store", store_copy, "--out", tmp_path / "c.gpkg", *NO_MODELS)
    assert out.returncode == 0 and no_traceback(out.stderr), out.stderr[-2000:]
    missing = [line for line in warning_lines(out.stderr) if "missing from the image cache" in line]
    assert len(missing) == 1 and "3 of 16 fetched images" in missing[0], out.stderr[-2000:]
    assert "run fetch-mapillary" in missing[0]
    assert_store_ok(store_copy)


# --- item 33 · an audit CSV that gives one image two decisions ----------------------------------

@pytest.mark.parametrize("rows, words", [
    (["{a},accept", "{b},reject", "{a},reject"], ("row 2", "row 4", "accept", "reject")),
    (["{a},accept,paris-rue-alpha", "{a},,"], ("row 2", "row 3", "for segment paris-rue-alpha")),
])
def test_audit_csv_with_conflicting_decisions(rows, words, store_copy, tmp_path):
    a, b = IMAGES_A[0].image_id, IMAGES_A[1].image_id
    audit = tmp_path / "audit.csv"
    audit.write_text("image_id,decision,segment_id\n" + "\n".join(r.format(a=a, b=b) for r in rows) + "\n",
                     encoding="utf-8")
    state = candidate_state(store_copy)
    out = run_cli("curate", "--store", store_copy, "--audit-csv", audit, *NO_MODELS)
    assert_fails_cleanly(out, str(audit), f"image {a} two decisions", *words)
    assert candidate_state(store_copy) == state
    audit.write_text(f"image_id,decision,segment_id\n{a},accept,paris-rue-alpha\n{a},reject,paris-rue-beta\n"
                     f"{b},reject,\n{b},reject,\n", encoding="utf-8")  # other segments; a repeat agrees
    again = run_cli("curate", "--store", store_copy, "--audit-csv", audit, *NO_MODELS)
    assert again.returncode == 0, again.stderr[-2000:]


# --- items 35, 36 · an API that accepts connections and never answers ----------------------------

def _tiles_of_first_street() -> int:
    return len(tiles_along(LineString(SEGMENTS["paris-rue-alpha"]), 30.0 + 10.0, 200.0))


@pytest.mark.parametrize("workers", [1, 8])
def test_silent_api_gives_up_after_two_attempts_and_the_error_is_the_last_line(workers, fake, segments_gpkg,
                                                                              tmp_path):
    fake.hang_api = True
    store = tmp_path / "store.sqlite"
    out = fetch(store, fake.base_url, "--timeout", "0.5", "--workers", workers, segments=segments_gpkg)
    stderr = assert_fails_cleanly(out, f"the Mapillary API at {fake.base_url} did not answer", "2 attempt(s)",
                                  "no answer within 0.5 s")
    assert last_line(stderr).startswith("error:"), stderr[-2000:]
    # two attempts per box that was searched, at most every box of the first street at once
    if workers == 1:
        assert fake.counts["api"] == 2
    else:
        assert 2 <= fake.counts["api"] <= 2 * _tiles_of_first_street()
    assert "attempt 3" not in stderr
    assert_store_ok(store)
    fake.hang_api = False
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "images: 16" in again.stdout, again.stderr[-2000:]
    assert_secret_free(out, again)


@pytest.mark.parametrize("value", ["0", "-1", "nan"])
def test_fetch_timeout_out_of_range(value, fake, segments_gpkg, tmp_path):
    store = tmp_path / "store.sqlite"
    out = fetch(store, fake.base_url, "--timeout", value, segments=segments_gpkg)
    assert_fails_cleanly(out, "--timeout", value, "e.g. --timeout 30")
    assert fake.counts["api"] == 0 and not store.exists()


def test_ctrl_c_while_the_api_is_silent_ends_at_once(fake, segments_gpkg, tmp_path):
    """A 60 s read timeout: the run must end on Ctrl-C without waiting for it, say "interrupted"
    last, and send no request after the signal."""
    store = tmp_path / "store.sqlite"
    fake.hang_api = True
    args = ["fetch-mapillary", "--store", store, "--segments", segments_gpkg, "--base-url", fake.base_url,
            "--timeout", "60", "--workers", "4", "-q"]
    env = dict(os.environ, **ENV)
    env.pop("GEOFIDELITY_DEBUG", None)
    proc = subprocess.Popen([sys.executable, "-m", "geofidelity_plugin", *map(str, args)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while fake.counts["api"] < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert fake.counts["api"] == 4, proc.poll()
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=20)  # far below the 60 s a worker would wait
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        pytest.fail(f"still running 20 s after Ctrl-C:\n{stderr[-2000:]}")
    assert proc.returncode == 130 and no_traceback(stdout + stderr), stderr[-2000:]
    assert last_line(stderr) == "interrupted" and "attempt" not in stderr
    assert fake.counts["api"] == 4
    assert_store_ok(store)
    fake.hang_api = False
    again = fetch(store, fake.base_url)
    assert again.returncode == 0 and "images: 16" in again.stdout, again.stderr[-2000:]


class _CancelWhen(RecordingProgress):
    def __init__(self, condition):
        super().__init__()
        self.condition = condition

    def is_canceled(self) -> bool:
        return self.condition()


def _client(base_url: str, **kwargs) -> MapillaryClient:
    return MapillaryClient(TOKEN, base_url=base_url, requests_per_second=None, max_workers=4, **kwargs)


@pytest.mark.parametrize("ending", ["cancel", "failure"])
def test_no_search_thread_outlives_the_fetch(ending, fake, segments_gpkg, tmp_path):
    """In process (the QGIS Cancel button): once the fetch ends, by Cancel or by the failure, no
    search thread is left running and no request follows."""
    fake.hang_api = True
    client = _client(fake.base_url, timeout_s=60 if ending == "cancel" else 0.3, backoff_s=0.05)
    progress = _CancelWhen(lambda: ending == "cancel" and fake.counts["api"] >= 4)
    with client, BenchmarkStore(tmp_path / "store.sqlite") as store:
        load_segments_gpkg(store, segments_gpkg)
        client.cache_dir = store.root / "mapillary"
        with pytest.raises(Cancelled if ending == "cancel" else RemoteServiceError):
            fetch_store(store, client, progress=progress)
        assert mapillary_threads() == []
        sent = fake.counts["api"]
    time.sleep(0.5)
    assert fake.counts["api"] == sent and not progress.warnings


def test_cancel_while_the_image_cdn_is_silent_keeps_no_thread(fake, tmp_path):
    """Thumbnail downloads to a host that accepts the connection and never answers: Cancel cuts
    them at once, the downloads end and nothing half-written is cached."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)  # never accepted: connections complete, no answer ever comes
        fake.cdn_base_url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        client = _client(fake.base_url, timeout_s=60)
        records = client.images_along(LineString(SEGMENTS["paris-rue-beta"]), segment_id="paris-rue-beta")
        assert len(records) == 6
        started = time.monotonic()
        progress = _CancelWhen(lambda: time.monotonic() - started > 0.5)
        with client, pytest.raises(Cancelled):
            client.download(records, tmp_path / "images", progress=progress)
        assert mapillary_threads() == []
    assert not list(tmp_path.rglob("*.jpg")) and not list(tmp_path.rglob("*.sha256"))
    assert_no_partial_outputs(tmp_path)


# --- item 9 and the smaller one · build-galleries ------------------------------------------------

def test_build_galleries_core_refuses_a_negative_seed(store_copy):
    state = candidate_state(store_copy)
    with pytest.raises(InputError, match=r"random seed \(--seed.*must be a whole number ≥ 0, got -1"):
        build_store_galleries(store_copy, None, -1, keep_existing=False)
    assert candidate_state(store_copy) == state
    with BenchmarkStore(store_copy, create=False) as opened:
        assert opened.galleries() == {}
    assert build_store_galleries(store_copy, None, 0, keep_existing=False) == 2


def test_qgis_build_galleries_with_a_negative_seed(qgis_env, store_copy):
    before = digest(store_copy)
    out = run_qgis(qgis_env, "build_galleries", STORE=store_copy, SEED=-1, KEEP_EXISTING="false")
    # the backend's command line refuses the value before the store is opened, in its own words
    assert_qgis_fails_cleanly(out, "build-galleries: argument --seed", "must be a whole number ≥ 0", "got -1")
    assert digest(store_copy) == before


@pytest.mark.parametrize("command", ["build-galleries", "fetch-mapillary"])
def test_new_store_without_segments_is_refused_before_it_is_created(command, fake, tmp_path):
    store = tmp_path / "bench" / "new.sqlite"
    out = (run_cli("build-galleries", "--store", store) if command == "build-galleries"
           else fetch(store, fake.base_url))
    assert_fails_cleanly(out, str(store), "does not exist yet", "--segments")
    assert not store.exists() and not store.parent.exists() and fake.counts["api"] == 0


def test_existing_store_without_segments_names_its_path_and_the_option(tmp_path):
    store = tmp_path / "empty.sqlite"
    BenchmarkStore(store).close()
    out = run_cli("build-galleries", "--store", store)
    assert_fails_cleanly(out, f"the benchmark store {store} has no segments", "--segments")
    assert_store_ok(store)
