"""The demo without QGIS — ``geofidelity demo`` from a pip install, or ``--without-qgis``: the
steps of the QGIS demo (``backend/demo.py``) with the same options, each run as the same backend
command a QGIS algorithm starts (``python -m geofidelity_plugin <command>`` in a child process),
so the numbers are the QGIS demo's. Two steps need QGIS and are skipped, and said so at the start
and at the end: the atlas (QGIS print layouts) and the QGIS project.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Callable

from geofidelity_plugin.core.errors import GeoFidelityError

#: the steps that need QGIS → why, as the demo prints it
SKIPPED_WITHOUT_QGIS = {
    "atlas": "the atlas PDF needs QGIS's print layouts",
    "project": "the QGIS project file (geofidelity_demo.qgz) needs QGIS",
}


def _backend(command: list[str], say: Callable[[str], None]) -> None:
    say(f"\n== {command[0]}")
    done = subprocess.run([sys.executable, "-m", "geofidelity_plugin", *command], stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise GeoFidelityError(f"the demo's {command[0]} step failed (exit {done.returncode}) — its message is above; "
                               "fix what it names and run the demo again")


def run_demo_without_qgis(out_dir: Path, osm: Path, feature_model: Path, cities: Path, options: dict,
                          map_model: str, say: Callable[[str], None] = print) -> dict[str, Path]:
    """The qgis-free steps in order; returns what they wrote (the QGIS demo's labels)."""
    from geofidelity_plugin.backend.demo_data import DEMO_CLIP_NAME, STAND_IN_NOTE, build_demo_store, make_demo_clip
    from geofidelity_plugin.core.geodiv.standin import make_standin_vlm

    say("QGIS is not used: the demo runs every step that needs no QGIS and skips "
        + "; ".join(f"{name} ({why})" for name, why in SKIPPED_WITHOUT_QGIS.items()))
    out_dir.mkdir(parents=True, exist_ok=True)
    segments, store = out_dir / "segments.gpkg", out_dir / "benchmark.sqlite"
    evaluation, coverage = out_dir / "evaluation", out_dir / "coverage.gpkg"
    _backend(["select-segments", "--cities", str(cities), "--osm", str(osm), "--min-length",
              str(options["MIN_LENGTH"]), "--min-spacing", str(options["MIN_SPACING"]), "--out", str(segments)], say)
    counts = build_demo_store(store, segments)
    say(f"demo store: {counts} — {STAND_IN_NOTE}")
    _backend(["coverage", "--store", str(store), "--out", str(coverage)], say)
    _backend(["build-galleries", "--store", str(store), "--seed", "0"], say)
    clip = make_demo_clip(out_dir / "models" / DEMO_CLIP_NAME)
    _backend(["evaluate", "--store", str(store), "--feature-model", str(feature_model), "--out", str(evaluation),
              "--model", map_model, "--condition", "L1", "--clip-model", str(clip)], say)
    vlm = make_standin_vlm(out_dir / "models" / "geodiv-vlm-STAND-IN")
    _backend(["geodiv", "--store", str(store), "--vqa-model", str(vlm), "--feature-model", str(feature_model),
              "--group-by", "model,condition,city", "--per-group", "3", "--batch-size", "32", "--convergence",
              "--out", str(evaluation / "geodiv")], say)
    _backend(["report", "--evaluation", str(evaluation), "--coverage", str(coverage)], say)
    say("\nskipped without QGIS: " + "; ".join(f"{name} ({why})" for name, why in SKIPPED_WITHOUT_QGIS.items())
        + " — install QGIS 3.40 or newer and run the demo there for them")
    return {"segments": segments, "summary": segments.with_suffix(".summary.html"),
            "manifest": segments.with_suffix(".manifest.json"), "store": store,
            "tables": evaluation / "tables.md", "scores": evaluation / "per_panel_scores.csv",
            "eval_manifest": evaluation / "evaluation.manifest.json", "report": evaluation / "report.html",
            "coverage": coverage, "geodiv": evaluation / "geodiv" / "geodiv_groups.csv"}
