"""QGIS's proxy (Settings › Options › Network) as the environment variables the backend's HTTP
clients read: ``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` (and their
lowercase forms), so that Overpass, Mapillary and the model Hub go where QGIS's own requests go.

The settings are read where QgsNetworkAccessManager reads them (QgsSettings ``proxy/…``):

- proxy off (``proxy/proxyEnabled`` false), an FTP-only proxy, or a proxy without a host: the
  environment QGIS was started with is passed on unchanged;
- ``DefaultProxy`` (the system's proxy): the environment's own variables stay — on Windows and
  macOS Python also reads the system's proxy itself; only the no-proxy URLs are added;
- ``NoProxy``: every proxy variable is removed, the backend connects directly;
- ``HttpProxy`` / ``HttpCachingProxy``: ``http://[user:password@]host:port`` for http and
  https (https travels through it with CONNECT);
- ``Socks5Proxy``: ``socks5h://[user:password@]host:port`` (names resolved by the proxy, as
  Qt does); the backend warns at its start when it lacks the SOCKS packages.

The user and password come from ``proxy/proxyUser`` / ``proxy/proxyPassword`` or, when set,
the authentication configuration ``proxy/authcfg``. QGIS matches its URL lists by prefix,
these variables by host, so each entry of ``proxy/noProxyUrls`` and ``proxy/proxyExcludedUrls``
becomes its host name (a port or a path cannot be expressed there): both lists go without the
proxy. The credentials live only in the child's environment: the runner scrubs them from every
line it shows (core/network.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from geofidelity_plugin.core.network import NO_PROXY_VARIABLES, PROXY_VARIABLES

HTTP_TYPES = ("HttpProxy", "HttpCachingProxy")
_CIDR = re.compile(r"\d{1,3}(\.\d{1,3}){3}/\d{1,2}")


@dataclass
class QgisProxy:
    """QGIS's proxy choice, as read from its settings."""

    enabled: bool = False
    kind: str = ""
    host: str = ""
    port: int = 0
    user: str = ""
    password: str = field(default="", repr=False)
    no_proxy: list[str] = field(default_factory=list)

    def url(self) -> str | None:
        """The proxy as a URL for the environment (with credentials), or None when it has none."""
        if not self.enabled or not self.host or self.kind not in (*HTTP_TYPES, "Socks5Proxy"):
            return None
        scheme = "socks5h" if self.kind == "Socks5Proxy" else "http"
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        auth = ""
        if self.user:
            auth = quote(self.user, safe="") + (":" + quote(self.password, safe="") if self.password else "") + "@"
        return f"{scheme}://{auth}{host}" + (f":{self.port}" if self.port > 0 else "")

    @property
    def secrets(self) -> list[str]:
        return [s for s in (self.password, quote(self.password, safe="")) if s]


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.split(",")
    return [str(v) for v in value]


def _as_bool(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value)


def _as_port(value) -> int:
    try:
        return int(str(value).strip() or 0)
    except ValueError:
        return 0


def read_qgis_proxy(settings=None) -> QgisProxy:
    """QGIS's proxy from ``settings`` (a QgsSettings; the user profile's by default)."""
    if settings is None:
        from qgis.core import QgsSettings

        settings = QgsSettings()
    proxy = QgisProxy(enabled=_as_bool(settings.value("proxy/proxyEnabled", False)),
                      kind=str(settings.value("proxy/proxyType", "") or ""),
                      host=str(settings.value("proxy/proxyHost", "") or "").strip(),
                      port=_as_port(settings.value("proxy/proxyPort", "")),
                      user=str(settings.value("proxy/proxyUser", "") or ""),
                      password=str(settings.value("proxy/proxyPassword", "") or ""))
    for key in ("proxy/noProxyUrls", "proxy/proxyExcludedUrls"):
        proxy.no_proxy += [e.strip() for e in _as_list(settings.value(key, [])) if e and e.strip()]
    authcfg = str(settings.value("proxy/authcfg", "") or "").strip()
    if proxy.enabled and authcfg:
        _credentials_from_authcfg(proxy, authcfg)
    return proxy


def _credentials_from_authcfg(proxy: QgisProxy, authcfg: str) -> None:
    """The user and password of QGIS's authentication configuration ``authcfg``, as QGIS applies
    it to its proxy; left as they are when the configuration cannot be read."""
    try:
        from qgis.core import QgsApplication
        from qgis.PyQt.QtNetwork import QNetworkProxy

        manager = QgsApplication.authManager()
        carrier = QNetworkProxy(QNetworkProxy.ProxyType.HttpProxy, proxy.host or "localhost", proxy.port or 0,
                                proxy.user, proxy.password)
        if manager is None:
            return
        answer = manager.updateNetworkProxy(carrier, authcfg)  # (ok, proxy) in the Python bindings
        ok, updated = answer if isinstance(answer, tuple) else (answer, carrier)
        if ok:
            proxy.user, proxy.password = updated.user() or proxy.user, updated.password() or proxy.password
    except (ImportError, AttributeError, RuntimeError):
        pass


def no_proxy_host(entry: str) -> str:
    """The host of a QGIS no-proxy URL prefix: ``https://tiles.example.org/wms`` → ``tiles.example.org``,
    ``*.corp.example`` → ``.corp.example``."""
    text = entry.strip()
    if _CIDR.fullmatch(text):
        return text  # a network (10.0.0.0/8): requests and huggingface_hub take it as it is
    if "://" in text:
        try:
            text = urlsplit(text).hostname or ""
        except ValueError:
            return ""
    else:
        text = text.split("/", 1)[0]
        if text.startswith("[") and "]" in text:
            text = text[1:text.index("]")]
        elif text.count(":") == 1:
            text = text.split(":", 1)[0]
    if text.startswith("*."):
        text = text[1:]
    return text.strip().lower()


def _merged_no_proxy(env: dict, hosts: list[str]) -> str:
    existing = [h.strip() for n in NO_PROXY_VARIABLES for h in (env.get(n) or "").split(",")]
    return ",".join(dict.fromkeys(h for h in [*existing, *hosts] if h))


def apply_qgis_proxy(env: dict, proxy: QgisProxy | None = None) -> list[str]:
    """Write QGIS's proxy into the child environment ``env`` (in place); returns the secrets the
    runner must keep out of what it shows."""
    proxy = read_qgis_proxy() if proxy is None else proxy
    if not proxy.enabled:
        return []
    if proxy.kind == "NoProxy":
        for name in (*PROXY_VARIABLES, *NO_PROXY_VARIABLES):
            env.pop(name, None)
        return []
    url = proxy.url()
    if url is None and proxy.kind != "DefaultProxy":
        return []  # an FTP-only proxy or no host: nothing the backend's clients could use
    hosts = [h for h in (no_proxy_host(e) for e in proxy.no_proxy) if h]
    if url is not None:
        names = PROXY_VARIABLES if proxy.kind == "Socks5Proxy" else PROXY_VARIABLES[:4]
        for name in names:
            env[name] = url
        if proxy.kind != "Socks5Proxy":  # an inherited SOCKS fallback must not take QGIS's place
            for name in PROXY_VARIABLES[4:]:
                env.pop(name, None)
    if hosts:
        merged = _merged_no_proxy(env, hosts)
        for name in NO_PROXY_VARIABLES:
            env[name] = merged
    return proxy.secrets
