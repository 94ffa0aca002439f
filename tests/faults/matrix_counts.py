"""How many generated cases the fault matrix ran, per input kind (issue 40): counted while the
cases run, printed in pytest's terminal summary and written as JSON, so that the README can state
the counts a CI run gives.

The JSON goes to ``$GEOFIDELITY_FAULT_MATRIX_COUNTS`` when set, else to
``<pytest basetemp>/fault_matrix_counts.json``: ``{"kinds": {kind: {"reader": n, "cli": n}}, "total": n}``.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

COUNTS: dict[str, dict[str, int]] = defaultdict(lambda: {"reader": 0, "cli": 0})


def record(kind: str, through: str = "reader") -> None:
    """One generated case of ``kind`` run through the reader in-process or the real CLI."""
    COUNTS[kind][through] += 1


def summary() -> dict:
    kinds = {k: dict(v) for k, v in sorted(COUNTS.items())}
    return {"kinds": kinds, "total": sum(v["reader"] + v["cli"] for v in kinds.values())}


def lines() -> list[str]:
    data = summary()
    out = [f"{kind}: {c['reader']} through the reader, {c['cli']} through the CLI"
           for kind, c in data["kinds"].items()]
    return out + [f"total: {data['total']} generated cases"]


class _Report:
    """A pytest plugin object registered at run time by the matrix's fixture."""

    def __init__(self, config):
        self.config = config

    def pytest_terminal_summary(self, terminalreporter):
        if not COUNTS:
            return
        terminalreporter.section("fault matrix (issue 40): generated cases per input kind")
        for line in lines():
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"written to {write(self.config)}")


def write(config) -> Path:
    target = os.environ.get("GEOFIDELITY_FAULT_MATRIX_COUNTS")
    path = Path(target) if target else Path(config._tmp_path_factory.getbasetemp()) / "fault_matrix_counts.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary(), indent=2) + "\n", encoding="utf-8")
    return path


def register(config) -> None:
    """Print the counts at the end of the run (once, however many modules ask)."""
    if not config.pluginmanager.has_plugin("geofidelity-fault-matrix"):
        config.pluginmanager.register(_Report(config), "geofidelity-fault-matrix")
