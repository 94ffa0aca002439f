"""Duplicate removal for reference-panel curation (method §2, filter 7: "duplicates: perceptual
hash within a Hamming radius, and spatial thinning per sequence").

Two steps, both deterministic:

1. **Perceptual-hash clusters.** Each image gets a 64-bit DCT perceptual hash
   (``imagehash.phash``, hash size 8). Any two images whose hashes differ in at most
   ``radius`` bits (default 6) are linked, and the connected components of those links
   (union–find, so the relation is made transitive) are the duplicate clusters. One image per
   cluster is kept: the one ranked first by the caller's key — by default the sharpest
   (highest Laplacian variance), then the earliest capture, then the smallest image id.
2. **Spatial thinning per sequence.** Along each Mapillary sequence, in capture order, an image
   is kept only if it lies at least ``min_spacing_m`` (default 5 m) from the last image kept in
   that sequence; a camera standing at a traffic light otherwise fills the panel with nearly
   the same view. Distances are great-circle (haversine, mean Earth radius 6 371 008.8 m),
   which over a few metres agrees with the ellipsoid to well under a centimetre.
   Images without a sequence are never thinned.

Spreading a capped panel (method §2 "cap per segment, spread over sequences and dates") is
here too, as it is the other half of keeping a panel from being one camera's run of frames:
:func:`spread_over_sequences` orders images round-robin over sequences (in a seeded order) and,
within a sequence, interleaved over capture dates (UTC), each date's images in seeded order;
the first ``cap`` of that order are kept.
"""
from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, NamedTuple, Optional, Sequence

import numpy as np
from PIL import Image

EARTH_RADIUS_M = 6_371_008.8
PHASH_SIZE = 8  # 8 × 8 = 64 bits


def phash_hex(image: Image.Image) -> str:
    """The 64-bit perceptual hash of an image as 16 hex digits."""
    import imagehash

    return str(imagehash.phash(image, hash_size=PHASH_SIZE))


def hamming(a: str, b: str) -> int:
    """Number of differing bits between two hex hashes."""
    return bin(int(a, 16) ^ int(b, 16)).count("1")


class _UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, i: int, j: int) -> None:
        ri, rj = self.find(i), self.find(j)
        if ri != rj:
            self.parent[max(ri, rj)] = min(ri, rj)


def _bits(hashes: Sequence[str]) -> np.ndarray:
    """(n, 64) array of 0/1 bits of hex hashes."""
    as_int = np.array([int(h, 16) for h in hashes], dtype=np.uint64)
    as_bytes = as_int.astype(">u8").view(np.uint8).reshape(len(hashes), 8)
    return np.unpackbits(as_bytes, axis=1)


def hash_clusters(hashes: Sequence[str], radius: int = 6, chunk: int = 512) -> list[int]:
    """Cluster label of each hash: the index of the lowest-indexed member of its component
    under "Hamming distance ≤ radius" (union–find). A negative radius links nothing."""
    n = len(hashes)
    if n == 0:
        return []
    bits = _bits(hashes).astype(np.float32)  # BLAS products; counts ≤ 64 are exact
    uf = _UnionFind(n)
    for start in range(0, n, chunk):
        block = bits[start:start + chunk]
        # Hamming distance = number of positions where the bits differ
        distance = block @ (1 - bits).T + (1 - block) @ bits.T
        rows, cols = np.nonzero(distance <= radius)
        for i, j in zip(rows + start, cols):
            if j > i:
                uf.union(int(i), int(j))
    return [uf.find(i) for i in range(n)]


@dataclass(frozen=True)
class DuplicateDecision:
    """Outcome for one image: ``cluster`` is the id of the image kept for its cluster."""

    key: Hashable
    cluster: Hashable
    kept: bool
    distance: int  # Hamming distance to the kept image (0 for the kept image itself)


def drop_hash_duplicates(keys: Sequence[Hashable], hashes: Sequence[str], radius: int = 6,
                         rank: Optional[Callable[[int], tuple]] = None) -> list[DuplicateDecision]:
    """Keep one image per perceptual-hash cluster.

    ``rank(i)`` orders the members of a cluster (smallest first is kept); the default keeps
    the first by ``keys``. Decisions are returned in the input order.
    """
    if len(keys) != len(hashes):
        raise ValueError("keys and hashes must have the same length")
    labels = hash_clusters(hashes, radius)
    rank = rank or (lambda i: (str(keys[i]),))
    members: dict[int, list[int]] = {}
    for i, label in enumerate(labels):
        members.setdefault(label, []).append(i)
    winner = {label: min(idx, key=rank) for label, idx in members.items()}
    return [DuplicateDecision(key=keys[i], cluster=keys[winner[labels[i]]],
                              kept=winner[labels[i]] == i,
                              distance=hamming(hashes[i], hashes[winner[labels[i]]]))
            for i in range(len(keys))]


def haversine_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance in metres on a sphere of the mean Earth radius."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2.0 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(a)))


@dataclass(frozen=True)
class ThinningDecision:
    """Outcome for one image: ``nearest_kept`` and ``distance_m`` name the image it was too
    close to when it was dropped (None when kept)."""

    key: Hashable
    kept: bool
    nearest_kept: Optional[Hashable]
    distance_m: Optional[float]


def thin_sequences(items: Iterable[tuple[Hashable, Optional[str], int, float, float]],
                   min_spacing_m: float = 5.0) -> dict[Hashable, ThinningDecision]:
    """Spatial thinning along each sequence.

    ``items`` are ``(key, sequence, captured_at_ms, lon, lat)``; within a sequence they are
    walked by capture time (then key), and an image closer than ``min_spacing_m`` to the last
    kept one is dropped.
    """
    by_sequence: dict[str, list] = {}
    decisions: dict[Hashable, ThinningDecision] = {}
    for key, sequence, when, lon, lat in items:
        if not sequence or min_spacing_m <= 0:
            decisions[key] = ThinningDecision(key, True, None, None)
        else:
            by_sequence.setdefault(str(sequence), []).append((int(when), str(key), key, lon, lat))
    for members in by_sequence.values():
        last = None
        for _, _, key, lon, lat in sorted(members, key=lambda m: (m[0], m[1])):
            if last is not None:
                gap = haversine_m(last[1], last[2], lon, lat)
                if gap < min_spacing_m:
                    decisions[key] = ThinningDecision(key, False, last[0], gap)
                    continue
            decisions[key] = ThinningDecision(key, True, None, None)
            last = (key, lon, lat)
    return decisions


def spread_over_sequences(items: Iterable[tuple[Hashable, str, Optional[str], Optional[int]]],
                          rng: np.random.Generator) -> list[Hashable]:
    """Seeded order of ``(key, image_id, sequence, captured_at_ms)`` items that takes one image
    per sequence in turn, and within a sequence one capture date in turn. Items without a
    sequence are sequences of their own. The result depends on the items (sorted by image id
    first) and the generator's state only, never on the input order."""
    sequences: dict = {}
    for key, image_id, sequence, when in sorted(items, key=lambda item: str(item[1])):
        date = _dt.datetime.fromtimestamp((when or 0) / 1000.0, _dt.timezone.utc).date()
        group = sequences.setdefault(str(sequence) if sequence else f"\0{image_id}", {})
        group.setdefault(date, []).append(key)
    queues = []
    for name in sorted(sequences):
        dates = [sequences[name][d] for d in sorted(sequences[name])]
        for members in dates:
            rng.shuffle(members)
        order = rng.permutation(len(dates))
        queues.append([dates[d][k] for k in range(max(map(len, dates))) for d in order
                       if k < len(dates[d])])
    queues = [queues[k] for k in rng.permutation(len(queues))]
    return [q[k] for k in range(max(map(len, queues), default=0)) for q in queues if k < len(q)]


class DedupItem(NamedTuple):
    """One image of a segment for :func:`duplicate_outcomes`; ``rank`` orders a hash cluster
    (smallest kept)."""

    key: Hashable
    image_id: str
    phash: str
    rank: Any
    sequence: Optional[str]
    captured_at_ms: int
    lon: float
    lat: float


@dataclass(frozen=True)
class DedupOutcome:
    """Filter-7 result for one image: ``reason`` is None when it is kept."""

    reason: Optional[str]
    measures: dict


def duplicate_outcomes(items: Sequence[DedupItem], radius: int = 6,
                       min_spacing_m: float = 5.0) -> dict[Hashable, DedupOutcome]:
    """Filter 7 on one segment's images: hash clusters first, then thinning of the survivors."""
    items = list(items)
    decisions = drop_hash_duplicates([it.image_id for it in items], [it.phash for it in items],
                                     radius, rank=lambda k: items[k].rank)
    out: dict[Hashable, DedupOutcome] = {}
    survivors = []
    for item, d in zip(items, decisions):
        measures = {"dup_cluster": d.cluster, "dup_hamming": d.distance}
        if d.kept:
            survivors.append(item)
            out[item.key] = DedupOutcome(None, measures)
        else:
            out[item.key] = DedupOutcome(f"near-duplicate of {d.cluster} (phash Hamming distance "
                                         f"{d.distance}, radius {radius})", measures)
    thinning = thin_sequences([(it.image_id, it.sequence, it.captured_at_ms, it.lon, it.lat)
                               for it in survivors], min_spacing_m)
    for item in survivors:
        t = thinning[item.image_id]
        if not t.kept:
            out[item.key] = DedupOutcome(
                f"{t.distance_m:.1f} m after {t.nearest_kept} in sequence {item.sequence} "
                f"(< {min_spacing_m:g} m)", {**out[item.key].measures, "sequence_gap_m": t.distance_m})
    return out
