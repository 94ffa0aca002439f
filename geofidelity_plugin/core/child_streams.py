"""A child's stdout and stderr, each read on a thread of its own — how the QGIS side listens to the
backend (``qgis_side/backend_runner.py``, docs/backend-protocol.md).

Why each rule:

- **independent readers that never stop reading**: a backend blocked on a full stderr pipe never
  writes its result, and a driver that waits on one stream while the other fills waits for ever.
  Both pipes are drained at the rate the child writes, whatever the driver does with the lines;
- **the protocol stream is never thinned**: every stdout line reaches the driver, in order, up to
  its end — a result printed after 200,000 log lines is still read;
- **the log is bounded**: stderr lines wait for the driver's log at most :data:`PENDING_LOG_LINES`
  deep; beyond that they are counted, not queued (the log of a flood is useless, the memory is
  not). The last :data:`TAIL_LINES` lines (at most :data:`TAIL_BYTES`) are always kept for the
  message of a failed run;
- **no line without a limit**: a line longer than :data:`LINE_LIMIT_BYTES` (a progress bar that
  never writes a newline, binary garbage) is cut, the rest of it skipped;
- **no close under a reader's feet**: the readers use ``os.read`` on the descriptors and close
  them at their own end of file. A reader still blocked after the driver gave up (a grandchild
  outside the group holds the pipe) is left to end with that grandchild: closing a descriptor that
  a thread reads (or a buffered file whose lock it holds) blocks the driver for ever.

Standard library only: the QGIS room imports it.
"""
from __future__ import annotations

import collections
import os
import queue
import threading

#: stderr lines kept for a failure's message, and their total size
TAIL_LINES = 200
TAIL_BYTES = 64 * 1024
#: the longest line kept (bytes); the rest of a longer line is skipped
LINE_LIMIT_BYTES = 1 << 20
#: the longest stderr line relayed or kept (characters)
LOG_LINE_CHARS = 4000
#: stderr lines that may wait for the driver's log; more are counted as left out
PENDING_LOG_LINES = 20_000
_CHUNK = 1 << 16


class Tail:
    """The last lines of a stream, at most ``lines`` of them and ``size`` characters together."""

    def __init__(self, lines: int = TAIL_LINES, size: int = TAIL_BYTES):
        self._lines: collections.deque[str] = collections.deque()
        self._limit, self._size, self._total = lines, size, 0
        self._lock = threading.Lock()

    def add(self, line: str) -> None:
        with self._lock:
            self._lines.append(line)
            self._total += len(line)
            while self._lines and (len(self._lines) > self._limit or self._total > self._size):
                self._total -= len(self._lines.popleft())

    def lines(self) -> list[str]:
        with self._lock:
            return list(self._lines)


def split_lines(chunks, limit: int = LINE_LIMIT_BYTES):
    """The lines (bytes, without their newline) of an iterable of byte chunks; a line longer than
    ``limit`` is cut there and the rest of it skipped."""
    pending, skipping = bytearray(), False
    for chunk in chunks:
        parts = chunk.split(b"\n")
        for part in parts[:-1]:
            if not skipping:
                pending += part
                yield bytes(pending[:limit])
            pending.clear()
            skipping = False
        if not skipping:
            pending += parts[-1]
            if len(pending) > limit:
                yield bytes(pending[:limit])
                pending.clear()
                skipping = True
    if pending and not skipping:
        yield bytes(pending)


def _chunks(fd: int):
    while True:
        try:
            chunk = os.read(fd, _CHUNK)
        except InterruptedError:
            continue
        except OSError:  # the descriptor went away: nothing more can be read
            return
        if not chunk:
            return
        yield chunk


class ChildStreams:
    """Reads ``proc.stdout`` and ``proc.stderr`` (binary pipes of a ``subprocess.Popen``) on two
    daemon threads into one queue of ``(tag, text)`` pairs, tag ``"out"`` or ``"err"``."""

    def __init__(self, proc):
        self.lines: queue.Queue = queue.Queue()
        self.tail = Tail()
        self.left_out = 0  # stderr lines not queued for the log (the tail still has the last ones)
        self._ended = {"out": threading.Event(), "err": threading.Event()}
        self._threads = [threading.Thread(target=self._read, args=(stream, tag), daemon=True,
                                          name=f"geofidelity-child-{tag}")
                         for stream, tag in ((proc.stdout, "out"), (proc.stderr, "err"))]
        for thread in self._threads:
            thread.start()

    def _read(self, stream, tag: str) -> None:
        try:
            for raw in split_lines(_chunks(stream.fileno())):
                text = raw.decode("utf-8", errors="replace").rstrip("\r")
                if tag == "out":
                    self.lines.put((tag, text))
                    continue
                text = text[:LOG_LINE_CHARS]
                self.tail.add(text)
                if self.lines.qsize() < PENDING_LOG_LINES:
                    self.lines.put((tag, text))
                else:
                    self.left_out += 1
        finally:
            self._ended[tag].set()
            try:
                stream.close()  # this thread's own descriptor, at its own end of file
            except OSError:
                pass

    def ended(self) -> bool:
        """Both streams are at their end of file (the child and all that inherited them closed them)."""
        return all(event.is_set() for event in self._ended.values())

    def take(self, timeout: float, most: int = 2000) -> list[tuple[str, str]]:
        """The lines waiting now (at most ``most``), after waiting up to ``timeout`` s for a first one."""
        try:
            batch = [self.lines.get(timeout=timeout)]
        except queue.Empty:
            return []
        while len(batch) < most:
            try:
                batch.append(self.lines.get_nowait())
            except queue.Empty:
                break
        return batch

    def drained(self) -> bool:
        """Nothing more will come: both streams ended and every line was taken."""
        return self.ended() and self.lines.empty()

    def join(self, timeout: float) -> None:
        for thread in self._threads:
            thread.join(timeout=timeout)
