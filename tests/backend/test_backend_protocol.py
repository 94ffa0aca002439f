"""The backend protocol as a driver sees it (docs/backend-protocol.md): ``python -m
geofidelity_plugin --events jsonl evaluate …`` writes only JSON lines on stdout — hello first,
result or error last — whatever the outcome."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import types
from pathlib import Path

import pytest

from backends.support import REPO, make_evaluable, venv_python
from geofidelity_plugin.core import events


def run_cli(args: list[str], cache: Path) -> tuple[list[dict], subprocess.CompletedProcess]:
    """Run the backend as the plugin does; every stdout line must be a protocol event."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(REPO), GEOFIDELITY_CACHE_DIR=str(cache), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run([venv_python(), "-m", "geofidelity_plugin", "--events", "jsonl", *args], env=env,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    lines = done.stdout.splitlines()
    parsed = []
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            pytest.fail(f"stdout line is not JSON: {line!r}\nstderr: {done.stderr[-2000:]}")
        assert isinstance(event, dict) and event.get("event") in events.EVENT_KINDS, line
        parsed.append(event)
    return parsed, done


@pytest.fixture(scope="module")
def evaluable(tmp_path_factory):
    return make_evaluable(tmp_path_factory.mktemp("protocol-store"), per_city=1)


def test_missing_store_is_hello_then_an_input_error(tmp_path):
    missing = tmp_path / "nowhere" / "store.sqlite"
    lines, done = run_cli(["evaluate", "--store", str(missing), "--out", str(tmp_path / "eval"),
                           "--feature-model", str(tmp_path)], tmp_path / "cache")
    assert [e["event"] for e in lines] == ["hello", "error"], done.stdout
    hello, error = lines
    assert hello["protocol"] == events.PROTOCOL_VERSION and hello["command"] == "evaluate"
    assert error["kind"] == "input" and error["exit_code"] == 2 == done.returncode
    assert str(missing) in error["message"]
    assert error["fix"] and error["message"].endswith(error["fix"]), error
    assert "Traceback" not in done.stderr


def test_success_is_hello_then_outputs_then_result(qgis_app, evaluable, tmp_path):
    from qgis.core import QgsVectorLayer

    store, model = evaluable
    lines, done = run_cli(["evaluate", "--store", str(store), "--out", str(tmp_path / "eval"), "--feature-model",
                           str(model), "--bootstrap", "50", "--batch-size", "4"], tmp_path / "cache")
    assert done.returncode == 0, done.stderr[-3000:]
    kinds = [e["event"] for e in lines]
    assert kinds[0] == "hello" and kinds[-1] == "result" and "error" not in kinds
    assert lines[0]["pid"] > 0 and lines[0]["protocol"] == events.PROTOCOL_VERSION
    stages = [e["stage"] for e in lines if e["event"] == "progress"]
    assert "loading the feature model" in stages and "extracting features" in stages
    fractions = [e["fraction"] for e in lines if e["event"] == "progress" and e["fraction"] is not None]
    assert all(0.0 <= f <= 1.0 for f in fractions) and fractions == sorted(fractions)

    result = lines[-1]
    assert result["exit_code"] == 0
    streamed = [{k: v for k, v in e.items() if k != "event"} for e in lines if e["event"] == "output"]
    assert result["outputs"] == streamed  # the result repeats every output announced on the way
    outputs = {o["key"]: o for o in result["outputs"]}
    assert {"SEGMENT_SCORES", "PER_PANEL_CSV", "TABLES", "MANIFEST"} <= set(outputs)
    scores = outputs["SEGMENT_SCORES"]
    assert scores["layer"].endswith("|layername=segment_scores") and scores["style"] == "segment_margin_hard.qml"
    assert (REPO / "resources" / "styles" / scores["style"]).exists()
    assert scores["properties"]["geofidelity/store"] == str(store.resolve())
    layer = QgsVectorLayer(scores["layer"], "scores", "ogr")
    assert layer.isValid() and layer.featureCount() == 3  # one segment in each of the three cities
    assert all(Path(o["path"]).is_file() for o in outputs.values())

    values = result["values"]
    assert values["PANELS"] > 0 and values["MODEL"] == "m1" and values["CONDITION"] == "L1"
    assert values["FEATURES_COMPUTED"] == values["FEATURES_IMAGES"] > 0 and values["FEATURES_CACHED"] == 0
    assert isinstance(values["GAMMA"], float)
    # what people read goes to stderr: stdout stays protocol-only
    assert "panels scored" in done.stderr and "panels scored" not in done.stdout


def test_usage_error_is_an_error_event(tmp_path):
    lines, done = run_cli(["evaluate", "--store", str(tmp_path / "store.sqlite")], tmp_path / "cache")
    assert [e["event"] for e in lines] == ["error"], done.stdout
    error = lines[0]
    assert error["kind"] == "input" and error["exit_code"] == 2 == done.returncode
    assert "--out" in error["message"] and error["fix"]
    assert "usage:" not in done.stdout


@pytest.fixture
def in_process_jsonl(monkeypatch):
    """``cli.main`` in this process with its protocol lines in a StringIO (no fd juggling)."""
    from geofidelity_plugin.backend import cli

    buffer = io.StringIO()
    monkeypatch.setattr(events, "_ACTIVE", events.active())  # restored afterwards
    monkeypatch.setattr(events, "activate_jsonl", lambda: events.use_stream(buffer))
    monkeypatch.setattr(cli._Parser, "raise_errors", False)
    previous = signal.getsignal(signal.SIGTERM)
    yield cli, buffer
    signal.signal(signal.SIGTERM, previous)


def test_memory_error_is_a_memory_event(in_process_jsonl, monkeypatch):
    from geofidelity_plugin.backend.commands import evaluation

    cli, buffer = in_process_jsonl

    def out_of_memory(args):
        raise MemoryError()

    monkeypatch.setattr(evaluation, "cmd_evaluate", out_of_memory)
    code = cli.main(["--events", "jsonl", "evaluate", "--store", "s.sqlite", "--out", "o"])
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert [e["event"] for e in lines] == ["hello", "error"]
    error = lines[1]
    assert error["kind"] == "memory" and error["exit_code"] == 2 == code
    assert "out of memory" in error["message"] and error["fix"]


@pytest.mark.parametrize("failure", [
    RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you "
                 "tried to allocate 40000000000 bytes. Error code 12 (Cannot allocate memory)"),
    ImportError("libtorch_cpu.so: failed to map segment from shared object"),
], ids=["torch-cpu-allocator", "library-load"])
def test_memory_exhaustion_outside_python_is_a_memory_event(in_process_jsonl, monkeypatch, failure):
    """What torch and the dynamic loader raise when memory runs out (both seen under ``ulimit -v``)."""
    from geofidelity_plugin.backend.commands import evaluation

    cli, buffer = in_process_jsonl

    def out_of_memory(args):
        raise failure

    monkeypatch.setattr(evaluation, "cmd_evaluate", out_of_memory)
    code = cli.main(["--events", "jsonl", "evaluate", "--store", "s.sqlite", "--out", "o"])
    error = [json.loads(line) for line in buffer.getvalue().splitlines()][-1]
    assert error["kind"] == "memory" and code == 2 and "memory" in error["message"], error


def test_event_progress_is_thinned(monkeypatch):
    """A loop that reports 10,001 times gives about 200 lines (one per 0.5 %), first and last kept;
    a small step still goes out once 0.2 s have passed."""
    clock = types.SimpleNamespace(now=1000.0)
    monkeypatch.setattr(events, "time", types.SimpleNamespace(monotonic=lambda: clock.now))
    buffer = io.StringIO()
    progress = events.EventProgress("extracting features", events.EventStream(buffer))
    for step in range(10001):
        progress.set_progress(step / 100)
    fractions = [json.loads(line)["fraction"] for line in buffer.getvalue().splitlines()]
    assert 190 <= len(fractions) <= 202, len(fractions)
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    steps = [b - a for a, b in zip(fractions, fractions[1:])]
    assert all(step >= 0.005 - 1e-9 for step in steps[:-1]) and steps[-1] > 0  # 100 % is always shown

    buffer = io.StringIO()
    progress = events.EventProgress("scoring", events.EventStream(buffer))
    progress.set_progress(10.0)
    progress.set_progress(10.1)  # 0.1 % later, at once: thinned away
    clock.now += 0.25
    progress.set_progress(10.2)  # 0.1 % later, 0.25 s later: shown
    progress.set_stage("writing outputs")  # a new stage is always shown
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert [(e["fraction"], e["stage"]) for e in lines] == [(0.1, "scoring"), (0.102, "scoring"),
                                                            (0.102, "writing outputs")]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
