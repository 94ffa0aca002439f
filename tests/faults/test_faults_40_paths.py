"""Issue 40, case 1 and the classes "confined paths" and "every image folder counts what it could
not use" (the configured locations: test_faults_40_locations.py).

Case 1: ``import-release`` stored the ``image_path`` of ``metadata/*.csv`` as given — an absolute
path, a ``../`` path out of the release, a ``.jpg`` linking to a system file, even ``/`` — with
``missing_files: 0``, and ``export-release`` then copied those bytes into the release it wrote.
Now every path read from a data file goes through ``confined_paths.confine`` (refused: exit 2,
the file, line and column, the value, the fix, and no store written) and every exported file
through ``confined_paths.check_inside`` (only files in the store's own folders are copied).
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from faultkit import assert_fails_cleanly, run_cli
from release_fixture import make_release

from geofidelity_plugin.core.confined_paths import check_inside, confine, confinement_problem, path_problem
from geofidelity_plugin.core.errors import InputError

pytestmark = pytest.mark.fault

SECRET = b"GEOFIDELITY-TEST-SECRET: this file lies outside every root\n"
FIX = "relative to the release root"


@pytest.fixture
def secret(tmp_path) -> Path:
    """A file outside the release and the store (stands in for /etc/passwd, ~/.ssh/id_rsa)."""
    path = tmp_path / "outside" / "secret.jpg"
    path.parent.mkdir()
    path.write_bytes(SECRET)
    return path


def _rewrite(path: Path, index: int, value: str) -> int:
    """Set ``image_path`` of data row ``index`` of a release CSV; returns the row's line number."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    rows[index]["image_path"] = value
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return index + 2


def _hostile(shape: str, root: Path, secret: Path) -> str:
    """The ``image_path`` value of one hostile shape (files it needs are made inside ``root``)."""
    if shape == "absolute":
        return str(secret)
    if shape == "etc_passwd":
        return "/etc/passwd"
    if shape == "dotdot":
        return os.path.relpath(secret, root)  # ../outside/secret.jpg
    if shape == "dotdot_inside_first":
        return "data/raw/../../../outside/secret.jpg"
    if shape == "symlink_out":
        link = root / "data/raw/mapillary_v3/b001/evil.jpg"
        link.symlink_to(secret)
        return "data/raw/mapillary_v3/b001/evil.jpg"
    if shape == "symlinked_folder_out":
        (root / "data/raw/elsewhere").symlink_to(secret.parent, target_is_directory=True)
        return "data/raw/elsewhere/secret.jpg"
    if shape == "root":
        return "/"
    if shape == "directory":
        return "data/raw/mapillary_v3/b001"
    if shape == "fifo":
        os.mkfifo(root / "data/raw/mapillary_v3/b001/pipe.jpg")
        return "data/raw/mapillary_v3/b001/pipe.jpg"
    if shape == "nul":
        return "data/raw/mapillary_v3/b001/mapillary_b0010.jpg\x00.png"
    if shape == "windows_drive":
        return "C:\\Windows\\win.ini"
    if shape == "windows_unc":
        return "\\\\server\\share\\x.jpg"
    if shape == "windows_dotdot":
        return "..\\outside\\secret.jpg"
    raise AssertionError(shape)


SHAPES = ["absolute", "etc_passwd", "dotdot", "dotdot_inside_first", "symlink_out", "symlinked_folder_out", "root",
          "directory", "fifo", "nul", "windows_drive", "windows_unc", "windows_dotdot"]
#: what each refusal says about the value
SAYS = {"absolute": "absolute path", "etc_passwd": "absolute path", "dotdot": "'..'", "dotdot_inside_first": "'..'",
        "symlink_out": "points outside", "symlinked_folder_out": "points outside", "root": "absolute path",
        "directory": "is a folder", "fifo": "named pipe", "nul": "NUL byte", "windows_drive": "absolute path",
        "windows_unc": "absolute path", "windows_dotdot": "'..'"}


# ====================================================================== case 1 through the real CLI
def _refusal(table: str, line: int, shape: str) -> tuple[str, ...]:
    """What the refusal names: the table, line and column, what is wrong with the value, the fix.
    A NUL byte is refused by the table reader itself (core/tables.py), before any path is made."""
    if shape == "nul":
        return table, f"line {line}", "column image_path", "NUL byte", "download the release again"
    return f"{table} line {line}, column image_path", SAYS[shape], FIX


@pytest.mark.parametrize("shape", SHAPES)
def test_import_release_refuses_a_reference_path_out_of_the_release(tmp_path, secret, shape):
    """Today: stored as given, ``missing_files: 0``. Now: exit 2 naming the CSV, the line, the
    column, the value and the fix; no store is made."""
    root = make_release(tmp_path / "release")
    line = _rewrite(root / "metadata/reference_images.csv", 3, _hostile(shape, root, secret))
    store = tmp_path / "bench" / "store.sqlite"
    out = run_cli("import-release", "--release", root, "--store", store)
    assert_fails_cleanly(out, *_refusal("reference_images.csv", line, shape))
    assert not store.exists()


@pytest.mark.parametrize("shape", ["absolute", "dotdot", "symlink_out", "fifo", "nul", "windows_drive"])
def test_import_release_refuses_a_generated_path_out_of_the_release(tmp_path, secret, shape):
    root = make_release(tmp_path / "release")
    line = _rewrite(root / "metadata/generated_images.csv", 5, _hostile(shape, root, secret))
    store = tmp_path / "store.sqlite"
    out = run_cli("import-release", "--release", root, "--store", store)
    assert_fails_cleanly(out, *_refusal("generated_images.csv", line, shape))
    assert not store.exists()


@pytest.mark.parametrize("shape", ["absolute", "dotdot", "symlink_out", "nul", "root"])
def test_import_release_refuses_a_manifest_image_path_out_of_the_release(tmp_path, secret, shape):
    """A release without reference_images.csv lists its images in the JSON manifest: the same gate."""
    root = make_release(tmp_path / "release")
    (root / "metadata/reference_images.csv").unlink()
    manifest = root / "data/processed/v3/benchmark_v3.json"
    data = json.loads(manifest.read_text())
    data["blocks"][1]["images"][2]["image_path"] = _hostile(shape, root, secret)
    manifest.write_text(json.dumps(data))
    out = run_cli("import-release", "--release", root, "--store", tmp_path / "store.sqlite")
    assert_fails_cleanly(out, "benchmark_v3.json (block b002, image #3)", SAYS[shape], FIX)


def test_a_link_that_stays_inside_the_release_is_imported(tmp_path):
    root = make_release(tmp_path / "release")
    (root / "data/raw/alias").symlink_to(root / "data/raw/mapillary_v3", target_is_directory=True)
    _rewrite(root / "metadata/reference_images.csv", 0, "data/raw/alias/b001/mapillary_b0010.jpg")
    out = run_cli("import-release", "--release", root, "--store", tmp_path / "store.sqlite")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "missing_files: 0" in out.stdout


def _store_listing(tmp_path: Path, target: Path, kind: str) -> Path:
    """A store imported from a clean release, then one reference (or generated) row pointed at
    ``target`` — as a store imported before paths were confined, or edited by hand, holds it."""
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into

    root = make_release(tmp_path / "release")
    store = tmp_path / "bench" / "store.sqlite"
    import_release_into(root, store)
    import sqlite3

    with sqlite3.connect(store) as con:
        if kind == "reference":
            con.execute("UPDATE reference_images SET image_path = ? WHERE reference_id = 'r3'", (str(target),))
        else:
            con.execute("UPDATE generated_images SET image_path = ? WHERE segment_id = 'b002' AND sample_index = 1 "
                        "AND condition = 'L1'", (str(target),))
    return store


def _tree_bytes(folder: Path) -> list[bytes]:
    return [p.read_bytes() for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


@pytest.mark.parametrize("kind", ["reference", "generated"])
@pytest.mark.parametrize("how", ["absolute", "symlink_in_release", "symlink_in_store_folder"])
def test_export_release_never_copies_a_file_from_outside(tmp_path, secret, kind, how):
    """Today: the secret's bytes are published in the exported release. Now: exit 2 naming the
    file and the store's folders; nothing is exported."""
    if how == "absolute":
        target = secret
    elif how == "symlink_in_release":
        target = tmp_path / "release" / "data/raw/mapillary_v3/b001/linked.jpg"
    else:
        target = tmp_path / "bench" / "linked.jpg"
    store = _store_listing(tmp_path, target, kind)
    if how != "absolute":
        target.symlink_to(secret)
    out_dir = tmp_path / "exported"
    out = run_cli("export-release", "--store", store, "--out", out_dir)
    assert_fails_cleanly(out, "lies outside the store's folders", str(target), "nothing was exported")
    assert not any(SECRET in data for data in _tree_bytes(out_dir))


def test_export_release_copies_a_store_imported_from_a_release(tmp_path):
    """The release's root is one of the store's folders: a plain export works (and holds no link)."""
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into

    root = make_release(tmp_path / "release")
    store = tmp_path / "bench" / "store.sqlite"
    import_release_into(root, store)
    out = run_cli("export-release", "--store", store, "--out", tmp_path / "exported")
    assert out.returncode == 0, out.stderr[-2000:]
    images = list((tmp_path / "exported").rglob("*.jpg"))
    assert len(images) == 20 + 32 and not any(p.is_symlink() for p in images)


# ====================================================================== import-generated: the same gate
def _png(path: Path, seed: int = 0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.random.default_rng(seed).integers(0, 255, (16, 16, 3), dtype=np.uint8)).save(path)


@pytest.fixture
def small_store(tmp_path) -> Path:
    from geofidelity_plugin.core.store.store import BenchmarkStore

    path = tmp_path / "bench" / "store.sqlite"
    with BenchmarkStore(path) as store:
        store.put_segments([{"segment_id": "s1", "city": "Paris", "country": "France", "country_code": "FR",
                             "centroid_lon": 2.34, "centroid_lat": 48.86}])
    return path


@pytest.mark.parametrize("case,says", [
    ("link_to_image_outside", "points outside"),
    ("linked_folder_outside", "points outside"),
    ("junk", "not an image"),
    ("empty", "empty"),
    ("truncated", "truncated"),
    ("fifo", "named pipe"),
])
def test_import_generated_counts_what_it_could_not_use(tmp_path, small_store, case, says):
    """Every file of the folder is either imported or named with its reason and counted by kind;
    a link to an image outside the folder is never read."""
    folder = tmp_path / "gen"
    _png(folder / "L0" / "s1" / "00.png")
    outside = tmp_path / "elsewhere" / "01.png"
    _png(outside, 1)
    bad = folder / "L0" / "s1" / "01.png"
    if case == "link_to_image_outside":
        bad.symlink_to(outside)
    elif case == "linked_folder_outside":
        (folder / "L1").mkdir()
        (folder / "L1" / "s1").symlink_to(outside.parent, target_is_directory=True)
        bad = folder / "L1" / "s1" / "01.png"
    elif case == "junk":
        bad.write_bytes(b"this is not a png at all")
    elif case == "empty":
        bad.write_bytes(b"")
    elif case == "truncated":
        _png(bad, 2)
        bad.write_bytes(bad.read_bytes()[:-30])
    elif case == "fifo":
        os.mkfifo(bad)
    out = run_cli("import-generated", "--store", small_store, "--folder", folder, "--model", "m1", timeout=60)
    kind = {"link_to_image_outside": "outside its folder", "linked_folder_outside": "outside its folder",
            "junk": "not an image", "empty": "empty", "truncated": "truncated", "fifo": "not a file"}[case]
    assert_fails_cleanly(out, "1 file(s) of the folder could not be used", f"1 {kind}", says, "re-save or remove")
    assert str(bad.relative_to(tmp_path)) in out.stderr


def test_geodiv_folder_counts_what_it_could_not_use(tmp_path):
    """The GeoDiv image folder: unusable files are left out, counted by kind, and listed."""
    from geofidelity_plugin.core.geodiv.images import folder_images
    from geofidelity_plugin.core.vision.unusable_images import UnusableImages

    folder = tmp_path / "imgs"
    _png(folder / "paris" / "a.png")
    (folder / "paris" / "b.jpg").write_bytes(b"junk")
    (folder / "paris" / "c.png").write_bytes(b"")
    _png(tmp_path / "secret.png", 3)
    (folder / "paris" / "d.png").symlink_to(tmp_path / "secret.png")
    tally = UnusableImages("the image folder")
    rows = folder_images(folder, unusable=tally)
    assert [r["image_id"] for r in rows] == ["paris/a.png"]
    assert tally.counts() == {"outside its folder": 1, "empty": 1, "not an image": 1}
    assert tally.manifest()["count"] == 3 and {r["kind"] for r in tally.rows()} == set(tally.counts())
    assert "3 file(s) of the image folder could not be used" in tally.summary()
    only_bad = tmp_path / "bad"
    only_bad.mkdir()
    (only_bad / "x.png").write_bytes(b"junk")
    with pytest.raises(InputError, match=r"no usable .*\(1 not an image\)"):
        folder_images(only_bad)


# ====================================================================== confine(), unit by unit
def test_confine_allows_a_file_and_a_link_that_stays_inside(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.jpg").write_bytes(b"x")
    (tmp_path / "inner.jpg").symlink_to(tmp_path / "a" / "x.jpg")
    (tmp_path / "b").symlink_to(tmp_path / "a", target_is_directory=True)
    assert confine(tmp_path, "a/x.jpg") == tmp_path / "a" / "x.jpg"
    assert confine(tmp_path, "./a//x.jpg") == tmp_path / "a" / "x.jpg"
    assert confine(tmp_path, "a\\x.jpg") == tmp_path / "a" / "x.jpg"  # a release written on Windows
    assert confine(tmp_path, "inner.jpg") == tmp_path / "inner.jpg"
    assert confine(tmp_path, "b/x.jpg") == tmp_path / "b" / "x.jpg"
    assert confine(tmp_path, "a/missing.jpg") == tmp_path / "a" / "missing.jpg"  # counted by the caller


@pytest.mark.parametrize("value,says", [
    ("/etc/passwd", "absolute path"), ("/", "absolute path"), ("\\x.jpg", "absolute path"),
    ("C:\\x.jpg", "absolute path"), ("c:x.jpg", "absolute path"), ("\\\\server\\share\\x.jpg", "absolute path"),
    ("//server/share/x.jpg", "absolute path"), ("../x.jpg", "'..'"), ("a/../../x.jpg", "'..'"),
    ("a/../x.jpg", "'..'"), ("..\\x.jpg", "'..'"), ("", "is empty"), ("  ", "is empty"), (".", "names the folder"),
    ("./", "names the folder"), ("a\x00.jpg", "NUL byte"),
])
def test_confine_refuses(tmp_path, value, says):
    with pytest.raises(InputError) as caught:
        confine(tmp_path, value, what="image_path", source="meta.csv", line=7, column="image_path", fix="do X")
    text = str(caught.value)
    assert text.startswith("meta.csv line 7, column image_path: the image_path ") and says in text, text
    assert text.endswith("— do X")
    assert path_problem(tmp_path, value) is not None


def test_confine_refuses_links_out_and_what_is_not_a_file(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "s.jpg").write_bytes(b"s")
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    (root / "out.jpg").symlink_to(outside / "s.jpg")
    (root / "dir").symlink_to(outside, target_is_directory=True)
    (root / "dangling.jpg").symlink_to(outside / "gone.jpg")
    (root / "loop.jpg").symlink_to(root / "loop.jpg")
    os.mkfifo(root / "pipe.jpg")
    cases = {"out.jpg": "is a symbolic link that points outside", "dir/s.jpg": "symbolic link " + str(root / "dir"),
             "dangling.jpg": "points outside", "a": "is a folder", "pipe.jpg": "named pipe (FIFO)",
             "loop.jpg": "cannot be looked at"}
    for value, says in cases.items():
        with pytest.raises(InputError, match=None) as caught:
            confine(root, value)
        assert says in str(caught.value), (value, str(caught.value))
    with pytest.raises(InputError, match="does not exist"):
        confine(root, "a/none.jpg", must_exist=True)
    with pytest.raises(InputError, match="is not a path"):
        confine(root, 42)


def test_check_inside_for_exporters(tmp_path):
    root = tmp_path / "store"
    root.mkdir()
    (root / "ok.jpg").write_bytes(b"ok")
    (tmp_path / "s.jpg").write_bytes(b"s")
    (root / "link.jpg").symlink_to(tmp_path / "s.jpg")
    (root / "inner.jpg").symlink_to(root / "ok.jpg")
    assert check_inside(root / "ok.jpg", [root]) == (root / "ok.jpg").resolve()
    assert check_inside(root / "inner.jpg", [root]) == (root / "ok.jpg").resolve()  # copied from its real place
    assert "outside the store's folders" in confinement_problem(root / "link.jpg", [root])
    assert "outside the store's folders" in confinement_problem(tmp_path / "s.jpg", [root])
    assert "is a folder" in confinement_problem(root, [root])
    assert confinement_problem(tmp_path / "s.jpg", [root, tmp_path]) is None
    with pytest.raises(InputError, match="only files inside"):
        check_inside("/etc/passwd", [root])


def test_export_release_copies_images_imported_from_a_folder_outside_the_store(tmp_path):
    """import-generated records its folder as one of the store's: an export publishes those images
    (the check keeps out what the store does not own, not what it imported)."""
    from geofidelity_plugin.core.evaluation.store_steps import import_release_into

    store = tmp_path / "bench" / "store.sqlite"
    import_release_into(make_release(tmp_path / "release"), store)
    folder = tmp_path / "elsewhere" / "gen"
    for sample in range(2):
        _png(folder / "L0" / "b001" / f"{sample:02d}.png", sample)
    out = run_cli("import-generated", "--store", store, "--folder", folder, "--model", "m2")
    assert out.returncode == 0, out.stderr[-2000:]
    out = run_cli("export-release", "--store", store, "--out", tmp_path / "exported")
    assert out.returncode == 0, out.stderr[-2000:]
    assert len(list((tmp_path / "exported" / "generations_v3" / "m2" / "L0" / "b001").iterdir())) == 2
