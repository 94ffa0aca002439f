"""Check, before the long work starts, that an output can be written where the user asked.

A run that fails only after an hour of model inference because the output folder is read-only,
full, or a file is the failure users hate most; these checks make it fail in the first second
with the path and the fix (docs/method.md, "Errors and exit codes").
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from .errors import InputError, OutputError

#: Refuse to start when the output disk has less free space than this.
MIN_FREE_BYTES = 5 * 1024 * 1024


def _existing_ancestor(path: Path) -> Path:
    for parent in (path, *path.parents):
        if parent.exists() or parent.is_symlink():
            return parent
    return Path(path.anchor or ".")


def _probe_folder(folder: Path, target: Path, what: str, min_free: int) -> None:
    """Create and delete a file in ``folder``: the only test that also works for root."""
    if not folder.is_dir():
        raise OutputError(f"cannot write the {what} {target}: {folder} is a file, not a folder — "
                          "choose another location")
    try:
        from .state_files import discard_temporary

        fd, probe = tempfile.mkstemp(prefix=".geofidelity-write-test-", dir=folder)
        os.close(fd)
        discard_temporary(probe)
    except OSError as exc:
        from .errors import describe_os_error

        raise OutputError(f"cannot write the {what} {target}: "
                          f"{describe_os_error(exc, folder).split(': ', 1)[1]}") from None
    with contextlib.suppress(OSError):
        free = shutil.disk_usage(folder).free
        if free < min_free:
            raise OutputError(f"cannot write the {what} {target}: only {free / 1e6:.1f} MB free on the disk "
                              f"of {folder} — free some space or choose an output folder on another disk")


#: Room a file name must leave for the temporary and side-car names made from it
#: (``.<name>.<random>.tmp``, ``<stem>.manifest.json``).
_NAME_ROOM = 24


def _check_name(target: Path, what: str) -> None:
    try:
        limit = os.pathconf(_existing_ancestor(target.parent), "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.fsencode(target.name)) + _NAME_ROOM > limit:
        raise OutputError(f"the {what} name {target.name[:40]}… is too long ({len(target.name)} characters; this disk "
                          f"allows {limit} and GeoFidelity needs {_NAME_ROOM} more for temporary names) — "
                          "choose a shorter name")


def _check_loop(target: Path, what: str) -> None:
    try:
        target.resolve(strict=False)
    except RuntimeError:  # Python < 3.13 reports a symbolic-link loop this way
        raise OutputError(f"the {what} {target} goes through a symbolic link loop — choose another path") from None
    except OSError as exc:
        if exc.errno == 40:  # ELOOP
            raise OutputError(f"the {what} {target} goes through a symbolic link loop — choose another "
                              "path") from None


def _check_kind(target: Path, what: str) -> None:
    """A link or a fifo where the output goes is refused before the work: the writers never
    write through one (:mod:`.state_files`), so the run would fail at its end."""
    from .state_files import kind_message, path_kind

    kind = path_kind(target)
    if kind not in (None, "file", "folder"):
        raise OutputError(kind_message(target, kind, f"the {what}"))


def _check_text(target: Path, what: str) -> None:
    """The path is text every later step can write down (manifests, layers, logs are UTF-8): a
    byte that is not UTF-8 (a name from another system's encoding) is refused before the work,
    not after it when the manifest cannot name the output."""
    try:
        str(target).encode("utf-8")
    except UnicodeEncodeError:
        shown = str(target).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise InputError(f"the {what} {shown} holds bytes that are not UTF-8 text (shown as \ufffd) — choose a "
                         "name made of UTF-8 characters") from None


#: the files a GeoFidelity stage reads, told apart by their content (:func:`input_kind`)
INPUT_KINDS = {
    "segments": "the segments GeoPackage that Select segments wrote (an input of fetch, galleries, the atlas)",
    "store": "a benchmark store (the input of every stage after selection)",
    "coverage": "a coverage GeoPackage (an input of the atlas)",
    "image_points": "an image points GeoPackage that fetch or curate wrote",
    "feature_cache": "a feature cache (embeddings an evaluation reuses)",
    "osm": "OpenStreetMap data (an input of Select segments and MFP)",
}


def input_kind(path: Path) -> str | None:
    """Which of :data:`INPUT_KINDS` the existing file at ``path`` is, from its content (None for
    a file no stage reads, or none at all). Cheap: a header read, and for SQLite the table names."""
    import sqlite3

    try:
        with open(path, "rb") as fh:
            head = fh.read(512)
    except OSError:
        return None
    if b"OSMHeader" in head[:64]:
        return "osm"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml") and b"<osm" in head:
        return "osm"
    if not head.startswith(b"SQLite format 3\x00"):
        return None
    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            layers = {r[0] for r in db.execute("SELECT table_name FROM gpkg_contents")} \
                if "gpkg_contents" in tables else set()
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return None
    if layers:
        if "segments" in layers:
            return "segments"
        if "coverage" in layers or "coverage_gaps" in layers:
            return "coverage"
        if "reference_images" in layers:
            return "image_points"
        return None
    if "reference_images" in tables and "segments" in tables:
        return "store"
    if "embeddings" in tables and "meta" in tables:
        return "feature_cache"
    return None


def check_not_other_data(target: Path, what: str, writes: str | None) -> None:
    """Refuse an output that would replace a file another stage reads — a store, a segments or
    coverage GeoPackage, OSM data — unless this output is a file of that same kind (``writes``,
    a key of :data:`INPUT_KINDS`: Select segments may replace its own earlier GeoPackage)."""
    if not target.is_file():
        return
    kind = input_kind(target)
    if kind is not None and kind != writes:
        raise OutputError(f"the {what} {target} is {INPUT_KINDS[kind]} — an output must not replace what a stage "
                          "reads; give another file name")


def check_not_an_input(target: Path, what: str, inputs: dict) -> None:
    """Refuse an output that is one of the run's own inputs (it would be destroyed while read).

    ``inputs`` maps a description (``"the benchmark store (--store)"``) to a path or ``None``.
    """
    for description, source in inputs.items():
        if not source:
            continue
        source = Path(source).expanduser()
        try:
            same = target.exists() and source.exists() and os.path.samefile(target, source)
        except OSError:
            same = False
        if same or target.resolve() == source.resolve():
            raise OutputError(f"the {what} {target} is {description} — an output must not replace an input; "
                              f"give another file name")


def check_output_file(path, what: str = "output file", min_free: int = MIN_FREE_BYTES,
                      inputs: dict | None = None, writes: str | None = None) -> Path:
    """``path`` can be created or replaced as a file, is none of ``inputs`` (see
    :func:`check_not_an_input`) and is no file that any stage reads, unless of the kind it
    ``writes`` (:func:`check_not_other_data`); returns it as a ``Path``."""
    if path is None or not str(path).strip():
        raise InputError(f"no {what} was given — give a file path")
    target = Path(path).expanduser()
    _check_text(target, what)
    _check_loop(target, what)
    check_not_an_input(target, what, inputs or {})
    check_not_other_data(target, what, writes)
    _check_kind(target, what)
    _check_name(target, what)
    if target.is_dir():
        raise OutputError(f"the {what} {target} is a folder — give a file name inside it, "
                          f"e.g. {target / ('output' + (target.suffix or ''))}")
    _probe_folder(_existing_ancestor(target.parent), target, what, min_free)
    return target


def check_output_folder(path, what: str = "output folder", min_free: int = MIN_FREE_BYTES) -> Path:
    """``path`` is (or can become) a writable folder; returns it as a ``Path``."""
    if path is None or not str(path).strip():
        raise InputError(f"no {what} was given — give a folder path")
    target = Path(path).expanduser()
    _check_text(target, what)
    _check_loop(target, what)
    if target.exists() and not target.is_dir():
        raise OutputError(f"the {what} {target} is a file — give a folder (it is created if missing)")
    from .locations import FOLDER, check_location  # a dangling link, a path under a file, a read-only disk

    check_location(target, FOLDER, what=what, writable=True, must_exist=False, error=OutputError)
    _probe_folder(_existing_ancestor(target), target, what, min_free)
    return target
