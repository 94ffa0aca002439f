"""The failure budget of the thumbnail downloads: stop early, and say why.

When the image CDN fails every image the same way — a proxy that answers an HTML page, a network
that cuts every connection, a firewall, URLs that are all refused — retrying each image with
back-off, one after the other, only makes the user wait minutes for a run that downloads nothing.
:class:`FailureBreaker` counts failed downloads across images: after :data:`FAILURE_BUDGET`
failures *of the same kind in a row* (no success in between) it trips, the downloads still
queued are skipped, and the fetch ends with the likely cause (:func:`advice`).

A brief network hiccup must not trip it: the first transient failure of an image (a retry
follows) is not counted; its repeat is, and so is every failure that is final for an image. A
hiccup that hits all running downloads at once is therefore forgiven when their retries succeed.
"""
from __future__ import annotations

import threading

#: Failures of one kind in a row, across images, that stop the downloads.
FAILURE_BUDGET = 8

_ADVICE = {
    "html": "the image CDN returns HTML instead of JPEG — check network filtering or a proxy (a "
            "captive portal or web filter answers in place of the CDN)",
    "not_jpeg": "the image CDN returns something other than JPEG images — check network filtering "
                "or a proxy",
    "truncated": "images arrive truncated — the connection is cut; check the network (or a proxy "
                 "or antivirus that inspects downloads)",
    "refused": "the image CDN refuses the connection — check the network, a firewall or the proxy "
               "settings (HTTPS_PROXY)",
    "timeout": "the image CDN does not answer in time — check the network or the proxy settings",
    "forbidden": "the image CDN refuses the thumbnail URLs (HTTP 403/410) even when they are "
                 "renewed: they expired or access is forbidden — check the system clock, the token's "
                 "permissions and any proxy",
    "server": "the image CDN answers with server errors — try again later",
    "http": "the image CDN answers with an unexpected HTTP status",
    "api": "renewing the thumbnail URLs through the Mapillary API fails",
    "no_url": "Mapillary gives no thumbnail URL for these images",
    "other": "the image requests fail",
}


def advice(kind: str | None) -> str:
    """The likely cause (and the fix) behind failures of ``kind``."""
    return _ADVICE.get(kind or "other", _ADVICE["other"])


class FailureBreaker:
    """Thread-safe count of failed downloads in a row; trips after ``budget`` of one kind.

    ``budget`` ``None`` or ``0`` turns it off (every image is tried, as many times as the client
    retries)."""

    def __init__(self, budget: int | None = FAILURE_BUDGET):
        self.budget = int(budget or 0)
        self._lock = threading.Lock()
        self._kind: str | None = None
        self._streak = 0
        self.tripped = threading.Event()
        self.cause: str | None = None

    def reset(self) -> None:
        """A fresh start (a new batch of downloads)."""
        with self._lock:
            self._kind, self._streak, self.cause = None, 0, None
            self.tripped.clear()

    def success(self) -> None:
        with self._lock:
            self._kind, self._streak = None, 0

    def failure(self, kind: str, counted: bool = True) -> bool:
        """Record a failure; ``counted`` ``False`` for the first transient failure of an image.
        Returns whether the breaker is (now) tripped."""
        with self._lock:
            if counted and self.budget and not self.tripped.is_set():
                if kind == self._kind:
                    self._streak += 1
                else:
                    self._kind, self._streak = kind, 1
                if self._streak >= self.budget:
                    self.cause = kind
                    self.tripped.set()
            return self.tripped.is_set()

    def describe(self) -> str:
        return f"{self.budget} image downloads failed in a row: {advice(self.cause)}"
