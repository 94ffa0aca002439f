"""How the backend reaches the network: the proxy it was handed and the certificates it trusts.

QGIS talks to the web through its own network settings and the operating system's certificates.
The backend is a plain Python process, so it gets the same two things another way:

- the proxy arrives as the usual variables (``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY``,
  ``NO_PROXY`` and their lowercase forms), written by the plugin from QGIS's settings or set by
  the user of the command line; ``requests`` and ``huggingface_hub`` read them themselves;
- the certificates: with the ``truststore`` package importable, :func:`prepare` makes every
  HTTPS connection check servers against the system's store instead of certifi's bundle, so
  that a company's own root (a TLS-inspecting proxy) is trusted as QGIS trusts it.
  ``GEOFIDELITY_TRUSTSTORE``: ``auto`` (default: when installed), ``on`` (warn when it is
  missing), ``off`` (certifi's bundle, as plain ``requests`` does).

A proxy's ``user:password@`` is a secret: :func:`scrub` removes it from any text before it is
shown. Every wait on a server has a stated limit: :data:`ENDPOINTS` gives each service its
connect and read limits (:func:`wait_limits`, :func:`timeout_message`), and a server's
``Retry-After`` is obeyed up to ``GEOFIDELITY_RETRY_AFTER_MAX`` (default 300 s); above it the run
stops with a message (``GEOFIDELITY_RETRY_AFTER_OVER=stop``, the default) or waits the cap
(``=wait``) — :func:`retry_after_seconds`, :func:`retry_wait`. Standard library only (``truststore`` is imported when asked for); no qgis.
"""
from __future__ import annotations

import email.utils
import importlib.util
import os
import sys
import time
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from .errors import RemoteServiceError
from .secrets import scrub  # noqa: F401 (the network's messages use it; public here too)

TRUSTSTORE_VARIABLE = "GEOFIDELITY_TRUSTSTORE"
TRUST_MODES = ("auto", "on", "off")
#: the variables a proxy reaches Python's HTTP clients by, most specific first
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")
NO_PROXY_VARIABLES = ("NO_PROXY", "no_proxy")
SOCKS_HINT = ("install them into the backend environment (pip install pysocks socksio) or choose an HTTP "
              "proxy in QGIS (Settings › Options › Network)")

#: what :func:`prepare` found, for run records (never a credential)
STATE: dict = {}


def proxy_secrets(environ=None) -> list[str]:
    """The passwords (raw and %-encoded) in the proxy variables of ``environ``, and each whole
    ``user:password``. A user name alone is not taken out of every text (a user called "data"
    would blank a common word); URLs lose their ``user:password@`` anyway (:func:`scrub`)."""
    environ = os.environ if environ is None else environ
    found: list[str] = []
    for name in PROXY_VARIABLES:
        value = environ.get(name) or ""
        parts = urlsplit(value if "://" in value else "http://" + value)
        if "@" not in parts.netloc:
            continue
        userinfo = parts.netloc.rsplit("@", 1)[0]
        found += [userinfo, unquote(userinfo)]
        if ":" in userinfo:
            password = userinfo.split(":", 1)[1]
            found += [password, unquote(password)]
    return [s for s in dict.fromkeys(found) if s]


def proxy_summary(environ=None) -> dict:
    """The proxy variables that are set, without their credentials (for logs and manifests)."""
    environ = os.environ if environ is None else environ
    return {name: scrub(environ[name]) for name in (*PROXY_VARIABLES, *NO_PROXY_VARIABLES) if environ.get(name)}


def trust_mode(environ=None) -> tuple[str, str | None]:
    """The ``GEOFIDELITY_TRUSTSTORE`` choice and a warning when its value is not one of ours."""
    environ = os.environ if environ is None else environ
    raw = (environ.get(TRUSTSTORE_VARIABLE) or "auto").strip().lower()
    aliases = {"1": "on", "true": "on", "yes": "on", "0": "off", "false": "off", "no": "off", "": "auto"}
    mode = aliases.get(raw, raw)
    if mode in TRUST_MODES:
        return mode, None
    return "auto", (f"{TRUSTSTORE_VARIABLE}={raw!r} is not one of auto, on, off — using auto; set it to one "
                    "of those three")


def use_system_certificates(mode: str) -> tuple[str, str | None]:
    """Verify HTTPS servers against the operating system's certificates when ``mode`` allows and
    truststore is importable; returns the state for the record and a warning, if any."""
    if mode == "off":
        return "off (certifi's bundle)", None
    try:
        import truststore
    except ImportError:
        if mode == "on":
            return "missing", (f"{TRUSTSTORE_VARIABLE}=on but the truststore package is not installed in this "
                               f"backend ({sys.prefix}), so HTTPS uses certifi's bundle, not the system's "
                               "certificates — install it (pip install truststore) or set "
                               f"{TRUSTSTORE_VARIABLE}=auto")
        return "not installed (certifi's bundle)", None
    try:
        truststore.inject_into_ssl()
    except Exception as exc:  # noqa: BLE001 — an unusual ssl build: keep certifi, say so
        return "failed (certifi's bundle)", (f"the system's certificates could not be used ({exc}); HTTPS uses "
                                             f"certifi's bundle — set {TRUSTSTORE_VARIABLE}=off to silence this, "
                                             "or update truststore")
    return f"system store (truststore {getattr(truststore, '__version__', '?')})", None


def socks_warning(environ=None) -> str | None:
    """A warning when a proxy variable names a SOCKS proxy this Python cannot speak: requests
    needs PySocks (Overpass, Mapillary) and huggingface_hub needs socksio (model downloads)."""
    environ = os.environ if environ is None else environ
    socks = [environ[n] for n in PROXY_VARIABLES if (environ.get(n) or "").lower().startswith("socks")]
    if not socks:
        return None
    missing = [label for module, label in (("socks", "PySocks"), ("socksio", "socksio"))
               if importlib.util.find_spec(module) is None]
    if not missing:
        return None
    return (f"the proxy {scrub(socks[0])} is a SOCKS proxy and this backend lacks {' and '.join(missing)}, so "
            "its web requests (Overpass, Mapillary, model downloads) will fail — " + SOCKS_HINT)


def prepare(environ=None) -> list[str]:
    """Set the backend's network up at its start (trust store) and return the warnings to show.
    Records what it found in :data:`STATE`."""
    environ = os.environ if environ is None else environ
    warnings: list[str] = []
    mode, bad_mode = trust_mode(environ)
    state, trust_warning = use_system_certificates(mode)
    socks = socks_warning(environ)
    warnings += [w for w in (bad_mode, trust_warning, socks) if w]
    STATE.clear()
    STATE.update(certificates=state, truststore_mode=mode, proxy=proxy_summary(environ))
    return warnings


def facts() -> dict:
    """What a run manifest records of the network set-up (no credentials)."""
    return dict(STATE) if STATE else {"certificates": "not prepared", "proxy": proxy_summary()}


def prepare_and_report() -> None:
    """:func:`prepare`, its warnings shown as the run's other warnings are: protocol lines for a
    driver, ``warning: …`` on stderr for people."""
    from . import events

    for message in prepare():
        if events.active() is not None:
            events.emit("warning", message=message)
        else:
            print(f"warning: {message}", file=sys.stderr)


# -- waits: how long each remote service is given, in one table ------------------------------
# A server that accepts the connection and then says nothing must never hold a run: every
# request has a connect and a read limit from this table, and the message when one is hit names
# the limit and how to change it. A server's ``Retry-After`` is obeyed up to a stated cap.

@dataclass(frozen=True)
class Endpoint:
    """How long GeoFidelity waits for one remote service: ``connect_s`` to open a connection,
    ``read_s`` for each part of an answer (the longest silence), and how a user changes it."""

    label: str
    connect_s: float
    read_s: float
    setting: str


HUB_TIMEOUT_VARIABLE = "GEOFIDELITY_HUB_TIMEOUT"
OVERPASS_TIMEOUT_VARIABLE = "GEOFIDELITY_OVERPASS_TIMEOUT"
_MAPILLARY_SETTING = "--timeout SECONDS (in QGIS: the seconds to wait for an answer)"

#: every endpoint the backend reaches; a variable named in ``setting`` overrides ``read_s``
ENDPOINTS: dict[str, Endpoint] = {
    "hub": Endpoint("the model hub", 10.0, 30.0, f"{HUB_TIMEOUT_VARIABLE}=SECONDS"),
    "mapillary": Endpoint("the Mapillary API", 10.0, 30.0, _MAPILLARY_SETTING),
    "mapillary-images": Endpoint("Mapillary's image server", 10.0, 30.0, _MAPILLARY_SETTING),
    # the query's own time limit (180 s) plus 30 s: Overpass says nothing while a query runs
    "overpass": Endpoint("the Overpass API", 15.0, 210.0, f"{OVERPASS_TIMEOUT_VARIABLE}=SECONDS"),
}
_VARIABLES = {"hub": HUB_TIMEOUT_VARIABLE, "overpass": OVERPASS_TIMEOUT_VARIABLE}


def wait_limits(service: str, read_s: float | None = None, environ=None) -> tuple[float, float]:
    """``(connect, read)`` seconds for ``service``: its variable when set (a positive number),
    else ``read_s`` when the caller has its own option, else the table's. The connect limit is
    never longer than the read limit."""
    environ = os.environ if environ is None else environ
    endpoint = ENDPOINTS[service]
    variable = _VARIABLES.get(service)
    raw = (environ.get(variable) or "").strip() if variable else ""
    if raw:
        try:
            read_s = float(raw)
        except ValueError:
            read_s = -1.0
        if not (0 < read_s < float("inf")):
            from .errors import InputError

            raise InputError(f"{variable}={raw!r} is not a number of seconds — set it to a positive number "
                             f"(the default is {endpoint.read_s:g}) or unset it")
    read = float(read_s) if read_s is not None else endpoint.read_s
    return min(endpoint.connect_s, read), read


def timeout_message(service: str, where: str, seconds: float, doing: str = "", connect: bool = False) -> str:
    """What a user reads when ``service`` at ``where`` stayed silent for ``seconds``."""
    endpoint = ENDPOINTS[service]
    what = "could not be connected to" if connect else "did not answer"
    return (f"{endpoint.label} at {where} {what} within {seconds:g} s{doing} — check the network and any proxy "
            f"(HTTPS_PROXY), try again later, or allow it longer with {endpoint.setting}")


RETRY_AFTER_MAX_VARIABLE = "GEOFIDELITY_RETRY_AFTER_MAX"
RETRY_AFTER_OVER_VARIABLE = "GEOFIDELITY_RETRY_AFTER_OVER"
#: the longest wait a server's ``Retry-After`` (or rate-limit reset) gets, in seconds
RETRY_AFTER_MAX_S = 300.0
#: what happens when a server asks for more: ``stop`` (default: say so at once) or ``wait`` (the cap)
RETRY_AFTER_CHOICES = ("stop", "wait")


class WaitTooLong(RemoteServiceError):
    """A server asked to be left alone for longer than GeoFidelity waits (``Retry-After``)."""


def retry_after_seconds(header: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3), a
    date in the past being 0; ``None`` when absent or unreadable. Not capped: :func:`retry_wait`
    applies the cap, so that its message can name what the server asked for."""
    if not header:
        return None
    text = str(header).strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            stamp = email.utils.parsedate_to_datetime(text).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        seconds = stamp - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return max(seconds, 0.0)


def retry_after_policy(environ=None) -> tuple[float, str]:
    """The cap on a server's demanded wait and what happens above it, from
    ``GEOFIDELITY_RETRY_AFTER_MAX`` (seconds) and ``GEOFIDELITY_RETRY_AFTER_OVER`` (stop | wait)."""
    from .errors import InputError

    environ = os.environ if environ is None else environ
    raw = (environ.get(RETRY_AFTER_MAX_VARIABLE) or "").strip()
    cap = RETRY_AFTER_MAX_S
    if raw:
        try:
            cap = float(raw)
        except ValueError:
            cap = -1.0
        if not 0 <= cap < float("inf"):
            raise InputError(f"{RETRY_AFTER_MAX_VARIABLE}={raw!r} is not a number of seconds — set it to a "
                             f"non-negative number (the default is {RETRY_AFTER_MAX_S:g}) or unset it")
    over = (environ.get(RETRY_AFTER_OVER_VARIABLE) or "stop").strip().lower()
    if over not in RETRY_AFTER_CHOICES:
        raise InputError(f"{RETRY_AFTER_OVER_VARIABLE}={over!r} is not one of {', '.join(RETRY_AFTER_CHOICES)} — "
                         "stop: end the run with a message when a server asks for a longer wait than "
                         f"{RETRY_AFTER_MAX_VARIABLE}; wait: wait that long, then try again")
    return cap, over


def retry_wait(demanded: float | None, service: str, where: str, environ=None) -> float | None:
    """The wait before a retry that a server asked for with ``Retry-After`` (``demanded``
    seconds): as asked up to the cap; above it, :class:`WaitTooLong` (``stop``) or the cap
    (``wait``). ``None`` when the server asked nothing (the caller's back-off applies)."""
    if demanded is None:
        return None
    cap, over = retry_after_policy(environ)
    if demanded <= cap:
        return demanded
    if over == "wait":
        return cap
    asked = f"{demanded:.0f} s" + (f" ({demanded / 3600:.1f} h)" if demanded >= 3600 else "")
    raise WaitTooLong(f"{ENDPOINTS[service].label} at {where} asks to wait {asked} before the next request "
                      f"(Retry-After), longer than the {cap:g} s GeoFidelity waits — run again later, or set "
                      f"{RETRY_AFTER_OVER_VARIABLE}=wait (wait {cap:g} s, then try again) or raise "
                      f"{RETRY_AFTER_MAX_VARIABLE}")
