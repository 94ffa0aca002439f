"""The segment inspector dock: a clicked road's facts, reference panel (paged, with accept /
reject audit buttons kept in the benchmark store), gallery negatives, the generated panel of
the chosen model and condition, and its scores beside the real anchors."""
from __future__ import annotations

from pathlib import Path

from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QIcon, QPixmap
from qgis.PyQt.QtWidgets import (QAbstractItemView, QComboBox, QDialog, QDockWidget, QHBoxLayout, QLabel,
                                 QListView, QListWidget, QListWidgetItem, QPushButton, QScrollArea,
                                 QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from .thumbnails import ThumbnailLoader

STORE_PROPERTY = "geofidelity/store"
EVALUATION_PROPERTY = "geofidelity/evaluation"
PAGE_SIZE = 8
THUMB = 112
SCORE_ROWS = ("cos_sim", "top1", "chance_adjusted_top1", "margin_hard", "margin_mean", "margin_nearest_same_city",
              "margin_same_city_other_neighbourhood", "margin_same_driving_side_other_city",
              "margin_random_other_city", "margin_same_neighbourhood", "gallery_size", "mmd2", "gads")


def _gallery(parent) -> QListWidget:
    widget = QListWidget(parent)
    widget.setViewMode(QListView.IconMode)
    widget.setIconSize(QSize(THUMB, THUMB))
    widget.setResizeMode(QListView.Adjust)
    widget.setMovement(QListView.Static)
    widget.setMinimumHeight(THUMB + 40)
    widget.setSelectionMode(QAbstractItemView.ExtendedSelection)
    widget.setGridSize(QSize(THUMB + 16, THUMB + 40))
    widget.setUniformItemSizes(True)
    widget.setWordWrap(True)
    widget.setTextElideMode(Qt.ElideMiddle)
    return widget


class InspectorDock(QDockWidget):
    def __init__(self, parent=None):
        super().__init__("GeoFidelity inspector", parent)
        self.setObjectName("GeoFidelityInspector")
        self.setMinimumWidth(560)
        self.loader = ThumbnailLoader(self)
        self.loader.ready.connect(self._thumbnail_ready)
        self.items: dict[str, list[QListWidgetItem]] = {}
        self.view = None
        self.store_path = None
        self.evaluation_dir = None
        self.layer = None
        self.page = 0
        body = QWidget(self)
        layout = QVBoxLayout(body)
        self.title = QLabel("Click a GeoFidelity road segment on the map.", body)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.RichText)
        layout.addWidget(self.title)
        pick = QHBoxLayout()
        self.model_box, self.condition_box = QComboBox(body), QComboBox(body)
        for label, box in (("Model", self.model_box), ("Condition", self.condition_box)):
            pick.addWidget(QLabel(label, body))
            pick.addWidget(box, 1)
            box.activated.connect(self._reload)
        layout.addLayout(pick)
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
        layout.addWidget(QLabel("<b>Scores</b> — the panel and the real anchors", body))
        self.scores = QTableWidget(0, 0, body)
        self.scores.setMinimumHeight(200)
        layout.addWidget(self.scores)
        for widget in (self.references, self.negatives, self.generated):
            widget.itemDoubleClicked.connect(self._open_full)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setWidget(scroll)

    # -- context --------------------------------------------------------------------------
    def show_feature(self, layer, feature) -> None:
        """Slot for the map tool: find the store and evaluation of ``layer`` and show ``feature``."""
        from geofidelity_plugin.core.inspect.segment_view import evaluation_store_path

        self.layer = layer
        evaluation = layer.customProperty(EVALUATION_PROPERTY) or None
        store = layer.customProperty(STORE_PROPERTY) or (evaluation_store_path(evaluation) if evaluation else None)
        self.store_path = str(store) if store else None
        self.evaluation_dir = evaluation
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
        from geofidelity_plugin.core.store.store import BenchmarkStore
        from geofidelity_plugin.core.inspect.segment_view import segment_view

        self.segment_id = segment_id
        if not self.store_path or not Path(self.store_path).exists():
            self.view = None
            attrs = attributes or {}
            self.title.setText(f"<b>{attrs.get('street_name', segment_id)}</b> — {attrs.get('city', '')}<br>"
                               f"{segment_id}<br><i>no benchmark store linked to this layer: run Evaluate</i>")
            for w in (self.references, self.negatives, self.generated):
                w.clear()
            self.scores.setRowCount(0)
            return
        try:
            with BenchmarkStore(self.store_path, create=False) as store:
                self.view = segment_view(store, segment_id, self.evaluation_dir, self.model_box.currentText() or None,
                                         self.condition_box.currentText() or None)
        except Exception as exc:  # noqa: BLE001 — a damaged store is a message in the dock, never a traceback
            self._show_problem(segment_id, exc)
            return
        self._fill()

    def _show_problem(self, segment_id: str, exc: BaseException) -> None:
        from html import escape

        from geofidelity_plugin.core.errors import user_message

        self.view = None
        self.problem = user_message(exc)[0]
        self.title.setText(f"{escape(segment_id)}<br><span style='color:#b2182b'><b>cannot show this segment:</b> "
                           f"{escape(self.problem)}</span>")
        for w in (self.references, self.negatives, self.generated):
            w.clear()
        self.scores.setRowCount(0)

    def _reload(self, *_):
        if getattr(self, "segment_id", None) and self.store_path:
            self.show_segment(self.segment_id)

    # -- filling --------------------------------------------------------------------------
    def _fill(self) -> None:
        v, f = self.view, self.view.facts
        banner = f"<br><span style='color:#b2182b'><b>{v.stand_in}</b></span>" if v.stand_in else ""
        self.title.setText(f"<b>{f.get('street_name')}</b> — {f.get('neighbourhood') or '?'}, {f.get('city')} "
                           f"({f.get('country_code')}, {f.get('road_class')}, drives {f.get('driving_side')})<br>"
                           f"{v.segment_id}{banner}")
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
        self._highlight_negatives()

    def _fill_references(self) -> None:
        refs = self.view.references
        pages = max(1, (len(refs) + PAGE_SIZE - 1) // PAGE_SIZE)
        self.page = min(self.page, pages - 1)
        self.page_label.setText(f"{self.page + 1}/{pages} · {len(refs)} images")
        self.references.clear()
        for img in refs[self.page * PAGE_SIZE:(self.page + 1) * PAGE_SIZE]:
            mark = {"accept": " ✔", "reject": " ✘"}.get(img.audit or "", "")
            item = self._add(self.references, img.path, f"#{refs.index(img) + 1}{mark}",
                             f"{img.label}\n{img.tooltip}")
            item.setData(Qt.UserRole + 1, img.reference_id)

    def _fill_scores(self) -> None:
        columns = list(self.view.scores)
        self.scores.clear()
        self.scores.setColumnCount(len(columns))
        self.scores.setRowCount(len(SCORE_ROWS))
        self.scores.setHorizontalHeaderLabels([c.replace("anchor:", "") for c in columns])
        self.scores.setVerticalHeaderLabels(SCORE_ROWS)
        for j, column in enumerate(columns):
            for i, key in enumerate(SCORE_ROWS):
                value = self.view.scores[column].get(key)
                self.scores.setItem(i, j, QTableWidgetItem("—" if value is None else f"{value:.3f}"))

    def _add(self, widget: QListWidget, path: str, label: str, tooltip: str) -> QListWidgetItem:
        item = QListWidgetItem(QIcon(), label)
        item.setToolTip(tooltip)
        item.setData(Qt.UserRole, path)
        widget.addItem(item)
        self.items.setdefault(path, []).append(item)
        self.loader.request(path, THUMB)
        return item

    def _thumbnail_ready(self, path, size, image) -> None:
        if size != THUMB or image.isNull():
            return
        icon = QIcon(QPixmap.fromImage(image))
        for item in self.items.get(path, []):
            try:
                item.setIcon(icon)
            except RuntimeError:  # the item was cleared meanwhile
                pass

    def _highlight_negatives(self) -> None:
        if self.layer is None or self.view is None:
            return
        ids = [neg for neg, _ in self.view.negatives.values()]
        quoted = ",".join("'" + i.replace("'", "''") + "'" for i in ids)
        self.layer.selectByExpression(f'"segment_id" IN ({quoted})' if ids else "FALSE")

    # -- actions --------------------------------------------------------------------------
    def _turn(self, step: int) -> None:
        if self.view:
            self.page = max(0, self.page + step)
            self.items.clear()
            self._fill_references()

    def set_audit(self, decision: str) -> int:
        """Set the manual audit flag of the selected reference images in the store."""
        from geofidelity_plugin.core.store.store import BenchmarkStore

        chosen = [i.data(Qt.UserRole + 1) for i in self.references.selectedItems() if i.data(Qt.UserRole + 1)]
        if not chosen or not self.store_path:
            return 0
        try:
            with BenchmarkStore(self.store_path, create=False) as store:
                for reference_id in chosen:
                    store.set_audit(reference_id, decision)
        except Exception as exc:  # noqa: BLE001 — e.g. the store became read-only or damaged
            self._show_problem(self.segment_id, exc)
            return 0
        self.show_segment(self.segment_id)
        return len(chosen)

    def _open_full(self, item) -> None:
        dialog = QDialog(self)
        dialog.setWindowTitle(Path(item.data(Qt.UserRole)).name)
        label = QLabel(dialog)
        label.setPixmap(QPixmap(item.data(Qt.UserRole)).scaled(1200, 900, Qt.KeepAspectRatio, Qt.SmoothTransformation))
        QVBoxLayout(dialog).addWidget(label)
        dialog.show()
        self.full_view = dialog
