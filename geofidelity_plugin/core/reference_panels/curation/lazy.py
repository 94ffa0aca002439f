"""Lazy scoring of curation tiers 4–7 under the ``along`` cap (method §2, "Cap").

Tiers 4–6 are the costly ones (two models and a full decode per image), and in a dense segment
most images that pass tiers 1–3 are dropped by the cap anyway. So per segment the images are
scored in batches, best cap candidates first, and scoring stops once no image left unscored can
change which images are kept, *whatever its scores would be*. That holds for an unscored image
when all three are true:

1. **it cannot enter the cap**: even if it passed every tier and every other unscored image
   failed, its place in the ``along`` order (:meth:`.cap.AlongPlan.least_key`) would come after
   the last kept image — and then it cannot push a kept image out either, since an image only
   moves the images ranked after it in its own bin;
2. **it cannot join a duplicate cluster that matters**: its perceptual hash is farther than the
   tier-7 radius from every scored image still in play at tier 7 (so passing, it would form
   clusters with unscored images only);
3. **it cannot change a thinning decision that matters**: it comes after (in capture order)
   every scored image of its sequence still in play at tier 7 (thinning walks a sequence
   forwards, so a later image never changes an earlier decision).

These make the result exact — the kept images are those that scoring every image
(``score_all``) keeps — because the ``along`` order within a bin is fixed on the images that
passed tiers 1–3 before any of them is scored. Condition 2 needs the perceptual hash of every
image left unscored, so those are decoded once for it (decode and hash: about a third of tier 6,
and nothing next to the two models). Images not scored are reported as capped, their tiers 4–7
as ``not_scored``; the paper's ``sequences`` rule reorders by the survivors, so under it every
image is scored.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from geofidelity_plugin.core.vision.images import ImageError, load_rgb
from geofidelity_plugin.core.progress import Progress, check_cancel
from geofidelity_plugin.core.reference_panels.curation.cap import AlongPlan
from geofidelity_plugin.core.reference_panels.curation.dedup import _bits, phash_hex


@dataclass
class Tentative:
    """Tiers 7, 8 and the cap over the images scored so far (unscored ones left out)."""

    alive7: list = field(default_factory=list)     # scored rows in play at tier 7
    survivors: list = field(default_factory=list)  # scored rows that passed every tier
    kept: list = field(default_factory=list)       # the cap's first ``cap`` of them, in order


class Fingerprints:
    """Perceptual hashes of rows' images (condition 2), each path decoded once; ``None`` for a
    missing or unreadable image (it fails the first pixel tier, so it is simply scored)."""

    def __init__(self, path_of: Callable[[int], str | None], progress: Progress):
        self.path_of, self.progress, self._by_path = path_of, progress, {}

    def __call__(self, indices) -> dict[int, str | None]:
        out = {}
        for n, i in enumerate(indices):
            if n % 32 == 0:
                check_cancel(self.progress, "perceptual hashes of the images left unscored")
            path = self.path_of(i)
            if path is not None and path not in self._by_path:
                try:
                    self._by_path[path] = phash_hex(load_rgb(path))
                except (ImageError, ValueError):
                    self._by_path[path] = None
            out[i] = self._by_path.get(path) if path is not None else None
        return out


class LazySegment:
    """Which images of one segment still need tiers 4–7 (see the module docstring)."""

    def __init__(self, rows, pool, accepted, plan: AlongPlan, cap: int, phash_radius: int,
                 thinning_m: float, fingerprint: Fingerprints, cheap: set[int]):
        """``pool``: rows that passed tiers 1–3 without an audit flag; ``accepted``: those with
        an audit *accept* (always scored); ``cheap``: rows without an image file (they fail at
        once, so they are scored)."""
        self.rows, self.plan, self.cap = rows, plan, int(cap)
        self.radius, self.thinning_m, self.fingerprint = int(phash_radius), float(thinning_m), fingerprint
        self.hashes: dict[int, str | None] = {}  # of rows left unscored
        self.unscored = set(pool)
        self._first = set(accepted) | set(cheap) | set(plan.order(pool)[:self.cap])
        self.started = False

    def next_batch(self, tentative: Tentative | None) -> set[int]:
        """Rows to score next; empty once the segment's kept images are certain."""
        if not self.started:
            self.started = True
            batch = set(self._first)
        else:
            batch = self._structural(tentative) | self._cap_candidates(tentative)
        self.unscored -= batch
        return batch

    def _in_play(self, tentative: Tentative) -> list[int]:
        return [i for i in tentative.alive7 if self.rows[i].audit != "reject"]

    def _structural(self, tentative: Tentative) -> set[int]:
        """Conditions 2 and 3 broken: unscored rows that tier 7 would link to a scored one."""
        alive, need = self._in_play(tentative), set()
        if self.radius >= 0 and alive and self.unscored:
            self.hashes.update(self.fingerprint(sorted(u for u in self.unscored if u not in self.hashes)))
            need |= {u for u in self.unscored if self.hashes[u] is None}  # unreadable: fails at once
            hashed = [i for i in alive if self.rows[i].measures.get("phash")]
            unscored = sorted(u for u in self.unscored if self.hashes[u] is not None)
            if hashed and unscored:
                a = _bits([self.rows[i].measures["phash"] for i in hashed]).astype(np.float32)
                for start in range(0, len(unscored), 512):
                    chunk = unscored[start:start + 512]
                    u = _bits([self.hashes[k] for k in chunk]).astype(np.float32)
                    distance = u @ (1 - a).T + (1 - u) @ a.T
                    need |= {chunk[k] for k in np.nonzero((distance <= self.radius).any(axis=1))[0]}
        if self.thinning_m > 0:
            last: dict[str, tuple] = {}
            for i in alive:
                row = self.rows[i]
                if row.sequence:
                    stamp = (int(row.captured_at_ms or 0), row.image_id)
                    last[str(row.sequence)] = max(last.get(str(row.sequence), stamp), stamp)
            for u in self.unscored:
                row = self.rows[u]
                if row.sequence and str(row.sequence) in last and \
                        (int(row.captured_at_ms or 0), row.image_id) < last[str(row.sequence)]:
                    need.add(u)
        return need

    def _cap_candidates(self, tentative: Tentative) -> set[int]:
        """Condition 1 broken: unscored rows that could still rank within the cap. At most a
        few per bin per round, best first, so that a failing image's successor is tried next."""
        if not self.unscored:
            return set()
        plan, rows = self.plan, self.rows
        others = [i for i in tentative.survivors if rows[i].audit != "accept"]
        kappa = None
        if len(tentative.kept) >= self.cap:
            last = tentative.kept[self.cap - 1]
            if rows[last].audit == "accept":
                return set()  # accepted images fill the cap on their own
            kappa = dict((key, k) for k, key in plan.keyed(others))[last]
        by_bin: dict[int, list] = {}
        for i in others:
            by_bin.setdefault(plan.bin[i], []).append(i)
        candidates: dict[int, list] = {}
        for u in self.unscored:
            least = plan.least_key(u, by_bin.get(plan.bin[u], []))
            if kappa is None or least <= kappa:  # equal: it would take that place
                tie = plan.along[u] if least[0] == 0 else plan.prio[u]
                candidates.setdefault(plan.bin[u], []).append((least, tie, plan.ids[u], u))
        if not candidates:
            return set()
        per_bin = 1 if kappa is not None else max(
            1, math.ceil((self.cap - len(tentative.kept)) / len(candidates)))
        return {u for found in candidates.values() for *_, u in sorted(found)[:per_bin]}
