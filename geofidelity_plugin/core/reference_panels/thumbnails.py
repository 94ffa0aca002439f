"""Thumbnail downloads and the image cache of the reference panels (PROTOCOL §2: "Thumbnail
URLs expire: cache image bytes by image id").

Each image lives at ``<root>/<id[:2]>/<id>.jpg`` with a ``<id>.sha256`` sidecar. Both are
written atomically and the sidecar only after the image, so a run killed at any moment leaves
either a trusted pair or something that is fetched again — never a half image that a later
run trusts. Downloads run on a bounded thread pool; progress and cancel checks stay on the
calling thread, which is all a QGIS task or the CLI needs.
"""
from __future__ import annotations

import concurrent.futures as cf
import email.utils
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

from ..atomic import write_bytes, write_text
from ..errors import Cancelled
from ..progress import Progress, check_cancel

if TYPE_CHECKING:
    from .mapillary import ImageRecord, MapillaryClient

log = logging.getLogger("geofidelity")

_CANCEL_GRACE_S = 1.0
_MAX_RETRY_AFTER_S = 600.0
_CHUNK = 1 << 16


class ThumbnailFailed(Exception):
    """One image could not be fetched; its reason goes into :attr:`DownloadResult.failed`."""


class _Expired(Exception):
    """The CDN refused a thumbnail URL (HTTP 403/410): its signature has expired."""


class _Broken(Exception):
    """A download worth repeating: HTTP 429/5xx, a broken connection, truncated bytes."""

    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason, self.retry_after = reason, retry_after


@dataclass
class DownloadResult:
    paths: dict[str, Path] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    downloaded: int = 0
    from_cache: int = 0


def retry_after_seconds(header: str | None) -> float | None:
    """``Retry-After`` as seconds (delta-seconds or an HTTP date), capped at 10 minutes."""
    if not header:
        return None
    text = header.strip()
    try:
        return min(max(float(text), 0.0), _MAX_RETRY_AFTER_S)
    except ValueError:
        pass
    try:
        stamp = email.utils.parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError):
        return None
    return min(max(stamp - time.time(), 0.0), _MAX_RETRY_AFTER_S)


def url_expired(url: str) -> bool:
    """Whether a CDN URL's ``oe`` parameter (hex expiry, epoch seconds) lies in the past."""
    value = parse_qs(urlsplit(url).query).get("oe", [""])[0]
    try:
        return int(value, 16) < time.time()
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
    (the bytes were fully decoded before the sidecar was written)."""
    try:
        expected = path.with_suffix(".sha256").read_text(encoding="ascii").split()[0].lower()
        data = path.read_bytes()
    except (OSError, IndexError, UnicodeDecodeError):
        return False
    return hashlib.sha256(data).hexdigest() == expected and jpeg_complete(data, decode=False)


def store_image(path: Path, data: bytes) -> None:
    write_bytes(path, data)  # the sidecar comes second: no sidecar, no trust
    write_text(path.with_suffix(".sha256"), f"{hashlib.sha256(data).hexdigest()}  {path.name}\n")


def download_thumbnails(client: "MapillaryClient", records: Iterable["ImageRecord"], root: Path,
                        progress: Progress | None = None) -> DownloadResult:
    """Fetch every record's thumbnail into ``root`` on ``client.max_workers`` threads.

    On cancel, queued downloads are dropped, running ones get about a second to finish (their
    files are kept) and :class:`Cancelled` is raised with the partial ``.result`` attached.
    """
    unique = list({r.image_id: r for r in records}.values())
    result = DownloadResult()
    check_cancel(progress, "the Mapillary download")
    stop, abort = threading.Event(), threading.Event()
    pool = cf.ThreadPoolExecutor(client.max_workers, thread_name_prefix="mapillary-image")
    jobs = {pool.submit(_fetch_one, client, r, root, stop, abort): r.image_id for r in unique}
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
        for job in finished:
            if not job.cancelled():
                _collect(client, job, jobs[job], result)
        pool.shutdown(wait=False, cancel_futures=True)
        cancelled.result = result
        log.info("Mapillary download cancelled: %d of %d images kept", len(result.paths),
                 len(unique))
        raise
    except BaseException:
        stop.set()
        abort.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    log.info("Mapillary thumbnails: %d downloaded, %d from the cache, %d failed",
             result.downloaded, result.from_cache, len(result.failed))
    return result


def _collect(client: "MapillaryClient", job: cf.Future, image_id: str,
             result: DownloadResult) -> None:
    try:
        path, cached = job.result()
    except ThumbnailFailed as failure:
        result.failed[image_id] = client.redact(str(failure))
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
               stop: threading.Event, abort: threading.Event) -> tuple[Path, bool]:
    """``(path, from_cache)``; an expired URL is replaced once by a freshly queried one."""
    target = image_path(root, record.image_id)
    if cached_image_ok(target):
        return target, True
    url, requeried = record.thumb_url, False
    if not url or url_expired(url):
        url, requeried = client.fresh_thumb_url(record.image_id, stop.is_set), True
    attempt, last = 0, "no answer"
    while attempt <= client.max_retries:
        if stop.is_set():
            raise Cancelled("cancelled by the user before this image was fetched")
        try:
            data = _get_image(client, url, abort)
        except _Expired as expired:
            if requeried:
                raise ThumbnailFailed(f"{expired}, even a freshly queried one") from None
            url, requeried = client.fresh_thumb_url(record.image_id, stop.is_set), True
            continue
        except _Broken as failure:
            last, attempt = failure.reason, attempt + 1
            log.warning("Mapillary image %s: %s", record.image_id, last)
            if attempt <= client.max_retries:
                client.pause(client.retry_delay(attempt - 1, failure.retry_after), stop.is_set)
            continue
        store_image(target, data)
        return target, False
    raise ThumbnailFailed(f"gave up after {client.max_retries + 1} attempt(s): {last}")


def _get_image(client: "MapillaryClient", url: str, abort: threading.Event) -> bytes:
    """One CDN request — the token is never sent there. Truncated bytes raise :class:`_Broken`."""
    client.count_request("image")
    timeout = (min(10.0, client.timeout_s), client.timeout_s)
    try:
        with client.session.get(url, headers={"User-Agent": client.user_agent}, stream=True,
                                timeout=timeout) as response:
            status = response.status_code
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
        raise _Broken(f"image download broke off ({type(exc).__name__})") from None
    except requests.RequestException as exc:
        raise ThumbnailFailed(f"image request failed: {client.redact(str(exc))[:200]}") from None
    if status in (403, 410):
        raise _Expired(f"the image CDN refused the thumbnail URL (HTTP {status})")
    if status == 429 or status >= 500:
        raise _Broken(f"image CDN answered HTTP {status}", retry_after)
    if status != 200:
        raise ThumbnailFailed(f"image CDN answered HTTP {status}")
    if declared is not None and declared.isdigit() and int(declared) != len(body):
        raise _Broken(f"truncated image: {len(body)} of {declared} bytes")
    if not jpeg_complete(bytes(body)):
        raise _Broken(f"the {len(body)} bytes received are not a complete JPEG")
    return bytes(body)
