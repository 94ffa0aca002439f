"""The backend's network set-up (core/network.py): credentials scrubbed from any text, the
system's certificates through truststore (GEOFIDELITY_TRUSTSTORE=auto|on|off), a SOCKS proxy
it cannot speak said at once."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from conftest import REPO
from geofidelity_plugin.core import network


def test_scrub_removes_user_and_password_from_every_url():
    text = ("could not reach http://alice:s3cr3t@proxy.example:3128 via socks5h://bob:pw%40x@10.0.0.1:1080 "
            "nor https://token@host/path")
    clean = network.scrub(text)
    assert "s3cr3t" not in clean and "pw%40x" not in clean and "alice" not in clean and "token@" not in clean
    assert "http://***@proxy.example:3128" in clean and "socks5h://***@10.0.0.1:1080" in clean
    assert network.scrub("no URL here, user@example.org writes") == "no URL here, user@example.org writes"


def test_scrub_removes_the_given_secrets_raw_and_encoded():
    secrets = network.proxy_secrets({"HTTPS_PROXY": "http://carto:p%2Bss-w0rd@127.0.0.1:8080"})
    assert "p+ss-w0rd" in secrets and "p%2Bss-w0rd" in secrets
    assert network.scrub("407 for p+ss-w0rd and p%2Bss-w0rd", secrets) == "407 for *** and ***"


def test_proxy_summary_shows_the_proxy_without_its_credentials():
    summary = network.proxy_summary({"HTTP_PROXY": "http://u:secret1@p:3128", "NO_PROXY": "localhost,.corp",
                                     "PATH": "/bin"})
    assert summary == {"HTTP_PROXY": "http://***@p:3128", "NO_PROXY": "localhost,.corp"}


@pytest.mark.parametrize("raw, mode, warned", [(None, "auto", False), ("ON", "on", False), ("0", "off", False),
                                               ("sometimes", "auto", True)])
def test_trust_mode(raw, mode, warned):
    env = {} if raw is None else {network.TRUSTSTORE_VARIABLE: raw}
    got, warning = network.trust_mode(env)
    assert got == mode and (warning is not None) == warned
    if warned:
        assert "auto, on, off" in warning and " — " in warning


def _prepared(env_extra: dict) -> dict:
    """What prepare() did in a fresh backend Python (the injection changes ssl for the process)."""
    code = ("import json, ssl; from geofidelity_plugin.core import network; w = network.prepare(); "
            "print(json.dumps({'warnings': w, 'facts': network.facts(), 'context': ssl.SSLContext.__module__}))")
    env = {k: v for k, v in os.environ.items() if k != network.TRUSTSTORE_VARIABLE}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(importlib.util.find_spec("truststore") is None, reason="truststore is not installed here")
@pytest.mark.parametrize("mode", ["", "auto", "on"])
def test_truststore_is_injected_when_installed(mode):
    got = _prepared({network.TRUSTSTORE_VARIABLE: mode} if mode else {})
    assert got["context"].startswith("truststore") and got["warnings"] == []
    assert got["facts"]["certificates"].startswith("system store (truststore ")


def test_truststore_off_keeps_certifi():
    got = _prepared({network.TRUSTSTORE_VARIABLE: "off"})
    assert got["context"] == "ssl" and got["facts"]["certificates"].startswith("off")


def test_truststore_on_but_missing_warns(monkeypatch):
    monkeypatch.setitem(sys.modules, "truststore", None)  # import fails as if it were not installed
    state, warning = network.use_system_certificates("on")
    assert state == "missing" and "pip install truststore" in warning and " — " in warning
    assert network.use_system_certificates("auto") == ("not installed (certifi's bundle)", None)


def test_a_socks_proxy_without_its_packages_is_named(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in ("socks", "socksio") else 1)
    warning = network.socks_warning({"ALL_PROXY": "socks5h://u:hidden99@127.0.0.1:1080"})
    assert "PySocks and socksio" in warning and "hidden99" not in warning and "socks5h://***@" in warning
    assert network.socks_warning({"HTTPS_PROXY": "http://127.0.0.1:3128"}) is None
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: 1)
    assert network.socks_warning({"ALL_PROXY": "socks5h://127.0.0.1:1080"}) is None


def test_no_http_client_of_the_core_turns_the_environment_off():
    """requests reads the proxy variables only while ``trust_env`` is on and no ``proxies`` are given:
    no session of the core may switch that off."""
    offenders = []
    for folder in ("core", "backend"):
        for path in (REPO / "geofidelity_plugin" / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            offenders += [f"{path.relative_to(REPO)}: {needle}" for needle in ("trust_env", "proxies=")
                          if needle in text]
    assert offenders == []
