"""Fetch roads, place nodes and administrative areas from an Overpass API endpoint
(method §1 road source "an Overpass endpoint").

Public Overpass servers are shared and often busy: they answer 429 (too many requests) or 504
(gateway timeout), and sometimes HTTP 200 with a JSON ``remark`` saying the query ran out of
time or memory. All of these are retried with exponential backoff. An answer is cached on
disk only once it parsed, so a re-run of the same city makes no request at all, and a cache
file that no longer parses is deleted and fetched again.
"""
from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit, urlunsplit

import requests

from .. import state_files
from ..atomic import write_json
from ..documents import read_json
from ..errors import GeoFidelityError, InputError, RemoteServiceError, describe_os_error
from ..manifest import __version__
from ..network import retry_after_seconds, retry_wait, timeout_message, wait_limits
from ..progress import Progress, check_cancel
from .options import DEFAULT_OVERPASS_ENDPOINT
from .osm_data import OsmData
from .overpass_answer import MalformedAnswer, parse_elements

__all__ = ["DEFAULT_ENDPOINT", "MalformedAnswer", "OverpassClient", "build_query", "parse_elements"]

log = logging.getLogger("geofidelity")

DEFAULT_ENDPOINT = DEFAULT_OVERPASS_ENDPOINT
USER_AGENT = f"GeoFidelity-QGIS-plugin/{__version__} (road-segment selection; python-requests)"
RETRYABLE_STATUS = frozenset({429, 502, 503, 504})
_FAILED_REMARK = re.compile(r"timed out|out of memory", re.IGNORECASE)
_SLEEP_SLICE_S = 0.25
#: attempts for an endpoint that has stayed silent every time so far in this run: a hung server or
#: a wrong address does not heal in a back-off
_SILENT_ATTEMPTS = 2
_CHUNK_BYTES = 1 << 16


def _is_cache_entry(path: Path) -> bool:
    """A file this cache wrote: its name, and a JSON object or what a disk fault left of one (no
    text at all) — never a text file of someone else's that found its way into the cache folder."""
    return bool(re.fullmatch(r"overpass_[0-9a-f]{64}\.json", path.name)) and \
        state_files.cache_entry_is_ours(path, b"{")


def _num(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def build_query(lon: float, lat: float, radius_m: float, timeout_s: int) -> str:
    """Overpass QL for the method §1 candidates around one city centre: named ``highway``
    ways, ``place=neighbourhood|suburb|quarter`` nodes and named administrative relations,
    all with tags and geometry (``out geom``) so that no second request is needed."""
    if not (-180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0):
        raise InputError(f"city centre ({lon}, {lat}) is not a WGS84 lon/lat pair — give the "
                         "longitude in [-180, 180] and the latitude in [-90, 90]")
    if not radius_m > 0:
        raise InputError(f"search radius must be positive, got {radius_m} m")
    if not timeout_s > 0:
        raise InputError(f"Overpass timeout must be positive, got {timeout_s} s")
    around = f"(around:{_num(radius_m, 1)},{_num(lat, 7)},{_num(lon, 7)})"
    return (f"[out:json][timeout:{int(timeout_s)}];\n(\n"
            f'  way["highway"]["name"]{around};\n'
            f'  node["place"~"^(neighbourhood|suburb|quarter)$"]{around};\n'
            f'  rel["boundary"="administrative"]["name"]{around};\n'
            ");\nout geom;\n")


class _Retryable(Exception):
    """One failed attempt that is worth repeating after a pause."""

    def __init__(self, reason: str, retry_after: float | None = None, silent: bool = False, heard: bool = True):
        super().__init__(reason)
        self.reason, self.retry_after, self.silent, self.heard = reason, retry_after, silent, heard


def _error_text(body: bytes, limit: int = 400) -> str:
    """The readable part of Overpass's HTML error page (the lines saying ``Error: ...``)."""
    text = re.sub(r"<[^>]+>", " ", body.decode("utf-8", "replace"))
    lines = [" ".join(line.split()) for line in text.splitlines()]
    errors = [line for line in lines if "error" in line.lower()]
    return ("; ".join(errors or [line for line in lines if line]) or "empty answer")[:limit]


class OverpassClient:
    """Overpass API client with retries, cancellation and an on-disk response cache.

    ``max_retries`` counts the repeats after the first attempt. The wait before retry *k*
    (0-based) is ``backoff_s * 2**k`` stretched by up to ``jitter`` (a fraction, drawn from a
    ``random.Random(seed)``), unless the server sent ``Retry-After``. ``sleep`` is injectable
    so that tests record the waits instead of waiting.
    """

    def __init__(self, endpoint: str = DEFAULT_ENDPOINT, timeout_s: int = 180,
                 max_retries: int = 4, backoff_s: float = 2.0, cache_dir: Path | None = None,
                 session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 jitter: float = 0.25, seed: int | None = None):
        parts = urlsplit(endpoint or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InputError(f"Overpass endpoint {endpoint!r} is not an http(s) URL — give one "
                             f"such as {DEFAULT_ENDPOINT}")
        if max_retries < 0 or backoff_s < 0 or timeout_s <= 0:
            raise InputError("Overpass client needs max_retries >= 0, backoff_s >= 0 and "
                             "timeout_s > 0")
        self.endpoint = endpoint
        self.timeout_s, self.max_retries, self.backoff_s = int(timeout_s), max_retries, backoff_s
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.session = session or requests.Session()
        self.sleep, self.jitter, self._rng = sleep, jitter, random.Random(seed)

    @property
    def endpoint_label(self) -> str:
        """The endpoint without user info, query or fragment: safe for logs and reports."""
        parts = urlsplit(self.endpoint)
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        host += f":{parts.port}" if parts.port else ""
        return urlunsplit((parts.scheme, host, parts.path, "", ""))

    def _redact(self, text: str) -> str:
        """``text`` without the endpoint's user info or query string (they may hold keys)."""
        parts = urlsplit(self.endpoint)
        for secret in (parts.query, parts.password, parts.username):
            if secret:
                text = text.replace(secret, "***")
        return text

    def fetch_osm(self, lon: float, lat: float, radius_m: float,
                  progress: Progress | None = None) -> OsmData:
        """Query and parse everything method §1 needs around ``(lon, lat)``."""
        payload, data = self._answer(build_query(lon, lat, radius_m, self.timeout_s), progress)
        osm3s = payload.get("osm3s")
        stamp = osm3s.get("timestamp_osm_base", "unknown date") if isinstance(osm3s, dict) else "unknown date"
        data.source = (f"Overpass API {self.endpoint_label} (within {_num(radius_m, 1)} m of "
                       f"lat {_num(lat, 6)}, lon {_num(lon, 6)}; OSM data of {stamp}; "
                       "© OpenStreetMap contributors, ODbL)")
        return data

    def run_query(self, query: str, progress: Progress | None = None) -> dict:
        """The decoded and checked JSON answer to ``query``, from the cache when it holds one."""
        return self._answer(query, progress)[0]

    def cache_file(self, query: str) -> Path | None:
        """Where the answer to ``query`` is cached (``None`` without a cache folder)."""
        if self.cache_dir is None:
            return None
        key = hashlib.sha256((self.endpoint + "\n" + query).encode("utf-8")).hexdigest()
        return self.cache_dir / f"overpass_{key}.json"

    def _answer(self, query: str, progress: Progress | None) -> tuple[dict, OsmData]:
        """The answer and its parse: from the cache, else from the server — cached only once it
        parsed, so that a malformed answer is never replayed."""
        path = self.cache_file(query)
        cached = self._read_cache(path, query, progress)
        if cached is not None:
            return cached
        payload = self._download(query, progress)
        try:
            data = parse_elements(payload)
        except MalformedAnswer as exc:
            raise RemoteServiceError(
                f"Overpass endpoint {self.endpoint_label} sent a malformed answer: {exc}. Nothing was "
                "cached. Check that the URL is an Overpass API interpreter (such as "
                f"{DEFAULT_ENDPOINT}), try again later, or use a local OSM file (.osm / .osm.pbf) as "
                "the road source.") from None
        self._write_cache(path, query, payload, progress)
        return payload, data

    def _download(self, query: str, progress: Progress | None) -> dict:
        attempts = self.max_retries + 1
        last = "no answer"
        answered = False
        for attempt in range(attempts):
            if attempt >= attempts:
                break
            check_cancel(progress, "the Overpass request")
            if progress is not None:
                progress.info(f"Overpass request to {self.endpoint_label} "
                              f"(attempt {attempt + 1} of {attempts})")
            try:
                payload = self._attempt(query, progress)
            except _Retryable as failure:
                last = failure.reason
                answered = answered or failure.heard
                if failure.silent and not answered:
                    attempts = min(attempts, _SILENT_ATTEMPTS)
                log.warning("Overpass %s: %s", self.endpoint_label, last)
                if attempt + 1 < attempts:
                    delay = retry_wait(failure.retry_after, "overpass", self.endpoint_label)
                    if delay is None:
                        delay = self.backoff_s * 2 ** attempt
                        delay *= 1.0 + self.jitter * self._rng.random()
                    self._wait(delay, progress)
                continue
            return payload
        raise RemoteServiceError(
            f"Overpass endpoint {self.endpoint_label} failed after {attempts} attempt(s); last "
            f"answer: {last}. Check the endpoint URL, try again later (public Overpass servers "
            "are often busy), or use a local OSM file (.osm / .osm.pbf) as the road source.")

    def _attempt(self, query: str, progress: Progress | None) -> dict:
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        limits = wait_limits("overpass", self.timeout_s + 30.0)  # the query's own limit, then 30 s
        try:
            with self.session.post(self.endpoint, data={"data": query}, headers=headers,
                                   timeout=limits, stream=True) as response:
                status = response.status_code
                content_type = response.headers.get("Content-Type") or ""
                retry_after = retry_after_seconds(response.headers.get("Retry-After"))
                body = bytearray()
                for chunk in response.iter_content(_CHUNK_BYTES):
                    check_cancel(progress, "the Overpass download")
                    body.extend(chunk)
        except requests.Timeout as exc:  # connected (or not) and silent for the stated limit
            connect = isinstance(exc, requests.ConnectTimeout)
            raise _Retryable(timeout_message("overpass", self.endpoint_label, limits[0] if connect else limits[1],
                                             connect=connect), silent=True, heard=False) from exc
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            raise _Retryable(f"could not reach the endpoint ({type(exc).__name__}: "
                             f"{self._redact(str(exc))[:200]})", heard=False) from exc
        except requests.RequestException as exc:
            raise RemoteServiceError(f"Overpass request to {self.endpoint_label} failed: "
                                     f"{self._redact(str(exc))}") from exc
        if status in RETRYABLE_STATUS:
            raise _Retryable(f"HTTP {status} ({_error_text(bytes(body), 160)})", retry_after)
        if status != 200:
            raise RemoteServiceError(
                f"Overpass endpoint {self.endpoint_label} rejected the query with HTTP {status}: "
                f"{_error_text(bytes(body))}. Check the endpoint URL and the query options.")
        self._refuse_markup(bytes(body), content_type)
        try:
            payload = json.loads(bytes(body).decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise _Retryable(f"HTTP 200 with invalid JSON, {len(body)} bytes (truncated?)") from exc
        if not isinstance(payload, dict):
            return payload  # parse_elements says what is wrong with it
        remark = str(payload.get("remark") or "")
        if _FAILED_REMARK.search(remark):
            raise _Retryable(f"HTTP 200 but the server gave up: {remark[:200]}")
        if remark:
            log.warning("Overpass %s remark: %s", self.endpoint_label, remark[:200])
        return payload

    def _refuse_markup(self, body: bytes, content_type: str) -> None:
        """An HTML page (a network's login page, a proxy's error page, a web site) or an XML
        document answered where Overpass JSON was expected: not worth a retry."""
        head = body[:512].lstrip().lower()
        if "html" in content_type.lower() or head.startswith((b"<!doctype html", b"<html")):
            found = re.search(rb"<title[^>]*>(.*?)</title>", body[:20000], re.IGNORECASE | re.DOTALL)
            title = " ".join(found.group(1).decode("utf-8", "replace").split())[:100] if found else ""
            raise RemoteServiceError(
                f"Overpass endpoint {self.endpoint_label} answered with an HTML page"
                f"{f' titled {title!r}' if title else ''}, not Overpass JSON — check the endpoint URL "
                f"(an Overpass API interpreter such as {DEFAULT_ENDPOINT}), and whether a proxy, a "
                "firewall or the network's login page (captive portal) intercepts the request: open "
                "the URL in a browser to see the page")
        if head.startswith(b"<"):
            raise RemoteServiceError(
                f"Overpass endpoint {self.endpoint_label} answered with XML, not Overpass JSON — check "
                f"the endpoint URL (an Overpass API interpreter such as {DEFAULT_ENDPOINT}) and whether "
                "a proxy rewrites the request")

    def _wait(self, seconds: float, progress: Progress | None) -> None:
        """Sleep in short slices so a cancel request is seen within a fraction of a second."""
        remaining = seconds
        while remaining > 1e-9:
            check_cancel(progress, "the wait before an Overpass retry")
            step = min(_SLEEP_SLICE_S, remaining)
            self.sleep(step)
            remaining -= step
        check_cancel(progress, "the wait before an Overpass retry")

    def _warn(self, message: str, progress: Progress | None) -> None:
        if progress is not None:
            progress.warning(message)
        else:
            log.warning("%s", message)

    def _read_cache(self, path: Path | None, query: str,
                    progress: Progress | None) -> tuple[dict, OsmData] | None:
        """The cached answer and its parse; a cache file that cannot be read, was written for
        another query, or no longer parses (an older version's, a damaged disk's) is deleted."""
        if path is None or not path.exists():
            return None
        try:
            record = read_json(path, "the Overpass cache file", "it is fetched again", expect=None)
            if not isinstance(record, dict) or record.get("query") != query:
                raise MalformedAnswer("it does not hold the answer to this query")
            payload = record.get("payload")
            data = parse_elements(payload)
        except (OSError, UnicodeDecodeError, ValueError, InputError) as exc:
            if isinstance(exc, OSError):
                reason = describe_os_error(exc, path)
            elif isinstance(exc, MalformedAnswer):
                reason = str(exc)
            else:
                reason = "it is not valid JSON — truncated or damaged"
            try:
                state_files.remove_owned(path, _is_cache_entry, "the Overpass cache file")
                done = "it was deleted and the answer is fetched again"
            except (state_files.NotOurs, state_files.NotARegularFile) as refusal:
                done = f"{str(refusal).split(' — ')[0]} — it is left as it is; fetching again"
            except OSError as unlink_error:
                done = f"it could not be deleted ({describe_os_error(unlink_error, path)}); fetching again"
            self._warn(f"the Overpass cache file {path} could not be used ({reason}); {done}", progress)
            return None
        log.info("Overpass answer read from cache %s", path)
        return payload, data

    def _write_cache(self, path: Path | None, query: str, payload: dict,
                     progress: Progress | None) -> None:
        if path is None:
            return
        if state_files.path_kind(path) == "file" and not _is_cache_entry(path):
            return  # a file this cache did not write is never overwritten (said when it was read)
        record = {"endpoint": self.endpoint_label, "query": query, "payload": payload,
                  "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        try:
            write_json(path, record)
        except (OSError, GeoFidelityError) as exc:  # the answer is good: use it, uncached
            detail = describe_os_error(exc, path) if isinstance(exc, OSError) else str(exc)
            self._warn(f"the Overpass answer could not be cached ({detail}); it is used without "
                       "being kept, and a re-run asks the server again", progress)
