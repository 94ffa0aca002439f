"""The small callback protocol through which long core steps report progress and learn of a
cancel request — so that core code never sees a QGIS feedback object or a GUI.

The Processing algorithms adapt ``QgsProcessingFeedback`` to :class:`Progress`; the CLI adapts
a tqdm bar; tests use :class:`RecordingProgress`.
"""
from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from .errors import Cancelled

log = logging.getLogger("geofidelity")


@runtime_checkable
class Progress(Protocol):
    def set_progress(self, percent: float) -> None: ...

    def info(self, message: str) -> None: ...

    def warning(self, message: str) -> None: ...

    def is_canceled(self) -> bool: ...


class NullProgress:
    """Progress that logs messages and is never cancelled."""

    def set_progress(self, percent: float) -> None:
        pass

    def info(self, message: str) -> None:
        log.info(message)

    def warning(self, message: str) -> None:
        log.warning(message)

    def is_canceled(self) -> bool:
        return False


class RecordingProgress(NullProgress):
    """Keeps every message and percentage; cancels itself after ``cancel_after`` checks."""

    def __init__(self, cancel_after: int | None = None):
        self.percents: list[float] = []
        self.infos: list[str] = []
        self.warnings: list[str] = []
        self.checks = 0
        self.cancel_after = cancel_after

    def set_progress(self, percent: float) -> None:
        self.percents.append(percent)

    def info(self, message: str) -> None:
        self.infos.append(message)

    def warning(self, message: str) -> None:
        self.warnings.append(message)

    def is_canceled(self) -> bool:
        self.checks += 1
        return self.cancel_after is not None and self.checks > self.cancel_after


class SubProgress:
    """Maps 0–100 % of a sub-step onto ``[start, end]`` of a parent progress."""

    def __init__(self, parent: Progress, start: float, end: float):
        self.parent, self.start, self.end = parent, start, end

    def set_progress(self, percent: float) -> None:
        self.parent.set_progress(self.start + (self.end - self.start) * percent / 100.0)

    def info(self, message: str) -> None:
        self.parent.info(message)

    def warning(self, message: str) -> None:
        self.parent.warning(message)

    def is_canceled(self) -> bool:
        return self.parent.is_canceled()

    def set_stage(self, stage: str, message: str | None = None) -> None:
        from .events import announce_stage

        announce_stage(self.parent, stage, message)


def check_cancel(progress: Progress | None, where: str = "") -> None:
    """Raise :class:`Cancelled` when the user asked to stop."""
    if progress is not None and progress.is_canceled():
        raise Cancelled(f"cancelled by the user{' during ' + where if where else ''}")
