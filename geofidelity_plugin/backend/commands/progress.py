"""Progress for the command line: a tqdm bar for people, protocol lines for a driver."""
from __future__ import annotations

import sys


def progress_for(description: str, quiet: bool = False):
    """The run's progress: protocol lines under ``--events jsonl``, else a tqdm bar on stderr."""
    from geofidelity_plugin.core import events

    if events.active() is not None:
        return events.EventProgress(description)
    return TqdmProgress(description, quiet)


class TqdmProgress:
    """Core ``Progress`` shown as a tqdm bar on stderr; Ctrl-C cancels cleanly."""

    def __init__(self, description: str, quiet: bool = False):
        from tqdm import tqdm

        self.bar = tqdm(total=100, desc=description, disable=quiet, leave=True,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")
        self.cancel_requested = False

    def set_progress(self, percent: float) -> None:
        self.bar.n = min(100.0, max(0.0, float(percent)))
        self.bar.refresh()

    def info(self, message: str) -> None:
        self.bar.write(message, file=sys.stderr)

    def warning(self, message: str) -> None:
        self.bar.write(f"warning: {message}", file=sys.stderr)

    def is_canceled(self) -> bool:
        return self.cancel_requested

    def close(self) -> None:
        self.bar.close()
