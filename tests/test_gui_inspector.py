"""The inspector in real QGIS widgets (offscreen): a click on a known segment fills the dock
with that segment's thumbnails and scores; audit clicks persist after the project is reloaded."""
from __future__ import annotations

import pytest
from qgis.core import QgsProject, QgsVectorLayer
from qgis.gui import QgsMapMouseEvent
from qgis.PyQt.QtCore import QCoreApplication, QEvent, QPoint, Qt

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
from geofidelity_plugin.core.evaluation.outputs import write_outputs
from geofidelity_plugin.core.store.store import BenchmarkStore


@pytest.fixture
def evaluated(tmp_path):
    store, vectors = make_store(tmp_path / "bench", per_city=2, refs=10, models=("m1",))
    result = evaluate_store(store, TableEmbedder(vectors), EvaluationOptions(n_bootstrap=100))
    manifest = evaluation_manifest(result, EvaluationOptions(n_bootstrap=100), store, [], [])
    paths = write_outputs(tmp_path / "eval", result, store.segments(), manifest, "m1", "L1")
    store.close()
    return tmp_path / "bench" / "store.sqlite", tmp_path / "eval", paths["gpkg"]


def _layer(gpkg, store, evaluation):
    layer = QgsVectorLayer(f"{gpkg}|layername=segment_scores", "scores", "ogr")
    assert layer.isValid()
    layer.setCustomProperty("geofidelity/store", str(store))
    layer.setCustomProperty("geofidelity/evaluation", str(evaluation))
    return layer


def _click(canvas, tool, layer, segment_id):
    feature = next(f for f in layer.getFeatures() if f["segment_id"] == segment_id)
    canvas.setExtent(feature.geometry().boundingBox().buffered(0.004))  # neighbours 0.01° away
    canvas.refresh()
    pixel = canvas.getCoordinateTransform().transform(feature.geometry().asPoint())
    event = QgsMapMouseEvent(canvas, QEvent.MouseButtonRelease, QPoint(int(pixel.x()), int(pixel.y())),
                             Qt.LeftButton, Qt.LeftButton, Qt.NoModifier)
    tool.canvasReleaseEvent(event)


def _settle(dock):
    dock.loader.wait()
    for _ in range(20):
        QCoreApplication.processEvents()


def _open(canvas, layer):
    QgsProject.instance().addMapLayer(layer)
    canvas.resize(600, 600)
    canvas.setLayers([layer])
    canvas.setExtent(layer.extent().buffered(0.02))
    canvas.refresh()


def test_click_fills_the_dock(qgis_app, qgis_canvas, evaluated):
    from geofidelity_plugin.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    target = "gb-beta-1"
    _click(qgis_canvas, tool, layer, target)
    assert dock.view is not None and dock.view.segment_id == target
    _settle(dock)
    assert dock.references.count() == 8 and "1/2" in dock.page_label.text()  # 10 images, paged by 8
    assert all(not dock.references.item(i).icon().isNull() for i in range(dock.references.count()))
    assert dock.generated.count() == 4
    assert "seed" in dock.generated.item(0).toolTip() and "L1 prompt" in dock.generated.item(0).toolTip()
    assert dock.negatives.count() >= 2
    headers = [dock.scores.horizontalHeaderItem(j).text() for j in range(dock.scores.columnCount())]
    assert "m1" in headers and "held_out_real" in headers
    assert dock.scores.item(0, headers.index("m1")).text() not in ("", "—")  # cos_sim
    assert target in dock.title.text() and "Street 1" in dock.title.text()
    selected = {f["segment_id"] for f in layer.selectedFeatures()}
    assert selected and target not in selected  # the gallery negatives are highlighted
    dock._turn(1)
    assert dock.references.count() == 2 and "2/2" in dock.page_label.text()
    QgsProject.instance().removeMapLayer(layer.id())


def test_audit_persists_after_project_reload(qgis_app, qgis_canvas, evaluated, tmp_path):
    from geofidelity_plugin.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    _click(qgis_canvas, tool, layer, "fi-alpha-0")
    dock.references.item(0).setSelected(True)
    dock.references.item(2).setSelected(True)
    dock.reject_button.click()  # the audit click, as a person does it
    project_file = tmp_path / "inspect.qgz"
    assert QgsProject.instance().write(str(project_file))
    QgsProject.instance().clear()
    assert QgsProject.instance().read(str(project_file))
    reloaded = QgsProject.instance().mapLayersByName("scores")[0]
    assert reloaded.customProperty("geofidelity/store") == str(store)
    _open(qgis_canvas, reloaded)
    dock2, tool2 = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool2.segmentIdentified.connect(dock2.show_feature)
    _click(qgis_canvas, tool2, reloaded, "fi-alpha-0")
    flags = [img.audit for img in dock2.view.references]
    assert flags.count("reject") == 2 and flags[0] == "reject" and flags[2] == "reject"
    assert "✘" in dock2.references.item(0).text()
    with BenchmarkStore(store, create=False) as s:
        kept = s.reference_panels()["fi-alpha-0"]
    assert len(kept) == 8  # the evaluation will leave the two rejected images out
    QgsProject.instance().clear()


def test_plugin_toolbar_action_opens_the_inspector(qgis_app, qgis_iface, qgis_canvas):
    """classFactory → initGui: the toolbar action shows the dock and makes the map tool current."""
    import geofidelity_plugin

    plugin = geofidelity_plugin.classFactory(qgis_iface)
    plugin.initGui()
    try:
        from qgis.core import QgsApplication

        assert QgsApplication.processingRegistry().providerById("geofidelity") is not None
        plugin.action.setChecked(True)
        assert plugin.dock is not None and not plugin.dock.isHidden()  # shown (its window is offscreen)
        assert qgis_iface.mapCanvas().mapTool() is plugin.tool
        plugin.action.setChecked(False)
        assert qgis_iface.mapCanvas().mapTool() is not plugin.tool
    finally:
        plugin.unload()
    from geofidelity_plugin.qgis_env import register_provider

    register_provider()  # other tests of this session use the provider


@pytest.mark.fault
def test_damaged_store_is_a_message_in_the_dock(qgis_app, qgis_canvas, evaluated):
    """A store damaged after the evaluation: the click shows what is wrong, QGIS gets no traceback."""
    from geofidelity_plugin.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    store.write_bytes(b"this is not a database any more\n" * 64)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    _click(qgis_canvas, tool, layer, "gb-beta-1")
    assert dock.view is None
    assert "cannot show this segment" in dock.title.text() and str(store) in dock.title.text()
    assert "not a GeoFidelity benchmark store" in dock.problem
    assert dock.references.count() == 0
    assert dock.set_audit("reject") == 0  # nothing selected, nothing raised
    QgsProject.instance().removeMapLayer(layer.id())
