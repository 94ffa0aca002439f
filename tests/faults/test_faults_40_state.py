"""Issue 40, one writer for state files and caches that heal (cases 2, 3, 4 and 8), and the matrix
of path kinds over every state writer routed through ``core/state_files.py``.

- case 2: a writer lock that is a link, a folder or another file is refused (exit 2, the path and
  the fix named) and nothing it points at is touched;
- case 3: ``geodiv --cache answers.csv`` refuses the CSV (it is not a cache) and leaves it as it is;
  the other caches (Overpass, thumbnails, VQA answers) evict only what they wrote;
- case 4: a full disk is said to be a full disk, never "damaged — restore it from a backup";
- case 8: a cached embedding with NaN is evicted, recomputed, and the run says so;
- the matrix: each writer × (a link to a file outside, a dangling link, a folder, a fifo, a
  read-only folder, a full disk): a refusal that names the problem, and no file outside changed.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO
from faultkit import assert_fails_cleanly, assert_no_partial_outputs, assert_store_ok, file_size_limit, run_cli
from state_writers import WRITERS
from test_faults_27_stores import NO_MODELS, _fetched_store
from test_faults_evaluation import (PER_PANEL, _cache, assert_ok, bench, dino, env, evaluate,  # noqa: F401
                                    first_run, pristine, read_rows, start_from)

pytestmark = pytest.mark.fault

FAULTS = Path(__file__).resolve().parent
NOT_DAMAGED = ("damaged — restore", "restore it from a backup", "build it again", "delete the file")


def _hashes(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (links as their target text) → its sha256: what must not change."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            out[str(path)] = "link:" + os.readlink(path)
        elif path.is_file():
            out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _outside(tmp_path: Path) -> Path:
    """A folder of files that no run may change: the victims a link points at."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_text("the user's own file\n")
    (folder / "answers.csv").write_text("image_id,question_id,answer\n1,q1,yes\n")
    return folder


# ====================================================================== case 2: the writer lock
def _lock(store: Path) -> Path:
    from geofidelity_plugin.core.store import writer_lock

    return writer_lock.lock_file(store)


@pytest.mark.parametrize("kind", ["symlink", "dangling", "folder", "foreign-file"])
def test_curate_refuses_a_writer_lock_that_is_not_a_lock_file(tmp_path, kind):
    """Before: a link was followed and its target overwritten with the holder record (then
    deleted); a folder let every writer run with no lock and no word. Now: exit 2 naming the
    lock path and the fix, the store and everything outside unchanged."""
    outside = _outside(tmp_path)
    store = _fetched_store(tmp_path / "bench")
    lock = _lock(store)
    if kind == "symlink":
        lock.symlink_to(outside / "victim.txt")
    elif kind == "dangling":
        lock.symlink_to(outside / "made-by-the-run.txt")
    elif kind == "folder":
        lock.mkdir()
    else:
        lock.write_text("my notes, which happen to have this name\n")
    before, store_before = _hashes(outside), store.read_bytes()
    lock_before = lock.read_text() if kind == "foreign-file" else None
    out = run_cli("curate", "--store", store, *NO_MODELS, "-q")
    words = {"symlink": "symbolic link", "dangling": "points at nothing", "folder": "is a folder",
             "foreign-file": "not a GeoFidelity lock file"}[kind]
    assert_fails_cleanly(out, str(lock), words, "writer lock", f"move {lock} away")
    assert _hashes(outside) == before and store.read_bytes() == store_before
    assert not (outside / "made-by-the-run.txt").exists()
    assert lock.is_symlink() == (kind in ("symlink", "dangling")) and lock.is_dir() == (kind == "folder")
    if lock_before is not None:
        assert lock.read_text() == lock_before
    assert_store_ok(store)


def test_the_lock_file_carries_its_signature_and_goes_when_released(tmp_path):
    from geofidelity_plugin.core.store import writer_lock

    store = tmp_path / "store.sqlite"
    key = writer_lock.acquire(store, command="sig-test")
    try:
        data = _lock(store).read_bytes()
        assert data.startswith(writer_lock.SIGNATURE) and b"sig-test" in data
        assert "sig-test" in writer_lock.describe_holder(_lock(store))
    finally:
        writer_lock.release(key)
    assert not _lock(store).exists()


# ====================================================================== case 3: a cache path that is not a cache
@pytest.fixture(scope="module")
def images(tmp_path_factory) -> Path:
    from PIL import Image

    root = tmp_path_factory.mktemp("geodiv_images")
    rng = np.random.default_rng(40)
    for city in ("lagos", "lyon"):
        (root / city).mkdir()
        for i in range(2):
            Image.fromarray(rng.integers(0, 256, (36, 44, 3), dtype=np.uint8)).save(root / city / f"{i}.png")
    return root


def _geodiv(images: Path, model: Path, cache: Path, out: Path, **kwargs):
    return run_cli("geodiv", "--images", images, "--feature-model", model, "--cache", cache, "--device", "cpu",
                   "--group-by", "model,city", "--out", out, "-q", **kwargs)


def test_geodiv_cache_that_is_the_answers_csv_is_refused_and_kept(tmp_path, images, dino):
    """Before: the CSV was deleted because it "is not a database", exit 0. Now: exit 2 before any
    model loads, saying what the file is and what was probably meant; the CSV is byte for byte
    the same."""
    answers = _outside(tmp_path) / "answers.csv"
    before = answers.read_bytes()
    out = _geodiv(images, dino, answers, tmp_path / "out")
    assert_fails_cleanly(out, str(answers), "is not a GeoFidelity feature cache", "a CSV table",
                         "did you mean --answers?", "give a new cache path")
    assert answers.read_bytes() == before
    assert " loaded on " not in out.stderr


def test_geodiv_with_a_new_cache_path_makes_a_marked_cache(tmp_path, images, dino):
    from geofidelity_plugin.core.state_files import sqlite_application_id
    from geofidelity_plugin.core.vision.feature_cache import APPLICATION_ID

    cache = tmp_path / "new" / "cache.sqlite"
    out = _geodiv(images, dino, cache, tmp_path / "out")
    assert out.returncode == 0, out.stderr[-2000:]
    assert sqlite_application_id(cache) == APPLICATION_ID
    again = _geodiv(images, dino, cache, tmp_path / "out2")  # ours: opened and used again
    assert again.returncode == 0, again.stderr[-2000:]


def test_another_programs_marked_database_is_never_a_cache(tmp_path):
    from geofidelity_plugin.core.errors import GeoFidelityError
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache

    other = tmp_path / "app.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("PRAGMA application_id = 1234")
        con.execute("CREATE TABLE meta (key TEXT)")
    before = other.read_bytes()
    with pytest.raises(GeoFidelityError, match="another program, application id 0x4d2"):
        FeatureCache(other)
    assert other.read_bytes() == before


def test_thumbnail_cache_never_deletes_a_file_it_did_not_write(tmp_path):
    """An image slot of the Mapillary image cache that holds something else (not a JPEG, or a
    link out of the cache): the image fails naming it; the file and the link's target stay."""
    from geofidelity_plugin.core.reference_panels.mapillary.thumbnails import (ThumbnailFailed, discard_cached,
                                                                                image_path)

    outside = _outside(tmp_path)
    before = _hashes(outside)
    text = image_path(tmp_path / "cache", "1234567")
    text.parent.mkdir(parents=True)
    text.write_text("a note\n")
    with pytest.raises(ThumbnailFailed, match="was not made by GeoFidelity"):
        discard_cached(text)
    assert text.read_text() == "a note\n"
    link = image_path(tmp_path / "cache", "1299999")
    link.symlink_to(outside / "victim.txt")
    with pytest.raises(ThumbnailFailed, match="symbolic link"):
        discard_cached(link)
    assert link.is_symlink() and _hashes(outside) == before
    jpeg = image_path(tmp_path / "cache", "1288888")
    jpeg.write_bytes(b"\xff\xd8\xff\xe0 cut short")  # ours, truncated: evicted
    assert discard_cached(jpeg) and not jpeg.exists()


def test_overpass_cache_evicts_its_own_damaged_answer_only(tmp_path):
    from geofidelity_plugin.core.selection.overpass import OverpassClient

    client = OverpassClient(cache_dir=tmp_path)
    query = "[out:json];way(1);out;"
    path = client.cache_file(query)
    path.write_text('{"endpoint": "x", "query": "[out:json];way(1);o')  # ours, cut short
    assert client._read_cache(path, query, None) is None and not path.exists()
    path.write_text("name,value\nmine,1\n")  # not ours
    assert client._read_cache(path, query, None) is None
    assert path.read_text() == "name,value\nmine,1\n"
    client._write_cache(path, query, {"elements": []}, None)
    assert path.read_text() == "name,value\nmine,1\n"


def test_vqa_cache_entry_that_fails_validation_is_evicted(tmp_path, caplog):
    """A cached VQA answer with NaN, a missing question or broken JSON is deleted and scored again
    (the run says so); a file there that the cache did not write is refused and kept."""
    from geofidelity_plugin.core.geodiv.questions import Question, QuestionSet
    from geofidelity_plugin.core.geodiv.vqa import _read_cached
    from geofidelity_plugin.core.state_files import NotOurs

    qset = QuestionSet("t", (Question("q1", "background", "Background?", ("a", "b")),), "d")
    entry = tmp_path / "vqa_cache" / "k.json"
    entry.parent.mkdir()
    entry.write_text('{"q1": [-0.5, -1.5]}')
    assert _read_cached(entry, qset) == {"q1": [-0.5, -1.5]}
    for bad in ('{"q1": [NaN, -1.5]}', '{"q1": [-0.5]}', '{"q2": [-0.5, -1.5]}', '{"q1": [-0.5, -1'):
        entry.write_text(bad)
        with caplog.at_level("WARNING", logger="geofidelity"):
            assert _read_cached(entry, qset) is None
        assert not entry.exists() and "scored again" in caplog.text
    entry.write_text("not json and not ours")
    with pytest.raises(NotOurs):
        _read_cached(entry, qset)
    assert entry.read_text() == "not json and not ours"


def test_staged_folder_never_publishes_through_a_linked_sub_folder(tmp_path):
    """An output folder whose ``figures/`` is a link to a folder elsewhere: nothing is published
    (not even the files beside it), nothing lands in the linked folder, the old outputs stay."""
    from geofidelity_plugin.core.atomic import staged_folder
    from geofidelity_plugin.core.errors import GeoFidelityError

    outside = _outside(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "table.csv").write_text("old\n")
    (out / "figures").symlink_to(outside)
    before, inside = _hashes(outside), _hashes(out)
    with pytest.raises(GeoFidelityError, match="symbolic link"):
        with staged_folder(out) as stage:
            stage.path("table.csv").write_text("new\n")
            stage.path("figures/victim.txt").write_text("overwritten\n")
            stage.path("manifest.json").write_text("{}\n")
    assert _hashes(outside) == before and _hashes(out) == inside
    assert_no_partial_outputs(out)


def test_model_download_discards_only_inside_its_own_model_folder(tmp_path):
    """A download record naming ``../../x`` as a failed file, or a snapshot link to a ``blobs``
    folder of another place: nothing outside the model's folder is deleted."""
    from geofidelity_plugin.core.models.download import discard

    outside = _outside(tmp_path)
    (outside / "blobs").mkdir()
    (outside / "blobs" / "abc").write_text("someone's blob\n")
    before = _hashes(outside)
    snapshot = tmp_path / "models" / "models--org--m" / "snapshots" / "c0ffee"
    snapshot.mkdir(parents=True)
    discard(snapshot / ".." / ".." / ".." / ".." / "outside" / "victim.txt", snapshot)
    (snapshot / "weights.bin").symlink_to(outside / "blobs" / "abc")
    discard(snapshot / "weights.bin", snapshot)
    assert _hashes(outside) == before and not (snapshot / "weights.bin").is_symlink()
    own = snapshot.parent.parent / "blobs"
    own.mkdir()
    (own / "def").write_text("damaged\n")
    (snapshot / "config.json").symlink_to(Path("..") / ".." / "blobs" / "def")
    discard(snapshot / "config.json", snapshot)
    assert not (own / "def").exists() and not (snapshot / "config.json").is_symlink()


# ====================================================================== case 4: a full disk is not damage
def test_store_on_a_full_disk_is_not_called_damaged(tmp_path, monkeypatch):
    """SQLite's own words for ENOSPC while the store is opened: the message names the full disk and
    says the store is not damaged; before, it said "damaged — restore it from a backup"."""
    from geofidelity_plugin.core.errors import GeoFidelityError
    from geofidelity_plugin.core.store import store as store_module
    from geofidelity_plugin.core.store.store import BenchmarkStore

    path = _fetched_store(tmp_path)
    before = path.read_bytes()

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_module, "check_store_db", full)
    with pytest.raises(GeoFidelityError) as caught:
        BenchmarkStore(path, create=False)
    text = str(caught.value)
    assert "no space left on the disk" in text and "the benchmark store is not damaged" in text, text
    assert not any(w in text for w in NOT_DAMAGED), text
    assert path.read_bytes() == before


def test_store_write_past_a_file_size_limit_is_named_as_such(tmp_path):
    """The real command on a disk that fills up: ``curate`` under a file size limit fails naming
    the limit (or the disk), never calling the store damaged; the store stays whole."""
    store = _fetched_store(tmp_path)
    limit = store.stat().st_size
    out = run_cli("curate", "--store", store, *NO_MODELS, "-q", preexec_fn=file_size_limit(limit))
    text = assert_fails_cleanly(out, str(store))
    assert "file size limit" in text or "disk" in text, text
    assert not any(w in text for w in NOT_DAMAGED), text
    assert_store_ok(store)


def test_feature_cache_on_a_full_disk_is_not_called_damaged(tmp_path, monkeypatch):
    from geofidelity_plugin.core.errors import GeoFidelityError
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache

    path = tmp_path / "features.sqlite"
    FeatureCache(path).close()
    before = path.read_bytes()

    def full(self, conn):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(FeatureCache, "_prepare", full)
    with pytest.raises(GeoFidelityError) as caught:
        FeatureCache(path)
    text = str(caught.value)
    assert "no space left on the disk" in text and "the feature cache is not damaged" in text, text
    assert not any(w in text for w in NOT_DAMAGED), text
    assert path.read_bytes() == before


@pytest.mark.parametrize("error, words", [
    (OSError(28, "No space left on device"), "no space left on the disk"),
    (OSError(122, "Disk quota exceeded"), "disk quota exceeded"),
    (OSError(30, "Read-only file system"), "read-only file system"),
    (OSError(5, "Input/output error"), "input/output error"),
    (OSError(13, "Permission denied"), "permission denied"),
    (OSError(1, "Operation not permitted"), "operation not permitted"),
    (sqlite3.OperationalError("database or disk is full"), "no space left on the disk"),
    (sqlite3.OperationalError("disk I/O error"), "could not be read or written"),
])
def test_diagnosis_names_the_os_failure_before_damage(error, words):
    from geofidelity_plugin.core.state_files import diagnose_os_error

    text = diagnose_os_error(error, "/data/store.sqlite", "the benchmark store")
    assert text and words in text and "/data/store.sqlite" in text, text
    assert diagnose_os_error(sqlite3.DatabaseError("file is not a database"), "/x") is None


# ====================================================================== case 8: a poisoned cache heals
def test_nan_vector_in_the_feature_cache_is_evicted_and_recomputed(bench, tmp_path, dino, env, first_run):
    """Before: the NaN row was served on every run and its image failed each time. Now the row is
    deleted and recomputed (the run says so), the scores equal the clean run's, and the cache
    holds a finite vector again."""
    start_from(first_run, env)
    cache = _cache(env)
    with sqlite3.connect(cache) as con:
        sha, dim = con.execute("SELECT image_sha256, dim FROM embeddings ORDER BY image_sha256 LIMIT 1").fetchone()
        poisoned = np.full(dim, np.nan, dtype="<f4").tobytes()  # whole and checksummed: only its values are bad
        con.execute("UPDATE embeddings SET vector = ?, crc32 = ? WHERE image_sha256 = ?",
                    (poisoned, zlib.crc32(poisoned), sha))
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    assert "1 cached embedding(s) holding NaN or infinite values deleted and recomputed" in out.stderr, out.stderr
    assert "computed 1," in out.stdout, out.stdout
    with sqlite3.connect(cache) as con:
        blob = con.execute("SELECT vector FROM embeddings WHERE image_sha256 = ?", (sha,)).fetchone()[0]
    assert np.isfinite(np.frombuffer(blob, dtype="<f4")).all()
    assert read_rows(tmp_path / "eval" / PER_PANEL) == read_rows(first_run / "eval" / PER_PANEL)
    again = evaluate(bench, tmp_path / "eval2", dino, env=env)
    assert_ok(again)
    assert "NaN" not in again.stderr and "computed 0," in again.stdout, again.stdout


def test_nan_row_is_a_miss_in_the_cache_itself(tmp_path):
    from geofidelity_plugin.core.vision.feature_cache import CacheKey, FeatureCache

    said = []
    cache = FeatureCache(tmp_path / "c.sqlite", warn=said.append)
    key = CacheKey("a" * 64, "m", "r", "p")
    cache.put_many({key: np.ones(4)})
    bad = np.array([1.0, np.inf, 0, 0], dtype="<f4").tobytes()
    with sqlite3.connect(tmp_path / "c.sqlite") as con:
        con.execute("UPDATE embeddings SET vector = ?, crc32 = ?", (bad, zlib.crc32(bad)))
    assert cache.get_many([key]) == {} and len(cache) == 0
    assert len(said) == 1 and "holding NaN or infinite values deleted and recomputed" in said[0]


# ====================================================================== the matrix of path kinds
KINDS = ["link-out", "dangling-link", "folder", "fifo", "read-only-folder", "full-disk"]
#: what a refusal must say, per kind (any one of the fragments)
SAYS = {"link-out": ("symbolic link", "not a geofidelity"), "dangling-link": ("symbolic link",),
        "folder": ("is a folder",), "fifo": ("is a fifo",),
        "read-only-folder": ("permission denied", "unable to open", "cannot be opened", "writable", "read-only"),
        "full-disk": ("file size limit", "disk could not be read or written", "no space left")}


def _without_permission_override():
    """Root with file permissions enforced: CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH leave the
    capability bounding set before exec, so the child — still root, so it reads the checkout
    wherever it was cloned (a 0700 clone included) — cannot write into a 0555 folder. Where the
    kernel refuses the drop, the child runs as nobody instead."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            os.setgid(65534)
            os.setuid(65534)
            return


def _run(writer: str, folder: Path, kind: str, images: Path, dino: Path) -> subprocess.CompletedProcess:
    preexec = None
    if kind == "full-disk":
        preexec = file_size_limit(0)
    elif kind == "read-only-folder" and os.geteuid() == 0:
        preexec = _without_permission_override  # root writes anywhere: not the child
    if writer == "geodiv-cache":  # the real command, its inputs where the child can read them
        import shutil

        shared = folder.parent / "shared"
        shutil.copytree(images, shared / "images")
        shutil.copytree(dino, shared / "dino")
        out = folder.parent / "geodiv-out"
        out.mkdir()
        os.chmod(out, 0o777)
        return _geodiv(shared / "images", shared / "dino", folder / WRITERS[writer], out,
                       preexec_fn=preexec, timeout=120)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(FAULTS)]))
    return subprocess.run([sys.executable, "-m", "state_writers", writer, str(folder)],
                          capture_output=True, text=True, timeout=120, env=env, preexec_fn=preexec, cwd=folder.parent)


@pytest.fixture
def arena():
    """A folder outside pytest's private tree (nobody must reach it for the read-only case)."""
    import shutil

    root = Path(tempfile.mkdtemp(prefix="gf-state-"))
    os.chmod(root, 0o755)
    yield root
    for path in root.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            os.chmod(path, 0o755)
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("writer", list(WRITERS))
def test_state_writer_refuses_a_path_of_the_wrong_kind(arena, writer, kind, images, dino):
    """Every state writer, every kind of path in its way: a refusal (exit 2, ``error:``, the
    problem in words, no traceback), the thing at the path left as it was, and no file outside
    the run's folder changed, deleted or created."""
    outside = _outside(arena)
    folder = arena / "work"
    folder.mkdir()
    target = folder / WRITERS[writer]
    if kind == "link-out":
        target.symlink_to(outside / "victim.txt")
    elif kind == "dangling-link":
        target.symlink_to(outside / "made-by-the-run.txt")
    elif kind == "folder":
        target.mkdir()
        (target / "inside.txt").write_text("kept\n")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "read-only-folder":
        os.chmod(folder, 0o555)
    before, inside = _hashes(outside), _hashes(folder)
    out = _run(writer, folder, kind, images, dino)
    text = assert_fails_cleanly(out).lower()
    assert any(f in text for f in SAYS[kind]), (writer, kind, out.stderr[-1500:])
    if kind == "full-disk" or kind == "read-only-folder":
        assert not any(w in text for w in NOT_DAMAGED), text
    assert _hashes(outside) == before
    assert not (outside / "made-by-the-run.txt").exists()
    if kind in ("link-out", "dangling-link", "folder"):
        assert _hashes(folder) == inside  # the link or the folder is left exactly as it was
    assert (target.is_fifo() if kind == "fifo" else True)
    assert_no_partial_outputs(folder)
