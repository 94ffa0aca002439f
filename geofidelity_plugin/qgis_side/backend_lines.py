"""What the backend's lines mean to the plugin (docs/backend-protocol.md): a protocol line parsed
and typed so that no JSON the backend prints can break the plugin, the events relayed to the
Processing feedback, and the message of a run that ended without an answer.

Imports only the standard library: ``backend_runner`` drives the process, this reads its words.
"""
from __future__ import annotations

import json
import signal

SETTINGS_HINT = ("set the backend in Settings › Options › GeoFidelity (Test backend shows what is wrong; "
                 "Set up backend… creates one)")


def parse(line: str) -> dict | None:
    """The protocol event on ``line`` with every field a driver reads of its expected type; None
    for a line that is not one (garbage, a library's print)."""
    return _well_typed(_parse_json(line))


def signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _parse_json(line: str) -> dict | None:
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event if isinstance(event, dict) and isinstance(event.get("event"), str) else None


#: each field a driver reads → the type it must have; a field of another type is dropped, so that no
#: line the backend prints (a bug, another version, garbage that parses as JSON) can break the plugin
_FIELD_TYPES = {"message": str, "stage": str, "fraction": (int, float), "values": dict, "outputs": list,
                "key": str, "path": str, "protocol": (str, int, float), "backend_version": str, "executable": str}


def _well_typed(event: dict | None) -> dict | None:
    if event is None:
        return None
    clean = {k: v for k, v in event.items()
             if k not in _FIELD_TYPES or (isinstance(v, _FIELD_TYPES[k]) and not isinstance(v, bool))}
    if isinstance(clean.get("outputs"), list):
        clean["outputs"] = [o for o in clean["outputs"] if isinstance(o, dict) and isinstance(o.get("key"), str)]
    if clean.get("event") == "output" and not isinstance(clean.get("key"), str):
        clean["event"] = "unreadable output"  # shown as an unknown event, never stored as a result
    return clean


def check_protocol(hello: dict, events) -> str | None:
    version = str(hello.get("protocol", ""))
    try:
        major = int(version.split(".")[0])
    except ValueError:
        major = None
    if major != events.PROTOCOL_MAJOR:
        return (f"the GeoFidelity backend speaks protocol {version or 'unknown'} but this plugin speaks "
                f"{events.PROTOCOL_VERSION} (backend version {hello.get('backend_version', 'unknown')} at "
                f"{hello.get('executable', '?')}). The plugin starts its own copy of the backend code, so the "
                f"configured executable runs other code (a wrapper script or a site customisation) — point "
                f"the setting at a plain Python environment; {SETTINGS_HINT}")
    return None


def relay(event: dict, feedback, run) -> None:
    kind = event.get("event")
    if kind == "progress":
        fraction = event.get("fraction")
        if isinstance(fraction, (int, float)):
            feedback.setProgress(100.0 * min(1.0, max(0.0, float(fraction))))
        stage = event.get("stage")
        if stage:
            text = stage + (f": {event['message']}" if event.get("message") else "")
            if text != getattr(feedback, "_geofidelity_stage", None):
                feedback._geofidelity_stage = text
                feedback.setProgressText(text)  # it logs the text too: once, not twice
    elif kind == "info":
        feedback.pushInfo(str(event.get("message", "")))
    elif kind == "warning":
        run.warnings.append(str(event.get("message", "")))
        feedback.pushWarning(str(event.get("message", "")))
    elif kind == "output":
        run.outputs.append(event)
    else:  # a newer minor version's event: shown, never fatal
        feedback.pushDebugInfo(f"backend event: {json.dumps(event, ensure_ascii=False)}")


def crash_message(code: int, run, garbage: list[str], stderr_tail: list[str]) -> str:
    last = [line for line in stderr_tail if line.strip()][-3:]
    said = (" Its last words: " + " | ".join(line.strip()[:200] for line in last)) if last else ""
    if code < 0:
        what = f"crashed ({signal_name(code)})"
        if -code == getattr(signal, "SIGKILL", 9):
            what += " — most often the system's out-of-memory killer"
        return (f"the GeoFidelity backend {what}; QGIS and your project are unaffected and the store is left "
                f"consistent.{said} — lower the batch size or the model size, or run Test backend in "
                "Settings › Options › GeoFidelity")
    if any("MemoryError" in line or "out of memory" in line.lower() for line in stderr_tail):
        return (f"the GeoFidelity backend ran out of memory (exit {code}).{said} — lower the batch size, close "
                "other programs or use a machine with more memory")
    if garbage and not run.hello:
        sample = garbage[0].strip()[:120]
        return (f"the GeoFidelity backend did not answer in its protocol (it printed {sample!r}, exit {code}) — "
                f"check that the configured executable is a Python with GeoFidelity's backend; {SETTINGS_HINT}")
    if not run.hello:
        return (f"the GeoFidelity backend stopped before it started (exit {code}).{said} — {SETTINGS_HINT}")
    return (f"the GeoFidelity backend ended without a result (exit {code}).{said} — run it again; if it "
            "repeats, run Test backend in Settings › Options › GeoFidelity and report the log")
