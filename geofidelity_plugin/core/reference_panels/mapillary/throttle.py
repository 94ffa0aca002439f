"""Client-side rate limiting of Mapillary API calls (method §2: throttle client-side)."""
from __future__ import annotations

import threading
import time
from typing import Callable

from geofidelity_plugin.core.errors import Cancelled

_SLICE_S = 0.25  # waits are cut into slices so a cancel is seen quickly


class TokenBucket:
    """Thread-safe client-side throttle: ``rate`` requests per second, bursts up to ``burst``."""

    def __init__(self, rate: float | None, burst: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.rate = float(rate) if rate else 0.0
        self.capacity = max(1.0, float(burst if burst is not None else self.rate))
        self._clock, self._sleep, self._lock = clock, sleep, threading.Lock()
        self._tokens, self._stamp = self.capacity, clock()

    def acquire(self, stopped: Callable[[], bool] = lambda: False) -> None:
        if self.rate <= 0:
            return
        while True:
            with self._lock:
                now = self._clock()
                self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
                self._stamp = now
                if self._tokens >= 1.0 - 1e-9:  # tolerance: float rounding of the refill
                    self._tokens = max(self._tokens - 1.0, 0.0)
                    return
                wait = (1.0 - self._tokens) / self.rate
            if stopped():
                raise Cancelled("cancelled by the user while throttling Mapillary requests")
            self._sleep(min(wait, _SLICE_S))
