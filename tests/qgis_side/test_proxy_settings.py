"""QGIS's proxy reaches the backend (issue 26, item 5): the proxy set in QGIS's settings
(Settings › Options › Network, stored as QgsSettings ``proxy/…``) becomes the child's proxy
variables, so a loopback proxy sees the backend's Overpass and Hub requests; QGIS's no-proxy
URLs go direct; the proxy password reaches the proxy and never the log, a message or a file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO
from http_proxy import PROXY_NAMES, LoopbackProxy, road_answer, serve_overpass
from hub_server import FakeHub
from recording import RecordingFeedback

from geofidelity_plugin.qgis_side import backend_runner
from geofidelity_plugin.qgis_side.network_settings import QgisProxy, apply_qgis_proxy, no_proxy_host, read_qgis_proxy

CITIES = REPO / "resources" / "data" / "demo_cities.csv"  # Helsinki
PASSWORD = "Qg1s-Pr0xy+pass"
USER = "carto"
REPO_ID = "geofidelity-tests/proxy-model"
KEYS = ("proxyEnabled", "proxyType", "proxyHost", "proxyPort", "proxyUser", "proxyPassword", "proxyExcludedUrls",
        "noProxyUrls", "authcfg")


@pytest.fixture
def qgis_proxy_settings(qgis_app, monkeypatch):
    """Sets QGIS's proxy for one test (``set(**keys)``) and puts the user's settings back after it;
    the machine's own proxy variables are cleared so that only QGIS's count."""
    from qgis.core import QgsSettings

    for name in PROXY_NAMES:
        monkeypatch.delenv(name, raising=False)
    settings = QgsSettings()
    saved = {k: settings.value(f"proxy/{k}") for k in KEYS if settings.contains(f"proxy/{k}")}

    def set_(**values):
        for key in KEYS:
            settings.remove(f"proxy/{key}")
        for key, value in values.items():
            settings.setValue(f"proxy/{key}", value)
        settings.sync()
        return settings

    yield set_
    set_(**saved)


@pytest.fixture(scope="module")
def answer(helsinki_pbf) -> dict:
    return road_answer(helsinki_pbf)


# --- QGIS's settings → the child's variables ---------------------------------------------------

def test_an_http_proxy_with_credentials_and_exclusions(qgis_proxy_settings):
    qgis_proxy_settings(proxyEnabled=True, proxyType="HttpProxy", proxyHost="proxy.example", proxyPort="3128",
                        proxyUser=USER, proxyPassword=PASSWORD,
                        noProxyUrls=["http://localhost:8080/api", "*.corp.example"],
                        proxyExcludedUrls=["https://tiles.example.org/wms", ""])
    proxy = read_qgis_proxy()
    assert PASSWORD not in repr(proxy)
    env = {"NO_PROXY": "intranet", "ALL_PROXY": "socks5://old:1080"}
    secrets = apply_qgis_proxy(env, proxy)
    url = f"http://{USER}:Qg1s-Pr0xy%2Bpass@proxy.example:3128"
    assert {n: env[n] for n in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy")} == dict.fromkeys(
        ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"), url)
    assert "ALL_PROXY" not in env  # an inherited SOCKS fallback does not outrank QGIS's choice
    assert env["NO_PROXY"] == env["no_proxy"] == "intranet,localhost,.corp.example,tiles.example.org"
    assert PASSWORD in secrets and "Qg1s-Pr0xy%2Bpass" in secrets


def test_the_other_proxy_kinds(qgis_proxy_settings):
    inherited = {"HTTPS_PROXY": "http://corp:8080", "NO_PROXY": "intranet"}
    qgis_proxy_settings(proxyEnabled=False, proxyType="HttpProxy", proxyHost="ignored", proxyPort="1")
    env = dict(inherited)
    apply_qgis_proxy(env)
    assert env == inherited  # proxy off in QGIS: the environment QGIS was started with
    qgis_proxy_settings(proxyEnabled=True, proxyType="DefaultProxy", noProxyUrls=["https://geo.example/x"])
    env = dict(inherited)
    apply_qgis_proxy(env)
    assert env["HTTPS_PROXY"] == "http://corp:8080" and env["no_proxy"] == "intranet,geo.example"
    qgis_proxy_settings(proxyEnabled=True, proxyType="NoProxy")
    env = dict(inherited, http_proxy="http://x:1")
    apply_qgis_proxy(env)
    assert not set(env) & set(PROXY_NAMES)
    qgis_proxy_settings(proxyEnabled=True, proxyType="Socks5Proxy", proxyHost="10.1.2.3", proxyPort=1080)
    env = {}
    apply_qgis_proxy(env)
    assert env["ALL_PROXY"] == env["HTTPS_PROXY"] == env["http_proxy"] == "socks5h://10.1.2.3:1080"
    qgis_proxy_settings(proxyEnabled=True, proxyType="FtpCachingProxy", proxyHost="ftp.example", proxyPort=21)
    env = dict(inherited)
    apply_qgis_proxy(env)
    assert env == inherited


@pytest.mark.parametrize("entry, host", [("http://localhost:8080/api", "localhost"),
                                         ("*.corp.example", ".corp.example"), ("Geo.Example:8443/wms", "geo.example"),
                                         ("https://[::1]:9/x", "::1"), ("10.0.0.0/8", "10.0.0.0/8"), ("   ", "")])
def test_no_proxy_hosts(entry, host):
    assert no_proxy_host(entry) == host


def test_the_proxy_url_quotes_credentials_and_brackets_ipv6():
    proxy = QgisProxy(enabled=True, kind="HttpCachingProxy", host="::1", port=3128, user="a b", password="p@ss:")
    assert proxy.url() == "http://a%20b:p%40ss%3A@[::1]:3128"
    assert QgisProxy(enabled=True, kind="HttpProxy", host="").url() is None


def test_backend_environment_carries_qgis_proxy(qgis_proxy_settings):
    qgis_proxy_settings(proxyEnabled=True, proxyType="HttpProxy", proxyHost="127.0.0.1", proxyPort=3128)
    env = backend_runner.backend_environment()
    assert env["HTTPS_PROXY"] == env["http_proxy"] == "http://127.0.0.1:3128"


# --- through the real backend process --------------------------------------------------------

def _select(out: Path, overpass: str, feedback) -> dict:
    import processing

    return processing.run("geofidelity:select_segments", {
        "CITIES": str(CITIES), "SOURCE": 1, "OVERPASS_URL": overpass, "MAX_PER_CITY": 2, "OVERPASS_RETRIES": 0,
        "OUTPUT": str(out)}, feedback=feedback)


def _download(models: Path, feedback) -> dict:
    import processing

    return processing.run("geofidelity:models", {"ACTION": 1, "MODELS": REPO_ID, "MODELS_DIR": str(models),
                                                 "OUTPUT": str(models.parent / "download.csv")}, feedback=feedback)


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A fake Hub serving a small model (a config and an LFS weights file behind a CDN redirect)."""
    folder = tmp_path / "model-source"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "dinov2", "hidden_size": 8}), encoding="utf-8")
    (folder / "model.safetensors").write_bytes(bytes(range(256)) * 64)
    with FakeHub() as fake:
        fake.add_folder(REPO_ID, folder)
        monkeypatch.setenv("HF_ENDPOINT", fake.url)
        monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache"))
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_TOKEN"):
            monkeypatch.delenv(name, raising=False)
        yield fake


def _written(folder: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in folder.rglob("*") if p.is_file())


def test_the_backend_overpass_and_hub_requests_go_through_qgis_proxy(qgis_provider, qgis_proxy_settings, httpserver,
                                                                      answer, hub, tmp_path, monkeypatch):
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    overpass = serve_overpass(httpserver, answer)
    feedback = RecordingFeedback(deadline_s=240)
    with LoopbackProxy(credentials=f"{USER}:{PASSWORD}") as proxy:
        qgis_proxy_settings(proxyEnabled=True, proxyType="HttpProxy", proxyHost="127.0.0.1", proxyPort=proxy.port,
                            proxyUser=USER, proxyPassword=PASSWORD)
        result = _select(tmp_path / "out" / "seg.gpkg", overpass, feedback)
        download = _download(tmp_path / "models", feedback)
    lines = proxy.lines()
    assert result["SEGMENT_COUNT"] > 0 and download["PRESENT"] == 1
    assert f"POST {overpass}" in lines, lines
    assert any(line.startswith(f"GET {hub.url}/api/models/{REPO_ID}/revision/") for line in lines), lines
    assert any(line.startswith("GET http://") and "/cdn/" in line for line in lines), lines  # the weights (redirected)
    assert all(s.authorized for s in proxy.seen)  # QGIS's user and password reached the proxy
    assert len(httpserver.log) == sum(line.startswith("POST ") for line in lines)  # no Overpass request went direct
    shown = "\n".join(str(line) for line in feedback.lines)
    for secret in (PASSWORD, "Qg1s-Pr0xy%2Bpass"):
        assert secret not in shown
        assert secret not in _written(tmp_path / "out") and secret not in _written(tmp_path / "models")


def test_qgis_no_proxy_urls_go_direct(qgis_provider, qgis_proxy_settings, httpserver, answer, hub, tmp_path,
                                      monkeypatch):
    """The Overpass host is on QGIS's no-proxy list: it is reached directly, while the Hub (another
    host) still goes through the proxy."""
    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    overpass = serve_overpass(httpserver, answer)
    assert "//localhost:" in overpass and hub.url.startswith("http://127.0.0.1:")
    feedback = RecordingFeedback(deadline_s=240)
    with LoopbackProxy() as proxy:
        qgis_proxy_settings(proxyEnabled=True, proxyType="HttpProxy", proxyHost="127.0.0.1", proxyPort=proxy.port,
                            noProxyUrls=[overpass.rsplit("/api/", 1)[0] + "/"])
        result = _select(tmp_path / "out" / "seg.gpkg", overpass, feedback)
        _download(tmp_path / "models", feedback)
    lines = proxy.lines()
    assert result["SEGMENT_COUNT"] > 0 and len(httpserver.log) >= 1
    assert not any("localhost" in line for line in lines), lines
    assert any(hub.url in line for line in lines), lines


def test_a_refused_proxy_password_is_never_shown(qgis_provider, qgis_proxy_settings, httpserver, answer, tmp_path,
                                                 monkeypatch):
    from qgis.core import QgsProcessingException

    monkeypatch.setenv("GEOFIDELITY_CACHE_DIR", str(tmp_path / "cache"))
    overpass = serve_overpass(httpserver, answer)
    feedback = RecordingFeedback(deadline_s=240)
    with LoopbackProxy(credentials=f"{USER}:another-one") as proxy:
        qgis_proxy_settings(proxyEnabled=True, proxyType="HttpProxy", proxyHost="127.0.0.1", proxyPort=proxy.port,
                            proxyUser=USER, proxyPassword=PASSWORD)
        with pytest.raises(QgsProcessingException) as failure:
            _select(tmp_path / "out" / "seg.gpkg", overpass, feedback)
    assert proxy.seen and not any(s.authorized for s in proxy.seen)
    assert "407" in str(failure.value) and PASSWORD not in str(failure.value)
    assert PASSWORD not in "\n".join(str(line) for line in feedback.lines)
