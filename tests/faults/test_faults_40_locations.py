"""Issue 40, the class "every configured location checked for its kind": a cache folder, a models
folder, an input folder or an output folder that is a file, a dangling link, a link loop, a path
under a file, a fifo or read-only is told apart by one check (``core/locations.py``) that
``doctor`` reports and the commands raise, in the same words — a matrix of path kinds.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from faultkit import assert_fails_cleanly, no_traceback, run_cli
from release_fixture import make_release

from geofidelity_plugin.core.errors import InputError, OutputError
from geofidelity_plugin.core.locations import FILE, FOLDER, check_location, location_problem

pytestmark = pytest.mark.fault


# ====================================================================== configured locations: the path-kind matrix
def _make(kind: str, tmp_path: Path) -> Path:
    """A location of one path kind (the matrix of the configured-location check)."""
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    folder = tmp_path / "folder"
    folder.mkdir()
    return {
        "folder": folder,
        "missing": tmp_path / "missing",
        "file": plain,
        "link_to_folder": _link(tmp_path / "lf", folder),
        "dangling_link": _link(tmp_path / "dl", tmp_path / "gone"),
        "link_loop": _link(tmp_path / "loop", tmp_path / "loop"),
        "under_a_file": plain / "sub",
        "fifo": _fifo(tmp_path / "pipe"),
        "read_only_folder": _read_only(tmp_path / "ro"),
        "under_read_only_folder": _read_only(tmp_path / "ro2") / "sub",
    }[kind]


def _link(path: Path, target: Path) -> Path:
    path.symlink_to(target)
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _read_only(path: Path) -> Path:
    path.mkdir()
    path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return path


ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
#: kind → (problem for a folder to read, problem for a folder to write into; None: fine)
MATRIX = {
    "folder": (None, None),
    "missing": ("does not exist", None),
    "file": ("is a file, not a folder", "is a file, not a folder"),
    "link_to_folder": (None, None),
    "dangling_link": ("which does not exist", "which does not exist"),
    "link_loop": ("symbolic link loop", "symbolic link loop"),
    "under_a_file": ("plain.txt is a file, not a folder", "plain.txt is a file, not a folder"),
    "fifo": ("is a named pipe (FIFO), not a folder", "is a named pipe (FIFO), not a folder"),
    "read_only_folder": (None, "read-only"),
    "under_read_only_folder": ("does not exist", "is not writable"),
}


@pytest.mark.parametrize("kind", sorted(MATRIX))
def test_configured_location_matrix(tmp_path, kind):
    path = _make(kind, tmp_path)
    try:
        for writable, expected in zip((False, True), MATRIX[kind]):
            if ROOT and kind.startswith(("read_only", "under_read_only")) and writable:
                expected = None  # permissions do not bind root
            found = location_problem(path, FOLDER, writable=writable, must_exist=not writable)
            if expected is None:
                assert found is None, (kind, writable, found)
            else:
                assert found is not None and expected in found[0], (kind, writable, found)
                with pytest.raises(OutputError) as caught:
                    check_location(path, FOLDER, what="test folder", writable=writable, must_exist=not writable,
                                   fix="change the setting", error=OutputError)
                said = str(caught.value)
                assert said.startswith(f"the test folder {path} ") and said.endswith(", or change the setting")
    finally:
        for p in tmp_path.iterdir():
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)


def test_configured_file_location(tmp_path):
    (tmp_path / "f.json").write_text("{}")
    assert location_problem(tmp_path / "f.json", FILE) is None
    assert "is a folder, not a file" in location_problem(tmp_path, FILE)[0]
    assert location_problem(tmp_path / "new.json", FILE, writable=True, must_exist=False) is None
    with pytest.raises(InputError, match="is empty"):
        check_location("", FILE, what="record")


@pytest.mark.parametrize("kind", ["file", "dangling_link", "under_a_file", "fifo"])
def test_cache_folder_and_doctor_say_the_same(tmp_path, kind):
    """GEOFIDELITY_CACHE_DIR of a wrong kind: a command that needs the cache refuses it (exit 2),
    the doctor reports it as a problem, both in the same words."""
    path = _make(kind, tmp_path)
    expected = MATRIX[kind][1]
    env = {"GEOFIDELITY_CACHE_DIR": str(path)}
    doctor = run_cli("doctor", env=env)
    assert doctor.returncode == 2 and no_traceback(doctor.stdout + doctor.stderr)
    assert f"the cache folder {path} (from GEOFIDELITY_CACHE_DIR)" in doctor.stdout and expected in doctor.stdout
    code = ("import sys; from geofidelity_plugin.core.paths import cache_dir\n"
            "try:\n    cache_dir()\nexcept Exception as exc:\n    print(exc); sys.exit(2)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env},
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 2 and expected in out.stdout and "GEOFIDELITY_CACHE_DIR" in out.stdout, out


@pytest.mark.parametrize("kind", ["file", "dangling_link", "under_a_file"])
def test_models_folder_checked_by_models_and_doctor(tmp_path, kind):
    path = _make(kind, tmp_path)
    expected = MATRIX[kind][0]
    out = run_cli("models", "list", "--models-dir", path)
    assert_fails_cleanly(out, f"the models folder {path}", expected, "--models-dir")
    doctor = run_cli("doctor", "--models-dir", path)
    assert f"the models folder {path}" in doctor.stdout and expected in doctor.stdout


@pytest.mark.parametrize("kind", ["dangling_link", "under_a_file", "fifo"])
def test_export_out_folder_of_a_wrong_kind(tmp_path, kind):
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into

    store = tmp_path / "bench" / "store.sqlite"
    import_release_into(make_release(tmp_path / "release"), store)
    path = _make(kind, tmp_path)
    out = run_cli("export-release", "--store", store, "--out", path)
    assert_fails_cleanly(out, str(path))
    if kind == "dangling_link":
        assert "which does not exist" in out.stderr and not (tmp_path / "gone").exists()
