"""The cap per segment (method §2 "Cap per segment, spread …"): which images that passed every
tier a segment keeps when more than ``cap_per_segment`` did. Both rules are seeded by the run's
seed and the segment id, and audit-accepted images come first under either.

``along`` (the default, the decision recorded in docs/method.md): the segment is cut into bins
of ``cap_bin_m`` metres by where each image projects onto it. The cap is filled in rounds;
round *r* takes the *r*-th image of every bin that has one, so every bin holding a passing
image is represented before any bin gets a second. A bin's first image is its passing image
nearest the segment's start; its later images follow a seeded order by turns over sequences
and UTC capture dates (:func:`.dedup.spread_over_sequences`) that is fixed over the bin's
images that passed tiers 1–3, before any pixel tier runs — an image that fails a later tier
hands its turn to the next. Within a round, bins are taken in a spread order (bit-reversed
index), so a cap smaller than the number of covered bins still drops bins evenly.

Why a bin's first image is the one nearest the start: then, whenever the cap keeps one image
in every covered bin, the longest stretch of the segment without a kept image is less than
the longest stretch without a passing image plus one bin (:func:`longest_stretch`; the proof
is in docs/method.md §2). A seeded choice inside the bin would only give "plus two bins".

``sequences`` (the paper's rule): round robin over sequences in a seeded order, within a
sequence by turns over capture dates, over the images that passed every tier. A dense cluster
of sequences can then take most of the cap and leave stretches of the street uncovered.
"""
from __future__ import annotations

import math
from typing import Hashable, Iterable

import numpy as np

from geofidelity_plugin.core.reference_panels.curation.dedup import spread_over_sequences
from geofidelity_plugin.core.reference_panels.options import CAP_SPREADS  # noqa: F401 (public here too)

ALONG, SEQUENCES = "along", "sequences"


def spread_ranks(n: int) -> list[int]:
    """Position of each of ``n`` bins in a round: bins in bit-reversed (van der Corput) order,
    so the first *k* bins of a round are spread evenly along the segment for every *k*."""
    bits = max(1, math.ceil(math.log2(n))) if n > 1 else 1
    order = [b for b in (int(format(k, f"0{bits}b")[::-1], 2) for k in range(2 ** bits)) if b < n]
    rank = [0] * n
    for position, b in enumerate(order):
        rank[b] = position
    return rank


def longest_stretch(along_m: Iterable[float], length_m: float) -> float:
    """The longest piece of the segment (0 … ``length_m``) holding no image: between two
    consecutive images along it, or between an end and the nearest image; the whole length
    when there is no image."""
    points = sorted(min(max(float(a), 0.0), length_m) for a in along_m)
    edges = [0.0, *points, float(length_m)]
    return float(max(b - a for a, b in zip(edges, edges[1:])))


class AlongPlan:
    """The ``along`` rule for one segment, fixed before any pixel tier runs.

    ``members``: ``(key, image_id, sequence, captured_at_ms, along_m)`` of the images that
    passed tiers 1–3 and take part in the cap order (the audit-accepted ones get a plan of
    their own, placed first)."""

    def __init__(self, members, length_m: float, bin_m: float, rng: np.random.Generator):
        self.bin_m, self.length_m = float(bin_m), float(length_m)
        self.n_bins = max(1, math.ceil(self.length_m / self.bin_m - 1e-9))
        self.rank = spread_ranks(self.n_bins)
        self.bin, self.along, self.ids, self.prio = {}, {}, {}, {}
        groups: dict[int, list] = {}
        for key, image_id, sequence, when, along in sorted(members, key=lambda m: str(m[1])):
            b = self.bin_of(along)
            self.bin[key], self.along[key], self.ids[key] = b, float(along), str(image_id)
            groups.setdefault(b, []).append((key, str(image_id), sequence, when))
        for b in sorted(groups):
            for position, key in enumerate(spread_over_sequences(groups[b], rng)):
                self.prio[key] = position

    def bin_of(self, along_m: float) -> int:
        return min(max(int(math.floor(max(float(along_m), 0.0) / self.bin_m)), 0), self.n_bins - 1)

    def first_of(self, keys) -> Hashable:
        """The image nearest the segment's start (ties: the smallest image id)."""
        return min(keys, key=lambda k: (self.along[k], self.ids[k]))

    def keyed(self, survivors: Iterable[Hashable]) -> list[tuple[tuple[int, int], Hashable]]:
        """``((round, bin position), key)`` of every survivor, sorted: the cap order."""
        by_bin: dict[int, list] = {}
        for key in survivors:
            by_bin.setdefault(self.bin[key], []).append(key)
        out = []
        for b, keys in by_bin.items():
            first = self.first_of(keys)
            rest = sorted((k for k in keys if k != first), key=lambda k: self.prio[k])
            out += [((position, self.rank[b]), key) for position, key in enumerate([first, *rest])]
        return sorted(out, key=lambda item: item[0])

    def order(self, survivors: Iterable[Hashable]) -> list[Hashable]:
        return [key for _, key in self.keyed(survivors)]

    def least_key(self, key: Hashable, scored_survivors: list[Hashable]) -> tuple[int, int]:
        """The best ``(round, bin position)`` an image not scored yet could get if it passed
        every tier, whatever the other unscored images do: ``scored_survivors`` are the scored
        images of its bin that passed every tier."""
        b = self.bin[key]
        if not scored_survivors or (self.along[key], self.ids[key]) < \
                (self.along[self.first_of(scored_survivors)], self.ids[self.first_of(scored_survivors)]):
            return (0, self.rank[b])
        first = self.first_of(scored_survivors)
        ahead = sum(1 for k in scored_survivors if k != first and self.prio[k] < self.prio[key])
        return (1 + ahead, self.rank[b])


def sequences_order(items, rng: np.random.Generator) -> list[Hashable]:
    """The paper's rule: ``(key, image_id, sequence, captured_at_ms)`` items round robin over
    sequences and dates (:func:`.dedup.spread_over_sequences`)."""
    return spread_over_sequences(items, rng)
