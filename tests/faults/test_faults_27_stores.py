"""Issue 27, the store cases: a step that would empty a store refuses (case 2 "poisoned"), one
writer per store (case 3 "silent mixing"), imports that name their duplicate rows (case 8), and the
two release-import findings (a relative ``--release`` path; a country with a single block).

Each case runs the real command line (``run_cli``) or the core function the command calls, and
checks what the store holds afterwards, not only the message.
"""
from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from shapely.geometry import LineString

from conftest import REPO
from faultkit import assert_fails_cleanly, assert_store_ok, no_traceback, run_cli

pytestmark = pytest.mark.fault

NO_MODELS = ("--siglip-model", "", "--vistas-model", "")  # tiers 4 and 5 skipped: no weights needed
# two streets in Paris; 6 images along each, 12 m apart, photographed at noon in June
LINES = {"paris-rue-alpha": [(2.3400, 48.8600), (2.3460, 48.8615)],
         "paris-rue-beta": [(2.3300, 48.8700), (2.3350, 48.8702)]}
NOON_JUNE_MS = 1_718_877_600_000  # 2024-06-20 10:00 UTC: the sun ~60° above Paris


def _reference_count(store: Path) -> int:
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
        return con.execute("SELECT COUNT(*) FROM reference_images").fetchone()[0]


def _fetched_store(folder: Path, extra_refs: list[dict] | None = None) -> Path:
    """A store as ``fetch-mapillary`` leaves it: segments and 12 downloaded candidates that pass
    every metadata and quality tier (noise images, 12 m apart, daylight)."""
    from geofidelity_plugin.core.store.store import BenchmarkStore

    path = folder / "store.sqlite"
    images = folder / "mapillary" / "images"
    images.mkdir(parents=True)
    with BenchmarkStore(path) as store:
        store.put_segments([{"segment_id": sid, "city": "Paris", "country": "France", "country_code": "FR",
                             "centroid_lon": pts[0][0], "centroid_lat": pts[0][1],
                             "geometry_wkt": LineString(pts).wkt} for sid, pts in LINES.items()])
        rows, n = [], 0
        for sid, pts in LINES.items():
            line = LineString(pts)
            for j in range(6):
                point = line.interpolate(0.1 + 0.15 * j, normalized=True)
                image_id = str(4_300_000_000_000 + n)
                file = images / f"{image_id}.jpg"
                Image.fromarray(np.random.default_rng(n).integers(0, 255, (48, 64, 3), dtype=np.uint8)).save(file)
                record = {"image_id": image_id, "lon": point.x, "lat": point.y, "captured_at_ms": NOON_JUNE_MS + n,
                          "is_pano": False, "camera_type": "perspective", "sequence": f"seq-{sid}"}
                rows.append({"segment_id": sid, "image_id": image_id, "lon": point.x, "lat": point.y,
                             "captured_at_ms": NOON_JUNE_MS + n, "sequence": f"seq-{sid}", "image_path": str(file),
                             "status": "fetched", "record": record})
                n += 1
        store.put_candidates(rows)
        if extra_refs:
            store.put_reference_images(extra_refs)
    return path


# ====================================================================== case 2: poisoned
def test_curate_refuses_a_threshold_that_removes_every_panel_and_a_flag_can_undo(tmp_path):
    """``--solar-min 89`` would take out all 12 reference images: refused, tier and counts named,
    the panels untouched; with --allow-removal it goes ahead and says so, and curating again with
    the default threshold rebuilds every panel (decisions recorded, no row lost for good)."""
    store = _fetched_store(tmp_path)
    first = run_cli("curate", "--store", store, *NO_MODELS, "-q")
    assert first.returncode == 0, first.stderr[-2000:]
    assert _reference_count(store) == 12

    out = run_cli("curate", "--store", store, *NO_MODELS, "--solar-min", "89", "-q")
    assert_fails_cleanly(out, "12 of the store's 12 reference images", "tier 3 (daytime): 12", "--solar-min",
                         "--allow-removal", "2 of 2 segment(s)")
    assert _reference_count(store) == 12
    assert_store_ok(store)

    forced = run_cli("curate", "--store", store, *NO_MODELS, "--solar-min", "89", "--allow-removal", "-q")
    assert forced.returncode == 0, forced.stderr[-2000:]
    assert "removed 12 of the store's 12 reference images" in forced.stderr
    assert _reference_count(store) == 0
    again = run_cli("curate", "--store", store, *NO_MODELS, "-q")
    assert again.returncode == 0, again.stderr[-2000:]
    assert _reference_count(store) == 12


@pytest.mark.parametrize("flags,fragments", [
    (("--luma-min", "200", "--luma-max", "50"), ("--luma-min 200 is above --luma-max 50", "--luma-min 55")),
    (("--aspect-min", "3", "--aspect-max", "1"), ("--aspect-min 3 is above --aspect-max 1",)),
])
def test_curate_refuses_an_inverted_range_before_touching_the_store(tmp_path, flags, fragments):
    store = _fetched_store(tmp_path)
    assert run_cli("curate", "--store", store, *NO_MODELS, "-q").returncode == 0
    before = store.read_bytes()
    out = run_cli("curate", "--store", store, *NO_MODELS, *flags, "-q")
    text = out.stderr
    assert out.returncode == 2 and no_traceback(out.stdout + text), text[-2000:]
    for fragment in fragments:
        assert fragment in text, text[-2000:]
    assert _reference_count(store) == 12 and store.read_bytes() == before


def test_curation_options_check_their_ranges_without_the_command_line():
    """The same declaration (spec/curation.py) is checked by the core, for a notebook or QGIS."""
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.reference_panels.options import CurationOptions

    with pytest.raises(InputError, match="luma_min 200 is above luma_max 50 \\(--luma-min/--luma-max\\)"):
        CurationOptions(luma_min=200, luma_max=50).validate()
    with pytest.raises(InputError, match="minimum 0.6 is above its maximum 0.1"):
        CurationOptions(vistas_ratios={"sky": (0.6, 0.1)}).validate()
    with pytest.raises(InputError, match="solar-min"):
        CurationOptions(solar_min_deg=95).validate()


def test_curate_never_deletes_reference_images_it_cannot_rebuild(tmp_path):
    """Reference images with no fetched candidate (an imported panel) are not curation's to remove."""
    imported = [{"reference_id": f"paris-rue-beta:imported-{j}", "segment_id": "paris-rue-beta",
                 "image_id": f"imported-{j}", "image_path": f"release/{j}.jpg"} for j in range(3)]
    store = _fetched_store(tmp_path, imported)
    with sqlite3.connect(store) as con:  # the second street's candidates are gone: only its imported panel is left
        con.execute("DELETE FROM candidates WHERE segment_id = 'paris-rue-beta'")
    out = run_cli("curate", "--store", store, *NO_MODELS, "-q")
    assert out.returncode == 0, out.stderr[-2000:]
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
        ids = {r[0] for r in con.execute("SELECT reference_id FROM reference_images WHERE segment_id = 'paris-rue-beta'")}
    assert ids == {r["reference_id"] for r in imported}


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory) -> Path:
    """The demo's store, built as ``make demo`` builds it (stand-in panels of 10 Helsinki segments)."""
    from geofidelity_plugin.backend.demo_data import build_demo_store

    out = tmp_path_factory.mktemp("demo")
    run = run_cli("select-segments", "--cities", REPO / "resources" / "data" / "demo_cities.csv", "--osm",
                  REPO / "data" / "external" / "osm" / "Helsinki.osm.pbf", "--min-length", 300, "--min-spacing", 300,
                  "--out", out / "segments.gpkg", "-q")
    assert run.returncode == 0, run.stderr[-2000:]
    build_demo_store(out / "benchmark.sqlite", out / "segments.gpkg")
    return out / "benchmark.sqlite"


def test_curate_on_the_demo_store_refuses_instead_of_deleting_every_panel(demo_store):
    before = _reference_count(demo_store)
    assert before == 80
    out = run_cli("curate", "--store", demo_store, *NO_MODELS, "-q")
    assert_fails_cleanly(out, "80 of the store's 80 reference images", "tier 1 (buffer): 80", "no valid position",
                         "--allow-removal")
    assert _reference_count(demo_store) == before
    assert_store_ok(demo_store)


# ====================================================================== case 3: one writer per store
def _env() -> dict:
    env = dict(os.environ)
    env.pop("GEOFIDELITY_DEBUG", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


@pytest.fixture(scope="module")
def tiny_sd(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_sd

    return make_tiny_sd(tmp_path_factory.mktemp("sd") / "tiny-sd")


def _generation_store(folder: Path) -> Path:
    from geofidelity_plugin.core.store.store import BenchmarkStore

    path = folder / "bench" / "store.sqlite"
    with BenchmarkStore(path) as store:
        store.put_segments([{"segment_id": sid, "city": "Paris", "country": "France", "country_code": "FR",
                             "street_name": sid.split("-", 1)[1], "neighbourhood": "Louvre", "centroid_lon": pts[0][0],
                             "centroid_lat": pts[0][1]} for sid, pts in LINES.items()])
        store.put_reference_images([{"reference_id": f"{sid}:0", "segment_id": sid,
                                     "image_path": f"reference/{sid}/00.jpg"} for sid in LINES])
    return path


def _generate(store: Path, folder: Path, steps: int, *extra) -> list[str]:
    return [sys.executable, "-m", "geofidelity_plugin", "generate", "--store", str(store), "--generator", "tiny",
            "--custom-folder", str(folder), "--steps", str(steps), "--resolution", "32", "--samples", "1",
            "--conditions", "L1", "--device", "cpu", "-q", *extra]


def test_two_generate_runs_on_one_store_never_mix(tmp_path, tiny_sd):
    """``--steps 2`` and ``--steps 3`` at once: one run writes, the other is refused (having
    waited, with the first run named); the store holds the panels of one setting only."""
    from geofidelity_plugin.core.generation.panel_records import recorded_key
    from geofidelity_plugin.core.store.store import BenchmarkStore

    store = _generation_store(tmp_path)
    runs = [subprocess.Popen(_generate(store, tiny_sd, steps), cwd=REPO, env=_env(), text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for steps in (2, 3)]
    outs = [(run.wait(timeout=300), *run.communicate()) for run in runs]
    codes = sorted(code for code, _, _ in outs)
    assert codes == [0, 2], [(c, e[-1500:]) for c, _, e in outs]
    loser = next(err for code, _, err in outs if code == 2)
    assert no_traceback(loser) and "error:" in loser, loser[-2000:]
    assert "being written by another run" in loser or "made with other settings" in loser, loser[-2000:]
    if "being written by another run" in loser:
        winner_pid = runs[[c for c, _, _ in outs].index(0)].pid
        assert f"pid {winner_pid} on host" in loser and "generate" in loser, loser[-2000:]
    with BenchmarkStore(store, create=False) as opened:
        images = [g for panel in opened.generated_panels().values() for g in panel]
    assert len(images) == len(LINES)
    assert len({recorded_key(g)["steps"] for g in images}) == 1
    assert_store_ok(store)
    assert not list(store.parent.glob(".*writer-lock"))  # given back when the run ended


def test_a_second_writer_is_refused_with_the_holder_named(tmp_path, tiny_sd):
    """While another run holds the store, ``generate --lock-timeout 0`` is refused at once — before
    any model loads — naming that run's pid, host and command; once it is free the same command
    works."""
    import socket

    from geofidelity_plugin.core.store import writer_lock

    store = _generation_store(tmp_path)
    key = writer_lock.acquire(store, command="python -m geofidelity_plugin curate --store x")
    try:
        out = run_cli(*_generate(store, tiny_sd, 2, "--lock-timeout", "0")[3:], timeout=120)
    finally:
        writer_lock.release(key)
    assert_fails_cleanly(out, "being written by another run", f"pid {os.getpid()} on host {socket.gethostname()}",
                         "curate --store x", "wait for that run to finish")
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
        assert con.execute("SELECT COUNT(*) FROM generated_images").fetchone()[0] == 0
    again = run_cli(*_generate(store, tiny_sd, 2, "--lock-timeout", "0")[3:], timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]


def test_a_waiting_writer_says_who_it_waits_for_then_goes_on(tmp_path):
    """The lock helper itself: a second holder waits (saying so once) and gets the lock when the
    first lets go; inside one process it is re-entrant."""
    import threading

    from geofidelity_plugin.core.store import writer_lock

    store = tmp_path / "store.sqlite"
    store.touch()
    script = ("import sys, time; sys.path.insert(0, sys.argv[1]);"
              "from geofidelity_plugin.core.store import writer_lock as w;"
              "k = w.acquire(sys.argv[2], command='holder-cmd'); print('held', flush=True); time.sleep(1.5); w.release(k)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(REPO), str(store)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    said = []
    start = time.monotonic()
    key = writer_lock.acquire(store, timeout_s=30, warn=said.append)
    waited = time.monotonic() - start
    try:
        assert writer_lock.acquire(store) == key  # re-entrant
        writer_lock.release(key)
        assert writer_lock.holds(store)
    finally:
        writer_lock.release(key)
    holder.wait(timeout=30)
    assert waited > 0.5 and len(said) == 1 and "holder-cmd" in said[0] and f"pid {holder.pid}" in said[0], said
    assert not writer_lock.holds(store) and not writer_lock.lock_file(store).exists()
    assert threading.active_count() >= 1


def test_a_waiting_writer_names_a_holder_that_is_slow_to_say_who_it_is(tmp_path):
    """A holder that has the lock but has not yet written its name (the moment between the two,
    long on a loaded machine — seen in CI): the waiter holds back its warning until the holder is
    named, so the one message it prints says whom it waits for."""
    import json
    import threading

    from geofidelity_plugin.core.store import writer_lock

    fcntl = pytest.importorskip("fcntl", reason="the holder is simulated with a POSIX lock")
    store = tmp_path / "store.sqlite"
    store.touch()
    path = writer_lock.lock_file(store)
    fh = open(path, "a+b")
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def name_then_leave():
        time.sleep(0.6)
        fh.seek(0)
        fh.write(b" " + json.dumps({"pid": 4242, "host": "h", "command": "slow-holder", "since": time.time()}).encode())
        fh.flush()
        time.sleep(0.8)
        path.unlink()
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        fh.close()

    thread = threading.Thread(target=name_then_leave)
    thread.start()
    said = []
    key = writer_lock.acquire(store, timeout_s=30, warn=said.append)
    writer_lock.release(key)
    thread.join()
    assert len(said) == 1 and "pid 4242 on host h" in said[0] and "slow-holder" in said[0], said
    assert writer_lock.UNNAMED not in said[0]

# ====================================================================== case 8 and the release findings
def _release(tmp_path: Path) -> Path:
    from release_fixture import make_release

    return make_release(tmp_path / "release")


def _append_row(csv_path: Path, row_index: int, **changes) -> None:
    with open(csv_path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    extra = dict(rows[row_index], **changes)
    with open(csv_path, "a", newline="") as fh:
        csv.DictWriter(fh, fieldnames=list(rows[0])).writerow(extra)


def test_import_release_names_a_duplicate_generated_row(tmp_path):
    """Today: "33 generated images", 32 stored, the first row's seed overwritten. Now refused,
    naming both lines; no store is made."""
    release = _release(tmp_path)
    _append_row(release / "metadata/generated_images.csv", 0, seed="999")
    store = tmp_path / "bench" / "store.sqlite"
    out = run_cli("import-release", "--release", release, "--store", store)
    assert_fails_cleanly(out, "generated_images.csv lines 2 and 34", "model 'sdxl', level L0, block b001, "
                         "sample_index 0", "keep one of the two rows")
    assert not store.exists()


def test_import_release_names_a_duplicate_reference_row(tmp_path):
    release = _release(tmp_path)
    _append_row(release / "metadata/reference_images.csv", 1)
    out = run_cli("import-release", "--release", release, "--store", tmp_path / "store.sqlite")
    assert_fails_cleanly(out, "reference_images.csv lines 3 and 22", "reference_id 'r2'")


def test_import_release_with_a_relative_path_and_the_store_elsewhere(tmp_path):
    """``--release release`` from the release's parent folder, the store in another folder: every
    image the store lists is found where it is (no doubled path), and the missing count is true."""
    from geofidelity_plugin.core.store.store import BenchmarkStore

    _release(tmp_path)
    store = tmp_path / "elsewhere" / "store.sqlite"
    out = run_cli("import-release", "--release", "release", "--store", store, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "missing_files: 0" in out.stdout
    with BenchmarkStore(store, create=False) as opened:
        paths = [r["abs_path"] for panel in opened.reference_panels().values() for r in panel]
        paths += [g["abs_path"] for panel in opened.generated_panels().values() for g in panel]
    assert len(paths) == 20 + 32 and all(Path(p).is_file() for p in paths), [p for p in paths if not Path(p).is_file()][:3]


def test_release_baseline_of_a_single_block_country_is_a_skipped_row(tmp_path):
    """b004 is the release's only GB block: no other block of its country to draw from, so its
    random_same_country baseline is listed as skipped with the reason (and noted), never just absent."""
    from types import SimpleNamespace

    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.release.evaluate import evaluate_release
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into
    from geofidelity_plugin.core.store.store import BenchmarkStore

    release = _release(tmp_path)
    import_release_into(release, tmp_path / "store.sqlite")

    class Embedder:
        def embed_paths(self, paths, progress=None):
            vectors = [np.random.default_rng(abs(hash(p)) % 2**32).normal(size=8) for p in paths]
            return SimpleNamespace(embeddings=np.array(vectors, dtype=np.float32), failed={}, computed=len(paths),
                                   cached=0)

    with BenchmarkStore(tmp_path / "store.sqlite", create=False) as store:
        result = evaluate_release(store, Embedder(), EvaluationOptions(protocol="release"))
    scored = {(r["method"], r["block_id"]) for r in result.rows if r["level"] == "baseline"}
    assert ("random_same_country", "b001") in scored and ("random_same_country", "b004") not in scored
    skipped = [s for s in result.skipped if (s["model"], s["segment_id"]) == ("random_same_country", "b004")]
    assert len(skipped) == 1 and "no other block of its country GB" in skipped[0]["reason"], result.skipped
    assert any("baseline panel(s) not scored" in n and "country GB" in n for n in result.notes), result.notes
    json.dumps(result.skipped)  # written as it is
