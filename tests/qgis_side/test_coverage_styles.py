"""The coverage audit's styles (method §2, coverage audit) on the layers the audit writes: gaps
graduated by length with legends that read as sentences, image points by curation status with
the rejected ones drawn apart, the buffers as an outline — rendered to check they draw."""
from __future__ import annotations

from pathlib import Path

import pytest

from geofidelity_plugin.core.reference_panels.coverage.audit import audit_store
from geofidelity_plugin.core.reference_panels.coverage.layers import write_coverage_outputs
from geofidelity_plugin.core.store.store import BenchmarkStore

from coverage_fixture import build_hand_store

STYLES = Path(__file__).resolve().parents[2] / "resources" / "styles"


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    return build_hand_store(tmp_path_factory.mktemp("hand_store"))


@pytest.fixture(scope="module")
def gpkg(store_path, tmp_path_factory):
    with BenchmarkStore(store_path, create=False) as store:
        audit = audit_store(store)
    return write_coverage_outputs(tmp_path_factory.mktemp("styles") / "coverage.gpkg", audit)[0]


def _styled(gpkg, layer: str, qml: str):
    from qgis.core import QgsVectorLayer

    out = QgsVectorLayer(f"{gpkg}|layername={layer}", layer, "ogr")
    assert out.isValid()
    message, ok = out.loadNamedStyle(str(STYLES / qml))
    assert ok, message
    return out


def test_gaps_are_graduated_by_length_with_sentences(qgis_app, gpkg):
    layer = _styled(gpkg, "coverage_gaps", "coverage_gaps.qml")
    renderer = layer.renderer()
    assert renderer.type() == "graduatedSymbol" and renderer.classAttribute() == "gap_length_m"
    labels = [r.label() for r in renderer.ranges()]
    assert "gap of 50–100 m with no image" in labels and labels[-1] == "gap over 200 m with no image"
    # the hand-built store's gaps: 74 m, 34 m (segment a), 30 m twice (b), 150 m (c)
    classes = sorted((f["gap_length_m"], renderer.rangeForValue(f["gap_length_m"]).label())
                     for f in layer.getFeatures())
    assert classes == [(30.0, "gap of 20–50 m with no image"), (30.0, "gap of 20–50 m with no image"),
                       (34.0, "gap of 20–50 m with no image"), (74.0, "gap of 50–100 m with no image"),
                       (150.0, "gap of 100–200 m with no image")]
    assert layer.labeling().settings().format().font().family() == "DejaVu Sans"


def test_images_by_status_rejected_apart_and_buffers_outlined(qgis_app, gpkg):
    images = _styled(gpkg, "coverage_images", "coverage_images_status.qml")
    renderer = images.renderer()
    assert renderer.classAttribute() == "status"
    by_value = {c.value(): c for c in renderer.categories()}
    assert {"kept", "rejected", "capped", "reference"} <= set(by_value)
    kept, rejected = by_value["kept"].symbol().symbolLayer(0), by_value["rejected"].symbol().symbolLayer(0)
    assert kept.shape() != rejected.shape() and kept.color() != rejected.color()
    assert by_value["rejected"].label() == "image rejected by a curation filter"
    statuses = {f["status"] for f in images.getFeatures()}
    assert statuses <= set(by_value)  # every status the audit wrote has its symbol
    buffers = _styled(gpkg, "coverage_buffers", "coverage_buffers.qml")
    fill = buffers.renderer().symbol().symbolLayer(0)
    assert fill.brushStyle() == 0 and fill.strokeColor().name() == "#8c96a0"  # Qt.NoBrush: outline only


def test_styled_layers_draw_something(qgis_app, gpkg):
    from qgis.core import QgsMapRendererParallelJob, QgsMapSettings
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QColor

    layers = [_styled(gpkg, "coverage_images", "coverage_images_status.qml"),
              _styled(gpkg, "coverage_gaps", "coverage_gaps.qml"),
              _styled(gpkg, "coverage_buffers", "coverage_buffers.qml")]
    settings = QgsMapSettings()
    settings.setLayers(layers)
    settings.setDestinationCrs(layers[0].crs())
    settings.setExtent(layers[2].extent())
    settings.setOutputSize(QSize(300, 300))
    settings.setBackgroundColor(QColor("white"))
    job = QgsMapRendererParallelJob(settings)
    job.start()
    job.waitForFinished()
    image = job.renderedImage()
    coloured = sum(1 for x in range(0, 300, 3) for y in range(0, 300, 3) if image.pixelColor(x, y).name() != "#ffffff")
    assert coloured > 50
