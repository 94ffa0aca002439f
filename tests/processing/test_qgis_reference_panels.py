"""Stage 2 inside real QGIS against a local server that speaks the Mapillary Graph API:
fetch → curate → coverage, audit from a CSV, a resumed fetch downloads nothing again, and the
token appears in no log line, layer, manifest, store, cache file or QGIS project."""
from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest
from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsProcessingFeedback, QgsProject

from geofidelity_plugin.core.store.store import BenchmarkStore
from geofidelity_plugin.core.resources import resource
from mapillary_server import TOKEN, FakeMapillary, fake_images_along
from recording import RecordingFeedback


@pytest.fixture(scope="module")
def segments_gpkg(qgis_provider, tmp_path_factory, helsinki_pbf):
    import processing

    out = tmp_path_factory.mktemp("seg") / "segments.gpkg"
    processing.run("geofidelity:select_segments", {"CITIES": str(resource("data", "demo_cities.csv")),
                                                   "OSM_FILE": str(helsinki_pbf), "OUTPUT": str(out),
                                                   "MIN_LENGTH": 300, "MIN_SPACING": 300, "MAX_PER_CITY": 3})
    return out


def _fake_images(gpkg):
    from geofidelity_plugin.core.selection.writers import read_segments_gpkg

    images = []
    for n, row in enumerate(read_segments_gpkg(gpkg)):
        images += fake_images_along(list(row["geometry"].coords), 14, start_id=4_100_000_000_000 + n * 1_000_000)
    return images


def _auth_config(token: str) -> str:
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("geofidelity-tests", True)
    cfg = QgsAuthMethodConfig("Basic")
    cfg.setName("mapillary (test)")
    cfg.setConfig("username", "mapillary")
    cfg.setConfig("password", token)
    assert manager.storeAuthenticationConfig(cfg)
    return cfg.id()


def _files_with(root: Path, needle: bytes) -> list[str]:
    hits = []
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.suffix == ".qgz":
            with zipfile.ZipFile(path) as zf:
                data = b"".join(zf.read(n) for n in zf.namelist())
        if needle in data:
            hits.append(str(path))
    return hits


def test_fetch_curate_coverage_and_token_hygiene(qgis_provider, segments_gpkg, tmp_path, monkeypatch):
    import processing

    monkeypatch.delenv("MAPILLARY_ACCESS_TOKEN", raising=False)
    store = tmp_path / "bench" / "store.sqlite"
    feedback = RecordingFeedback()
    with FakeMapillary(_fake_images(segments_gpkg)) as fake:
        authcfg = _auth_config(TOKEN)
        fetched = processing.runAndLoadResults("geofidelity:fetch_mapillary", {
            "STORE": str(store), "SEGMENTS": str(segments_gpkg), "AUTH": authcfg, "BASE_URL": fake.base_url,
            "OUTPUT": str(tmp_path / "bench" / "images.gpkg")}, feedback=feedback)
        first_downloads = sum(fake.image_counts.values())
        with BenchmarkStore(store, create=False) as s:
            unique = {c["image_id"] for c in s.candidates()}
        # every image along its own segment; crossing streets share a few (one image, two segments)
        assert fetched["IMAGES"] >= 3 * 14 and len(unique) == 3 * 14
        # each image downloaded once — but not the panoramas: tier 2 rules them out before download
        panos = {image.image_id for image in fake.images.values() if image.is_pano}
        assert panos and fetched["DOWNLOADED"] == first_downloads == len(unique - panos)
        # a second run (a resume) downloads nothing again
        again = processing.run("geofidelity:fetch_mapillary", {
            "STORE": str(store), "AUTH": authcfg, "BASE_URL": fake.base_url,
            "OUTPUT": str(tmp_path / "bench" / "images2.gpkg")}, feedback=feedback)
        assert again["DOWNLOADED"] == 0 and sum(fake.image_counts.values()) == first_downloads
        assert all(h == f"OAuth {TOKEN}" for h in fake.auth_headers)
    curated = processing.runAndLoadResults("geofidelity:curate_panels", {
        "STORE": str(store), "SIGLIP_MODEL": "", "VISTAS_MODEL": "", "LAPLACIAN_MIN": 0, "COLOURFULNESS_MIN": 0,
        "LUMA_MIN": 0, "LUMA_MAX": 255, "OUTPUT": str(tmp_path / "bench" / "curated.gpkg")}, feedback=feedback)
    with BenchmarkStore(store, create=False) as s:
        cands = s.candidates()
        panels = s.reference_panels()
    panos = [c for c in cands if c["record"]["is_pano"]]
    assert panos and all(c["status"] == "rejected" and c["tier"] == 2 for c in panos)
    kept = [c for c in cands if c["status"] == "kept"]
    assert curated["KEPT"] == len(kept) == sum(len(v) for v in panels.values()) > 0
    assert any("tier 4" in line.lower() or "siglip" in line.lower() for line in feedback.lines)  # skipped, noted
    # manual audit from a CSV: reject one kept image; it leaves the panel on the next run
    victim = kept[0]
    audit = tmp_path / "audit.csv"
    with open(audit, "w", newline="") as fh:
        csv.writer(fh).writerows([["image_id", "decision"], [victim["image_id"], "reject"]])
    processing.run("geofidelity:curate_panels", {
        "STORE": str(store), "SIGLIP_MODEL": "", "VISTAS_MODEL": "", "LAPLACIAN_MIN": 0, "COLOURFULNESS_MIN": 0,
        "LUMA_MIN": 0, "LUMA_MAX": 255, "AUDIT_CSV": str(audit), "OUTPUT": str(tmp_path / "bench" / "curated2.gpkg")})
    with BenchmarkStore(store, create=False) as s:
        row = next(c for c in s.candidates(victim["segment_id"]) if c["image_id"] == victim["image_id"])
        assert (row["status"], row["tier"], row["audit"]) == ("rejected", 8, "reject"), row["reason"]
        assert victim["image_id"] not in {r["image_id"] for r in s.reference_panels()[victim["segment_id"]]}
    coverage = processing.runAndLoadResults("geofidelity:coverage_audit", {
        "STORE": str(store), "OUTPUT": str(tmp_path / "bench" / "coverage.gpkg")}, feedback=feedback)
    layers = {l.name(): l for l in QgsProject.instance().mapLayers().values()}
    cov = layers["GeoFidelity coverage"]
    assert cov.featureCount() == 3 and cov.renderer().type() == "graduatedSymbol"
    assert {f["images_kept"] for f in cov.getFeatures()} and all(f["rejected_tier2"] >= 1 for f in cov.getFeatures())
    assert layers["GeoFidelity curated images"].renderer().classAttribute() == "status"
    for name in ("GeoFidelity coverage", "GeoFidelity coverage gaps", "GeoFidelity curated images",
                 "GeoFidelity Mapillary images"):  # the inspector finds the store from any of them
        assert layers[name].customProperty("geofidelity/store") == str(store.resolve()), name
    assert layers["GeoFidelity coverage gaps"].renderer() is not None and layers["GeoFidelity coverage gaps"].isValid()
    assert coverage["GAPS"] >= 0
    # the token is nowhere: logs, layers, manifests, store, caches, the project
    project = tmp_path / "project.qgz"
    assert QgsProject.instance().write(str(project))
    assert not [line for line in feedback.lines if TOKEN in line]
    assert not _files_with(tmp_path, TOKEN.encode())
    assert not _files_with(tmp_path, TOKEN.split("|")[-1].encode())
    QgsProject.instance().clear()


def test_token_reaches_the_backend_in_its_environment_and_no_log_line(qgis_provider, segments_gpkg, tmp_path,
                                                                      monkeypatch):
    """The token of the authentication config is the backend's MAPILLARY_ACCESS_TOKEN: the child
    sends it to the API, while the command line QGIS logs, every relayed line and QGIS's own
    environment stay without it."""
    import os

    import processing
    from geofidelity_plugin.qgis_side import backend_runner as backend

    monkeypatch.delenv("MAPILLARY_ACCESS_TOKEN", raising=False)
    feedback = RecordingFeedback()
    with FakeMapillary(_fake_images(segments_gpkg)) as fake:
        result = processing.run("geofidelity:fetch_mapillary", {
            "STORE": str(tmp_path / "store.sqlite"), "SEGMENTS": str(segments_gpkg), "AUTH": _auth_config(TOKEN),
            "BASE_URL": fake.base_url, "OUTPUT": str(tmp_path / "images.gpkg")}, feedback=feedback)
    assert result["IMAGES"] > 0 and fake.auth_headers
    assert all(h == f"OAuth {TOKEN}" for h in fake.auth_headers)  # the child had the token
    assert backend.LAST_RUN["command"] == "fetch-mapillary" and backend.LAST_RUN["pid"] != os.getpid()
    commands = [line for line in feedback.lines if line.startswith("GeoFidelity backend:")]
    assert len(commands) == 1 and "fetch-mapillary" in commands[0] and fake.base_url in commands[0]
    secret = TOKEN.split("|")[-1]
    assert not [line for line in feedback.lines if TOKEN in line or secret in line]
    assert "MAPILLARY_ACCESS_TOKEN" not in os.environ  # handed to the child only
    assert not _files_with(tmp_path, secret.encode())


def test_missing_token_is_a_clear_error(qgis_provider, segments_gpkg, tmp_path, monkeypatch):
    import processing
    from qgis.core import QgsProcessingException

    monkeypatch.delenv("MAPILLARY_ACCESS_TOKEN", raising=False)
    with pytest.raises(QgsProcessingException, match="MAPILLARY_ACCESS_TOKEN"):
        processing.run("geofidelity:fetch_mapillary", {"STORE": str(tmp_path / "s.sqlite"),
                                                       "SEGMENTS": str(segments_gpkg),
                                                       "OUTPUT": str(tmp_path / "i.gpkg")})
