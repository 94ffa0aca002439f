"""What an image folder held that could not be used, and why (docs/method.md, "Errors and exit
codes": never results with rows silently dropped).

Every folder the product reads images from — a folder of generated images to import, a
release's image folders, the reference panels, a GeoDiv folder — can hold junk: a file that is
not an image, a truncated or empty one, a decompression bomb, data that does not decode, a
link to a file outside the folder. :func:`image_problem` says what is wrong with one file in
the words of the image loader (:func:`geofidelity_plugin.core.vision.images.load_rgb`), and
:class:`UnusableImages` counts them by kind for the log, the run manifest and the
failed-images list, so each of those places says the same thing.
"""
from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("geofidelity")

#: (kind, words a reason holds) — the first match names the kind
_KINDS = (
    ("outside its folder", ("outside", "symbolic link")),
    ("missing", ("file not found", "does not exist")),
    ("empty", ("empty file",)),
    ("decompression bomb", ("decompression",)),
    ("truncated", ("truncated",)),
    ("not an image", ("not an image", "no known image format")),
    ("not a file", ("is a folder", "named pipe", "a device", "a socket", "not a regular file", "not a file")),
    ("unreadable", ("cannot be read", "permission denied")),
    ("not finite", ("nan", "infinit", "non-finite")),
    ("undecodable", ("damaged", "corrupt", "no pixels", "colour mode", "header")),
)
KINDS = tuple(kind for kind, _ in _KINDS) + ("other",)
#: how many files a summary line names as examples
_EXAMPLES = 3


def reason_kind(reason: str) -> str:
    """The kind (one of :data:`KINDS`) of a reason an image could not be used."""
    low = str(reason).lower()
    for kind, words in _KINDS:
        if any(w in low for w in words):
            return kind
    return "other"


def image_problem(path, root=None, *, decode_edge: int = 64) -> str | None:
    """``None`` when ``path`` is an image that decodes whole, else why not. With ``root``, the
    path must also stay inside it (:func:`geofidelity_plugin.core.confined_paths.confine`: a link
    to a file elsewhere is refused, not read). The whole file is decoded — a JPEG at a reduced
    scale of at least ``decode_edge`` pixels, which still reads every byte — so a truncated file
    is found here and not halfway through a run."""
    path = Path(path)
    if root is not None:
        from geofidelity_plugin.core.confined_paths import path_problem

        try:
            problem = path_problem(root, path.relative_to(root).as_posix(), must_exist=True)
        except ValueError:
            problem = f"lies outside {root}"
        if problem:
            return problem
    from geofidelity_plugin.core.vision.images import ImageError, load_rgb

    try:
        load_rgb(path, draft_shortest_edge=decode_edge)
    except ImageError as exc:
        return exc.reason
    return None


class UnusableImages:
    """The files of one image folder (or one run) that could not be used, each with its reason."""

    def __init__(self, where: str = "the images"):
        self.where = where
        self.reasons: dict[str, str] = {}

    def add(self, path, reason: str) -> None:
        self.reasons.setdefault(str(path), str(reason))

    def update(self, reasons: dict) -> None:
        for path, reason in reasons.items():
            self.add(path, reason)

    def __len__(self) -> int:
        return len(self.reasons)

    def __bool__(self) -> bool:
        return bool(self.reasons)

    def counts(self) -> dict[str, int]:
        """Kind → how many, in the order of :data:`KINDS`."""
        found: dict[str, int] = {}
        for reason in self.reasons.values():
            kind = reason_kind(reason)
            found[kind] = found.get(kind, 0) + 1
        return {kind: found[kind] for kind in KINDS if kind in found}

    def summary(self) -> str | None:
        """One line: how many, of which kinds, and a few examples with their reasons."""
        if not self.reasons:
            return None
        kinds = ", ".join(f"{n} {kind}" for kind, n in self.counts().items())
        examples = "; ".join(f"{p}: {r}" for p, r in sorted(self.reasons.items())[:_EXAMPLES])
        more = f" (and {len(self) - _EXAMPLES} more)" if len(self) > _EXAMPLES else ""
        return (f"{len(self)} file(s) of {self.where} could not be used ({kinds}): {examples}{more}")

    def report(self, progress=None) -> None:
        """The summary as a warning, in the log and to ``progress`` (the command's messages)."""
        line = self.summary()
        if line is None:
            return
        log.warning(line)
        if progress is not None and hasattr(progress, "warning"):
            progress.warning(line)

    def manifest(self) -> dict:
        """For a run manifest: the count, the count by kind and every file with its reason."""
        return {"count": len(self), "by_kind": self.counts(), "files": dict(sorted(self.reasons.items()))}

    def rows(self) -> list[dict]:
        """For a failed-images list: ``image_path, reason, kind`` per file."""
        return [{"image_path": p, "reason": r, "kind": reason_kind(r)} for p, r in sorted(self.reasons.items())]


def failed_rows(failed: dict) -> list[dict]:
    """A run's ``{path: reason}`` as the rows of its failed_images.csv (with the kind)."""
    tally = UnusableImages()
    tally.update(failed)
    return tally.rows()


def failed_kinds(failed: dict) -> dict[str, int]:
    """A run's ``{path: reason}`` counted by kind, for its manifest."""
    tally = UnusableImages()
    tally.update(failed)
    return tally.counts()
