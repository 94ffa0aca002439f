"""Thumbnails decoded off the GUI thread and cached by path and size.

``QImageReader`` decodes straight to the requested size (``setScaledSize``: a JPEG is decoded
at a fraction of its resolution), in a ``QThreadPool`` worker; the image reaches the GUI thread
through a queued signal. A new click calls :meth:`ThumbnailLoader.begin`: the images still
waiting for the previous segment are dropped, and those being decoded are not delivered.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from qgis.PyQt.QtCore import QObject, QRunnable, QThreadPool, Qt, pyqtSignal, pyqtSlot
from qgis.PyQt.QtGui import QImage, QImageReader


class _Signals(QObject):
    loaded = pyqtSignal(str, int, QImage, int)  # path, size, image, generation


def decode(path: str, size: int) -> QImage:
    """``path`` scaled to fit ``size`` × ``size`` (EXIF orientation applied); a null image when
    the file is missing or cannot be decoded."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)
    full = reader.size()
    if full.isValid() and max(full.width(), full.height()) > size:
        reader.setScaledSize(full.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio))
    return reader.read()


class _Job(QRunnable):
    def __init__(self, loader: "ThumbnailLoader", path: str, size: int, generation: int):
        super().__init__()
        self.path, self.size, self.generation = path, size, generation
        self.signals = loader.signals  # held here: the job may outlive the loader's wrapper
        self.loader = loader

    def run(self):
        if self.generation != self.loader.generation:  # a newer click came first
            return
        image = decode(self.path, self.size)
        self.loader.decoder_threads.add(threading.get_ident())
        self.signals.loaded.emit(self.path, self.size, image, self.generation)


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
        self.generation = 0
        self.decoded = 0
        self.decoder_threads: set[int] = set()  # threading.get_ident() of each thread that decoded

    def begin(self) -> None:
        """A new segment: what was requested for the previous one is no longer wanted."""
        self.generation += 1
        self.pool.clear()

    def request(self, path: str, size: int = 128) -> None:
        key = (path, size)
        if key in self.cache:
            self.cache.move_to_end(key)
            self.ready.emit(path, size, self.cache[key])
            return
        self.pool.start(_Job(self, path, size, self.generation))

    @pyqtSlot(str, int, QImage, int)  # a Qt slot: disconnected when the loader is deleted
    def _store(self, path: str, size: int, image: QImage, generation: int) -> None:
        self.decoded += 1
        self.cache[(path, size)] = image
        while len(self.cache) > self.capacity:
            self.cache.popitem(last=False)
        if generation == self.generation:
            self.ready.emit(path, size, image)

    def wait(self, msecs: int = 10000) -> bool:
        return self.pool.waitForDone(msecs)
