"""Run work units on a pool of Ray actors, one unit per actor at a time (pull scheduling: a
worker that finishes takes the next unit, so fast and slow GPUs both stay busy).

A unit whose worker dies (killed, out of memory, node lost) is retried on a worker Ray restarts
or on another one, up to ``max_retries`` times; a unit that still fails is reported in the
result — never dropped silently. An error the user must fix (an :class:`InputError` raised in a
worker, e.g. a model folder a node cannot read) stops the run at once with that message.
Progress reaches the run's progress object as units done/total, throughput and ETA; cancelling
stops scheduling and kills the workers (their running units are lost, finished ones are kept).
"""
from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import Cancelled, GeoFidelityError
from ..progress import NullProgress, Progress

log = logging.getLogger("geofidelity")

#: how often (seconds) an info line with throughput and ETA is written while units run
REPORT_EVERY_S = 30.0


@dataclass
class Unit:
    """One piece of work: ``key`` names it in messages and the manifest, ``payload`` goes to the
    worker, ``items`` (images) counts towards throughput."""

    key: str
    payload: Any
    items: int = 1
    attempts: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class PoolReport:
    """What a pool run did: one timing record per finished unit, retries, failed units."""

    done: int = 0
    units: list[dict] = field(default_factory=list)  # {"unit", "worker", "seconds", "attempts", "items"}
    retries: int = 0
    failed: list[dict] = field(default_factory=list)  # {"unit", "attempts", "errors"}
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"units_done": self.done, "units_failed": len(self.failed), "retries": self.retries,
                "seconds": round(self.seconds, 3), "units": self.units, "failed_units": self.failed}


#: a worker Ray is restarting (``ActorUnavailableError``) is asked again after this long, s
RESTART_WAIT_S = 0.5
#: how many times in a row a worker may be "restarting" before it counts as dead (about a minute)
MAX_UNAVAILABLE = 120


class ActorPool:
    """``actors``: Ray actor handles (created with ``max_restarts``); ``call(actor, payload)``
    submits one unit and returns its object ref."""

    def __init__(self, actors: list, call: Callable[[Any, Any], Any], max_retries: int = 2,
                 progress: Progress | None = None, label: str = "units", item_name: str = "items",
                 max_restarts: int | None = None):
        import ray

        self.ray = ray
        self.actors = list(actors)
        self.call = call
        self.max_retries = int(max_retries)
        self.max_restarts = self.max_retries if max_restarts is None else int(max_restarts)
        self.progress = progress or NullProgress()
        self.label, self.item_name = label, item_name

    def run(self, units: list[Unit], on_done: Callable[[Unit, Any, int, float], dict | None]) -> PoolReport:
        """Run every unit; ``on_done(unit, value, worker, seconds)`` is called in this process as
        each finishes (where the driver writes its result; a dict it returns joins the unit's
        timing record). Raises :class:`Cancelled` when the progress object asks to stop; whatever
        stops the run (a cancel, SIGTERM, a user error) carries ``.report``: what finished."""
        report, started = PoolReport(), time.monotonic()
        try:
            self._loop(units, on_done, report, started)
        except BaseException as exc:
            report.seconds = time.monotonic() - started
            try:
                exc.report = report
            except AttributeError:  # an exception type without a __dict__
                pass
            raise
        report.seconds = time.monotonic() - started
        self.progress.set_progress(100.0)
        return report

    def _loop(self, units: list[Unit], on_done, report: PoolReport, started: float) -> None:
        ray = self.ray
        pending: deque[Unit] = deque(units)
        idle = list(range(len(self.actors)))
        deaths = [0] * len(self.actors)
        unavailable = [0] * len(self.actors)
        restarting = [False] * len(self.actors)  # a death was counted; Ray may still be restarting it
        resting: list[tuple[float, int]] = []  # (when to ask again, worker): workers Ray is restarting
        inflight: dict[Any, tuple[int, Unit, float]] = {}
        total, total_items, done_items = len(units), sum(u.items for u in units), 0
        last_line = started
        while pending or inflight:
            if self.progress.is_canceled():
                self._stop(inflight)
                raise Cancelled(f"cancelled by the user after {report.done} of {total} {self.label}; "
                                "finished ones are kept, a re-run does the rest")
            now = time.monotonic()
            for item in [r for r in resting if r[0] <= now]:
                resting.remove(item)
                idle.append(item[1])
            while idle and pending:
                worker, unit = idle.pop(0), pending.popleft()
                unit.attempts += 1
                inflight[self.call(self.actors[worker], unit.payload)] = (worker, unit, time.monotonic())
            if not inflight and resting:  # every worker left is restarting: wait for one
                time.sleep(RESTART_WAIT_S)
                continue
            if not inflight:  # units left, no worker left
                for unit in pending:
                    self._give_up(report, unit, "no Ray worker left to run it")
                break
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.5)
            for ref in ready:
                worker, unit, t0 = inflight.pop(ref)
                try:
                    value = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, GeoFidelityError):  # the user's to fix: stop now, with its message
                        self._stop(inflight)
                        raise cause from None
                    idle.append(worker)
                    self._retry(report, pending, unit, f"{type(cause or exc).__name__}: {_first_line(cause or exc)}")
                    continue
                except ray.exceptions.ActorUnavailableError as exc:
                    if restarting[worker] and unavailable[worker] < MAX_UNAVAILABLE:
                        # Ray is still restarting this worker after a death already counted: the
                        # call was refused, not run — the unit goes back to the front, the worker rests
                        unavailable[worker] += 1
                        unit.attempts -= 1
                        pending.appendleft(unit)
                        resting.append((time.monotonic() + RESTART_WAIT_S, worker))
                        continue
                    deaths[worker] += 1  # the worker died under this unit (or stayed unavailable)
                    restarting[worker] = True
                    if deaths[worker] <= self.max_restarts:
                        resting.append((time.monotonic() + RESTART_WAIT_S, worker))
                    self._retry(report, pending, unit, f"worker {worker} died ({type(exc).__name__}: "
                                                       f"{_first_line(exc)})")
                    continue
                except ray.exceptions.RayError as exc:  # the worker process died (killed, out of memory, node lost)
                    deaths[worker] += 1
                    restarting[worker] = True
                    if deaths[worker] <= self.max_restarts:
                        idle.append(worker)  # Ray restarts it; the next call waits for the restart
                    self._retry(report, pending, unit, f"worker {worker} died ({type(exc).__name__}: "
                                                       f"{_first_line(exc)})")
                    continue
                unavailable[worker], restarting[worker] = 0, False
                seconds = time.monotonic() - t0
                extra = on_done(unit, value, worker, seconds)
                idle.append(worker)
                report.done += 1
                done_items += unit.items
                report.units.append({"unit": unit.key, "worker": worker, "seconds": round(seconds, 3),
                                     "attempts": unit.attempts, "items": unit.items, **(extra or {})})
                self.progress.set_progress(100.0 * done_items / max(1, total_items))
                now = time.monotonic()
                if now - last_line >= REPORT_EVERY_S or report.done == total:
                    last_line = now
                    self.progress.info(self._status(report.done, total, done_items, total_items, now - started))

    def _retry(self, report: PoolReport, pending: deque, unit: Unit, reason: str) -> None:
        unit.errors.append(reason)
        if unit.attempts > self.max_retries:
            self._give_up(report, unit, reason)
            return
        report.retries += 1
        pending.appendleft(unit)
        self.progress.warning(f"{unit.key}: {reason} — retrying it (attempt {unit.attempts + 1} of "
                              f"{self.max_retries + 1})")

    def _give_up(self, report: PoolReport, unit: Unit, reason: str) -> None:
        if not unit.errors or unit.errors[-1] != reason:
            unit.errors.append(reason)
        report.failed.append({"unit": unit.key, "attempts": unit.attempts, "errors": list(unit.errors)})
        self.progress.warning(f"{unit.key} failed after {unit.attempts} attempt(s): {reason} — it is listed in "
                              "the manifest; a re-run tries it again")

    def _stop(self, inflight: dict) -> None:
        """Stop at once: running units are abandoned (their workers killed), nothing more starts."""
        for actor in self.actors:
            try:
                self.ray.kill(actor, no_restart=True)
            except Exception as exc:  # noqa: BLE001 — an actor already gone
                log.debug("ray.kill: %s", exc)
        inflight.clear()

    def _status(self, done: int, total: int, done_items: int, total_items: int, elapsed: float) -> str:
        return status_line(done, total, self.label, done_items, total_items, self.item_name, elapsed,
                           len(self.actors))


def status_line(done: int, total: int, label: str, done_items: int, total_items: int, item_name: str,
                elapsed: float, workers: int) -> str:
    """``Ray: 12/40 panels on 4 worker(s), 1.30 images/s, ETA 2 min`` — what a progress log shows."""
    rate = done_items / elapsed if elapsed > 0 else 0.0
    left = (total_items - done_items) / rate if rate > 0 else float("nan")
    eta = "—" if left != left else _duration(left)
    return f"Ray: {done}/{total} {label} on {workers} worker(s), {rate:.2f} {item_name}/s, ETA {eta}"


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
