"""What every fault-injection case asserts (docs/method.md, "Errors and exit codes"):

- the exit code (2: a failure the message explains; 1 would be a bug),
- that the message names the problem (the fragments given) and no Python traceback is printed,
- that what the run leaves behind can be trusted: stores pass SQLite's integrity check, no
  half-written output or staging folder remains, and a clean re-run works.

Cases run the real command line in a subprocess (``run_cli``) and the real ``qgis_process.bin``
with the plugin from ``build/plugins`` (``run_qgis`` with the ``qgis_env`` fixture of conftest).
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import REPO, run_qgis_process

TRACEBACK_MARKERS = ("Traceback (most recent call last)", "File \"/", "Error in sys.excepthook")


def run_cli(*args, env: dict | None = None, timeout: int = 300, cwd: Path | None = None,
            preexec_fn=None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env.pop("GEOFIDELITY_DEBUG", None)
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), full_env.get("PYTHONPATH")]))
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "geofidelity_plugin", *map(str, args)], cwd=cwd or REPO,
                          capture_output=True, text=True, timeout=timeout, env=full_env, preexec_fn=preexec_fn)


def no_traceback(text: str) -> bool:
    return not any(marker in text for marker in TRACEBACK_MARKERS)


def assert_fails_cleanly(out: subprocess.CompletedProcess, *fragments: str, code: int = 2) -> str:
    """Exit ``code``, ``error: …`` naming every fragment (case-insensitive), no traceback."""
    text = out.stdout + out.stderr
    assert out.returncode == code, f"exit {out.returncode}, expected {code}\n{text[-3000:]}"
    assert no_traceback(text), f"a traceback was printed:\n{text[-3000:]}"
    if code == 2:
        assert "error:" in out.stderr, out.stderr[-2000:]
    low = out.stderr.lower()
    for fragment in fragments:
        assert fragment.lower() in low, f"{fragment!r} not in the message:\n{out.stderr[-2000:]}"
    return out.stderr


def assert_qgis_fails_cleanly(out: subprocess.CompletedProcess, *fragments: str) -> str:
    """``qgis_process`` exits 1 with the message, no traceback, no crash at exit."""
    text = out.stdout + out.stderr
    assert out.returncode == 1, f"exit {out.returncode}, expected 1\n{text[-3000:]}"
    assert no_traceback(text), f"a traceback was printed:\n{text[-3000:]}"
    low = text.lower()
    for fragment in fragments:
        assert fragment.lower() in low, f"{fragment!r} not in the output:\n{text[-2000:]}"
    return text


def assert_store_ok(path: Path) -> None:
    """The store file passes SQLite's integrity check and opens as a benchmark store."""
    from geofidelity_plugin.core.store.store import BenchmarkStore

    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with BenchmarkStore(path, create=False):
        pass


def assert_no_partial_outputs(folder: Path) -> None:
    """No staging folder or temporary file that a killed or failed run left behind."""
    if not folder.exists():
        return
    leftovers = [p for p in folder.rglob(".*") if p.name.startswith((".geofidelity-partial-", ".geofidelity-write-test-"))
                 or ".tmp" in p.name or p.suffix in (".partial",)]
    assert not leftovers, leftovers


def read_manifest(folder: Path, name: str = "manifest.json") -> dict:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def run_qgis(env: dict, algorithm: str, **params) -> subprocess.CompletedProcess:
    args = ["run", f"geofidelity:{algorithm}", "--"] + [f"{k}={v}" for k, v in params.items()]
    return run_qgis_process(args, env)


def file_size_limit(max_bytes: int):
    """``preexec_fn`` for ``run_cli``: writes beyond ``max_bytes`` fail with EFBIG — a disk that
    fills up mid-run, without tmpfs or root."""
    def apply():
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return apply
