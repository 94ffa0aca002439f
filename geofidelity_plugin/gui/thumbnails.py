"""Thumbnails decoded off the GUI thread (QThreadPool), cached by path and size."""
from __future__ import annotations

from collections import OrderedDict

from qgis.PyQt.QtCore import QObject, QRunnable, QThreadPool, Qt, pyqtSignal
from qgis.PyQt.QtGui import QImage, QImageReader


class _Signals(QObject):
    loaded = pyqtSignal(str, int, QImage)


class _Job(QRunnable):
    def __init__(self, path: str, size: int, signals: _Signals):
        super().__init__()
        self.path, self.size, self.signals = path, size, signals

    def run(self):
        reader = QImageReader(self.path)
        reader.setAutoTransform(True)
        full = reader.size()
        if full.isValid() and max(full.width(), full.height()) > self.size:
            reader.setScaledSize(full.scaled(self.size, self.size, Qt.KeepAspectRatio))
        image = reader.read()
        self.signals.loaded.emit(self.path, self.size, image)


class ThumbnailLoader(QObject):
    """``request(path, size)`` → later ``ready(path, size, QImage)`` on the GUI thread."""

    ready = pyqtSignal(str, int, QImage)

    def __init__(self, parent=None, capacity: int = 512):
        super().__init__(parent)
        self.cache: OrderedDict = OrderedDict()
        self.capacity = capacity
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.signals = _Signals()
        self.signals.loaded.connect(self._store)
        self.decoded = 0

    def request(self, path: str, size: int = 128) -> None:
        key = (path, size)
        if key in self.cache:
            self.cache.move_to_end(key)
            self.ready.emit(path, size, self.cache[key])
            return
        self.pool.start(_Job(path, size, self.signals))

    def _store(self, path: str, size: int, image: QImage) -> None:
        self.decoded += 1
        self.cache[(path, size)] = image
        while len(self.cache) > self.capacity:
            self.cache.popitem(last=False)
        self.ready.emit(path, size, image)

    def wait(self, msecs: int = 10000) -> bool:
        return self.pool.waitForDone(msecs)
