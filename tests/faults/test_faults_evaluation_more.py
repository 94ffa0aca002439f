"""More fault cases of the benchmark store and ``evaluate`` (issue 8, the independent tester's
findings): option values the core must refuse by the names the user knows, devices this PyTorch
cannot use, model references that name missing folders, stores written by an older version (also
read-only ones), stores moved without their images, and a store or feature cache that another run
holds locked. Every refusal comes before the feature model loads.
"""
from __future__ import annotations

import os
import queue
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import REPO
from faultkit import (assert_fails_cleanly, assert_no_partial_outputs, assert_qgis_fails_cleanly, assert_store_ok,
                      no_traceback, run_qgis)
from test_faults_evaluation import (MANIFEST, MODEL_LOADED, PER_PANEL, _env, assert_before_model, assert_ok,  # noqa: F401
                                    bench, dino, env, evaluate, first_run, pristine, read_rows, sql, start_from)

pytestmark = pytest.mark.fault


def columns(store: Path, table: str) -> list[str]:
    with sqlite3.connect(store) as con:
        return [row[1] for row in con.execute(f"PRAGMA table_info({table})")]


def drop_columns(store: Path, *columns_: str) -> None:
    sql(store, *[f"ALTER TABLE {c.split('.')[0]} DROP COLUMN {c.split('.')[1]}" for c in columns_])


def without(rows: list[dict], *keys: str) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in keys} for r in rows]


# --------------------------------------------------------------------------- options (items 8, 26)
@pytest.mark.parametrize("flag,value,fragment", [
    ("--seed", "-1", "whole number ≥ 0"), ("--bootstrap", "0", "whole number ≥ 1"),
    ("--holdout-size", "-1", "whole number ≥ 0"), ("--batch-size", "0", "whole number ≥ 1"),
    ("--lock-timeout", "-5", "≥ 0")])
def test_cli_refuses_a_bad_number(bench, tmp_path, dino, env, flag, value, fragment):
    out = evaluate(bench, tmp_path / "eval", dino, flag, value, env=env)
    assert_fails_cleanly(out, flag, fragment)
    assert_before_model(out)
    assert not (tmp_path / "eval").exists()


@pytest.mark.parametrize("option,value,names", [
    ("seed", -1, ("--seed", "Random seed")), ("n_bootstrap", 0, ("--bootstrap", "Bootstrap resamples")),
    ("holdout_size", -1, ("--holdout-size", "Held-out anchor size")), ("seed", 2.5, ("--seed", "Random seed"))])
def test_core_names_the_option_before_any_load(bench, tmp_path, monkeypatch, option, value, names):
    """The core (which QGIS and the demo call) refuses what the command line's types refuse, with
    the option's flag and its name in the QGIS dialog, before the store or a model is opened."""
    from geofidelity_plugin.core.errors import InputError, user_message
    from geofidelity_plugin.core.vision import features
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.workflow import run_evaluation

    monkeypatch.setattr(features.FeatureExtractor, "__init__", lambda *a, **k: pytest.fail("model loaded"))
    before = bench.read_bytes()
    with pytest.raises(InputError) as err:
        run_evaluation(bench, tmp_path / "eval", "facebook/dinov2-base", EvaluationOptions(**{option: value}))
    message, foreseen = user_message(err.value)
    assert foreseen and all(n in message for n in names) and str(value) in message, message
    assert bench.read_bytes() == before and not (tmp_path / "eval").exists()


# --------------------------------------------------------------------------- devices (items 10, 11)
def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


@pytest.mark.parametrize("device,fragments", [
    ("quantum", ("unknown device", "'quantum'", "cpu")),
    ("cuda:99", ("'cuda:99'",)),
    pytest.param("cuda", ("'cuda'", "sees no CUDA GPU", "use the device cpu"),
                 marks=pytest.mark.skipif("_cuda()", reason="this machine has a CUDA GPU")),
])
def test_device_checked_before_any_load(bench, tmp_path, dino, env, device, fragments):
    out = evaluate(bench, tmp_path / "eval", dino, "--device", device, env=env)
    assert_fails_cleanly(out, *fragments)
    assert_before_model(out)
    assert not (tmp_path / "eval").exists()
    if device == "quantum":  # the fix: a device this machine has
        assert_ok(evaluate(bench, tmp_path / "eval", dino, "--device", "cpu", env=env))


# --------------------------------------------------------------------------- model references (24 and smaller)
@pytest.mark.parametrize("case", ["semantic-absolute", "semantic-relative", "semantic-home", "feature-empty",
                                  "store-empty"])
def test_model_and_store_references(bench, tmp_path, dino, env, case):
    store, model, extra = bench, dino, []
    if case.startswith("semantic"):
        ref = {"semantic-absolute": str(tmp_path / "no-such-mask2former"), "semantic-relative": "./no/such/model",
               "semantic-home": "~/no-such-mask2former"}[case]
        extra, fragments = ["--semantic-model", ref], ("model folder", ref, "not found", "--semantic-model")
    elif case == "feature-empty":
        model, fragments = "", ("no feature model was given", "--feature-model")
    else:
        store, fragments = "", ("no benchmark store was given",)
    out = evaluate(store, tmp_path / "eval", model, *extra, env=env)
    text = assert_fails_cleanly(out, *fragments)
    assert_before_model(out)
    assert "models download" not in text and "is a folder" not in text
    assert not (tmp_path / "eval").exists()
    assert_store_ok(bench)


# --------------------------------------------------------------------------- older stores (items 12, 13)
@pytest.mark.parametrize("dropped", [("generated_images.clip_score",), ("segments.extra_json",),
                                     ("generated_images.clip_score", "segments.extra_json", "candidates.record_json")])
def test_older_store_is_brought_up_to_date(bench, tmp_path, dino, env, first_run, dropped):
    drop_columns(bench, *dropped)
    start_from(first_run, env)
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    assert "brought up to date" in out.stderr and all(c in out.stderr for c in dropped), out.stderr
    for column in dropped:
        table, name = column.split(".")
        assert name in columns(bench, table)
    assert_store_ok(bench)
    got, want = read_rows(tmp_path / "eval" / PER_PANEL), read_rows(first_run / "eval" / PER_PANEL)
    assert without(got, "clip_score") == without(want, "clip_score")  # the same scores
    if len(dropped) == 1:
        return
    # the store takes new rows with every column in its place
    from geofidelity_plugin.core.store.store import BenchmarkStore

    with BenchmarkStore(bench, create=False) as store:
        store.put_segments([{"segment_id": "zz-new", "city": "Zed", "centroid_lon": 1.0, "centroid_lat": 2.0,
                             "surface": "cobbles"}])
        new = [s for s in store.segments() if s["segment_id"] == "zz-new"][0]
    assert new["surface"] == "cobbles" and new["city"] == "Zed"
    out = evaluate(bench, tmp_path / "again", dino, env=env)  # nothing left to add: no warning
    assert_ok(out)
    assert "brought up to date" not in out.stderr


def test_read_only_older_store(bench, env, dino, tmp_path, monkeypatch, capsys):
    """A store that lacks a column and cannot be written: a message naming the column and the fix,
    the file untouched; once it is writable the same command runs. Root writes any file whatever its
    mode bits, so the store is opened read-only the way SQLite sees a file it may not write
    (``mode=ro``): the same "readonly database" answer, on every machine and for every user."""
    from geofidelity_plugin.backend import cli

    store = tmp_path / "read-only" / "store.sqlite"
    shutil.copytree(bench.parent, store.parent)
    drop_columns(store, "generated_images.clip_score", "segments.extra_json")
    before = store.read_bytes()
    real_connect = sqlite3.connect

    def read_only(database, *args, **kwargs):
        if str(database) == str(store):
            kwargs["uri"] = True
            return real_connect(f"file:{store}?mode=ro", *args, **kwargs)
        return real_connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    # a hub id: the failure must come from the store, before the model (or its folder) is looked at
    code = cli.main(["evaluate", "--store", str(store), "--out", str(tmp_path / "eval"), "--feature-model",
                     "facebook/dinov2-base", "-q"])
    err = capsys.readouterr().err
    assert code == 2, err
    for fragment in (str(store), "generated_images.clip_score", "segments.extra_json", "cannot be written",
                     "make it writable"):
        assert fragment in err, err
    assert "Traceback" not in err and MODEL_LOADED not in err
    assert store.read_bytes() == before
    monkeypatch.setattr(sqlite3, "connect", real_connect)  # the fix: a writable file
    assert_ok(evaluate(store, tmp_path / "eval", dino, env=env))
    assert "clip_score" in columns(store, "generated_images")
    assert_store_ok(store)


# --------------------------------------------------------------------------- moved stores (item 29)
def test_store_moved_without_its_images(bench, tmp_path, dino, env):
    moved = tmp_path / "moved" / "store.sqlite"
    moved.parent.mkdir()
    shutil.copy2(bench, moved)
    out = evaluate(moved, tmp_path / "eval", dino, env=env)
    text = assert_fails_cleanly(out, "all 15 reference images", str(moved), "moved without its image folders",
                                "refs/")
    assert_before_model(out)
    assert len(text.strip().splitlines()) == 1, text
    assert not (tmp_path / "eval").exists()
    for folder in ("refs", "gen"):  # the fix: the image folders beside the store
        shutil.copytree(bench.parent / folder, moved.parent / folder)
    assert_ok(evaluate(moved, tmp_path / "eval", dino, env=env))


def test_all_generated_images_missing(bench, tmp_path, dino, env):
    shutil.rmtree(bench.parent / "gen")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_fails_cleanly(out, "all 48 generated images", "gen/")
    assert_before_model(out)
    assert_ok(evaluate(bench, tmp_path / "anchors", dino, "--anchors-only", env=env))  # the anchors need no panel


def test_some_images_missing_is_one_line(bench, tmp_path, dino, env):
    refs = sorted((bench.parent / "refs").rglob("*.png"))
    gens = sorted((bench.parent / "gen").rglob("*.png"))
    gone = [refs[0], refs[7], gens[0], gens[9], gens[20]]
    for path in gone:
        path.unlink()
    gens[30].write_bytes(b"not a png")
    out = evaluate(bench, tmp_path / "eval", dino, env=env)
    assert_ok(out)
    lines = [line for line in out.stderr.splitlines() if "skipped" in line and "image" in line]
    assert len(lines) == 1 and "6 images skipped (5 missing, 1 unreadable" in lines[0], out.stderr
    assert "failed_images.csv" in lines[0]
    assert sum(str(p) in out.stderr for p in [*gone, gens[30]]) <= 1, out.stderr  # no line per image
    failed = read_rows(tmp_path / "eval" / "failed_images.csv")
    assert sorted(r["image_path"] for r in failed) == sorted(str(p.resolve()) for p in [*gone, gens[30]])


# --------------------------------------------------------------------------- locks (items 23, 37)
class Lock:
    """Another run's lock on an SQLite file, held by this test process."""

    def __init__(self, path: Path, journal: str):
        self.con = sqlite3.connect(path, isolation_level=None)
        self.con.execute(f"PRAGMA journal_mode={journal}")
        self.con.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        self.con.execute("ROLLBACK")
        self.con.close()


def start_cli(*args, env: dict) -> tuple[subprocess.Popen, "queue.Queue[str]"]:
    """The CLI in the background; its stderr lines arrive in the queue as they are written."""
    proc = subprocess.Popen([sys.executable, "-m", "geofidelity_plugin", *map(str, args)], cwd=REPO, text=True,
                            env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True).start()
    return proc, lines


def wait_for_line(lines: queue.Queue, fragment: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            continue
        if fragment in line:
            return line
    pytest.fail(f"no line with {fragment!r} within {seconds} s")


def test_store_locked_says_so_at_once_then_runs(bench, tmp_path, dino, env):
    """Another run holds the store: this one says at once that it waits (not 60 s of silence), and
    goes on when the lock is released."""
    lock = Lock(bench, "DELETE")
    try:
        proc, lines = start_cli("evaluate", "--store", bench, "--out", tmp_path / "eval", "--feature-model", dino,
                                "--bootstrap", "50", "-q", "--lock-timeout", "60", env=env)
        line = wait_for_line(lines, "locked by another run", 20)
        assert line.startswith("warning:") and str(bench) in line and "waiting" in line, line
        assert proc.poll() is None  # still waiting
    finally:
        lock.release()
    assert proc.wait(timeout=120) == 0, proc.stdout.read()
    assert (tmp_path / "eval" / MANIFEST).exists()
    assert_store_ok(bench)


def test_store_locked_too_long(bench, tmp_path, dino, env):
    lock = Lock(bench, "DELETE")
    try:
        out = evaluate(bench, tmp_path / "eval", dino, "--lock-timeout", "1", env=env)
    finally:
        lock.release()
    text = assert_fails_cleanly(out, str(bench), "still locked by another run after 1 s", "wait for that run")
    lines = text.strip().splitlines()
    assert "waiting" in lines[0] and lines[-1].startswith("error:"), text
    assert_before_model(out)
    assert_store_ok(bench)
    assert_ok(evaluate(bench, tmp_path / "eval", dino, env=env))


def test_feature_cache_in_use_by_another_run(bench, tmp_path, dino, env, first_run):
    """Another run writes to the feature cache: a run served from the cache goes on (reading does
    not wait), one that must write says the cache is in use — never to delete it — and the cache
    keeps every row."""
    start_from(first_run, env)
    cache = Path(env["GEOFIDELITY_CACHE_DIR"]) / "features.sqlite"
    lock = Lock(cache, "WAL")
    try:
        assert_ok(evaluate(bench, tmp_path / "cached", dino, "--lock-timeout", "1", env=env))
        sql(bench, "UPDATE generated_images SET image_path = replace(image_path, '00.png', '00b.png') "
                   "WHERE sample_index = 0 AND condition = 'L1'")
        for path in (bench.parent / "gen" / "m1" / "L1").rglob("00.png"):
            shutil.copy2(path, path.with_name("00b.png"))
            with open(path.with_name("00b.png"), "ab") as fh:  # new bytes: not in the cache
                fh.write(b"\0")
        out = evaluate(bench, tmp_path / "eval", dino, "--lock-timeout", "1", env=env)
    finally:
        lock.release()
    text = assert_fails_cleanly(out, str(cache), "in use by another run", "wait for it to finish")
    assert "delete" not in text.lower(), text
    lines = text.strip().splitlines()
    waiting = [i for i, line in enumerate(lines) if line.startswith("warning:") and "waiting" in line]
    assert len(waiting) == 1 and lines[-1].startswith("error:") and waiting[0] < len(lines) - 1, text
    assert_no_partial_outputs(tmp_path / "eval")
    with sqlite3.connect(cache) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0] == 63
    assert_ok(evaluate(bench, tmp_path / "eval", dino, env=env))


# --------------------------------------------------------------------------- qgis_process
def test_qgis_negative_seed_names_the_parameter(qgis_env, bench, tmp_path, dino):
    out = run_qgis(qgis_env, "evaluate", STORE=bench, FEATURE_MODEL=dino, OUTPUT_FOLDER=tmp_path / "eval", SEED=-1)
    assert_qgis_fails_cleanly(out, "--seed", "whole number ≥ 0", "-1")  # the backend's own check, before any load
    assert MODEL_LOADED not in out.stdout + out.stderr
    assert not (tmp_path / "eval" / MANIFEST).exists()


def test_qgis_unknown_device(qgis_env, bench, tmp_path, dino):
    out = run_qgis(qgis_env, "evaluate", STORE=bench, FEATURE_MODEL=dino, OUTPUT_FOLDER=tmp_path / "eval",
                   DEVICE="quantum")
    assert_qgis_fails_cleanly(out, "unknown device", "quantum")
    assert MODEL_LOADED not in out.stdout + out.stderr
    assert no_traceback(out.stdout + out.stderr)
