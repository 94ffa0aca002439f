"""What a failed Mapillary request means, in words a user can act on.

A refused connection and a rate limit both end in "failed after every retry", but they need
different fixes: a wrong URL, a missing network or a proxy for the first, patience for the
second. Failures are sorted into kinds here, and each kind has its own advice.
"""
from __future__ import annotations

import json

import requests

from geofidelity_plugin.core.errors import RemoteServiceError
from geofidelity_plugin.core.network import ENDPOINTS

#: How many times an API that was never reached in this run is tried: a wrong URL or a missing
#: network does not heal within the back-off, so the user hears about it after seconds.
UNREACHED_ATTEMPTS = 2

_UNRESOLVED = ("name or service not known", "nodename nor servname", "failed to resolve",
               "getaddrinfo failed", "nameresolutionerror", "temporary failure in name resolution")
_NO_ROUTE = ("failed to establish a new connection", "network is unreachable", "no route to host",
             "newconnectionerror")


def connection_failure(exc: requests.RequestException, timeout_s: float) -> tuple[str, str]:
    """``(kind, detail)`` of a request that got no complete answer. Kinds: ``unreachable`` (no
    connection could be made), ``timeout`` (connected, no answer in time), ``cut`` (the answer
    broke off)."""
    low = str(exc).lower()
    if isinstance(exc, requests.exceptions.ProxyError):
        return "unreachable", "the proxy refused or failed the connection"
    if isinstance(exc, requests.exceptions.SSLError):
        return "unreachable", "the TLS handshake failed (a proxy that intercepts HTTPS?)"
    if isinstance(exc, requests.ConnectTimeout):
        return "unreachable", "the connection timed out"
    if isinstance(exc, requests.Timeout):
        return "timeout", f"no answer within {timeout_s:g} s"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return "cut", "the answer broke off"
    if "refused" in low:
        return "unreachable", "connection refused"
    if any(marker in low for marker in _UNRESOLVED):
        return "unreachable", "host name not found"
    if any(marker in low for marker in _NO_ROUTE):
        return "unreachable", "no connection could be made"
    return "cut", "the connection broke off"


_NETWORK_FIX = ("check the API base URL (--base-url on the command line, 'Graph API base URL' in "
                "QGIS), the network connection and any proxy settings (HTTPS_PROXY / HTTP_PROXY)")


def api_failure_message(kind: str, base_url: str, what: str, last: str, attempts: int) -> str:
    """The message once every attempt of an API request failed with ``kind`` (see
    :func:`connection_failure`, plus ``rate``, ``server`` and ``json``)."""
    where, tries = f"the Mapillary API at {base_url}", f"{attempts} attempt(s)"
    if kind == "unreachable":
        return f"{where} could not be reached: the {what} failed after {tries} ({last}) — {_NETWORK_FIX}"
    if kind == "timeout":
        return (f"{where} did not answer the {what} in time ({tries}, {last}) — check the network "
                f"and the proxy settings, try again later, or allow it longer with {ENDPOINTS['mapillary'].setting}")
    if kind == "cut":
        return (f"the connection to {where} broke off during the {what} ({tries}, {last}) — check "
                "the network and the proxy settings")
    if kind == "rate":
        return (f"{where} kept answering that the request limit is reached ({last}; {tries}) — "
                "wait a while and run again, or lower the request rate (API requests per second)")
    if kind == "json":
        return (f"{where} answered the {what} with incomplete JSON ({last}; {tries}) — check the "
                "API URL, the network, or a proxy that alters answers")
    return (f"{where} answered the {what} with an error in all {tries} ({last}) — the service has "
            "a problem; try again later")


def graph_error(body: bytes) -> dict:
    """The ``error`` object of a Graph API error answer, or ``{}``."""
    try:
        error = json.loads(body.decode("utf-8")).get("error")
    except (UnicodeDecodeError, ValueError, AttributeError):
        return {}
    return error if isinstance(error, dict) else {}


class TokenRejected(RemoteServiceError):
    """Mapillary refused the access token (OAuthException 190 / HTTP 401 / 403); never retried."""


class ThumbnailFailed(Exception):
    """One image could not be fetched; its reason goes into :attr:`DownloadResult.failed`, its
    kind (:mod:`.breaker`: ``html``, ``truncated``, ``forbidden``, …) into ``failed_kinds``."""

    def __init__(self, reason: str, kind: str = "other"):
        super().__init__(reason)
        self.kind = kind
