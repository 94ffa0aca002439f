"""Thumbnail downloads and the image cache of the reference panels (method §2: "Thumbnail
URLs expire: cache image bytes by image id").

Each image lives at ``<root>/<id[:2]>/<id>.jpg`` with a ``<id>.sha256`` sidecar. Both are
written atomically and the sidecar only after the image, so a run killed at any moment leaves
either a trusted pair or something that is fetched again — never a half image that a later
run trusts; a cached file that fails the check is deleted and fetched again, with a warning.
Downloads run on a bounded thread pool; progress and cancel checks stay on the calling thread,
which is all a QGIS task or the CLI needs. The client's :class:`.breaker.FailureBreaker` stops
the downloads when the CDN fails image after image the same way. Expired URLs are renewed in
batches (:mod:`.renewal`).
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import io
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable
from urllib.parse import parse_qs, urlsplit

import requests

from geofidelity_plugin.core import state_files
from geofidelity_plugin.core.atomic import write_bytes, write_text
from geofidelity_plugin.core.errors import Cancelled
from geofidelity_plugin.core.network import retry_after_seconds, wait_limits  # noqa: F401 (public here too)
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.reference_panels.mapillary.api_errors import ThumbnailFailed, connection_failure  # noqa: F401 (public here too)
from geofidelity_plugin.core.reference_panels.mapillary.breaker import FailureBreaker
from geofidelity_plugin.core.reference_panels.mapillary.renewal import EXPIRY_MARGIN_S, UrlRenewer

if TYPE_CHECKING:
    from geofidelity_plugin.core.reference_panels.mapillary.client import ImageRecord, MapillaryClient

log = logging.getLogger("geofidelity")

_CANCEL_GRACE_S = 1.0
_CHUNK = 1 << 16


class _Expired(Exception):
    """The CDN refused a thumbnail URL (HTTP 403/410): its signature has expired."""


class _Broken(Exception):
    """A download worth repeating: HTTP 429/5xx, a broken connection, truncated bytes."""

    def __init__(self, reason: str, kind: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason, self.kind, self.retry_after = reason, kind, retry_after


@dataclass
class DownloadResult:
    """``repaired``: ids whose cached file was damaged or incomplete (deleted, fetched again);
    ``stopped``: why the failure budget stopped the downloads, else ``None``."""

    paths: dict[str, Path] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    failed_kinds: dict[str, str] = field(default_factory=dict)
    downloaded: int = 0
    from_cache: int = 0
    repaired: list[str] = field(default_factory=list)
    stopped: str | None = None


def url_expired(url: str, margin_s: float = 0.0) -> bool:
    """Whether a CDN URL's ``oe`` parameter (hex expiry, epoch seconds) lies in the past, or
    less than ``margin_s`` seconds ahead."""
    value = parse_qs(urlsplit(url).query).get("oe", [""])[0]
    try:
        return int(value, 16) < time.time() + margin_s
    except ValueError:
        return False


def jpeg_complete(data: bytes, decode: bool = True) -> bool:
    """Whether ``data`` is a whole JPEG: SOI and EOI markers, then a full Pillow decode
    (``decode``) or only Pillow's cheap structural check."""
    if len(data) < 4 or data[:2] != b"\xff\xd8" or not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
        return False
    try:
        from PIL import Image
    except ImportError:  # the markers alone then
        return True
    try:
        with Image.open(io.BytesIO(data)) as image:
            if decode:
                image.load()
            else:
                image.verify()
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return False
    return True


def image_path(root: Path, image_id: str) -> Path:
    return Path(root) / image_id[:2] / f"{image_id}.jpg"


def cached_image_ok(path: Path) -> bool:
    """Trust a cached image only when its sha256 matches the sidecar and it is a whole JPEG
    (the bytes were fully decoded before the sidecar was written); never one read through a link."""
    if state_files.path_kind(path) != "file" or state_files.path_kind(path.with_suffix(".sha256")) != "file":
        return False
    try:
        expected = path.with_suffix(".sha256").read_text(encoding="ascii").split()[0].lower()
        data = path.read_bytes()
    except (OSError, IndexError, UnicodeDecodeError):
        return False
    return hashlib.sha256(data).hexdigest() == expected and jpeg_complete(data, decode=False)


def discard_cached(path: Path) -> bool:
    """Delete a cached image that failed :func:`cached_image_ok`, and its sidecar; whether an
    image file was there. Only what the cache wrote goes (:mod:`...state_files`): a link, a
    folder or a file that is no JPEG at the image's place is left, and the image fails naming it."""
    try:
        existed = state_files.remove_owned(path, lambda p: state_files.cache_entry_is_ours(p, b"\xff\xd8"),
                                           "the cached image", "move it out of the image cache folder")
        state_files.remove_owned(path.with_suffix(".sha256"), what="the cached image's checksum")
    except (state_files.NotOurs, state_files.NotARegularFile) as exc:
        raise ThumbnailFailed(str(exc)) from None
    return existed


def store_image(path: Path, data: bytes) -> None:
    if not jpeg_complete(data, decode=False):  # the cache holds whole JPEGs only
        raise ThumbnailFailed(f"refusing to cache {len(data)} bytes that are not a complete JPEG",
                              "truncated")
    write_bytes(path, data)  # the sidecar comes second: no sidecar, no trust
    write_text(path.with_suffix(".sha256"), f"{hashlib.sha256(data).hexdigest()}  {path.name}\n")


def download_thumbnails(client: "MapillaryClient", records: Iterable["ImageRecord"], root: Path,
                        progress: Progress | None = None) -> DownloadResult:
    """Fetch every record's thumbnail into ``root`` on ``client.max_workers`` threads.

    On cancel, queued downloads are dropped, running ones get about a second to finish (their
    files are kept), the rest have their connections cut, and :class:`Cancelled` is raised with
    the partial ``.result`` attached. No download thread outlives this call: none prints after
    the error or the cancel message.
    """
    unique = list({r.image_id: r for r in records}.values())
    result = DownloadResult()
    check_cancel(progress, "the Mapillary download")
    breaker = getattr(client, "breaker", None) or FailureBreaker(None)
    if breaker.tripped.is_set():
        breaker.reset()
    renewer = UrlRenewer(client)
    stale = [r.image_id for r in unique if (not r.thumb_url or url_expired(r.thumb_url, EXPIRY_MARGIN_S))
             and not image_path(root, r.image_id).exists()]
    try:
        renewed = renewer.prefetch(stale, lambda: progress is not None and progress.is_canceled())
    except Cancelled as cancelled:
        cancelled.result = result
        raise
    stop, abort = threading.Event(), threading.Event()
    pool = cf.ThreadPoolExecutor(client.max_workers, thread_name_prefix="mapillary-image")
    jobs = {pool.submit(_fetch_one, client, r, root, stop, abort, breaker, result.repaired, renewer,
                        renewed.get(r.image_id)): r.image_id for r in unique}
    pending = set(jobs)
    try:
        while pending:
            finished, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
            for job in finished:
                _collect(client, job, jobs[job], result)
            if progress is not None and finished:
                progress.set_progress(100.0 * (len(unique) - len(pending)) / len(unique))
            check_cancel(progress, "the Mapillary download")
    except Cancelled as cancelled:
        stop.set()
        for job in pending:
            job.cancel()
        finished, _ = cf.wait(pending, timeout=_CANCEL_GRACE_S)
        abort.set()
        _stop(client, pool, pending)
        for job in finished:
            if not job.cancelled():
                _collect(client, job, jobs[job], result)
        cancelled.result = result
        log.info("Mapillary download cancelled: %d of %d images kept", len(result.paths),
                 len(unique))
        raise
    except BaseException:  # Ctrl-C or an unexpected failure
        stop.set()
        abort.set()
        _stop(client, pool, pending)
        raise
    pool.shutdown(wait=True)
    if breaker.tripped.is_set():
        result.stopped = breaker.describe()
    log.info("Mapillary thumbnails: %d downloaded, %d from the cache, %d failed",
             result.downloaded, result.from_cache, len(result.failed))
    return result


def _stop(client: "MapillaryClient", pool: cf.ThreadPoolExecutor, pending) -> None:
    stop_workers = getattr(client, "stop_workers", None)
    if stop_workers is not None:
        stop_workers(pool, pending)
    else:
        pool.shutdown(wait=False, cancel_futures=True)


def _collect(client: "MapillaryClient", job: cf.Future, image_id: str,
             result: DownloadResult) -> None:
    try:
        path, cached = job.result()
    except ThumbnailFailed as failure:
        result.failed[image_id] = client.redact(str(failure))
        result.failed_kinds[image_id] = failure.kind
        if failure.kind != "skipped":
            log.warning("Mapillary image %s not fetched: %s", image_id, result.failed[image_id])
        return
    except Cancelled:
        return
    result.paths[image_id] = path
    if cached:
        result.from_cache += 1
    else:
        result.downloaded += 1


def _fetch_one(client: "MapillaryClient", record: "ImageRecord", root: Path,
               stop: threading.Event, abort: threading.Event, breaker: FailureBreaker,
               repaired: list, renewer: UrlRenewer, renewed: str | None = None) -> tuple[Path, bool]:
    """``(path, from_cache)``; an expired URL is replaced once by a freshly queried one
    (``renewed`` when it was renewed before the downloads). Every failure is reported to
    ``breaker``; once it trips, no further request is made."""
    target = image_path(root, record.image_id)
    if cached_image_ok(target):
        return target, True
    if discard_cached(target):
        repaired.append(record.image_id)
        log.warning("Mapillary image %s: the cached file %s was damaged or incomplete — deleted, "
                    "fetching it again", record.image_id, target)

    def stopped() -> bool:
        return stop.is_set() or breaker.tripped.is_set()

    def check() -> None:
        if stop.is_set():
            raise Cancelled("cancelled by the user before this image was fetched")
        if breaker.tripped.is_set():
            raise ThumbnailFailed(f"not fetched: the downloads were stopped after "
                                  f"{breaker.describe()}", "skipped")

    def renew() -> str:
        try:
            return renewer.renew(record.image_id, stopped)
        except ThumbnailFailed as failure:
            breaker.failure(failure.kind)
            raise
        except Cancelled:
            check()
            raise

    check()
    url, requeried = (renewed, True) if renewed else (record.thumb_url, False)
    if not url or url_expired(url):
        url, requeried = renew(), True
    attempt, last, kind = 0, "no answer", "other"
    while attempt <= client.max_retries:
        check()
        try:
            data = _get_image(client, url, abort)
        except _Expired as expired:
            if requeried:
                breaker.failure("forbidden")
                raise ThumbnailFailed(f"{expired}, even a freshly queried one", "forbidden") from None
            url, requeried = renew(), True
            continue
        except _Broken as failure:
            check()  # a download cut because the run is ending is not reported
            last, kind, attempt = failure.reason, failure.kind, attempt + 1
            # the first transient failure of an image is forgiven (a hiccup); its repeat counts
            breaker.failure(kind, counted=attempt > 1 or attempt > client.max_retries)
            log.warning("Mapillary image %s: %s", record.image_id, last)
            if attempt <= client.max_retries:
                try:
                    client.pause(client.retry_delay(attempt - 1, failure.retry_after, "mapillary-images",
                                                    urlsplit(url).netloc), stopped)
                except Cancelled:
                    check()
                    raise
            continue
        except ThumbnailFailed as failure:
            breaker.failure(failure.kind)
            raise
        store_image(target, data)
        breaker.success()
        return target, False
    raise ThumbnailFailed(f"gave up after {client.max_retries + 1} attempt(s): {last}", kind)


def _get_image(client: "MapillaryClient", url: str, abort: threading.Event) -> bytes:
    """One CDN request — the token is never sent there. Truncated bytes raise :class:`_Broken`."""
    client.count_request("image")
    timeout = wait_limits("mapillary-images", client.timeout_s)
    try:
        with client.session.get(url, headers={"User-Agent": client.user_agent}, stream=True,
                                timeout=timeout) as response:
            status = response.status_code
            content_type = response.headers.get("Content-Type", "")
            declared = (None if response.headers.get("Content-Encoding")
                        else response.headers.get("Content-Length"))
            retry_after = retry_after_seconds(response.headers.get("Retry-After"))
            body = bytearray()
            for chunk in response.iter_content(_CHUNK):
                if abort.is_set():
                    raise Cancelled("cancelled by the user during an image download")
                body.extend(chunk)
    except (requests.ConnectionError, requests.Timeout,
            requests.exceptions.ChunkedEncodingError) as exc:
        kind, detail = connection_failure(exc, client.timeout_s)
        raise _Broken(f"image download failed: {detail}",
                      {"unreachable": "refused", "timeout": "timeout"}.get(kind, "truncated")) from None
    except requests.RequestException as exc:
        raise ThumbnailFailed(f"image request failed: {client.redact(str(exc))[:200]}") from None
    if status in (403, 410):
        raise _Expired(f"the image CDN refused the thumbnail URL (HTTP {status})")
    if status == 429 or status >= 500:
        raise _Broken(f"image CDN answered HTTP {status}", "server", retry_after)
    if status != 200:
        raise ThumbnailFailed(f"image CDN answered HTTP {status}", "http")
    data = bytes(body)
    if (declared is not None and declared.isdigit() and int(declared) != len(data)) or not data:
        raise _Broken(f"truncated image: {len(data)} of {declared or 'unknown'} bytes", "truncated")
    if not data.startswith(b"\xff\xd8"):
        if "html" in content_type.lower() or data.lstrip()[:1] == b"<":
            raise ThumbnailFailed(f"the image CDN sent an HTML page ({len(data)} bytes) instead of "
                                  "a JPEG", "html")
        raise ThumbnailFailed(f"the {len(data)} bytes received are not a JPEG "
                              f"({content_type or 'no content type'})", "not_jpeg")
    if not jpeg_complete(data):
        raise _Broken(f"the {len(data)} bytes received are not a complete JPEG", "truncated")
    return data
