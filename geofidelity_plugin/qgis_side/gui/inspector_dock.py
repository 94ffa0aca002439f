"""The segment inspector dock: a clicked road's facts, reference panel (paged, with accept /
reject audit buttons kept in the benchmark store), gallery negatives, the generated panel of
the chosen model and condition, and its scores beside the real anchors.

Nothing here reads a file on the GUI thread: a click starts a read of that one segment
(:class:`~geofidelity_plugin.core.inspect.segment_view.SegmentReader`) in a worker thread
(:mod:`.inspector_tasks`), the dock says "loading…", and the result arrives through a queued
signal; a newer click supersedes an older one. Thumbnails are decoded in workers too
(:mod:`.thumbnails`) and shown in fixed-size galleries (:mod:`.gallery_widget`).
"""
from __future__ import annotations

from html import escape
from pathlib import Path

from qgis.PyQt.QtCore import QThreadPool, Qt, pyqtSlot
from qgis.PyQt.QtGui import QIcon, QImage, QPixmap
from qgis.PyQt.QtWidgets import (QAbstractItemView, QComboBox, QDialog, QDockWidget, QHBoxLayout, QLabel,
                                 QListWidget, QListWidgetItem, QPushButton, QScrollArea, QTableWidget,
                                 QVBoxLayout, QWidget)

from geofidelity_plugin.qgis_side.gui.gallery_widget import THUMB, _gallery
from geofidelity_plugin.qgis_side.gui.inspector_tasks import _Task, _TaskSignals, _with_credits
from geofidelity_plugin.qgis_side.gui.map_highlights import (NEGATIVE_RGBA, TARGET_RGBA,  # noqa: F401
                                                              clear_highlights, highlight_gallery)
from geofidelity_plugin.qgis_side.gui.score_table import SCORE_ROWS, SCORES, SCORES_KEY, fill_score_table  # noqa: F401
from geofidelity_plugin.qgis_side.gui.thumbnails import ThumbnailLoader
from geofidelity_plugin.qgis_side.project_links import EVALUATION_PROPERTY, STORE_PROPERTY, resolve_link  # noqa: F401

PAGE_SIZE = 8
FULL = 1200
#: shown under every segment of a store whose audit this dock changed: the curation and the scores
#: were computed before it
STALE_NOTE = ("the audit changed after the scores were computed: run 4b · Evaluate generated panels again "
              "(and 2b · Curate reference panels first, to refill the panel from the other candidates)")


class InspectorDock(QDockWidget):
    def __init__(self, parent=None, canvas=None):
        super().__init__("GeoFidelity inspector", parent)
        self.canvas = canvas  # where the highlights are drawn (None: QGIS's main map canvas)
        self.highlights: list = []
        self.audited: dict[str, int] = {}  # store → images whose audit this dock changed
        from qgis.core import QgsProject

        QgsProject.instance().layersWillBeRemoved.connect(self.clear_highlights)  # none outlives its layer
        QgsProject.instance().cleared.connect(self.reset)  # a new or another project: nothing of this one stays
        self.setObjectName("GeoFidelityInspector")
        self.setMinimumWidth(560)
        self.loader = ThumbnailLoader(self)
        self.loader.ready.connect(self._thumbnail_ready)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)  # reads and audit writes in click order, one at a time
        self.task_signals = _TaskSignals()
        self.task_signals.finished.connect(self._task_done)
        self.token = 0
        self.read_threads: set[int] = set()  # threading.get_ident() of each thread that read the store
        self.readers: dict = {}  # (store, evaluation folder) → SegmentReader, used by the worker only
        self.items: dict[str, list[QListWidgetItem]] = {}
        self.view = self.reader = self.layer = None
        self.segment_id = self.problem = None
        self.attributes: dict = {}
        self.source = (None, None)  # the layer's store and evaluation folder properties
        self.loading = False
        self.page = 0
        self.full_view = self.full_path = None
        body = QWidget(self)
        layout = QVBoxLayout(body)
        self.title = QLabel("Click a GeoFidelity road segment on the map.", body)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.title)
        pick = QHBoxLayout()
        self.model_box, self.condition_box = QComboBox(body), QComboBox(body)
        for label, box in (("Model", self.model_box), ("Condition", self.condition_box)):
            pick.addWidget(QLabel(label, body))
            pick.addWidget(box, 1)
            box.activated.connect(self._reload)
        self.atlas_button = QPushButton("Atlas PDF…", body)
        self.atlas_button.setToolTip("A PDF with one page per segment of this layer's benchmark (geofidelity:atlas)")
        self.atlas_button.clicked.connect(self.open_atlas_dialog)
        pick.addWidget(self.atlas_button)
        layout.addLayout(pick)
        key = QLabel(SCORES_KEY, body)
        key.setWordWrap(True)
        key.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(key)
        self.scores = QTableWidget(0, 0, body)  # as tall as its rows: the dock scrolls, not the table
        self.scores.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scores.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        layout.addWidget(self.scores)
        layout.addWidget(QLabel("<b>Reference panel</b> (double click: full size)", body))
        self.references = _gallery(body)
        layout.addWidget(self.references)
        row = QHBoxLayout()
        self.prev_button, self.next_button = QPushButton("◀", body), QPushButton("▶", body)
        self.page_label = QLabel("", body)
        self.accept_button, self.reject_button = QPushButton("Accept", body), QPushButton("Reject", body)
        for w in (self.prev_button, self.page_label, self.next_button, self.accept_button, self.reject_button):
            row.addWidget(w)
        self.prev_button.clicked.connect(lambda: self._turn(-1))
        self.next_button.clicked.connect(lambda: self._turn(1))
        self.accept_button.clicked.connect(lambda: self.set_audit("accept"))
        self.reject_button.clicked.connect(lambda: self.set_audit("reject"))
        layout.addLayout(row)
        layout.addWidget(QLabel("<b>Gallery negatives</b>", body))
        self.negatives = _gallery(body)
        layout.addWidget(self.negatives)
        layout.addWidget(QLabel("<b>Generated panel</b> (hover: seed and prompt)", body))
        self.generated = _gallery(body)
        layout.addWidget(self.generated)
        self.credits = QLabel("", body)  # attribution of what the thumbnails show (method §1 data sources)
        self.credits.setWordWrap(True)
        self.credits.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.credits)
        for widget in (self.references, self.negatives, self.generated):
            widget.itemDoubleClicked.connect(self._open_full)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setWidget(scroll)

    # -- context --------------------------------------------------------------------------
    def show_feature(self, layer, feature) -> None:
        """Slot for the map tool: show ``feature`` of ``layer`` (its store and evaluation are
        the layer's properties, or the store its evaluation's manifest names)."""
        self.layer = layer
        self.source = (resolve_link(layer, STORE_PROPERTY), resolve_link(layer, EVALUATION_PROPERTY))
        self.page = 0
        attributes = dict(zip(feature.fields().names(), feature.attributes()))
        for box, key in ((self.model_box, "model"), (self.condition_box, "condition")):
            if attributes.get(key):  # a score layer: show the panel it maps
                box.blockSignals(True)
                box.clear()
                box.addItem(str(attributes[key]))
                box.blockSignals(False)
        self.show_segment(str(feature["segment_id"]), attributes)

    def show_segment(self, segment_id: str, attributes: dict | None = None) -> None:
        """Start reading ``segment_id`` in the worker; until it arrives the dock says "loading…"."""
        self.segment_id, self.attributes = segment_id, attributes or {}
        store, evaluation = self.source
        model, condition = self.model_box.currentText() or None, self.condition_box.currentText() or None
        self.view = None
        self._clear(f"<b>{escape(segment_id)}</b> — loading…")
        self.loading = True
        self._start(lambda: self._read(store, evaluation, segment_id, model, condition), skip_when_stale=True)

    def _start(self, work, skip_when_stale: bool) -> None:
        self.token += 1
        self.loader.begin()
        self.pool.start(_Task(self, self.token, work, skip_when_stale))

    def _read(self, store, evaluation, segment_id, model, condition):
        """In the worker: (reader, view), or ``None`` when the layer links to no store."""
        from geofidelity_plugin.core.inspect.segment_view import SegmentReader, linked_store

        store = linked_store(store, evaluation)
        if store is None:
            return None
        key = (store, evaluation)
        if key not in self.readers:
            self.readers[key] = SegmentReader(store, evaluation)
        reader = self.readers[key]
        return reader, _with_credits(reader, reader.view(segment_id, model, condition))

    @pyqtSlot(int, object, str, str)  # a Qt slot: disconnected when the dock is deleted
    def _task_done(self, token: int, result, problem: str, details: str) -> None:
        if token != self.token:  # a newer click superseded this read
            return
        self.loading = False
        if details:
            from qgis.core import Qgis, QgsMessageLog

            QgsMessageLog.logMessage(details, "GeoFidelity", Qgis.MessageLevel.Critical)
        if problem:
            self._show_problem(self.segment_id, problem)
        elif result is None:
            attrs = self.attributes
            self.view = self.reader = None
            self._clear(f"<b>{escape(str(attrs.get('street_name', self.segment_id)))}</b> — "
                        f"{escape(str(attrs.get('city', '')))}<br>{escape(self.segment_id)}<br>"
                        "<i>no benchmark store linked to this layer: run Evaluate</i>")
        else:
            self.reader, self.view = result
            self._fill()

    def _clear(self, title: str) -> None:
        self.title.setText(title)
        for w in (self.references, self.negatives, self.generated):
            w.clear()
        self.scores.setRowCount(0)
        self.credits.setText("")
        self.page_label.setText("")
        self.items.clear()

    def _show_problem(self, segment_id: str, problem: str) -> None:
        self.view, self.problem = None, problem
        self._clear(f"{escape(segment_id)}<br><span style='color:#b2182b'><b>cannot show this segment:</b> "
                    f"{escape(problem)}</span>")

    def _reload(self, *_):
        if self.segment_id:
            self.show_segment(self.segment_id, self.attributes)

    def stop(self, msecs: int = 2000) -> None:
        """Drop what is queued, wait for the reads under way and close the store connections."""
        self.token += 1
        self.clear_highlights()
        self.loader.begin()
        self.pool.waitForDone(msecs)
        self.loader.wait(msecs)
        for reader in self.readers.values():
            reader.close()
        self.readers.clear()

    def reset(self) -> None:
        """Forget the project that was open (its layer, links, segment, scores, audit notes): the
        next project starts from a clean dock."""
        self.stop()
        self.view = self.reader = self.layer = None
        self.segment_id = self.problem = None
        self.attributes, self.source, self.audited, self.page = {}, (None, None), {}, 0
        for box in (self.model_box, self.condition_box):
            box.clear()
        self._clear("Click a GeoFidelity road segment on the map.")

    # -- filling --------------------------------------------------------------------------
    def _fill(self) -> None:
        v, f = self.view, self.view.facts
        lines = [f"<span style='color:#b2182b'><b>{escape(str(v.stand_in))}</b></span>"] if v.stand_in else []
        lines += [f"<span style='color:#b2182b'>{escape(note)}</span>" for note in v.notes]
        if self.reader is not None and str(self.reader.path) in self.audited:
            lines.append(f"<span style='color:#b35806'><b>{self.audited[str(self.reader.path)]} image(s):</b> "
                         f"{escape(STALE_NOTE)}</span>")
        self.title.setText(f"<b>{escape(str(f.get('street_name')))}</b> — {escape(str(f.get('neighbourhood') or '?'))}, "
                           f"{escape(str(f.get('city')))} ({escape(str(f.get('country_code')))}, "
                           f"{escape(str(f.get('road_class')))}, drives {escape(str(f.get('driving_side')))})<br>"
                           + "<br>".join([escape(v.segment_id), *lines]))
        for box, values, current in ((self.model_box, v.models, v.model), (self.condition_box, v.conditions, v.condition)):
            box.blockSignals(True)
            box.clear()
            box.addItems(values)
            if current in values:
                box.setCurrentText(current)
            box.blockSignals(False)
        self.items.clear()
        self._fill_references()
        self.negatives.clear()
        for kind, (neg_id, images) in v.negatives.items():
            for img in images[:2]:
                self._add(self.negatives, img.path, kind.replace("_", " "), f"{kind}: {neg_id}\n{img.path}")
        self.generated.clear()
        for img in v.generated:
            self._add(self.generated, img.path, img.label, img.tooltip)
        self._fill_scores()
        self.credits.setText("<br>".join(f"<small>{escape(line)}</small>" for line in v.credits))
        self._highlight_gallery()

    def _fill_references(self) -> None:
        refs = self.view.references
        pages = max(1, (len(refs) + PAGE_SIZE - 1) // PAGE_SIZE)
        self.page = min(self.page, pages - 1)
        self.page_label.setText(f"{self.page + 1}/{pages} · {len(refs)} images")
        self.references.clear()
        for number, img in enumerate(refs[self.page * PAGE_SIZE:(self.page + 1) * PAGE_SIZE],
                                     start=self.page * PAGE_SIZE + 1):
            mark = {"accept": " ✔", "reject": " ✘"}.get(img.audit or "", "")
            item = self._add(self.references, img.path, f"#{number}{mark}", f"{img.label}\n{img.tooltip}")
            item.setData(Qt.ItemDataRole.UserRole + 1, img.reference_id)

    def _fill_scores(self) -> None:
        fill_score_table(self.scores, self.view.scores)

    def _add(self, widget: QListWidget, path: str, label: str, tooltip: str) -> QListWidgetItem:
        item = QListWidgetItem(QIcon(), label)
        # the cell's size now, before the thumbnail arrives: with uniform sizes the first item sets
        # every cell's size, and an item without its icon yet would make them all caption strips
        item.setSizeHint(widget.gridSize())
        item.setToolTip(tooltip)
        item.setData(Qt.ItemDataRole.UserRole, path)
        widget.addItem(item)
        self.items.setdefault(path, []).append(item)
        self.loader.request(path, THUMB)
        return item

    @pyqtSlot(str, int, QImage)
    def _thumbnail_ready(self, path, size, image) -> None:
        if size == FULL and path == self.full_path and self.full_view is not None:
            self._show_full(image)
            return
        if size != THUMB or image.isNull():
            return
        icon = QIcon(QPixmap.fromImage(image))
        for item in self.items.get(path, []):
            try:
                item.setIcon(icon)
            except RuntimeError:  # the item was cleared meanwhile
                pass

    def _map_canvas(self):
        if self.canvas is not None:
            return self.canvas
        from qgis import utils

        return utils.iface.mapCanvas() if utils.iface is not None else None

    def _highlight_gallery(self) -> None:
        """Draw the clicked road and its gallery negatives over the map (the selection stays)."""
        self.clear_highlights()
        if self.layer is not None and self.view is not None and self._map_canvas() is not None:
            negatives = {neg for neg, _ in self.view.negatives.values()}
            self.highlights = highlight_gallery(self._map_canvas(), self.layer, self.view.segment_id, negatives)

    def clear_highlights(self) -> None:
        clear_highlights(self.highlights)
        self.highlights = []

    # -- actions --------------------------------------------------------------------------
    def atlas_parameters(self) -> dict:
        from geofidelity_plugin.qgis_side.gui.atlas_button import atlas_parameters

        return atlas_parameters(self.source, self.model_box.currentText(), self.condition_box.currentText())

    def open_atlas_dialog(self) -> None:
        from geofidelity_plugin.qgis_side.gui.atlas_button import open_atlas_dialog

        open_atlas_dialog(self.atlas_parameters())

    def _turn(self, step: int) -> None:
        if self.view:
            self.page = max(0, self.page + step)
            self._fill_references()

    def set_audit(self, decision: str) -> int:
        """Set the manual audit flag of the selected reference images in the store (in the
        worker), then show the segment again; the number of images sent to the store."""
        chosen = [i.data(Qt.ItemDataRole.UserRole + 1) for i in self.references.selectedItems()
                  if i.data(Qt.ItemDataRole.UserRole + 1)]
        if not chosen or self.view is None or self.reader is None:
            return 0
        reader, segment_id = self.reader, self.segment_id
        model, condition = self.view.model, self.view.condition

        def write_then_read():
            from geofidelity_plugin.core.store.store import BenchmarkStore

            with BenchmarkStore(reader.path, create=False) as store:
                for reference_id in chosen:
                    store.set_audit(reference_id, decision)
            self.audited[str(reader.path)] = self.audited.get(str(reader.path), 0) + len(chosen)
            return reader, _with_credits(reader, reader.view(segment_id, model, condition))

        self.title.setText(self.title.text() + "<br><i>saving the audit…</i>")
        self.loading = True
        self._start(write_then_read, skip_when_stale=False)  # a later click never drops an audit
        return len(chosen)

    def _open_full(self, item) -> None:
        self.full_path = item.data(Qt.ItemDataRole.UserRole)
        dialog = QDialog(self)
        dialog.setWindowTitle(Path(self.full_path).name)
        self.full_label = QLabel("loading…", dialog)
        QVBoxLayout(dialog).addWidget(self.full_label)
        dialog.show()
        self.full_view = dialog
        self.loader.request(self.full_path, FULL)

    def _show_full(self, image) -> None:
        try:
            if image.isNull():
                self.full_label.setText(f"{escape(self.full_path)} cannot be read — check that the file exists")
            else:
                self.full_label.setPixmap(QPixmap.fromImage(image))
        except RuntimeError:  # the dialog was closed meanwhile
            pass
