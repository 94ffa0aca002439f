"""Issue 27, "secrets scrubbed from every message": a token or a proxy password this process holds
never reaches stdout or stderr, whatever quotes it — here a path that holds the token, echoed back
by the message about it (human and --events jsonl), and a proxy URL with its password."""
from __future__ import annotations

import json

import pytest

from faultkit import assert_fails_cleanly, run_cli

pytestmark = pytest.mark.fault

TOKEN = "MLY|4242424242|0fe2a7c1d3b9"


@pytest.mark.parametrize("mode", ["human", "jsonl"])
def test_a_token_quoted_by_a_message_is_taken_out(tmp_path, mode):
    cities = tmp_path / f"cities-{TOKEN}.csv"
    events = ["--events", "jsonl"] if mode == "jsonl" else []
    out = run_cli(*events, "select-segments", "--cities", cities, "--osm", tmp_path / "none.osm.pbf", "--out",
                  tmp_path / "s.gpkg", env={"MAPILLARY_ACCESS_TOKEN": TOKEN})
    assert TOKEN not in out.stdout + out.stderr and "0fe2a7c1d3b9" not in out.stdout + out.stderr
    if mode == "human":
        assert_fails_cleanly(out, "cities-***.csv")
    else:
        final = json.loads(out.stdout.splitlines()[-1])
        assert final["event"] == "error" and "cities-***.csv" in final["message"]


def test_a_proxy_password_in_the_environment_is_taken_out(tmp_path):
    password = "pr0xy-pa55"
    out = run_cli("select-segments", "--cities", tmp_path / f"{password}.csv", "--osm", tmp_path / "x.osm.pbf",
                  "--out", tmp_path / "s.gpkg", env={"HTTPS_PROXY": f"http://ana:{password}@127.0.0.1:9"})
    assert password not in out.stdout + out.stderr
    assert_fails_cleanly(out, "***.csv")


def test_scrub_and_known_secrets():
    from geofidelity_plugin.core.secrets import known_secrets, scrub

    environ = {"HF_TOKEN": "hf_abcdefghij", "MY_SERVICE_API_KEY": "k-1234567", "HOME": "/root",
               "https_proxy": "http://bob:s%40cret@proxy:3128", "SHORT_TOKEN": "ab"}
    found = known_secrets(environ)
    assert {"hf_abcdefghij", "k-1234567", "s%40cret", "s@cret"} <= set(found) and "/root" not in found
    assert "bob" not in found  # a user name is not blanked everywhere: URLs lose their user:password@ anyway
    assert "ab" not in found
    text = "GET http://bob:s%40cret@proxy:3128 failed for hf_abcdefghij"
    assert scrub(text, found) == "GET http://***@proxy:3128 failed for ***"
