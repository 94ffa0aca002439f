"""Mapillary Graph API v4 client for the reference panels (PROTOCOL §2).

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
import email.utils
import hashlib
import io
import json
import logging
import os
import random
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import parse_qs, quote, urlsplit

import requests
from requests.adapters import HTTPAdapter

from .. import paths
from ..atomic import write_bytes, write_text
from ..errors import Cancelled, InputError, RemoteServiceError
from ..manifest import __version__
from ..progress import Progress, check_cancel
from .tiles import Box, split_box, tiles_along

log = logging.getLogger("geofidelity")

DEFAULT_BASE_URL = "https://graph.mapillary.com"
TOKEN_ENV = "MAPILLARY_ACCESS_TOKEN"
SEARCH_FIELDS = ("id", "captured_at", "compass_angle", "computed_geometry", "geometry", "is_pano",
                 "camera_type", "sequence", "width", "height", "thumb_1024_url")
MAX_LIMIT = 2000
USER_AGENT = f"GeoFidelity-QGIS-plugin/{__version__} (reference panels; python-requests)"
TOKEN_FIX = f"check {TOKEN_ENV} / the QGIS authentication config"
_RATE_LIMIT_CODES = frozenset({4, 17, 32, 613})  # Graph API "request limit reached" family
_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # ids become file names: nothing else passes
_SLICE_S = 0.25
_CANCEL_GRACE_S = 1.0
_MAX_RETRY_AFTER_S = 600.0
_CONNECT_TIMEOUT_S = 10.0
_CHUNK = 1 << 16


class TooMuchData(RemoteServiceError):
    """Mapillary answered "Please reduce the amount of data" (code 1): split the box."""


class TokenRejected(RemoteServiceError):
    """Mapillary refused the access token (OAuthException 190 / HTTP 401); never retried."""


class _Retryable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason, self.retry_after = reason, retry_after


class _Expired(Exception):
    """The CDN refused a thumbnail URL (HTTP 403/410): its signature has expired."""


class _ImageFailed(Exception):
    """One image could not be fetched; the reason goes into ``DownloadResult.failed``."""


@dataclass(frozen=True)
class ImageRecord:
    """One Mapillary image as PROTOCOL §2 needs it. ``lon``/``lat`` are the computed (SfM)
    position when Mapillary has one, else the original GPS position."""

    image_id: str
    captured_at_ms: int
    compass_angle: float | None
    lon: float
    lat: float
    original_lon: float | None
    original_lat: float | None
    is_pano: bool
    camera_type: str | None
    sequence: str | None
    width: int | None
    height: int | None
    thumb_url: str | None
    segment_id: str | None = None

    @classmethod
    def from_api(cls, item: dict, segment_id: str | None = None) -> "ImageRecord | None":
        """Parse one Graph API item; ``None`` when it lacks a usable id, position or time."""
        image_id = str(item.get("id") or "")
        computed, original = _point(item.get("computed_geometry")), _point(item.get("geometry"))
        position = computed or original
        captured = item.get("captured_at")
        if not _ID_PATTERN.fullmatch(image_id) or position is None or captured is None:
            return None
        try:
            captured_ms = int(float(captured))
        except (TypeError, ValueError):
            return None
        angle = item.get("compass_angle")
        return cls(image_id=image_id, captured_at_ms=captured_ms,
                   compass_angle=None if angle is None else float(angle),
                   lon=position[0], lat=position[1],
                   original_lon=original[0] if original else None,
                   original_lat=original[1] if original else None,
                   is_pano=bool(item.get("is_pano")), camera_type=item.get("camera_type"),
                   sequence=item.get("sequence"), width=_int_or_none(item.get("width")),
                   height=_int_or_none(item.get("height")),
                   thumb_url=item.get("thumb_1024_url"), segment_id=segment_id)


@dataclass
class DownloadResult:
    paths: dict[str, Path] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    downloaded: int = 0
    from_cache: int = 0


def _point(geometry) -> tuple[float, float] | None:
    """``(lon, lat)`` of a GeoJSON Point, or ``None``."""
    if not isinstance(geometry, dict) or geometry.get("type") != "Point":
        return None
    coords = geometry.get("coordinates") or ()
    try:
        return float(coords[0]), float(coords[1])
    except (IndexError, TypeError, ValueError):
        return None


def _int_or_none(value) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def token_from_env() -> str:
    """The access token for the CLI, from ``MAPILLARY_ACCESS_TOKEN``."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise InputError(f"no Mapillary access token: set {TOKEN_ENV} to a client token from "
                         "https://www.mapillary.com/dashboard/developers (or, in QGIS, choose an "
                         "authentication configuration that holds it)")
    return token


def jpeg_complete(data: bytes, decode: bool = True) -> bool:
    """Whether ``data`` is a whole JPEG: SOI and EOI markers, and (with ``decode``) a full
    decode by Pillow; without ``decode`` only Pillow's cheap header check runs."""
    if len(data) < 4 or data[:2] != b"\xff\xd8" or not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
        return False
    try:
        from PIL import Image
    except ImportError:  # markers alone then
        return True
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load() if decode else image.verify()
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return False
    return True


def image_path(root: Path, image_id: str) -> Path:
    """Cache layout ``<root>/<id[:2]>/<id>.jpg`` (sidecar ``<id>.sha256`` beside it)."""
    return Path(root) / image_id[:2] / f"{image_id}.jpg"


def cached_image_ok(path: Path) -> bool:
    """Trust a cached image only when its sha256 matches the sidecar and it is a whole JPEG."""
    try:
        expected = path.with_suffix(".sha256").read_text(encoding="ascii").split()[0].lower()
        data = path.read_bytes()
    except (OSError, IndexError, UnicodeDecodeError):
        return False
    return hashlib.sha256(data).hexdigest() == expected and jpeg_complete(data, decode=False)


def _store_image(path: Path, data: bytes) -> None:
    write_bytes(path, data)  # the sidecar comes second: no sidecar, no trust
    write_text(path.with_suffix(".sha256"), f"{hashlib.sha256(data).hexdigest()}  {path.name}\n")


def _retry_after(header: str | None) -> float | None:
    """``Retry-After`` in seconds (delta or HTTP date), capped."""
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


def _url_expired(url: str) -> bool:
    """Whether a CDN URL's ``oe`` parameter (hex expiry, epoch seconds) lies in the past."""
    value = parse_qs(urlsplit(url).query).get("oe", [""])[0]
    try:
        return int(value, 16) < time.time()
    except ValueError:
        return False


class TokenBucket:
    """Thread-safe client-side throttle: ``rate`` requests per second, bursts up to ``burst``."""

    def __init__(self, rate: float | None, burst: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.rate = float(rate) if rate else 0.0
        self.capacity = max(1.0, float(burst if burst is not None else self.rate))
        self._clock, self._sleep, self._lock = clock, sleep, threading.Lock()
        self._tokens, self._stamp = self.capacity, clock()

    def acquire(self, stopped: Callable[[], bool] = lambda: False) -> None:
        if self.rate <= 0:
            return
        while True:
            with self._lock:
                now = self._clock()
                self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
                self._stamp = now
                if self._tokens >= 1.0:
                    self._tokens -= 1.0
                    return
                wait = (1.0 - self._tokens) / self.rate
            if stopped():
                raise Cancelled("cancelled by the user while throttling Mapillary requests")
            self._sleep(min(wait, _SLICE_S))
