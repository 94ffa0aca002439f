"""Merge touching same-name ways into lines, keep long ones, clip long ones (method §1).

Ways that share a node are "touching". Each connected group of same-name pieces is one
candidate. A group can branch (forks, loops, side arms), so it is reduced to its *spine*: the
longest shortest-path through the group (the weighted diameter on a tree, found with two
Dijkstra passes). The spine is the merged line; it is kept when it spans ≥ ``min_length_m`` and
clipped to ``clip_length_m`` centred on the point of the line nearest its centroid (shifted to
stay inside the line, so the clip is exactly ``clip_length_m`` long).
"""
from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass

from shapely.geometry import LineString, Point
from shapely.ops import substring

Key = tuple[int, int]


@dataclass
class Piece:
    """Part of one way inside the selection disc, in metric coordinates."""

    way_id: int
    name: str
    highway: str
    line: LineString


@dataclass
class MergedLine:
    name: str
    spine: LineString            # full merged line (metres)
    clipped: LineString          # ≤ clip length (metres)
    way_ids: tuple[int, ...]     # ways along the clipped line
    component_way_ids: tuple[int, ...]
    highway_lengths: dict[str, float]  # metres of the clipped line per highway value


def _key(x: float, y: float) -> Key:
    return (int(round(x * 100)), int(round(y * 100)))  # 1 cm grid: shared OSM nodes coincide


class _UnionFind:
    def __init__(self):
        self.parent: dict = {}

    def find(self, a):
        parent = self.parent
        parent.setdefault(a, a)
        root = a
        while parent[root] != root:
            root = parent[root]
        while parent[a] != root:
            parent[a], a = root, parent[a]
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _dijkstra(adj, source):
    dist = {source: 0.0}
    prev: dict = {}
    heap = [(0.0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w, edge in adj[u]:
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v], prev[v] = nd, (u, edge)
                heapq.heappush(heap, (nd, v))
    return dist, prev


def _spine(adj, start):
    dist, _ = _dijkstra(adj, start)
    a = max(dist, key=lambda k: (dist[k], k))
    dist, prev = _dijkstra(adj, a)
    b = max(dist, key=lambda k: (dist[k], k))
    nodes, edges = [b], []
    while nodes[-1] != a:
        u, edge = prev[nodes[-1]]
        nodes.append(u)
        edges.append(edge)
    nodes.reverse()
    edges.reverse()
    return nodes, edges


def merge_pieces(pieces: list[Piece], min_length_m: float, clip_length_m: float) -> list[MergedLine]:
    """Group ``pieces`` (all of one name) into touching components → spine → clip."""
    coords_of: dict[Key, tuple[float, float]] = {}
    adj: dict[Key, list] = defaultdict(list)
    uf = _UnionFind()
    for piece in pieces:
        pts = list(piece.line.coords)
        keys = [_key(*p[:2]) for p in pts]
        for p, k in zip(pts, keys):
            coords_of.setdefault(k, (p[0], p[1]))
        for (k1, p1), (k2, p2) in zip(zip(keys, pts), zip(keys[1:], pts[1:])):
            if k1 == k2:
                continue
            w = math.hypot(p2[0] - p1[0], p2[1] - p1[1])
            edge = (piece.way_id, piece.highway)
            adj[k1].append((k2, w, edge))
            adj[k2].append((k1, w, edge))
            uf.union(k1, k2)
    components: dict[Key, list[Key]] = defaultdict(list)
    for k in adj:
        components[uf.find(k)].append(k)
    merged = []
    for root in sorted(components):
        nodes = components[root]
        comp_ways = sorted({e[2][0] for n in nodes for e in adj[n]})
        path_nodes, path_edges = _spine(adj, min(nodes))
        if len(path_nodes) < 2:
            continue
        spine = LineString([coords_of[k] for k in path_nodes])
        if spine.length < min_length_m:
            continue
        clipped, start = clip_line(spine, clip_length_m)
        ways, highways = _ways_along(path_nodes, path_edges, coords_of, start, start + clipped.length)
        merged.append(MergedLine(pieces[0].name, spine, clipped, tuple(sorted(ways)),
                                 tuple(comp_ways), highways))
    return merged


def clip_line(line: LineString, clip_length_m: float) -> tuple[LineString, float]:
    """Clip ``line`` to ``clip_length_m`` around the point of the line nearest its centroid.

    Returns the clipped line and its start distance along ``line``.
    """
    length = line.length
    if length <= clip_length_m:
        return line, 0.0
    centre = line.project(Point(line.centroid))
    start = min(max(centre - clip_length_m / 2.0, 0.0), length - clip_length_m)
    return substring(line, start, start + clip_length_m), start


def _ways_along(path_nodes, path_edges, coords_of, start, end):
    ways: set[int] = set()
    highways: dict[str, float] = defaultdict(float)
    travelled = 0.0
    for (u, v), (way_id, highway) in zip(zip(path_nodes, path_nodes[1:]), path_edges):
        (x1, y1), (x2, y2) = coords_of[u], coords_of[v]
        w = math.hypot(x2 - x1, y2 - y1)
        overlap = min(travelled + w, end) - max(travelled, start)
        if overlap > 1e-6:
            ways.add(way_id)
            highways[highway] += overlap
        travelled += w
    return ways, dict(highways)
