"""Retrieval galleries (method §3): per target, its own reference panel and up to four
negative panels of distinct segments, one per kind, plus a stricter same-neighbourhood negative
kept apart from the main gallery.

Random choices use a generator seeded by (seed, target segment_id), so a target's gallery does
not change when other segments are added or reordered.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..errors import InputError

NEAREST_SAME_CITY = "nearest_same_city"
SAME_CITY_OTHER_NEIGHBOURHOOD = "same_city_other_neighbourhood"
SAME_DRIVING_SIDE_OTHER_CITY = "same_driving_side_other_city"
RANDOM_OTHER_CITY = "random_other_city"
SAME_NEIGHBOURHOOD = "same_neighbourhood"

#: The main gallery's negative kinds, in the protocol's order.
MAIN_KINDS = (NEAREST_SAME_CITY, SAME_CITY_OTHER_NEIGHBOURHOOD, SAME_DRIVING_SIDE_OTHER_CITY,
              RANDOM_OTHER_CITY)
#: The published release's evaluator uses same-neighbourhood in place of nearest-same-city.
RELEASE_KINDS = (SAME_NEIGHBOURHOOD, SAME_CITY_OTHER_NEIGHBOURHOOD, SAME_DRIVING_SIDE_OTHER_CITY,
                 RANDOM_OTHER_CITY)
ALL_KINDS = MAIN_KINDS + (SAME_NEIGHBOURHOOD,)


@dataclass(frozen=True)
class SegmentInfo:
    segment_id: str
    city: str
    neighbourhood: str
    driving_side: str
    lon: float
    lat: float
    country: str = ""  # a city is its name and its country (two Alphas in two countries never mix)

    @property
    def place(self) -> tuple[str, str]:
        return self.city, self.country


def _rng(seed: int, segment_id: str) -> np.random.Generator:
    digest = int.from_bytes(hashlib.sha256(segment_id.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng([int(seed), digest])


def _haversine_m(lon1, lat1, lon2, lat2):
    lon1, lat1, lon2, lat2 = map(np.radians, (lon1, lat1, lon2, lat2))
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * np.arcsin(np.sqrt(np.clip(a, 0, 1)))


def segment_infos(segments: list[dict]) -> list[SegmentInfo]:
    return [SegmentInfo(s["segment_id"], s["city"], s.get("neighbourhood") or "",
                        s.get("driving_side") or "", float(s["centroid_lon"]), float(s["centroid_lat"]),
                        s.get("country_code") or s.get("country") or "")
            for s in segments]


class _SortedPool:
    """Segments in segment-id order (input order must not matter); the k-th one left after
    excluding a few in O(excluded), so a gallery never scans every segment (linear overall)."""

    def __init__(self, members: list[int], infos: list[SegmentInfo]):
        self.order = sorted(members, key=lambda i: infos[i].segment_id)
        self.position = {i: p for p, i in enumerate(self.order)}

    def kth(self, k: int, excluded: set[int]) -> int:
        j = k
        for p in sorted(self.position[i] for i in excluded if i in self.position):
            if p > j:
                break
            j += 1
        return self.order[j]

    def size(self, excluded: set[int]) -> int:
        return len(self.order) - sum(1 for i in excluded if i in self.position)


def build_galleries(segments: list[dict], seed: int = 0, keep: dict | None = None) -> dict[str, dict[str, str | None]]:
    """Return ``segment_id → {kind: negative segment_id or None}`` for every retained segment.

    ``keep`` holds galleries to respect (e.g. the published release's own ``neg_*`` ids): its
    non-empty entries are used as they are and only missing kinds are filled. Each target
    looks only at its own city; the other-city draws pick the k-th of a sorted pool with the
    target's city left out, so the cost grows linearly with the number of segments.
    """
    infos = segment_infos(segments)
    if len({i.segment_id for i in infos}) != len(infos):
        raise InputError("segment ids are not unique — cannot build galleries")
    keep = keep or {}
    lon = np.array([i.lon for i in infos])
    lat = np.array([i.lat for i in infos])
    index = {info.segment_id: i for i, info in enumerate(infos)}
    by_place: dict[tuple[str, str], list[int]] = {}
    by_side: dict[str, list[int]] = {}
    for i, info in enumerate(infos):
        by_place.setdefault(info.place, []).append(i)
        by_side.setdefault(info.driving_side, []).append(i)
    everyone = _SortedPool(list(range(len(infos))), infos)
    sides = {side: _SortedPool(members, infos) for side, members in by_side.items()}
    out: dict[str, dict[str, str | None]] = {}
    for t, target in enumerate(infos):
        rng = _rng(seed, target.segment_id)
        given = {k: v for k, v in keep.get(target.segment_id, {}).items() if v}
        used = {target.segment_id, *(v for k, v in given.items() if k != SAME_NEIGHBOURHOOD)}
        gallery: dict[str, str | None] = {}
        city = by_place[target.place]
        same_city = [i for i in city if i != t]

        def pick(kind, candidates, nearest=False):
            if kind in given:
                gallery[kind] = given[kind]
                return
            pool = sorted((i for i in candidates if infos[i].segment_id not in used),
                          key=lambda i: infos[i].segment_id)  # input order must not matter
            if not pool:
                gallery[kind] = None
                return
            if nearest:
                d = _haversine_m(target.lon, target.lat, lon[pool], lat[pool])
                choice = pool[int(np.lexsort((np.array([infos[i].segment_id for i in pool]), d))[0])]
            else:
                choice = pool[int(rng.integers(len(pool)))]
            gallery[kind] = infos[choice].segment_id
            used.add(infos[choice].segment_id)

        def pick_other_city(kind, pool: _SortedPool):
            """A random segment of ``pool`` outside the target's city and not yet used."""
            if kind in given:
                gallery[kind] = given[kind]
                return
            excluded = set(city) | {index[u] for u in used if u in index}
            size = pool.size(excluded)
            if size == 0:
                gallery[kind] = None
                return
            choice = pool.kth(int(rng.integers(size)), excluded)
            gallery[kind] = infos[choice].segment_id
            used.add(infos[choice].segment_id)

        pick(NEAREST_SAME_CITY, same_city, nearest=True)
        pick(SAME_CITY_OTHER_NEIGHBOURHOOD,
             [i for i in same_city if infos[i].neighbourhood != target.neighbourhood])
        pick_other_city(SAME_DRIVING_SIDE_OTHER_CITY, sides[target.driving_side])
        pick_other_city(RANDOM_OTHER_CITY, everyone)
        # the strict negative is chosen apart: it may repeat a main-gallery segment
        strict_pool = [i for i in same_city if target.neighbourhood and infos[i].neighbourhood == target.neighbourhood]
        if SAME_NEIGHBOURHOOD in given:
            gallery[SAME_NEIGHBOURHOOD] = given[SAME_NEIGHBOURHOOD]
        elif strict_pool:
            d = _haversine_m(target.lon, target.lat, lon[strict_pool], lat[strict_pool])
            gallery[SAME_NEIGHBOURHOOD] = infos[strict_pool[int(np.argmin(d))]].segment_id
        else:
            gallery[SAME_NEIGHBOURHOOD] = None
        out[target.segment_id] = gallery
    return out


def gallery_size(gallery: dict[str, str | None], kinds=MAIN_KINDS) -> int:
    """Realised K: the target plus the negatives found among ``kinds``."""
    return 1 + sum(1 for k in kinds if gallery.get(k))
