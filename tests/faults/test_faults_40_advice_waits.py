"""Issue 40, cases 6 and 7: no advice that lowers safety, and every wait has a stated limit.

Case 6 — a model folder whose only weights are a pickle that names code to run: every loader
(``mfp``'s ViT, ``evaluate``'s DINOv2) refuses it before unpickling anything
(core/models/pickle_weights.py, inside ``local_model``), exit 2, and no message repeats torch's
suggestion to switch ``weights_only`` off. A pickle of tensors only (how the paper's DINO ViT is
published) still loads through torch's weights-only loader. The filter that takes such advice
out of any quoted text (core/secrets.strip_unsafe_advice) is run over generated hostile and benign sentences.

Case 7 — a server that accepts the connection and never answers: the model hub (the real
``models download``), the Mapillary API and Overpass (their real clients) end within the stated
limit, named in the message with the setting that changes it; a ``Retry-After: 86400`` is never
obeyed as given (core/network.py ``retry_wait``): the run stops at once naming the demand and
the cap, or, with ``GEOFIDELITY_RETRY_AFTER_OVER=wait``, no recorded sleep exceeds the cap.
"""
from __future__ import annotations

import ast
import itertools
import json
import os
import pickle
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import REPO
from faultkit import assert_fails_cleanly, no_traceback, run_cli

pytestmark = pytest.mark.fault

UNSAFE_ECHOES = ("weights_only=False", "weights_only` set to `False`", "set to `False` will likely succeed",
                 "add_safe_globals", "This is a bug")


class _Boom:
    """A pickled object whose loading calls a function: what a hostile checkpoint carries."""

    def __reduce__(self):
        return (os.getcwd, ())


def _pickle_only(folder: Path, tiny: Path, hostile: bool) -> Path:
    """``tiny``'s model with its safetensors weights replaced by a ``pytorch_model.bin``."""
    import torch
    from safetensors.torch import load_file

    shutil.copytree(tiny, folder)
    state = load_file(folder / "model.safetensors")
    (folder / "model.safetensors").unlink()
    if hostile:
        state["extra"] = _Boom()
    torch.save(state, folder / "pytorch_model.bin")
    return folder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    from tiny_models import make_tiny_dinov2

    return make_tiny_dinov2(tmp_path_factory.mktemp("tiny") / "dinov2")


@pytest.fixture(scope="module")
def hostile(tiny, tmp_path_factory) -> Path:
    return _pickle_only(tmp_path_factory.mktemp("hostile") / "model", tiny, hostile=True)


@pytest.fixture(scope="module")
def tensors_only(tiny, tmp_path_factory) -> Path:
    return _pickle_only(tmp_path_factory.mktemp("plain") / "model", tiny, hostile=False)


@pytest.fixture(scope="module")
def image_pairs(tmp_path_factory) -> Path:
    import numpy as np
    from PIL import Image

    root = tmp_path_factory.mktemp("pairs")
    for name in ("gen", "ref"):
        (root / name).mkdir()
        for i in range(2):
            pixels = np.random.default_rng(i).integers(0, 255, (40, 40, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(root / name / f"{i}.png")
    return root


def _mfp(pairs: Path, model: Path, out: Path, *extra):
    return run_cli(*extra, "mfp", "--generated-folder", pairs / "gen", "--reference-folder", pairs / "ref",
                   "--model", model, "--device", "cpu", "--out", out, "-q",
                   env={"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})


def _no_unsafe_echo(text: str) -> None:
    for echo in UNSAFE_ECHOES:
        assert echo not in text, f"{echo!r} reached the user:\n{text[-2000:]}"


# ======================================================================== case 6: the loaders
def test_mfp_refuses_a_pickle_that_names_code_without_unsafe_advice(hostile, image_pairs, tmp_path):
    out = _mfp(image_pairs, hostile, tmp_path / "out")
    message = assert_fails_cleanly(out, str(hostile), "pytorch_model.bin", "posix.getcwd", "safetensors")
    _no_unsafe_echo(out.stdout + out.stderr)
    assert "does not load it" in message
    assert not (tmp_path / "out" / "mfp_pairs.csv").exists()


def test_the_refusal_is_an_input_error_event_in_jsonl_mode(hostile, image_pairs, tmp_path):
    out = _mfp(image_pairs, hostile, tmp_path / "out", "--events", "jsonl")
    assert out.returncode == 2 and no_traceback(out.stderr), out.stderr[-2000:]
    final = json.loads(out.stdout.splitlines()[-1])
    assert final["event"] == "error" and final["kind"] == "input" and "pytorch_model.bin" in final["message"]
    _no_unsafe_echo(out.stdout + out.stderr)


def test_evaluate_refuses_the_same_folder_through_the_feature_loader(hostile, tmp_path):
    from eval_fixtures import make_store

    store, _ = make_store(tmp_path / "bench", per_city=1, refs=5, models=("m1",))
    store.close()
    out = run_cli("evaluate", "--store", tmp_path / "bench" / "store.sqlite", "--out", tmp_path / "eval",
                  "--feature-model", hostile, "--bootstrap", "20", "-q",
                  env={"GEOFIDELITY_CACHE_DIR": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"})
    assert_fails_cleanly(out, "pytorch_model.bin", "posix.getcwd")
    _no_unsafe_echo(out.stdout + out.stderr)


def test_a_pickle_of_tensors_only_loads_through_the_weights_only_loader(tensors_only, image_pairs, tmp_path):
    """The paper's DINO ViT is published as a pickle only: a pickle of tensors is not refused."""
    out = _mfp(image_pairs, tensors_only, tmp_path / "out")
    assert out.returncode == 0 and no_traceback(out.stderr), out.stderr[-2000:]
    assert (tmp_path / "out" / "mfp_pairs.csv").is_file()


def test_torch_refusing_a_pickle_is_a_foreseen_failure_without_its_advice(hostile):
    """What the static check cannot see, torch's loader still refuses: the message is the product's."""
    import torch

    from geofidelity_plugin.core.errors import user_message

    with pytest.raises(pickle.UnpicklingError) as refused:
        torch.load(hostile / "pytorch_model.bin", weights_only=True)
    assert "weights_only" in str(refused.value)  # torch's own text does suggest it
    message, foreseen = user_message(refused.value)
    assert foreseen and "pickle" in message and "safetensors" in message
    _no_unsafe_echo(message)


def _loads_bypassing_local_model(source: str) -> list[str]:
    """``from_pretrained`` calls whose folder is not ``local_model(...)``, and any direct
    ``torch.load`` / ``pickle.load(s)`` — the ways a loader could skip the one pickle check."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name = node.func.attr
        owner = node.func.value.id if isinstance(node.func.value, ast.Name) else ""
        if name == "from_pretrained":
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Call) and getattr(first.func, "id", "") == "local_model"):
                found.append(f"line {node.lineno}: {name}")
        elif (owner, name) in (("torch", "load"), ("pickle", "load"), ("pickle", "loads")):
            found.append(f"line {node.lineno}: {owner}.{name}")
    return found


def test_every_loader_goes_through_local_model_and_nothing_unpickles_directly():
    bypasses = {}
    for path in sorted((REPO / "geofidelity_plugin").rglob("*.py")):
        found = _loads_bypassing_local_model(path.read_text(encoding="utf-8"))
        if found:
            bypasses[str(path.relative_to(REPO))] = found
    assert not bypasses, bypasses
    planted = "import torch\nm = AutoModel.from_pretrained(folder)\nx = torch.load(p)\nok = A.from_pretrained(local_model(r))\n"
    assert _loads_bypassing_local_model(planted) == ["line 2: from_pretrained", "line 3: torch.load"]


# ======================================================================== case 6: the filter
SETTINGS = [("weights_only", "False"), ("trust_remote_code", "True"), ("verify", "False"),
            ("allow_pickle", "True"), ("use_safetensors", "False"), ("PYTHONHTTPSVERIFY", "0"),
            ("check_hostname", "False"), ("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")]
FORMS = ["{n}={v}", "{n} = {v}", "`{n}={v}`", "`{n}` set to `{v}`", "{n} to {v}", "'{n}': {v}", "{n}={lv}"]
TEMPLATES = ["Re-running the load with {x} will likely succeed.", "Please pass {x} to load this model.",
             "If you trust the source, set {x}.", "Try again with {x};", "You can avoid this by using {x}!"]
PHRASES = ["git commit --no-verify", "pip install --trusted-host pypi.org x", "disable SSL verification",
           "turn off certificate verification", "ssl._create_unverified_context()",
           "torch.serialization.add_safe_globals([os.getcwd])", "export CURL_CA_BUNDLE=''",
           "set NODE_TLS_REJECT_UNAUTHORIZED=0", "GIT_SSL_NO_VERIFY=1", "curl --insecure",
           "wget --no-check-certificate", "disable TLS", "skip the certificate check",
           "do it only if you trust the source of the checkpoint", "requests.get(url, verify=False)"]


def _hostile_sentences() -> list[tuple[str, str]]:
    out = []
    for (name, value), form, template in itertools.product(SETTINGS, FORMS, TEMPLATES):
        advice = form.format(n=name, v=value, lv=value.lower())
        out.append((template.format(x=advice), advice))
    out += [(f"To get past this, use {phrase}.", phrase) for phrase in PHRASES]
    return out


BENIGN = [
    "SSL: CERTIFICATE_VERIFY_FAILED certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)",
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to "
    "`True`.", "weights_only=True is the default.", "Loaded with trust_remote_code=False.",
    "Object arrays cannot be loaded when allow_pickle=False", "Never set weights_only=False on a file you did not make.",
    "Do not pass trust_remote_code=True.", "HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. "
    "(read timeout=10)", "Unverified HTTPS request is being made to host 'x'. Adding certificate verification is "
    "strongly advised.", "set GEOFIDELITY_TRUSTSTORE=off to silence this", "verify the model with `python -m "
    "geofidelity_plugin models verify NAME`", "use_safetensors=True", "verify=True", "the proxy verified the request",
    "cannot use /data/verify/x.csv: permission denied", "the TLS handshake failed (a proxy that intercepts HTTPS?)",
]


def test_every_generated_hostile_sentence_is_taken_out_and_the_rest_kept():
    from geofidelity_plugin.core.secrets import NOTE, strip_unsafe_advice

    cases = _hostile_sentences()
    assert len(cases) >= 280
    for sentence, advice in cases:
        text = f"Loading the weights failed. {sentence} See the documentation for more."
        cleaned = strip_unsafe_advice(text)
        assert advice not in cleaned and NOTE in cleaned, (text, cleaned)
        assert cleaned.startswith("Loading the weights failed. ") and cleaned.endswith("See the documentation for more."), cleaned


@pytest.mark.parametrize("sentence", BENIGN)
def test_benign_sentences_are_kept_as_they_are(sentence):
    from geofidelity_plugin.core.secrets import strip_unsafe_advice

    text = f"The request failed. {sentence} Run again later."
    assert strip_unsafe_advice(text) == text


def test_the_filter_runs_where_quoted_text_leaves_the_process():
    """scrub (stdout, stderr, protocol lines, the QGIS side's stderr tail) and shown_message (what the
    CLI, the algorithms and the inspector show for a failure)."""
    import io

    from geofidelity_plugin.core.secrets import NOTE
    from geofidelity_plugin.core.shown import shown_message
    from geofidelity_plugin.core.secrets import ScrubbingStream, scrub

    advice = "Please pass `trust_remote_code=True` to run it."
    assert NOTE in scrub(f"the model has custom code. {advice}") and "trust_remote_code" not in scrub(advice)
    sink = io.StringIO()
    stream = ScrubbingStream(sink, ["s3cr3t-token"])
    line = json.dumps({"event": "error", "message": f"s3cr3t-token failed. {advice}", "exit_code": 2}) + "\n"
    stream.write(line)
    record = json.loads(sink.getvalue())  # still one valid protocol line
    assert record["message"] == f"*** failed. {NOTE}" and record["exit_code"] == 2
    message, foreseen = shown_message(RuntimeError(f"boom. {advice}"))
    assert not foreseen and "trust_remote_code" not in message and NOTE in message


# ======================================================================== case 7: silent servers
@pytest.fixture
def silent_server():
    """A server that accepts connections (the kernel completes them) and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


def _hub_env(tmp: Path, url: str, **extra) -> dict:
    env = {"HF_ENDPOINT": url, "GEOFIDELITY_MODELS_DIR": str(tmp / "models"), "HF_HUB_CACHE": str(tmp / "hf"),
           "HF_HUB_OFFLINE": "", "TRANSFORMERS_OFFLINE": "", "HF_TOKEN": ""}
    env.update(extra)
    return env


def _timed_cli(*args, env: dict, limit_s: float):
    started = time.monotonic()
    try:
        out = run_cli(*args, env=env, timeout=int(limit_s) + 60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`{' '.join(map(str, args))}` was still waiting after {limit_s + 60:.0f} s: no limit")
    return out, time.monotonic() - started


def test_a_silent_hub_ends_the_download_within_the_stated_limit(silent_server, tmp_path):
    out, took = _timed_cli("models", "download", "geofidelity-tests/tiny", "--models-dir", tmp_path / "models",
                           env=_hub_env(tmp_path, silent_server, GEOFIDELITY_HUB_TIMEOUT="2"), limit_s=30)
    assert_fails_cleanly(out, "within 2 s", "GEOFIDELITY_HUB_TIMEOUT")
    assert took < 30, took


def test_a_hub_asking_for_a_day_stops_at_once_naming_the_demand_and_the_cap(tiny, tmp_path):
    from hub_server import FakeHub

    with FakeHub() as hub:
        repo = hub.add_folder("geofidelity-tests/tiny", tiny)
        hub.rate_limited = {name: "86400" for name in repo.files}
        out, took = _timed_cli("models", "download", "geofidelity-tests/tiny", "--models-dir", tmp_path / "models",
                               env=_hub_env(tmp_path, hub.url), limit_s=60)
    assert_fails_cleanly(out, "86400 s", "300 s", "GEOFIDELITY_RETRY_AFTER_MAX", "GEOFIDELITY_RETRY_AFTER_OVER")
    assert took < 60, took


@pytest.fixture
def mapillary():
    from mapillary_server import FakeMapillary, fake_images_along

    with FakeMapillary(fake_images_along([(2.3400, 48.8600), (2.3460, 48.8615), (2.3520, 48.8608)], 6)) as server:
        yield server


def _mapillary_client(base_url: str, recorder, **options):
    from mapillary_server import TOKEN

    from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient

    settings = dict(base_url=base_url, requests_per_second=None, max_retries=3, backoff_s=1.0, jitter=0.0,
                    sleep=recorder, max_workers=2)
    settings.update(options)
    return MapillaryClient(TOKEN, **settings)


class _Sleeps:
    def __init__(self):
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)

    @property
    def total(self) -> float:
        return sum(self.calls)


BOX = (2.339, 48.859, 2.353, 48.862)


def test_mapillary_asking_for_a_day_stops_without_sleeping(mapillary, monkeypatch):
    from geofidelity_plugin.core.network import WaitTooLong

    monkeypatch.delenv("GEOFIDELITY_RETRY_AFTER_OVER", raising=False)
    monkeypatch.delenv("GEOFIDELITY_RETRY_AFTER_MAX", raising=False)
    mapillary.rate_limit_next, mapillary.retry_after = 1, "86400"
    sleeps = _Sleeps()
    with pytest.raises(WaitTooLong) as stopped:
        _mapillary_client(mapillary.base_url, sleeps).search(BOX)
    assert sleeps.total == 0
    assert "86400 s" in str(stopped.value) and "300 s" in str(stopped.value) and "Mapillary" in str(stopped.value)


def test_mapillary_waits_no_longer_than_the_cap_when_told_to_wait(mapillary, monkeypatch):
    monkeypatch.setenv("GEOFIDELITY_RETRY_AFTER_OVER", "wait")
    monkeypatch.setenv("GEOFIDELITY_RETRY_AFTER_MAX", "2")
    mapillary.rate_limit_next, mapillary.retry_after = 2, "86400"
    sleeps = _Sleeps()
    records = _mapillary_client(mapillary.base_url, sleeps).search(BOX)
    assert records and sleeps.total == pytest.approx(4.0)  # two retries, each after the 2 s cap
    assert max(sleeps.calls) <= 2


def _failure_within(limit_s: float, call) -> BaseException:
    """The exception ``call`` ends with, which must come within ``limit_s`` (a watchdog thread:
    a client without a limit would otherwise hold the test for as long as the server is silent)."""
    import threading

    outcome: list = []

    def run():
        try:
            call()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 — handed to the test
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit_s)
    if worker.is_alive():
        pytest.fail(f"still waiting on a silent server after {limit_s:g} s: no stated limit")
    assert outcome and outcome[0] is not None, "the call succeeded against a silent server"
    return outcome[0]


def test_a_silent_mapillary_api_ends_within_its_limit_naming_it(silent_server):
    from geofidelity_plugin.core.errors import RemoteServiceError

    failed = _failure_within(10, lambda: _mapillary_client(silent_server, _Sleeps(), timeout_s=1).search(BOX))
    assert isinstance(failed, RemoteServiceError), repr(failed)  # two tries of 1 s, not the back-off's five
    assert "1 s" in str(failed) and "--timeout" in str(failed)


def test_a_silent_overpass_ends_within_its_limit_naming_it(silent_server, monkeypatch):
    from geofidelity_plugin.core.errors import RemoteServiceError
    from geofidelity_plugin.core.selection.overpass import OverpassClient

    monkeypatch.setenv("GEOFIDELITY_OVERPASS_TIMEOUT", "1")
    client = OverpassClient(silent_server + "/api/interpreter", sleep=_Sleeps(), jitter=0.0)
    failed = _failure_within(8, lambda: client.fetch_osm(2.35, 48.86, 100))
    assert isinstance(failed, RemoteServiceError), repr(failed)
    assert "2 attempt(s)" in str(failed)
    assert "within 1 s" in str(failed) and "GEOFIDELITY_OVERPASS_TIMEOUT" in str(failed)


def test_overpass_asking_for_a_day_stops_without_sleeping(httpserver, monkeypatch):
    from geofidelity_plugin.core.network import WaitTooLong
    from geofidelity_plugin.core.selection.overpass import OverpassClient

    monkeypatch.delenv("GEOFIDELITY_RETRY_AFTER_OVER", raising=False)
    httpserver.expect_request("/api/interpreter").respond_with_data("busy", status=429,
                                                                     headers={"Retry-After": "86400"})
    sleeps = _Sleeps()
    with pytest.raises(WaitTooLong) as stopped:
        OverpassClient(httpserver.url_for("/api/interpreter"), sleep=sleeps).fetch_osm(2.35, 48.86, 100)
    assert sleeps.total == 0 and "86400 s" in str(stopped.value) and "Overpass" in str(stopped.value)


@pytest.mark.parametrize("header, expected", [("120", 120.0), ("0", 0.0), ("-5", 0.0), ("nan", None), ("soon", None),
                                              ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0), ("", None), (None, None),
                                              ("86400", 86400.0)])
def test_retry_after_is_read_once_for_every_client(header, expected):
    from geofidelity_plugin.core.network import retry_after_seconds
    from geofidelity_plugin.core.reference_panels.mapillary import thumbnails
    from geofidelity_plugin.core.selection import overpass

    assert retry_after_seconds(header) == expected
    assert thumbnails.retry_after_seconds is retry_after_seconds is overpass.retry_after_seconds


def test_every_request_in_the_product_has_a_timeout():
    """Each HTTP call (requests sessions, huggingface_hub's file list and metadata) states its limit."""
    def missing(source: str) -> list[int]:
        lines = []
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            receiver = ast.unparse(node.func.value)
            http = ((node.func.attr in ("get", "post", "head", "request") and receiver.endswith("session"))
                    or (node.func.attr == "model_info" and "HfApi" in receiver)
                    or node.func.attr == "get_hf_file_metadata")
            if http and not any(k.arg == "timeout" for k in node.keywords):
                lines.append(node.lineno)
        return lines

    found = {str(p.relative_to(REPO)): missing(p.read_text(encoding="utf-8"))
             for p in sorted((REPO / "geofidelity_plugin" / "core").rglob("*.py"))}
    assert not {k: v for k, v in found.items() if v}
    assert missing("r = self.session.get(url)\nok = self.session.get(url, timeout=t)\n"
                   "i = hf.HfApi(endpoint=e).model_info(repo)\n") == [1, 3]
