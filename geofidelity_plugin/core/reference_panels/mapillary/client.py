"""Mapillary Graph API v4 client for the reference panels (method §2).

Candidates come from ``GET /images?bbox=…&fields=…&limit=2000``. A bbox search has no paging,
so the segment is tiled (:mod:`.tiles`) and a tile that comes back full — or that Mapillary
answers with "Please reduce the amount of data" — is split into quadrants. Thumbnail URLs
expire, so image bytes are cached by image id, with a sha256 sidecar written after the image;
a cached file is trusted only when the hash matches and the bytes are a complete JPEG, so a
killed or cancelled run resumes without fetching any stored image again.

API calls go through a client-side token bucket and are retried with exponential backoff and
jitter on HTTP 429 ("Application request limit reached"), 5xx, timeouts, connection errors and
truncated JSON, honouring ``Retry-After``. The access token travels only in the
``Authorization: OAuth …`` header of API calls (never to the image CDN) and is redacted from
every log record, message and ``repr``.
"""
from __future__ import annotations

import concurrent.futures as cf
import json
import logging
import os
import random
import threading
import time
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import quote, urlsplit

import requests

from geofidelity_plugin.core import paths
from geofidelity_plugin.core.errors import Cancelled, InputError, RemoteServiceError
from geofidelity_plugin.core.manifest import __version__
from geofidelity_plugin.core.network import WaitTooLong, retry_wait, wait_limits
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.reference_panels.mapillary.api_errors import (UNREACHED_ATTEMPTS, TokenRejected, api_failure_message, connection_failure, graph_error)
from geofidelity_plugin.core.reference_panels.mapillary.breaker import FAILURE_BUDGET, FailureBreaker
from geofidelity_plugin.core.reference_panels.mapillary.thumbnails import (DownloadResult, ThumbnailFailed, download_thumbnails, retry_after_seconds)
from geofidelity_plugin.core.reference_panels.options import DEFAULT_BASE_URL, FETCH_REFRESH_BATCH  # noqa: F401 (public here too)
from geofidelity_plugin.core.reference_panels.mapillary.records import ImageRecord, SkippedItems  # noqa: F401 (public here too)
from geofidelity_plugin.core.reference_panels.mapillary.renewal import checked_url, urls_of_batch
from geofidelity_plugin.core.reference_panels.mapillary.stopping import AbortableAdapter, stop_pool
from geofidelity_plugin.core.reference_panels.mapillary.throttle import TokenBucket  # noqa: F401 (public here too)
from geofidelity_plugin.core.reference_panels.mapillary.tiles import Box, split_box, tiles_along

log = logging.getLogger("geofidelity")

TOKEN_ENV = "MAPILLARY_ACCESS_TOKEN"
SEARCH_FIELDS = ("id", "captured_at", "compass_angle", "computed_geometry", "geometry", "is_pano",
                 "camera_type", "sequence", "width", "height", "thumb_1024_url", "creator")
MAX_LIMIT = 2000
USER_AGENT = f"GeoFidelity-QGIS-plugin/{__version__} (reference panels; python-requests)"
TOKEN_FIX = f"check {TOKEN_ENV} / the QGIS authentication config"
_RATE_LIMIT_CODES = frozenset({4, 17, 32, 613})  # Graph API "request limit reached" family
_SLICE_S = 0.25


class TooMuchData(RemoteServiceError):
    """Mapillary answered "Please reduce the amount of data" (code 1): split the box."""


class _Retryable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None, kind: str = "server"):
        super().__init__(reason)
        self.reason, self.retry_after, self.kind = reason, retry_after, kind


def token_from_env() -> str:
    """The access token for the CLI, from ``MAPILLARY_ACCESS_TOKEN``."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise InputError(f"no Mapillary access token: set {TOKEN_ENV} to a client token from "
                         "https://www.mapillary.com/dashboard/developers (or, in QGIS, choose an "
                         "authentication configuration that holds it)")
    return token


class MapillaryClient:
    """Graph API v4 client (method §2): tiled bbox search and cached thumbnail downloads.

    ``max_retries`` counts repeats after the first attempt; the wait before retry *k* is
    ``backoff_s * 2**k`` stretched by up to ``jitter`` (from ``random.Random(seed)``) unless
    the server sent ``Retry-After``. ``sleep`` is injectable so tests record waits. Searches
    and downloads run on at most ``max_workers`` threads; API calls also pass a token bucket
    of ``requests_per_second``. Progress and cancel checks stay on the calling thread.

    ``failure_budget`` image downloads failing the same way in a row (default
    :data:`.breaker.FAILURE_BUDGET`, 8) stop the downloads with the likely cause instead of
    retrying every image; ``None`` or ``0`` tries every image. An API that has not answered once
    in this run — unreachable, or connected but silent for ``timeout_s`` — is tried only twice (a
    wrong URL, a missing network or a hung server does not heal in a back-off). Items of a search
    answer whose fields are unusable are skipped and counted in :attr:`skipped`. Expired
    thumbnail URLs are renewed ``refresh_batch`` ids per request (:mod:`.renewal`; 1: one by one).
    """

    def __init__(self, token: str, base_url: str = DEFAULT_BASE_URL, limit: int = MAX_LIMIT,
                 requests_per_second: float | None = 10.0, max_retries: int = 5,
                 backoff_s: float = 1.0, timeout_s: float = 30, cache_dir: Path | None = None,
                 max_workers: int = 16, session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep, seed: int | None = None,
                 jitter: float = 0.25, max_split_depth: int = 6,
                 failure_budget: int | None = FAILURE_BUDGET,
                 refresh_batch: int = FETCH_REFRESH_BATCH):
        self._token = (token or "").strip()
        if not self._token.isascii():  # never echo it: it is a secret, even when mistyped
            raise InputError(f"the Mapillary access token contains non-ASCII characters (a letter "
                             "with an accent, a typographic quote or dash?) — copy the token again "
                             "from https://www.mapillary.com/dashboard/developers into "
                             f"{TOKEN_ENV} (or the QGIS authentication config)")
        if not self._token or any(ch.isspace() or not ch.isprintable() for ch in self._token):
            raise InputError(f"the Mapillary access token is empty or holds spaces or control "
                             f"characters — set {TOKEN_ENV} (or the QGIS authentication "
                             "config) to the client token exactly as the Mapillary dashboard "
                             "shows it")
        parts = urlsplit(base_url or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InputError(f"Mapillary API URL {base_url!r} is not an http(s) URL — give one "
                             f"such as {DEFAULT_BASE_URL}")
        if not 1 <= limit <= MAX_LIMIT or max_workers < 1 or max_retries < 0 or timeout_s <= 0:
            raise InputError(f"Mapillary client needs 1 <= limit <= {MAX_LIMIT}, max_workers >= 1,"
                             " max_retries >= 0 and timeout_s > 0")
        self.base_url = base_url.rstrip("/")
        self.limit, self.max_workers = int(limit), int(max_workers)
        self.refresh_batch = max(1, int(refresh_batch))
        self.max_split_depth = int(max_split_depth)
        self.max_retries, self.backoff_s, self.timeout_s = max_retries, backoff_s, float(timeout_s)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.sleep, self.jitter, self._rng = sleep, jitter, random.Random(seed)
        self._bucket = TokenBucket(requests_per_second)
        self._lock = threading.Lock()
        self._counts = {"api": 0, "image": 0}
        self._reached = False  # an HTTP answer came from the API in this run
        self.breaker = FailureBreaker(failure_budget)
        self.skipped = SkippedItems()
        self._adapter: AbortableAdapter | None = None
        if session is None:
            session = requests.Session()
            self._adapter = AbortableAdapter(pool_connections=4, pool_maxsize=max(10, self.max_workers))
            session.mount("http://", self._adapter)
            session.mount("https://", self._adapter)
        self.session = session
        self.user_agent = USER_AGENT

    def close(self) -> None:
        """Release the pooled HTTP connections."""
        self.session.close()

    def abort_requests(self) -> None:
        """Cut the connections of the requests in flight (from any thread): a thread blocked in
        a read returns at once. Only for a client that made its own session."""
        if self._adapter is not None:
            self._adapter.abort()

    def stop_workers(self, pool, futures, grace_s: float = 0.0) -> None:
        """Stop a search or download pool whose stop event is set (:func:`.stopping.stop_pool`)."""
        stop_pool(pool, futures, self.abort_requests, grace_s)

    def __enter__(self) -> "MapillaryClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"MapillaryClient(base_url={self.base_url!r}, token='***', limit={self.limit}, "
                f"max_workers={self.max_workers}, cache_dir={self.cache_dir!r})")

    @property
    def api_requests(self) -> int:
        return self._counts["api"]

    @property
    def image_requests(self) -> int:
        return self._counts["image"]

    def count_request(self, kind: str) -> None:
        with self._lock:
            self._counts[kind] += 1

    def redact(self, text: str) -> str:
        for secret in {self._token, quote(self._token, safe=""), quote(self._token)}:
            text = text.replace(secret, "***")
        return text

    # --- API calls ---------------------------------------------------------------------------

    def search(self, box: Box, progress: Progress | None = None) -> list[ImageRecord]:
        """Images in ``box`` (one request, no paging). ``len(result) >= limit`` may mean the
        box is FULL — split it (:func:`.tiles.split_box`); :class:`TooMuchData` means the same."""
        check_cancel(progress, "the Mapillary search")
        stopped = (lambda: progress.is_canceled()) if progress is not None else (lambda: False)
        return self._search(box, stopped)[0]

    def _search(self, box: Box, stopped: Callable[[], bool],
                segment_id: str | None = None) -> tuple[list[ImageRecord], int]:
        bbox = ",".join(f"{v:.7f}".rstrip("0").rstrip(".") for v in box)
        payload = self._api_get("/images", {"bbox": bbox, "fields": ",".join(SEARCH_FIELDS),
                                            "limit": str(self.limit)},
                                stopped, f"image search in bbox {bbox}", split_on_too_much=True)
        items = payload.get("data")
        if not isinstance(items, list):
            raise RemoteServiceError(f"Mapillary answered the search in bbox {bbox} without a "
                                     "'data' list — check the API URL")
        records = []
        for item in items:
            record, problem = ImageRecord.parse(item, segment_id)
            if record is None:
                self.skipped.add(problem, item)
            else:
                records.append(record)
        if len(records) < len(items):
            log.debug("Mapillary bbox %s: skipped %d unusable item(s)", bbox, len(items) - len(records))
        return records, len(items)

    def _search_job(self, box: Box, stop: threading.Event, segment_id: str | None,
                    failures: list) -> tuple[list[ImageRecord], int]:
        """One box of :meth:`images_along` on a pool thread. A failure is kept in ``failures`` and
        stops the other boxes at once: none of them starts a request after it."""
        try:
            return self._search(box, stop.is_set, segment_id)
        except (TooMuchData, Cancelled):
            raise
        except BaseException as exc:
            failures.append(exc)
            stop.set()
            raise

    def _api_get(self, path: str, params: dict, stopped: Callable[[], bool], what: str,
                 split_on_too_much: bool = False) -> dict:
        attempts, attempt, last, kind = self.max_retries + 1, 0, "no answer", "server"
        while attempt < attempts:
            if stopped():
                raise Cancelled(f"cancelled by the user during the Mapillary {what}")
            self._bucket.acquire(stopped)
            try:
                return self._api_attempt(self.base_url + path, params, what, split_on_too_much)
            except _Retryable as failure:
                if stopped():  # the run is ending (its connection may have been cut): stay quiet
                    raise Cancelled(f"stopped during the Mapillary {what}") from None
                last, kind, attempt = failure.reason, failure.kind, attempt + 1
                if kind in ("unreachable", "timeout") and not self._reached:
                    attempts = min(attempts, UNREACHED_ATTEMPTS)
                log.warning("Mapillary %s: %s (attempt %d of %d)", what, last, attempt, attempts)
                if attempt < attempts:
                    self.pause(self.retry_delay(attempt - 1, failure.retry_after), stopped)
        raise RemoteServiceError(api_failure_message(kind, self.base_url, what, last, attempt))

    def _api_attempt(self, url: str, params: dict, what: str, split_on_too_much: bool) -> dict:
        self.count_request("api")
        headers = {"Authorization": f"OAuth {self._token}", "User-Agent": USER_AGENT,
                   "Accept": "application/json"}
        try:
            response = self.session.get(url, params=params, headers=headers,
                                        timeout=wait_limits("mapillary", self.timeout_s))
            body, status = response.content, response.status_code
        except (requests.ConnectionError, requests.Timeout,
                requests.exceptions.ChunkedEncodingError) as exc:
            kind, detail = connection_failure(exc, self.timeout_s)
            where = urlsplit(self.base_url).netloc
            raise _Retryable(f"could not reach {where}: {detail}" if kind == "unreachable" else
                             f"{where}: {detail}", kind=kind) from None
        except requests.RequestException as exc:
            raise RemoteServiceError(f"the Mapillary {what} failed: {self.redact(str(exc))[:300]} "
                                     f"— check the API URL {self.base_url}") from None
        self._reached = True
        if status == 200:
            try:
                payload = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise _Retryable(f"HTTP 200 with invalid JSON, {len(body)} bytes "
                                 "(truncated?)", kind="json") from None
            if not isinstance(payload, dict):
                raise _Retryable("HTTP 200 without a JSON object", kind="json")
            return payload
        error = graph_error(body)
        code = error.get("code")
        message = self.redact(str(error.get("message") or body[:160].decode("utf-8", "replace")))
        if code == 190 or status in (401, 403):
            kind = f"{error.get('type') or 'OAuthException'} {code}" if code else f"HTTP {status}"
            raise TokenRejected(f"the token was refused by the Mapillary API at {self.base_url} "
                                f"({kind}) — {TOKEN_FIX}: it must hold a client access token from "
                                "https://www.mapillary.com/dashboard/developers")
        if "reduce the amount of data" in message.lower():  # code 1, like any unknown error
            if split_on_too_much:
                raise TooMuchData(f"Mapillary asked for less data in the {what}: split the box")
            raise _Retryable(f"HTTP {status}: {message}")
        if status == 429 or code in _RATE_LIMIT_CODES or status >= 500:
            rate = status == 429 or code in _RATE_LIMIT_CODES
            raise _Retryable(f"HTTP {status}: {message}",
                             retry_after_seconds(response.headers.get("Retry-After")),
                             kind="rate" if rate else "server")
        raise RemoteServiceError(f"Mapillary answered the {what} with HTTP {status}: {message}"
                                 f"{f' (code {code})' if code is not None else ''}")

    def retry_delay(self, attempt: int, retry_after: float | None, service: str = "mapillary",
                    where: str | None = None) -> float:
        """The server's ``Retry-After`` up to the stated cap (above it the run stops, or waits the
        cap: :func:`...network.retry_wait`), else the back-off with jitter."""
        asked = retry_wait(retry_after, service, where or self.base_url)
        if asked is not None:
            return asked
        return self.backoff_s * 2 ** attempt * (1.0 + self.jitter * self._rng.random())

    def pause(self, seconds: float, stopped: Callable[[], bool]) -> None:
        """Sleep in short slices so that a cancel request is seen within a quarter second."""
        remaining = seconds
        while remaining > 1e-9:
            if stopped():
                raise Cancelled("cancelled by the user during the wait before a Mapillary retry")
            step = min(_SLICE_S, remaining)
            self.sleep(step)
            remaining -= step

    # --- search along a segment --------------------------------------------------------------

    def images_along(self, line_lonlat, buffer_m: float = 30.0, step_m: float = 200.0,
                     progress: Progress | None = None,
                     segment_id: str | None = None) -> list[ImageRecord]:
        """Every image Mapillary holds in the tiles along a segment, deduplicated by id and
        sorted by id. Full tiles are split into quadrants up to ``max_split_depth`` times;
        the buffer filter itself (method §2 filter 1) is left to the caller."""
        tiles = tiles_along(line_lonlat, buffer_m, step_m)
        check_cancel(progress, "the Mapillary search")
        found: dict[str, ImageRecord] = {}
        stop, failures = threading.Event(), []
        pool = cf.ThreadPoolExecutor(self.max_workers, thread_name_prefix="mapillary-search")
        jobs = {pool.submit(self._search_job, tile, stop, segment_id, failures): (tile, 0)
                for tile in tiles}
        done = unresolved = 0
        try:
            while jobs:
                finished, _ = cf.wait(jobs, timeout=0.1, return_when=cf.FIRST_COMPLETED)
                for job in finished:
                    box, depth = jobs.pop(job)
                    try:
                        records, count = job.result()
                        full = count >= self.limit
                    except TooMuchData:
                        records, full = [], True
                    except Cancelled:  # stopped by another box's failure: report that one
                        if failures:
                            raise failures[0] from None
                        raise
                    for record in records:
                        found.setdefault(record.image_id, record)
                    if full and depth < self.max_split_depth:
                        jobs.update({pool.submit(self._search_job, quarter, stop, segment_id, failures):
                                     (quarter, depth + 1) for quarter in split_box(box)})
                    elif full:
                        unresolved += 1
                        log.warning("Mapillary box %s is still full after %d splits: some "
                                    "images there may be missing", box, depth)
                    done += 1
                    if progress is not None:
                        progress.set_progress(100.0 * done / (done + len(jobs)))
                check_cancel(progress, "the Mapillary search")
        except BaseException:  # a failed search, Cancel or Ctrl-C: no thread outlives the error
            stop.set()
            self.stop_workers(pool, jobs)
            raise
        pool.shutdown(wait=True)
        message = (f"Mapillary: {len(found)} images in {done} boxes along the segment"
                   f"{f' ({unresolved} box(es) still full)' if unresolved else ''}")
        if progress is not None:
            (progress.warning if unresolved else progress.info)(message)
        log.info(message)
        return [found[key] for key in sorted(found)]

    # --- thumbnails --------------------------------------------------------------------------

    def download(self, records: Iterable[ImageRecord], folder: Path | None = None,
                 progress: Progress | None = None) -> DownloadResult:
        """Fetch each record's 1024 px thumbnail into ``<folder>/<id[:2]>/<id>.jpg`` (default
        folder ``<cache_dir>/images``), reusing every verified cached file
        (:func:`.thumbnails.download_thumbnails`)."""
        root = Path(folder) if folder is not None else (
            (self.cache_dir or paths.cache_dir() / "mapillary") / "images")
        return download_thumbnails(self, records, root, progress)

    def fresh_thumb_url(self, image_id: str, stopped: Callable[[], bool]) -> str:
        """A newly signed thumbnail URL, the old one having expired: ``GET /{id}?fields=…``."""
        try:
            payload = self._api_get(f"/{image_id}", {"fields": "thumb_1024_url"}, stopped,
                                    f"thumbnail URL request for image {image_id}")
        except (TokenRejected, WaitTooLong):
            raise
        except RemoteServiceError as failure:
            raise ThumbnailFailed(str(failure), "api") from None
        return checked_url(payload.get("thumb_1024_url"), self.redact)

    def fresh_thumb_urls(self, image_ids: list[str], stopped: Callable[[], bool]) -> dict[str, str]:
        """Newly signed thumbnail URLs of several images in one request,
        ``GET /images?image_ids=…&fields=id,thumb_1024_url`` (:mod:`.renewal`). Ids missing from
        the answer, or given no usable URL, are left out: they are asked for alone."""
        payload = self._api_get("/images", {"image_ids": ",".join(image_ids), "fields": "id,thumb_1024_url"},
                                stopped, f"thumbnail URL request for {len(image_ids)} images")
        return urls_of_batch(payload, image_ids, self.redact)
