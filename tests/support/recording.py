"""The one recording Processing feedback of the tests: what an algorithm or the backend runner
relayed (``lines``: every message and stage text in order; ``texts``: stage texts; ``infos``;
``percents``), with an optional cancel at a stage or a percentage, like a user pressing Cancel."""
from __future__ import annotations

import re
import time

from qgis.core import QgsProcessingFeedback


class RecordingFeedback(QgsProcessingFeedback):
    """Keeps what the runner relays; cancels at a stage (``cancel_stage``) or once the progress
    reaches ``cancel_percent`` inside that stage, like a user pressing Cancel. Also cancels past
    ``deadline_s`` so that a backend that never ends fails the test instead of hanging it."""

    def __init__(self, cancel_stage: str | None = None, cancel_percent: float | None = None,
                 deadline_s: float = 1800.0):
        super().__init__()
        self.cancel_stage, self.cancel_percent = cancel_stage, cancel_percent
        self.deadline = time.monotonic() + deadline_s
        self.stage = ""
        self.texts: list[str] = []
        self.infos: list[str] = []
        self.lines: list[str] = []  # every message and stage text, in order
        self.percents: list[float] = []
        self.cancel_requested_at: float | None = None
        self.timed_out = False

    def _request_cancel(self) -> None:
        if self.cancel_requested_at is None:
            self.cancel_requested_at = time.monotonic()
            self.cancel()

    def setProgressText(self, text):  # noqa: N802
        self.stage = text
        self.texts.append(text)
        self.lines.append(text)
        if self.cancel_stage and self.cancel_percent is None and text.startswith(self.cancel_stage):
            self._request_cancel()
        super().setProgressText(text)

    def setProgress(self, progress):  # noqa: N802
        if (self.cancel_percent is not None and self.stage.startswith(self.cancel_stage or "")
                and progress >= self.cancel_percent):
            self._request_cancel()
        self.percents.append(progress)
        super().setProgress(progress)

    def pushInfo(self, info, *args):  # noqa: N802
        self.infos.append(info)
        self.lines.append(info)
        super().pushInfo(info, *args)

    def pushWarning(self, warning):  # noqa: N802
        self.lines.append(warning)
        super().pushWarning(warning)

    def reportError(self, error, fatalError=False):  # noqa: N802, N803
        self.lines.append(error)
        super().reportError(error, fatalError)

    def pushDebugInfo(self, info):  # noqa: N802
        self.lines.append(info)
        super().pushDebugInfo(info)

    def pushConsoleInfo(self, info):  # noqa: N802
        self.lines.append(info)
        super().pushConsoleInfo(info)

    def isCanceled(self):  # noqa: N802
        if not self.timed_out and time.monotonic() > self.deadline:
            self.timed_out = True
            self.cancel()
        return super().isCanceled()

    def features_cached(self) -> int | None:
        """FEATURES_CACHED as the evaluate algorithm reports it ("…, cached N")."""
        for info in reversed(self.infos):
            found = re.search(r"features computed \S+, cached (\d+)", info)
            if found:
                return int(found.group(1))
        return None
