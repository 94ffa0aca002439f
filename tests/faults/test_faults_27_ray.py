"""Issue 27, cases 4 and 6: a Ray address nobody answers at is a message within seconds (it was
more than 100 s of Ray's "Failed to connect to GCS" lines and no error), and the credentials an
address carries never reach a message (the quoted Ray exception printed the password twice)."""
from __future__ import annotations

import socket
import time

import pytest

from backends.support import make_evaluable
from faultkit import assert_fails_cleanly, assert_qgis_fails_cleanly, run_cli, run_qgis

pytestmark = pytest.mark.fault


def _closed_port() -> int:
    with socket.socket() as s:  # bound and closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def evaluable(tmp_path_factory):
    return make_evaluable(tmp_path_factory.mktemp("ray-store"), per_city=1)


def test_an_address_nobody_answers_at_fails_fast(evaluable, tmp_path):
    store, model = evaluable
    address = f"127.0.0.1:{_closed_port()}"
    began = time.monotonic()
    out = run_cli("evaluate", "--store", store, "--feature-model", model, "--out", tmp_path / "eval", "--bootstrap",
                  "20", "--ray", address, env={"GEOFIDELITY_RAY_CONNECT_TIMEOUT_S": "5"}, timeout=120)
    took = time.monotonic() - began
    message = assert_fails_cleanly(out, f"cannot reach the Ray cluster at {address}", "connection refused",
                                   "or use --ray local")
    assert "Failed to connect to GCS" not in out.stdout + out.stderr
    assert took < 60, f"{took:.0f} s before the message"
    assert not (tmp_path / "eval").exists()
    assert message.count(" — ") == 1


def test_the_same_from_qgis(evaluable, qgis_env, tmp_path):
    """QGIS's *Ray cluster* parameter (it was 300 s of retries there)."""
    store, model = evaluable
    address = f"127.0.0.1:{_closed_port()}"
    began = time.monotonic()
    out = run_qgis(dict(qgis_env, GEOFIDELITY_RAY_CONNECT_TIMEOUT_S="5"), "evaluate", STORE=store,
                   FEATURE_MODEL=model, OUTPUT_FOLDER=tmp_path / "eval", BOOTSTRAP=20, RAY_CLUSTER=address)
    assert_qgis_fails_cleanly(out, f"cannot reach the Ray cluster at {address}")
    assert time.monotonic() - began < 90 and not (tmp_path / "eval").exists()


def test_credentials_in_the_address_never_reach_a_message(evaluable, tmp_path):
    store, model = evaluable
    secret = "s3cr3tpw"
    address = f"http://user:{secret}@127.0.0.1:{_closed_port()}"
    out = run_cli("evaluate", "--store", store, "--feature-model", model, "--out", tmp_path / "eval",
                  "--bootstrap", "20", "--ray", address, env={"GEOFIDELITY_RAY_CONNECT_TIMEOUT_S": "5"}, timeout=120)
    assert_fails_cleanly(out, "cannot reach the Ray cluster at http://127.0.0.1:")
    assert secret not in out.stdout + out.stderr and "user:" not in out.stderr


def test_a_quoted_ray_exception_loses_the_credentials():
    from geofidelity_plugin.core.scaleout.cluster import _connect_failure, host_and_port, without_secrets

    address = "ray://ana:pw-42@head.example:10001"
    text = _connect_failure(address, ConnectionError(f"Failed to connect to {address} after 5 tries (ana:pw-42)"))
    assert "pw-42" not in text and "ray://head.example:10001" in text
    assert without_secrets("token pw-42 in ana:pw-42", address) == "token *** in ***"
    assert host_and_port(address) == ("head.example", 10001)
    assert host_and_port("auto") is None and host_and_port("10.0.0.5:6379") == ("10.0.0.5", 6379)
