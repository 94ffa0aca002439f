"""Duplicate removal for reference-panel curation (PROTOCOL §2, filter 7: "duplicates: perceptual
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
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Optional, Sequence

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
    under "Hamming distance ≤ radius" (union–find)."""
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
