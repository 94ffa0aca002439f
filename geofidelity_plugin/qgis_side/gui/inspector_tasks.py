"""What the inspector dock does off the GUI thread: one job at a time in the dock's thread pool,
its result (or its failure, as the message the dock shows) sent back by a queued signal, and the
credit lines of a segment's view, read in the worker with the rest of the view.
"""
from __future__ import annotations

import threading
import traceback

from qgis.PyQt.QtCore import QObject, QRunnable, pyqtSignal

from geofidelity_plugin.core.shown import shown_message as user_message

class _TaskSignals(QObject):
    finished = pyqtSignal(int, object, str, str)  # token, result, problem, details for the log


class _Task(QRunnable):
    """``work()`` in a worker thread; its result, or its failure as a message, goes back by signal.
    A read (``skip_when_stale``) whose click was superseded before it started is skipped."""

    def __init__(self, dock: "InspectorDock", token: int, work, skip_when_stale: bool):  # noqa: F821 (it imports us)
        super().__init__()
        self.dock, self.token, self.work, self.skip_when_stale = dock, token, work, skip_when_stale
        self.signals = dock.task_signals  # held here: the job may outlive the dock's wrapper

    def run(self):
        if self.skip_when_stale and self.token != self.dock.token:
            return
        self.dock.read_threads.add(threading.get_ident())
        try:
            result, problem, details = self.work(), "", ""
        except Exception as exc:  # noqa: BLE001 — every failure is a message in the dock, never a traceback in QGIS
            problem, foreseen = user_message(exc)
            result, details = None, "" if foreseen else traceback.format_exc()
            if not foreseen:
                problem = (f"unexpected error ({type(exc).__name__}: {exc}) — this is a bug in GeoFidelity: the "
                           "details are in the Log Messages panel (GeoFidelity tab); please report it")
        self.signals.finished.emit(self.token, result, problem, details)


def _with_credits(reader, view):
    """In the worker: the view with its ``credits`` lines (OSM, Mapillary with the creators of the
    segment's images when the store recorded them, the stand-in note)."""
    from geofidelity_plugin.core.atlas.data import segment_creators
    from geofidelity_plugin.core.attribution import credit_lines

    view.credits = credit_lines(bool(view.stand_in), segment_creators(reader.connection(), view.segment_id))
    return view
