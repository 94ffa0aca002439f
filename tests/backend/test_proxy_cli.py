"""The command line behind a proxy (issue 26, item 5): the usual variables steer its Overpass
requests (``HTTP_PROXY`` for http, ``HTTPS_PROXY`` for https), ``NO_PROXY`` is honoured, and a
proxy password reaches the proxy but never stdout, stderr or the run's files.

A loopback forwarding proxy (tests/support/http_proxy.py) sits in front of the fake Overpass
(pytest-httpserver); every run is a real ``python -m geofidelity_plugin`` process.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from http_proxy import LoopbackProxy, road_answer, serve_overpass, without_proxy_variables
from overpass_server import road_requests

CITIES = REPO / "resources" / "data" / "demo_cities.csv"  # Helsinki
PASSWORD = "Pr0xy-S3cret+w0rd"
USER = "carto"
TRACEBACK = "Traceback (most recent call last)"


@pytest.fixture(scope="module")
def answer(helsinki_pbf) -> dict:
    return road_answer(helsinki_pbf)


def select(tmp_path: Path, overpass: str, env: dict, *extra, timeout: int = 240) -> subprocess.CompletedProcess:
    run_env = without_proxy_variables(os.environ)
    run_env.pop("GEOFIDELITY_DEBUG", None)
    run_env.update({"GEOFIDELITY_CACHE_DIR": str(tmp_path / "cache"), **env})
    argv = [sys.executable, "-m", "geofidelity_plugin", "select-segments", "-q", "--cities", str(CITIES),
            "--out", str(tmp_path / "out" / "seg.gpkg"), "--overpass", overpass, "--max-per-city", "2", *extra]
    return subprocess.run(argv, cwd=REPO, env=run_env, capture_output=True, text=True, timeout=timeout)


def written(tmp_path: Path) -> str:
    """Every file the run wrote, as text (binary files decoded leniently)."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in (tmp_path / "out").rglob("*") if p.is_file())


def test_http_proxy_carries_the_overpass_requests(tmp_path, httpserver, answer):
    url = serve_overpass(httpserver, answer)
    with LoopbackProxy() as proxy:
        out = select(tmp_path, url, {"HTTP_PROXY": proxy.url, "HTTPS_PROXY": proxy.url})
    assert out.returncode == 0, out.stderr[-3000:]
    lines = proxy.lines()
    assert f"POST {url}" in lines, lines  # the absolute-URI form: the request went through the proxy
    assert len(lines) == len(httpserver.log) >= road_requests(httpserver) >= 1  # every one of them
    manifest = json.loads((tmp_path / "out" / "seg.manifest.json").read_text(encoding="utf-8"))
    assert manifest["outputs"]["segments"] > 0


def test_https_proxy_is_used_for_an_https_endpoint(tmp_path, httpserver, answer):
    """An https endpoint goes to HTTPS_PROXY as a CONNECT tunnel (the fake speaks plain http, so the
    TLS handshake then fails — with a message, not a traceback)."""
    url = serve_overpass(httpserver, answer).replace("http://", "https://")
    target = url.split("//", 1)[1].split("/", 1)[0]
    with LoopbackProxy() as proxy, LoopbackProxy() as unused:
        out = select(tmp_path, url, {"HTTPS_PROXY": proxy.url, "HTTP_PROXY": unused.url},
                     "--overpass-retries", "0", timeout=120)
    assert proxy.lines() == [f"CONNECT {target}"], proxy.lines()
    assert unused.lines() == []
    assert out.returncode == 2 and TRACEBACK not in out.stderr, out.stderr[-3000:]
    assert "error:" in out.stderr and "Overpass" in out.stderr


def test_no_proxy_sends_the_listed_hosts_direct(tmp_path, httpserver, answer):
    url = serve_overpass(httpserver, answer)
    with LoopbackProxy() as proxy:
        out = select(tmp_path, url, {"HTTP_PROXY": proxy.url, "HTTPS_PROXY": proxy.url,
                                     "NO_PROXY": "example.org,localhost"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert proxy.lines() == []
    assert road_requests(httpserver) >= 1  # it reached the server directly


@pytest.mark.parametrize("jsonl", [False, True], ids=["human", "jsonl"])
def test_the_proxy_password_reaches_the_proxy_and_no_output(tmp_path, httpserver, answer, jsonl):
    url = serve_overpass(httpserver, answer)
    extra = ["--events", "jsonl"] if jsonl else []
    with LoopbackProxy(credentials=f"{USER}:{PASSWORD}") as proxy:
        secret_url = proxy.url_with(f"{USER}:{PASSWORD.replace('+', '%2B')}")
        run_env = without_proxy_variables(os.environ)
        run_env.update({"GEOFIDELITY_CACHE_DIR": str(tmp_path / "cache"), "HTTP_PROXY": secret_url,
                        "HTTPS_PROXY": secret_url})
        argv = [sys.executable, "-m", "geofidelity_plugin", "-v", *extra, "select-segments", "--cities", str(CITIES),
                "--out", str(tmp_path / "out" / "seg.gpkg"), "--overpass", url, "--max-per-city", "2"]
        out = subprocess.run(argv, cwd=REPO, env=run_env, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    assert proxy.seen and all(s.authorized for s in proxy.seen)  # the credentials did reach the proxy
    for secret in (PASSWORD, PASSWORD.replace("+", "%2B")):
        assert secret not in out.stdout and secret not in out.stderr
        assert secret not in written(tmp_path)


def test_a_refused_proxy_password_fails_cleanly_without_showing_it(tmp_path, httpserver, answer):
    url = serve_overpass(httpserver, answer)
    with LoopbackProxy(credentials=f"{USER}:the-right-one") as proxy:
        out = select(tmp_path, url, {"HTTP_PROXY": proxy.url_with(f"{USER}:{PASSWORD}")}, "--overpass-retries", "0")
    assert proxy.seen and not any(s.authorized for s in proxy.seen)
    assert out.returncode == 2 and TRACEBACK not in out.stderr, out.stderr[-3000:]
    assert "407" in out.stderr and PASSWORD not in out.stdout + out.stderr


def test_a_socks_proxy_without_its_packages_is_said_at_the_start(tmp_path):
    """requests needs PySocks for a SOCKS proxy: where it is missing the run says so first."""
    env = without_proxy_variables(os.environ)
    env["ALL_PROXY"] = f"socks5h://{USER}:{PASSWORD}@127.0.0.1:1"
    out = subprocess.run([sys.executable, "-m", "geofidelity_plugin", "--events", "jsonl", "models", "list",
                          "--models-dir", str(tmp_path / "models")], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    events = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    warnings = [e["message"] for e in events if e["event"] == "warning"]
    if importlib.util.find_spec("socks") and importlib.util.find_spec("socksio"):
        assert not any("SOCKS" in w for w in warnings)
    else:
        assert any("SOCKS proxy" in w and "pip install pysocks socksio" in w for w in warnings), warnings
    assert PASSWORD not in out.stdout + out.stderr
