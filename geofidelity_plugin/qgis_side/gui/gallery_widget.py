"""The inspector dock's thumbnail galleries: icon grids of fixed-size cells, so that a thumbnail
arriving later from its worker never changes the layout.
"""
from __future__ import annotations

from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtWidgets import QAbstractItemView, QListView, QListWidget

THUMB = 112


def _gallery(parent) -> QListWidget:
    widget = QListWidget(parent)
    widget.setViewMode(QListView.ViewMode.IconMode)
    widget.setIconSize(QSize(THUMB, THUMB))
    widget.setResizeMode(QListView.ResizeMode.Adjust)
    widget.setMovement(QListView.Movement.Static)
    widget.setMinimumHeight(THUMB + 40)
    widget.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    widget.setGridSize(QSize(THUMB + 16, THUMB + 40))
    widget.setUniformItemSizes(True)
    widget.setWordWrap(True)
    widget.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    return widget
