"""Renewing expired thumbnail URLs in batches (method §2: "Thumbnail URLs expire").

Mapillary signs each thumbnail URL for a limited time (its ``oe`` parameter, hex epoch
seconds). A URL that has expired — known from ``oe`` before the download, or refused by the
image CDN with HTTP 403/410 during it — is replaced by a newly signed one. The Graph API answers
many ids in one request (``GET /images?image_ids=a,b,…&fields=id,thumb_1024_url``), so:

- before the downloads, every image not in the cache whose URL has expired, or expires within
  :data:`EXPIRY_MARGIN_S`, is renewed in batches of ``client.refresh_batch`` ids (50 by default:
  the API documents no maximum, and 50 ids keep the request line near 1 kB);
- during the downloads, a worker whose URL the CDN refused waits :data:`WINDOW_S` so that the
  ids refused at about the same time travel in one request.

Every request passes the client's throttle and retries like any other API call. An id missing
from a batch answer is asked for alone (``GET /{id}?fields=thumb_1024_url``); a batch request
that fails for good makes every later renewal of the run a single-id one (an API that does not
take ``image_ids``).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from geofidelity_plugin.core.errors import Cancelled, RemoteServiceError
from geofidelity_plugin.core.network import WaitTooLong
from geofidelity_plugin.core.reference_panels.mapillary.api_errors import ThumbnailFailed, TokenRejected

log = logging.getLogger("geofidelity")

#: URLs expiring sooner than this are renewed before the downloads start (seconds).
EXPIRY_MARGIN_S = 600.0
#: How long the first refused worker waits for others to join its batch (seconds).
WINDOW_S = 0.05


def checked_url(url, redact: Callable[[str], str]) -> str:
    """``url`` when it is an http(s) thumbnail URL, else :class:`.thumbnails.ThumbnailFailed`."""
    if not isinstance(url, str) or not url:
        raise ThumbnailFailed("Mapillary has no thumbnail URL for this image", "no_url")
    if not url.lower().startswith(("http://", "https://")):
        raise ThumbnailFailed(f"Mapillary gave a thumbnail URL that is not http(s) "
                              f"({redact(url)[:60]})", "no_url")
    return url


def urls_of_batch(payload: dict, image_ids: list[str], redact: Callable[[str], str]) -> dict[str, str]:
    """The usable thumbnail URLs of a batch answer (``{"data": [{"id", "thumb_1024_url"}, …]}``), by
    image id, for the ids asked for; an answer without a ``data`` list is a service error."""
    items = payload.get("data")
    if not isinstance(items, list):
        raise RemoteServiceError("Mapillary answered a thumbnail URL request without a 'data' list")
    wanted, out = set(image_ids), {}
    for item in items:
        image_id = str(item.get("id")) if isinstance(item, dict) else None
        if image_id in wanted:
            try:
                out[image_id] = checked_url(item.get("thumb_1024_url"), redact)
            except ThumbnailFailed:
                pass
    return out


def _wait(seconds: float, stopped: Callable[[], bool]) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if stopped():
            raise Cancelled("stopped while renewing thumbnail URLs")
        time.sleep(min(0.01, left))


class UrlRenewer:
    """Renewed thumbnail URLs for one download run, batched (see the module docstring)."""

    def __init__(self, client, window_s: float = WINDOW_S):
        self.client, self.window_s = client, window_s
        self.batch = max(1, int(getattr(client, "refresh_batch", 1) or 1))
        self.batched = self.batch > 1 and hasattr(client, "fresh_thumb_urls")
        self._lock = threading.Lock()
        self._queue: list[str] = []
        self._events: dict[str, threading.Event] = {}
        self._answers: dict = {}
        self._leader = False

    def prefetch(self, image_ids: list[str], stopped: Callable[[], bool]) -> dict[str, str]:
        """Renewed URLs of ``image_ids``, in batches, on the calling thread; ids left out are
        renewed by the download workers when they need them."""
        out: dict[str, str] = {}
        start = 0
        while self.batched and start < len(image_ids):
            if stopped():
                raise Cancelled("cancelled by the user while renewing thumbnail URLs")
            out.update(self._ask(image_ids[start:start + self.batch], stopped))
            start += self.batch
        return out

    def renew(self, image_id: str, stopped: Callable[[], bool]) -> str:
        """A renewed URL for one image (from a worker thread)."""
        if not self.batched:
            return self.client.fresh_thumb_url(image_id, stopped)
        event = threading.Event()
        with self._lock:
            self._queue.append(image_id)
            self._events[image_id] = event
            lead, self._leader = not self._leader, True
        if lead:
            self._lead(stopped)
        while not event.wait(0.05):
            if stopped():
                raise Cancelled("stopped while waiting for a renewed thumbnail URL")
        with self._lock:
            answer = self._answers.pop(image_id, None)
        if isinstance(answer, BaseException):
            raise answer
        return answer if answer is not None else self.client.fresh_thumb_url(image_id, stopped)

    def _lead(self, stopped: Callable[[], bool]) -> None:
        """Ask for the queued ids, a batch at a time, until the queue is empty. Whatever happens,
        every queued worker is woken (with no answer it falls back to a single-id request)."""
        taken: list[str] = []
        try:
            _wait(self.window_s, stopped)
            while True:
                with self._lock:
                    taken, self._queue = self._queue[:self.batch], self._queue[self.batch:]
                    if not taken:
                        self._leader = False
                        return
                answers = self._ask(taken, stopped) if self.batched else {}
                self._answer(taken, answers)
                taken = []
        except BaseException as exc:
            with self._lock:
                left, self._queue, self._leader = taken + self._queue, [], False
            self._answer(left, {}, exc if isinstance(exc, (TokenRejected, WaitTooLong)) else None)
            raise

    def _answer(self, ids: list[str], answers: dict, error: BaseException | None = None) -> None:
        with self._lock:
            for image_id in ids:
                self._answers[image_id] = error if error is not None else answers.get(image_id)
                event = self._events.pop(image_id, None)
                if event is not None:
                    event.set()

    def _ask(self, ids: list[str], stopped: Callable[[], bool]) -> dict[str, str]:
        try:
            return self.client.fresh_thumb_urls(ids, stopped)
        except (TokenRejected, WaitTooLong):  # a refused token or a server's too-long wait ends the run
            raise
        except RemoteServiceError as exc:
            self.batched = False
            log.warning("Mapillary: renewing %d thumbnail URLs in one request failed (%s); renewing "
                        "them one image at a time", len(ids), self.client.redact(str(exc))[:200])
            return {}
