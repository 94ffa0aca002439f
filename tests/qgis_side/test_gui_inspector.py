"""The inspector in real QGIS widgets (offscreen): a click on a known segment fills the dock
with that segment's thumbnails and scores; audit clicks persist after the project is reloaded.
The store and the images are read in worker threads, one segment per click, and the scores
file once per evaluation."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading

import pytest
from qgis.core import QgsProject, QgsVectorLayer
from qgis.gui import QgsMapMouseEvent
from qgis.PyQt.QtCore import QCoreApplication, QEvent, QPoint, Qt

from conftest import REPO
from eval_fixtures import CONDITIONS, TableEmbedder, make_store
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
from geofidelity_plugin.core.evaluation.outputs import write_outputs
from geofidelity_plugin.core.store.store import BenchmarkStore, GeneratedImage


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
    event = QgsMapMouseEvent(canvas, QEvent.Type.MouseButtonRelease, QPoint(int(pixel.x()), int(pixel.y())),
                             Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    tool.canvasReleaseEvent(event)


def _settle(dock):
    """Let the worker reads and thumbnail decodes finish and their queued signals arrive."""
    for _ in range(4):
        assert dock.pool.waitForDone(20000)
        QCoreApplication.processEvents()
        assert dock.loader.wait(20000)
        QCoreApplication.processEvents()


def _open(canvas, layer):
    QgsProject.instance().addMapLayer(layer)
    canvas.resize(600, 600)
    canvas.setLayers([layer])
    canvas.setExtent(layer.extent().buffered(0.02))
    canvas.refresh()


def test_click_fills_the_dock(qgis_app, qgis_canvas, evaluated):
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(canvas=qgis_canvas), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    target = "gb-beta-1"
    mine = sorted(f["segment_id"] for f in layer.getFeatures() if f["segment_id"] != target)[:1]
    layer.selectByExpression(f"\"segment_id\" = '{mine[0]}'")  # the user's own selection, for a later run
    assert layer.selectedFeatureCount() == 1
    _click(qgis_canvas, tool, layer, target)
    assert dock.loading and dock.view is None and "loading" in dock.title.text()  # the GUI did not wait
    _settle(dock)
    assert not dock.loading and dock.view is not None and dock.view.segment_id == target
    assert dock.references.count() == 8 and "1/2" in dock.page_label.text()  # 10 images, paged by 8
    assert all(not dock.references.item(i).icon().isNull() for i in range(dock.references.count()))
    assert dock.generated.count() == 4
    assert "seed" in dock.generated.item(0).toolTip() and "L1 prompt" in dock.generated.item(0).toolTip()
    assert dock.negatives.count() >= 2
    headers = [dock.scores.horizontalHeaderItem(j).text() for j in range(dock.scores.columnCount())]
    assert "m1" in headers and "held_out_real" in headers
    assert dock.scores.item(0, headers.index("m1")).text() not in ("", "—")  # Δhard, the primary score, first
    rows = [dock.scores.verticalHeaderItem(i).text() for i in range(dock.scores.rowCount())]
    assert rows[0] == "Δhard ↑" and "MMD² ↓" in rows and not any("_" in r for r in rows)  # the legend's names
    layout = dock.widget().widget().layout()
    order = [layout.itemAt(i).widget() for i in range(layout.count()) if layout.itemAt(i).widget() is not None]
    assert order.index(dock.scores) < order.index(dock.references)  # the scores come first
    assert dock.scores.height() >= dock.scores.verticalHeader().length()  # the table does not scroll on its own
    assert target in dock.title.text() and "Street 1" in dock.title.text()
    from geofidelity_plugin.qgis_side.gui.inspector_dock import NEGATIVE_RGBA, TARGET_RGBA

    assert [f["segment_id"] for f in layer.selectedFeatures()] == mine  # the selection stays the user's
    negatives = {neg for neg, _ in dock.view.negatives.values()}
    assert len(dock.highlights) == 1 + len(negatives) and all(h.isVisible() for h in dock.highlights)
    colours = sorted(h.color().getRgb() for h in dock.highlights)
    assert colours.count(TARGET_RGBA) == 1 and colours.count(NEGATIVE_RGBA) == len(negatives)
    dock._turn(1)
    assert dock.references.count() == 2 and "2/2" in dock.page_label.text()
    QgsProject.instance().removeMapLayer(layer.id())
    assert dock.highlights == []  # none outlives its layer


def test_audit_persists_after_project_reload(qgis_app, qgis_canvas, evaluated, tmp_path):
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    _click(qgis_canvas, tool, layer, "fi-alpha-0")
    _settle(dock)
    dock.references.item(0).setSelected(True)
    dock.references.item(2).setSelected(True)
    dock.reject_button.click()  # the audit click, as a person does it
    _settle(dock)  # the write runs in the worker
    assert [img.audit for img in dock.view.references].count("reject") == 2
    assert "2 image(s):" in dock.title.text() and "run 4b · Evaluate generated panels again" in dock.title.text()
    _click(qgis_canvas, tool, layer, "gb-beta-1")  # any segment of that store says so
    _settle(dock)
    assert "run 4b · Evaluate generated panels again" in dock.title.text()
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
    _settle(dock2)
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
    from geofidelity_plugin.qgis_side.qgis_env import register_provider

    register_provider()  # other tests of this session use the provider


@pytest.mark.fault
def test_damaged_store_is_a_message_in_the_dock(qgis_app, qgis_canvas, evaluated):
    """A store damaged after the evaluation: the click shows what is wrong, QGIS gets no traceback."""
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    store.write_bytes(b"this is not a database any more\n" * 64)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    _click(qgis_canvas, tool, layer, "gb-beta-1")
    _settle(dock)
    assert dock.view is None and not dock.loading
    assert "cannot show this segment" in dock.title.text() and str(store) in dock.title.text()
    assert "not a GeoFidelity benchmark store" in dock.problem
    assert dock.references.count() == 0
    assert dock.set_audit("reject") == 0  # nothing selected, nothing raised
    QgsProject.instance().removeMapLayer(layer.id())


# -- one segment per click, off the GUI thread ------------------------------------------------------
def _synthetic_store(path, n_segments, models=("m1", "m2"), refs=3, samples=4):
    """A store of ``n_segments`` (image files are not needed to read the store)."""
    ids = [f"seg-{i:04d}" for i in range(n_segments)]
    with BenchmarkStore(path) as store:
        store.put_segments([{"segment_id": sid, "city": f"C{i % 5}", "street_name": f"Street {i}", "length_m": 100 + i,
                             "centroid_lon": i * 0.01, "centroid_lat": 60.0} for i, sid in enumerate(ids)])
        store.put_reference_images([{"reference_id": f"{sid}:{j}", "segment_id": sid, "image_id": f"{sid}-{j}",
                                     "image_path": f"refs/{sid}/{j}.jpg"} for sid in ids for j in range(refs)])
        store.put_generated([GeneratedImage(m, c, sid, s, f"gen/{m}/{c}/{sid}/{s}.png", seed=s, prompt=f"{c} prompt")
                             for m in models for c in CONDITIONS for sid in ids for s in range(samples)])
        store.put_galleries({sid: {"nearest_same_city": ids[(i + 1) % n_segments],
                                   "random_other_city": ids[(i + 3) % n_segments]} for i, sid in enumerate(ids)})
    return ids


def _traced_click(reader, segment_id):
    """The view, the SQL statements run for it and the SQLite VM steps (in hundreds) they took."""
    db = reader.connection()
    statements, steps = [], [0]

    def step():
        steps[0] += 1
        return 0

    db.set_trace_callback(statements.append)
    db.set_progress_handler(step, 100)
    try:
        view = reader.view(segment_id, "m2", "L2")
    finally:
        db.set_trace_callback(None)
        db.set_progress_handler(None, 0)
    return view, statements, steps[0]


def test_a_click_reads_only_that_segment(tmp_path):
    from geofidelity_plugin.core.inspect.segment_view import SegmentReader

    small_ids = _synthetic_store(tmp_path / "small.sqlite", 8)
    big_ids = _synthetic_store(tmp_path / "big.sqlite", 400)
    small, big = SegmentReader(tmp_path / "small.sqlite"), SegmentReader(tmp_path / "big.sqlite")
    view, statements, small_steps = _traced_click(small, small_ids[4])
    big_view, big_statements, big_steps = _traced_click(big, big_ids[200])
    assert big_view.segment_id == "seg-0200" and big_view.facts["length_m"] == 300
    assert [i.reference_id for i in big_view.references] == [f"seg-0200:{j}" for j in range(3)]
    assert big_view.references[0].path == str((tmp_path / "refs" / "seg-0200" / "0.jpg").resolve())
    assert {k: n for k, (n, _) in big_view.negatives.items()} == {"nearest_same_city": "seg-0201",
                                                                  "random_other_city": "seg-0203"}
    assert (big_view.model, big_view.condition, len(big_view.generated)) == ("m2", "L2", 4)
    assert big_view.models == ["m1", "m2"] and big_view.conditions == sorted(CONDITIONS)
    assert "L2 prompt" in big_view.generated[0].tooltip
    # the same statements for 8 or 400 segments, each an index look-up, and no more work for 50× the rows
    assert len(big_statements) == len(statements)
    plans = {sql: [row[-1] for row in big.connection().execute("EXPLAIN QUERY PLAN " + sql)] for sql in big_statements}
    scans = {sql: plan for sql, plan in plans.items() if any(p.startswith("SCAN") for p in plan)}
    assert not scans
    segment_reads = [sql for sql in big_statements if "segment_id =" in sql]
    assert segment_reads and all(any(f"'{sid}'" in sql for sid in ("seg-0200", "seg-0201", "seg-0203"))
                                 for sql in segment_reads)
    assert big_steps <= 2 * small_steps + 2
    small.close(), big.close()


def test_reader_of_a_damaged_or_foreign_file_says_so(tmp_path):
    from geofidelity_plugin.core.errors import InputError
    from geofidelity_plugin.core.inspect.segment_view import SegmentReader

    _synthetic_store(tmp_path / "store.sqlite", 4)
    with pytest.raises(InputError, match="is not in store.sqlite — pick a segment"):
        SegmentReader(tmp_path / "store.sqlite").view("nowhere")
    with pytest.raises(InputError, match="benchmark store not found"):
        SegmentReader(tmp_path / "missing.sqlite").view("seg-0000")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE roads (id TEXT)")
    with pytest.raises(InputError, match="not a GeoFidelity benchmark store .* segments or reference_images"):
        SegmentReader(other).view("seg-0000")
    # a store without an evaluation folder has no scores, and a missing scores file is a note
    reader = SegmentReader(tmp_path / "store.sqlite", tmp_path / "no-evaluation-here")
    view = reader.view("seg-0001")
    assert view.scores == {} and "no per_panel_scores.csv" in view.notes[0] and "run Evaluate" in view.notes[0]


def test_the_negative_kinds_are_the_gallery_kinds():
    from geofidelity_plugin.core.evaluation.galleries import ALL_KINDS
    from geofidelity_plugin.core.inspect.segment_view import NEGATIVE_KINDS

    assert NEGATIVE_KINDS == ALL_KINDS


def test_clicks_read_in_a_worker_and_the_scores_file_once(qgis_app, qgis_canvas, evaluated):
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    gui_thread = threading.get_ident()
    _click(qgis_canvas, tool, layer, "fi-alpha-0")
    _settle(dock)
    reader = dock.reader
    statements = []
    reader.connection().set_trace_callback(lambda sql: statements.append((threading.get_ident(), sql)))
    _click(qgis_canvas, tool, layer, "gb-beta-1")
    _settle(dock)
    assert dock.view.segment_id == "gb-beta-1" and dock.reader is reader  # one reader per store and evaluation
    assert reader.scores.loads == 1  # two segments, one read of per_panel_scores.csv
    assert statements and gui_thread not in {thread for thread, _ in statements}
    assert any("'gb-beta-1'" in sql for _, sql in statements) and not any("'fi-alpha-0'" in sql for _, sql in statements)
    assert dock.read_threads and gui_thread not in dock.read_threads
    assert dock.loader.decoder_threads and gui_thread not in dock.loader.decoder_threads
    # a new evaluation into the same folder: the next click reads the file again
    csv_path = evaluation / "per_panel_scores.csv"
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    column = header.index("cos_sim")
    for n, line in enumerate(lines):
        cells = line.split(",")
        if cells[:3] == ["m1", "L1", "gb-beta-1"]:
            cells[column] = "0.25"
            lines[n] = ",".join(cells)
    csv_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _click(qgis_canvas, tool, layer, "gb-beta-1")
    _settle(dock)
    assert reader.scores.loads == 2
    headers = [dock.scores.horizontalHeaderItem(j).text() for j in range(dock.scores.columnCount())]
    from geofidelity_plugin.qgis_side.gui.inspector_dock import SCORE_ROWS

    assert dock.scores.item(SCORE_ROWS.index("cos_sim"), headers.index("m1")).text() == "0.250"
    # a damaged scores file: the panels are shown, the scores are a message
    csv_path.write_text("segment,value\nx,1\n", encoding="utf-8")
    _click(qgis_canvas, tool, layer, "fi-alpha-0")
    _settle(dock)
    assert dock.view is not None and dock.references.count() == 8 and dock.scores.columnCount() == 0
    assert "not a per-panel scores file" in dock.title.text() and "run Evaluate" in dock.title.text()
    dock.stop()
    QgsProject.instance().removeMapLayer(layer.id())


def test_a_newer_click_supersedes_an_older_one(qgis_app, qgis_canvas, evaluated):
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    shown, fill = [], dock._fill
    dock._fill = lambda: (shown.append(dock.view.segment_id), fill())
    _click(qgis_canvas, tool, layer, "fi-alpha-0")
    _click(qgis_canvas, tool, layer, "gb-beta-1")  # before the first read came back
    _settle(dock)
    assert shown == ["gb-beta-1"]
    assert {dock.references.item(i).data(Qt.ItemDataRole.UserRole + 1).split(":")[0] for i in range(dock.references.count())} \
        == {"gb-beta-1"}
    dock.stop()
    QgsProject.instance().removeMapLayer(layer.id())


def test_thumbnails_are_decoded_in_a_worker_and_older_requests_dropped(qgis_app, evaluated):
    from geofidelity_plugin.qgis_side.gui.thumbnails import ThumbnailLoader

    store, _, _ = evaluated
    images = sorted(str(p) for p in (store.parent / "refs").rglob("*.png"))
    loader, arrived = ThumbnailLoader(), []
    loader.ready.connect(lambda path, size, image: arrived.append((path, size, image.width(), image.height())))
    for path in images[:6]:
        loader.request(path, 16)
    loader.begin()  # a new click: what the first one asked for is no longer delivered
    for path in images[6:9]:
        loader.request(path, 16)
    assert arrived == []  # nothing decoded on the GUI thread while requesting
    assert loader.wait()
    QCoreApplication.processEvents()
    assert sorted(a[0] for a in arrived) == images[6:9]
    assert all(size == 16 and (w, h) == (16, 12) for _, size, w, h in arrived)  # 32×24 scaled to fit 16
    assert loader.decoder_threads and threading.get_ident() not in loader.decoder_threads
    loader.request(images[6], 16)  # from the cache, at once
    assert arrived[-1][0] == images[6] and len(arrived) == 4


_NO_HEAVY_IMPORTS = r"""
import builtins, json, sys
import qgis.gui  # noqa: F401 — QGIS's own start (QGIS 3.40's qgis.core itself imports numpy and shapely)
from qgis.core import QgsApplication, QgsFeature, QgsVectorLayer
from qgis.PyQt.QtCore import QCoreApplication
app = QgsApplication([], False)
app.initQgis()
HEAVY = ("numpy", "PIL", "torch", "scipy", "transformers", "diffusers", "shapely", "pyproj")
qgis_loaded = set(sys.modules)
requested, _import = set(), builtins.__import__
def _attributing_import(name, globals=None, locals=None, fromlist=(), level=0):
    # an import the plugin asks for, even of a module QGIS has loaded already
    frame = sys._getframe(1)
    while frame is not None and level == 0 and name.split(".")[0] in HEAVY:
        if frame.f_globals.get("__name__", "").startswith("geofidelity_plugin"):
            requested.add(name.split(".")[0])
            break
        frame = frame.f_back
    return _import(name, globals, locals, fromlist, level)
builtins.__import__ = _attributing_import
from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool
layer = QgsVectorLayer("Point?crs=EPSG:4326&field=segment_id:string", "segments", "memory")
layer.setCustomProperty("geofidelity/store", sys.argv[1])
layer.setCustomProperty("geofidelity/evaluation", sys.argv[2])
feature = QgsFeature(layer.fields())
feature["segment_id"] = "gb-beta-1"
dock = InspectorDock()
dock.show_feature(layer, feature)
for _ in range(4):
    dock.pool.waitForDone(20000); QCoreApplication.processEvents()
    dock.loader.wait(20000); QCoreApplication.processEvents()
heavy = [m for m in HEAVY if (m in sys.modules and m not in qgis_loaded) or m in requested]
print(json.dumps({"heavy": heavy, "shown": dock.view.segment_id if dock.view else dock.title.text(),
                  "references": dock.references.count()}))
dock.stop()
"""


def test_the_dock_imports_no_scientific_stack(evaluated):
    store, evaluation, _ = evaluated
    out = subprocess.run([sys.executable, "-c", _NO_HEAVY_IMPORTS, str(store), str(evaluation)], cwd=REPO,
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"heavy": [], "shown": "gb-beta-1", "references": 8}


def test_the_dock_credits_osm_mapillary_the_creator_and_stand_ins(qgis_app, qgis_canvas, evaluated):
    """Attribution under the thumbnails (issue 15 item 6): the OSM and Mapillary lines, the
    creator the store recorded for the segment's images, the stand-in note when the store holds
    stand-ins; the "Atlas PDF…" button's dialog is filled in for the layer."""
    from geofidelity_plugin.core.attribution import MAPILLARY, OSM, STAND_IN
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    store, evaluation, gpkg = evaluated
    target = "gb-beta-1"
    with BenchmarkStore(store, create=False) as s:
        s.put_candidates([{"segment_id": target, "image_id": "img-1", "lon": 0.0, "lat": 0.0, "status": "kept",
                           "record": {"creator": {"id": "42", "username": "kartta_kari"}}},
                          {"segment_id": target, "image_id": "img-2", "lon": 0.0, "lat": 0.0, "status": "rejected",
                           "record": {"creator": {"id": "7", "username": "not_shown"}}}])
    layer = _layer(gpkg, store, evaluation)
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    _click(qgis_canvas, tool, layer, target)
    _settle(dock)
    text = dock.credits.text()
    assert OSM in text and f"{MAPILLARY} — photos by kartta_kari" in text
    assert "not_shown" not in text and STAND_IN not in text  # a rejected image is not shown; no stand-ins here
    with BenchmarkStore(store, create=False) as s:
        s.set_meta("stand_in", "STAND-IN DATA: test")
    _click(qgis_canvas, tool, layer, "gb-beta-0")
    _settle(dock)
    assert STAND_IN in dock.credits.text() and "kartta_kari" not in dock.credits.text()  # another segment
    params = dock.atlas_parameters()
    assert params["STORE"] == str(store) and params["EVALUATION_FOLDER"] == str(evaluation)
    assert params["OUTPUT"] == str(evaluation / "atlas.pdf") and params["MODELS"] == "m1"
    assert dock.atlas_button.text() == "Atlas PDF…"
    QgsProject.instance().removeMapLayer(layer.id())


# -- projects that travel -------------------------------------------------------------------------
def _project_in(folder, store, evaluation, gpkg):
    """A saved project in ``folder`` with the score layer linked as the Processing loader links it."""
    from geofidelity_plugin.qgis_side.project_links import set_links

    QgsProject.instance().clear()
    layer = QgsVectorLayer(f"{gpkg}|layername=segment_scores", "scores", "ogr")
    set_links(layer, {"geofidelity/store": str(store), "geofidelity/evaluation": str(evaluation)})
    QgsProject.instance().addMapLayer(layer)
    project = folder / "bench.qgz"
    assert QgsProject.instance().write(str(project))
    QgsProject.instance().clear()
    return project


def _open_and_click(qgis_canvas, project, segment_id="gb-beta-1"):
    from geofidelity_plugin.qgis_side.gui.inspector_dock import InspectorDock
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    assert QgsProject.instance().read(str(project))
    layer = QgsProject.instance().mapLayersByName("scores")[0]
    _open(qgis_canvas, layer)
    dock, tool = InspectorDock(canvas=qgis_canvas), SegmentIdentifyTool(qgis_canvas)
    tool.segmentIdentified.connect(dock.show_feature)
    _click(qgis_canvas, tool, layer, segment_id)
    _settle(dock)
    return dock


def test_a_copied_project_reads_its_own_store_and_a_moved_one_finds_it(qgis_app, qgis_canvas, evaluated, tmp_path):
    import shutil

    store, evaluation, gpkg = evaluated
    project = _project_in(tmp_path, store, evaluation, gpkg)
    copy = tmp_path.parent / f"{tmp_path.name}-copy"
    shutil.copytree(tmp_path, copy)
    before = store.stat().st_mtime_ns
    dock = _open_and_click(qgis_canvas, copy / project.name)
    assert dock.view is not None and dock.reader.path == copy / store.relative_to(tmp_path)
    assert dock.source == (str(copy / store.relative_to(tmp_path)), str(copy / evaluation.relative_to(tmp_path)))
    assert dock.atlas_parameters()["OUTPUT"].startswith(str(copy))  # the atlas goes into the copy too
    dock.references.item(0).setSelected(True)
    dock.reject_button.click()  # an audit written into the copy's store only
    _settle(dock)
    assert store.stat().st_mtime_ns == before
    QgsProject.instance().clear()
    dock.stop()
    moved = tmp_path.parent / f"{tmp_path.name}-moved"
    shutil.move(str(copy), str(moved))  # the copy moved away: its absolute links now point nowhere
    dock = _open_and_click(qgis_canvas, moved / project.name)
    assert dock.view is not None and dock.reader.path == moved / store.relative_to(tmp_path)
    QgsProject.instance().clear()
    dock.stop()


def test_another_project_starts_from_a_clean_dock(qgis_app, qgis_canvas, evaluated, tmp_path):
    store, evaluation, gpkg = evaluated
    dock = _open_and_click(qgis_canvas, _project_in(tmp_path, store, evaluation, gpkg))
    assert dock.view is not None and dock.source[0] == str(store)
    QgsProject.instance().clear()  # File › New, or another project opened
    assert dock.view is None and dock.source == (None, None) and dock.layer is None and dock.highlights == []
    assert str(store) not in dock.title.text() and dock.references.count() == 0 and dock.model_box.count() == 0
    dock.stop()


def test_thumbnails_keep_their_size_over_clicks_and_projects(qgis_app, qgis_canvas, evaluated, tmp_path):
    """Every thumbnail cell stays a thumbnail (not a strip of its caption) across 20 clicks, a
    project reload included, and the layer's selection never changes."""
    from geofidelity_plugin.qgis_side.gui.inspector_dock import THUMB

    store, evaluation, gpkg = evaluated
    project = _project_in(tmp_path, store, evaluation, gpkg)
    dock = _open_and_click(qgis_canvas, project)
    dock.show()
    layer = QgsProject.instance().mapLayersByName("scores")[0]
    ids = sorted(f["segment_id"] for f in layer.getFeatures())
    from geofidelity_plugin.qgis_side.gui.map_tool import SegmentIdentifyTool

    for n in range(20):
        if n == 10:  # the project again, as File › Open does
            assert QgsProject.instance().read(str(project))
            layer = QgsProject.instance().mapLayersByName("scores")[0]
            _open(qgis_canvas, layer)
        tool = SegmentIdentifyTool(qgis_canvas)
        tool.segmentIdentified.connect(dock.show_feature)
        _click(qgis_canvas, tool, layer, ids[n % len(ids)])
        _settle(dock)
        QCoreApplication.processEvents()
        assert layer.selectedFeatureCount() == 0
        assert str(tmp_path) in (dock.source[0] or "")
        for widget in (dock.references, dock.negatives, dock.generated):
            for i in range(widget.count()):
                rect = widget.visualItemRect(widget.item(i))
                assert rect.height() >= THUMB and rect.width() >= THUMB, (n, widget.objectName(), i, rect)
    QgsProject.instance().clear()
    dock.stop()
    dock.hide()
