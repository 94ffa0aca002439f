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
shown. Standard library only (``truststore`` is imported when asked for); no qgis.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from urllib.parse import unquote, urlsplit

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
