"""The error policy itself: output pre-checks, staged output folders, atomic writes, the CLI's
exit codes and the Processing decorator (docs/method.md, "Errors and exit codes")."""
from __future__ import annotations

import errno
import json
import os

import pytest

from faultkit import assert_no_partial_outputs, file_size_limit, no_traceback, run_cli
from geofidelity_plugin.backend import cli
from geofidelity_plugin.core import atomic
from geofidelity_plugin.core.errors import InputError, OutputError, user_message
from geofidelity_plugin.core.output_paths import check_output_file, check_output_folder

pytestmark = pytest.mark.fault


def test_output_file_that_is_a_folder(tmp_path):
    with pytest.raises(OutputError, match="is a folder — give a file name inside it"):
        check_output_file(tmp_path, "segments GeoPackage")


def test_output_file_under_a_file(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    with pytest.raises(OutputError, match=r"notes\.txt is a file, not a folder"):
        check_output_file(blocker / "sub" / "out.gpkg")
    assert blocker.read_text() == "x" and not list(tmp_path.glob(".geofidelity-write-test-*"))


def test_output_folder_that_is_a_file(tmp_path):
    blocker = tmp_path / "eval"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="is a file — give a folder"):
        check_output_folder(blocker)


def test_empty_output_path():
    with pytest.raises(InputError, match="no report was given"):
        check_output_file("  ", "report")


def test_output_disk_nearly_full(tmp_path, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10**9, 10**9 - 1000, 1000))
    with pytest.raises(OutputError, match="MB free on the disk"):
        check_output_folder(tmp_path / "new")
    assert not (tmp_path / "new").exists()  # the check creates nothing


def test_good_paths_pass_and_create_nothing(tmp_path):
    assert check_output_file(tmp_path / "a" / "b" / "c.gpkg") == tmp_path / "a" / "b" / "c.gpkg"
    assert check_output_folder(tmp_path / "x" / "y") == tmp_path / "x" / "y"
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_failure_names_the_target_not_the_temporary(tmp_path, monkeypatch):
    target = tmp_path / "tables.md"
    target.write_text("old")

    def full_disk(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device", str(src))

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OutputError) as info:
        atomic.write_text(target, "new")
    assert str(target) in str(info.value) and "no space left" in str(info.value)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["tables.md"]


def test_staged_folder_publishes_everything_manifest_last(tmp_path, monkeypatch):
    folder = tmp_path / "eval"
    folder.mkdir()
    (folder / "mine.txt").write_text("the user's own file")
    order = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda s, d: order.append(os.path.basename(d)) or real_replace(s, d))
    with atomic.staged_folder(folder) as stage:
        stage.path("a.csv").write_text("a")
        stage.path("sub/b.csv").write_text("b")
        stage.path("manifest.json").write_text("{}")
        assert not (folder / "a.csv").exists()  # nothing visible before success
    assert order[-1] == "manifest.json" and set(order) == {"a.csv", "b.csv", "manifest.json"}
    assert (folder / "sub" / "b.csv").read_text() == "b" and (folder / "mine.txt").exists()
    assert_no_partial_outputs(folder)


def test_staged_folder_failure_keeps_the_earlier_complete_outputs(tmp_path):
    folder = tmp_path / "eval"
    with atomic.staged_folder(folder) as stage:
        stage.path("a.csv").write_text("first")
        stage.path("manifest.json").write_text('{"run": 1}')
    with pytest.raises(RuntimeError), atomic.staged_folder(folder) as stage:
        stage.path("a.csv").write_text("second, half")
        raise RuntimeError("killed")
    assert (folder / "a.csv").read_text() == "first"
    assert json.loads((folder / "manifest.json").read_text()) == {"run": 1}
    assert_no_partial_outputs(folder)


def test_staged_folder_without_manifest_publishes_nothing(tmp_path):
    folder = tmp_path / "eval"
    with pytest.raises(OSError, match="no manifest"), atomic.staged_folder(folder) as stage:
        stage.path("a.csv").write_text("x")
    assert not (folder / "a.csv").exists()
    assert_no_partial_outputs(folder)


def test_stale_staging_is_removed(tmp_path):
    stale = tmp_path / ".geofidelity-partial-abc"
    stale.mkdir()
    (stale / "per_panel_scores.csv").write_text("x")
    atomic.remove_stale_staging(tmp_path)
    assert not stale.exists()


@pytest.mark.parametrize("exc, words", [
    (OSError(errno.ENOSPC, "No space left on device", "/data/x.csv"), ("/data/x.csv", "no space left")),
    (OSError(errno.EROFS, "Read-only file system", "/mnt/x"), ("/mnt/x", "read-only")),
    (OSError(errno.EACCES, "Permission denied", "/root/x"), ("/root/x", "permission denied")),
    (MemoryError(), ("out of memory", "batch size")),
])
def test_user_message_names_problem_and_fix(exc, words):
    message, foreseen = user_message(exc)
    assert foreseen and all(w in message for w in words)


def _crashing_command(args):
    raise KeyError("segment_id")


@pytest.fixture
def crashing_report(monkeypatch):
    real = cli.build_parser

    def parser():
        p = real()
        for action in p._subparsers._group_actions:
            action.choices["report"].set_defaults(func=_crashing_command)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)


def test_a_bug_exits_1_with_a_message_not_a_traceback(crashing_report, capsys, tmp_path):
    assert cli.main(["report", "--evaluation", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "unexpected error (KeyError" in err and "--debug" in err and no_traceback(err)


def test_debug_shows_the_traceback(crashing_report, tmp_path):
    with pytest.raises(KeyError):
        cli.main(["--debug", "report", "--evaluation", str(tmp_path)])


def test_debug_environment_variable(crashing_report, tmp_path, monkeypatch):
    monkeypatch.setenv("GEOFIDELITY_DEBUG", "1")
    with pytest.raises(KeyError):
        cli.main(["report", "--evaluation", str(tmp_path)])


def test_processing_decorator_translates_every_exception(qgis_app):
    from qgis.core import QgsProcessingException

    from processing_algorithms.common import user_errors

    @user_errors
    def process(self, parameters, context, feedback):
        raise OSError(errno.ENOSPC, "No space left on device", "/data/out.gpkg")

    with pytest.raises(QgsProcessingException, match="/data/out.gpkg: no space left on the disk"):
        process(None, {}, None, None)


def test_file_size_limit_makes_writes_fail(tmp_path):
    """The kit's full-disk stand-in works (other cases rely on it)."""
    import subprocess
    import sys

    target = tmp_path / "big.bin"
    out = subprocess.run([sys.executable, "-c", f"open({str(target)!r}, 'wb').write(b'x' * 100000)"],
                         preexec_fn=file_size_limit(4096), capture_output=True, text=True)
    assert out.returncode != 0 and "File too large" in out.stderr


def test_cli_help_mentions_debug():
    out = run_cli("--help")
    assert out.returncode == 0 and "--debug" in out.stdout


def test_demo_output_under_a_file(tmp_path):
    blocker = tmp_path / "demo_output"
    blocker.write_text("not a folder")
    out = run_cli("demo", "--out", blocker / "inner")
    from faultkit import assert_fails_cleanly

    assert_fails_cleanly(out, "demo output folder", "is a file, not a folder")
    assert blocker.read_text() == "not a folder"


def test_demo_without_its_data(tmp_path, monkeypatch, capsys):
    from geofidelity_plugin.backend import demo

    monkeypatch.setattr(demo, "DEMO_OSM", tmp_path / "missing.osm.pbf")
    assert cli.main(["demo", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "demo data missing" in err and "make demo" in err and no_traceback(err)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text, words", [
    ("database or disk is full", ("disk is probably full", "GEOFIDELITY_CACHE_DIR")),
    ("disk I/O error", ("disk is probably full",)),
    ("attempt to write a readonly database", ("read-only", "writable")),
    ("database is locked", ("another run",)),
    ("file is not a database", ("damaged or is not a GeoFidelity file",)),
])
def test_sqlite_errors_are_told_apart(text, words):
    import sqlite3

    cls = sqlite3.DatabaseError if "not a database" in text else sqlite3.OperationalError
    message, foreseen = user_message(cls(text))
    assert foreseen and all(w in message for w in words), message


def test_output_that_is_an_input_is_refused(tmp_path):
    store = tmp_path / "store.sqlite"
    store.write_bytes(b"precious")
    with pytest.raises(OutputError, match=r"is the benchmark store \(--store\)"):
        check_output_file(store, "image points GeoPackage", inputs={"the benchmark store (--store)": store})
    link = tmp_path / "link.sqlite"
    link.symlink_to(store)
    with pytest.raises(OutputError, match="must not replace an input"):
        check_output_file(link, "output", inputs={"the benchmark store (--store)": store})
    assert store.read_bytes() == b"precious"
    assert check_output_file(tmp_path / "other.gpkg", inputs={"the store": store, "unused": None})


def test_over_long_output_name(tmp_path):
    with pytest.raises(OutputError, match="is too long"):
        check_output_file(tmp_path / ("a" * 250 + ".gpkg"), "segments GeoPackage")


def test_symlink_loop_in_an_output_path(tmp_path):
    (tmp_path / "loopA").symlink_to(tmp_path / "loopB")
    (tmp_path / "loopB").symlink_to(tmp_path / "loopA")
    with pytest.raises(OutputError, match="symbolic link loop"):
        check_output_file(tmp_path / "loopA" / "seg.gpkg", "segments GeoPackage")


@pytest.mark.parametrize("setting", ["file", "under-file"])
def test_cache_folder_setting_that_cannot_work(tmp_path, monkeypatch, setting):
    from geofidelity_plugin.core.paths import cache_dir

    blocker = tmp_path / "cachefile"
    blocker.write_text("x")
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(blocker if setting == "file" else blocker / "sub"))
    with pytest.raises(InputError, match="GEOFIDELITY_CACHE_DIR"):
        cache_dir()


@pytest.mark.parametrize("device, words", [
    ("quantum", ("unknown device", "cpu, cuda")),
    ("cuda", ("sees no CUDA GPU", "use the device cpu")),
    ("cuda:3", ("CUDA",)),
])
def test_devices_checked_before_any_model(device, words):
    import torch

    from geofidelity_plugin.core.vision.devices import check_device

    if device.startswith("cuda") and torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU")
    with pytest.raises(InputError) as info:
        check_device(device)
    assert all(w in str(info.value) for w in words)
    assert check_device(" CPU ") == "cpu" and check_device("") is None


def test_closed_stdout_pipe_ends_quietly():
    import subprocess
    import sys

    from conftest import REPO

    out = subprocess.run(f"{sys.executable} -m geofidelity_plugin evaluate --help | head -c 10", shell=True,
                         cwd=REPO, capture_output=True, text=True)
    assert no_traceback(out.stderr) and "BrokenPipe" not in out.stderr, out.stderr
    assert out.stdout.startswith("usage:")


def test_demo_with_an_empty_output_folder(tmp_path):
    from faultkit import assert_fails_cleanly

    out = run_cli("demo", "--out", "", cwd=tmp_path)
    assert_fails_cleanly(out, "no demo output folder was given")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [
    ["evaluate", "--store", "s.sqlite", "--out", "o"],
    ["build-galleries", "--store", "s.sqlite"],
    ["import-release", "--release", "r", "--store", "s.sqlite"],
    ["curate", "--store", "s.sqlite"],
    ["generate", "--store", "s.sqlite", "--generator", "sdxl-base-1.0"],
])
def test_negative_seed_refused_by_every_command(command, tmp_path):
    from faultkit import assert_fails_cleanly

    out = run_cli(*command, "--seed", "-1", cwd=tmp_path)
    assert_fails_cleanly(out, "argument --seed", "≥ 0")
    assert list(tmp_path.iterdir()) == []
