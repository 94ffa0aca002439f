"""Import the published release layout (RELEASE_FORMAT.md) and export ours in it: a release
built here in that exact layout round-trips through import → export → import."""
from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from PIL import Image

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.galleries import (NEAREST_SAME_CITY, RANDOM_OTHER_CITY,
                                                          SAME_CITY_OTHER_NEIGHBOURHOOD, SAME_NEIGHBOURHOOD)
from geofidelity_plugin.core.evaluation.release.release_export import export_release
from geofidelity_plugin.core.evaluation.release.release_folder import import_release
from geofidelity_plugin.core.store.store import BenchmarkStore
from release_fixture import BLOCKS, _jpg, _write_csv, make_release  # noqa: F401

def _snapshot(store):
    segs = [{k: s[k] for k in ("segment_id", "city", "country_code", "street_name", "neighbourhood",
                               "centroid_lat", "centroid_lon")} for s in store.segments()]
    panels = {sid: sorted((r["image_id"], open(r["abs_path"], "rb").read()) for r in imgs)
              for sid, imgs in store.reference_panels().items()}
    gens = {k: [(g["sample_index"], g["seed"], g["prompt"], open(g["abs_path"], "rb").read()) for g in v]
            for k, v in store.generated_panels().items()}
    return segs, panels, store.galleries(), gens


def test_import_keeps_release_negatives(tmp_path):
    root = make_release(tmp_path / "release")
    with BenchmarkStore(tmp_path / "s.sqlite") as store:
        counts = import_release(root, store)
        assert counts == {"segments": 4, "reference_images": 20, "generated_images": 32, "missing_files": 0}
        g = store.galleries()
        assert g["b001"][SAME_NEIGHBOURHOOD] == "b003"
        assert g["b001"][SAME_CITY_OTHER_NEIGHBOURHOOD] == "b002"
        assert g["b001"][RANDOM_OTHER_CITY] == "b004"
        assert g["b001"][NEAREST_SAME_CITY] in ("b002", "b003")  # filled from centroids
        seeds = [x["seed"] for x in store.generated_panels()[("sdxl", "L1", "b001")]]
        assert seeds == [100, 101, 102, None]
        assert {s["driving_side"] for s in store.segments() if s["country_code"] == "GB"} == {"left"}


def test_round_trip(tmp_path):
    root = make_release(tmp_path / "release")
    with BenchmarkStore(tmp_path / "a.sqlite") as a:
        import_release(root, a)
        export_release(a, tmp_path / "exported")
        with BenchmarkStore(tmp_path / "b.sqlite") as b:
            import_release(tmp_path / "exported", b)
            assert _snapshot(a) == _snapshot(b)
    layout = json.loads((tmp_path / "exported/data/processed/v3/benchmark_v3.json").read_text())
    assert layout["blocks"][0]["neg_same_neighborhood_diff_block"] == "b003"
    assert (tmp_path / "exported/generations_v3/sdxl/L1/b004/03.jpg").exists()
    assert (tmp_path / "exported/metadata/blocks.csv").exists()


@pytest.mark.parametrize("breakage,needle", [
    ("no_manifest", "is not a GeoFidelity-Bench release"),
    ("bad_json", "not a valid benchmark manifest"),
    ("unknown_negative", "is not a block of the release"),
])
def test_bad_release(tmp_path, breakage, needle):
    root = make_release(tmp_path / "release")
    manifest = root / "data/processed/v3/benchmark_v3.json"
    if breakage == "no_manifest":
        manifest.unlink()
    elif breakage == "bad_json":
        manifest.write_text(manifest.read_text()[:100])
    else:
        data = json.loads(manifest.read_text())
        data["blocks"][0]["neg_random_city"] = "zzz"
        manifest.write_text(json.dumps(data))
    with BenchmarkStore(tmp_path / "s.sqlite") as store, pytest.raises(InputError, match=needle):
        import_release(root, store)


def test_manifest_that_does_not_match_the_images(tmp_path):
    """The release lists an image that is not on disk: the import counts it, the store keeps the
    row, and the evaluation lists it as failed while scoring the rest."""
    from eval_fixtures import TableEmbedder
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store

    root = make_release(tmp_path / "release")
    missing = root / "data/raw/mapillary_v3/b002/mapillary_b0022.jpg"
    missing.unlink()
    with BenchmarkStore(tmp_path / "s.sqlite") as store:
        counts = import_release(root, store)
        assert counts["missing_files"] == 1
        paths = [r["abs_path"] for imgs in store.reference_panels().values() for r in imgs] + \
                [g["abs_path"] for imgs in store.generated_panels().values() for g in imgs]
        rng = np.random.default_rng(0)
        vectors = {p: rng.normal(size=8) for p in paths}
        embedder = TableEmbedder(vectors, failed_paths={str(missing): "file not found"})
        result = evaluate_store(store, embedder, EvaluationOptions(n_bootstrap=50))
    assert result.failed_images == {str(missing): "file not found"}
    assert any(r["segment_id"] == "b002" and not r["is_anchor"] for r in result.rows)


def test_import_release_and_build_galleries_algorithms_run_in_the_backend(qgis_provider, tmp_path):
    """Both algorithms run their command in a child process; counts, the store path and the
    backend's warning (an image listed but missing) come back to Processing."""
    import os

    import processing
    from qgis.core import QgsProcessingFeedback
    from geofidelity_plugin.qgis_side import backend_runner as backend

    class Warnings(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.warnings = []

        def pushWarning(self, warning):  # noqa: N802
            self.warnings.append(warning)

    root = make_release(tmp_path / "release")
    (root / "data/raw/mapillary_v3/b002/mapillary_b0022.jpg").unlink()
    store = tmp_path / "stores" / "bench.sqlite"
    feedback = Warnings()
    result = processing.run("geofidelity:import_release", {"RELEASE_ROOT": str(root), "STORE": str(store), "SEED": 0},
                            feedback=feedback)
    assert (result["SEGMENTS"], result["MISSING_FILES"], result["STORE"]) == (4, 1, str(store))
    assert backend.LAST_RUN["command"] == "import-release" and backend.LAST_RUN["pid"] != os.getpid()
    assert feedback.warnings == ["1 image files listed by the release are missing on disk"]
    with BenchmarkStore(store, create=False) as s, s.transaction():
        s.db.execute("DELETE FROM galleries")
    result = processing.run("geofidelity:build_galleries", {"STORE": str(store), "SEED": 0, "KEEP_EXISTING": False})
    assert (result["GALLERIES"], result["STORE_OUT"]) == (4, str(store))
    assert backend.LAST_RUN["command"] == "build-galleries"
    with BenchmarkStore(store, create=False) as s:
        assert len(s.galleries()) == 4
