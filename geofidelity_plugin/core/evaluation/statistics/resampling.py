"""method §7 plain bootstrap: seeded percentile intervals of means over resampled units, and the
pieces the city-balanced bootstrap (:mod:`.city_bootstrap`) shares with it.

Bootstraps are vectorised: each chunk of resamples draws an index matrix, turns it into a
count matrix (how often each unit was drawn), and gets every resampled mean of every value
column from one matrix product. A plain bootstrap's chunk size is a memory bound only
(``max_cells``): its resamples are drawn in one stream, row after row, so any chunking draws the
same indices (method §7 "Chunks and memory"). NaN marks a missing value (e.g. a margin against a
negative kind that a gallery lacks): it is left out of every mean, and ``n`` counts the units
with a value.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np

#: method §7: 5,000 resamples, percentile 95% intervals.
N_RESAMPLES = 5000
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 0
_CELLS_PER_CHUNK = 1 << 22       # default memory bound of the (resamples × units) count matrix
_CACHE_CELLS = 1 << 18           # a count matrix that stays in the processor's cache
#: Fewest resamples per chunk. Each chunk's product reads the whole (units × columns) value matrix
#: once: at 67,200 units and ~150 columns (a 100× table) that is 80 MB per chunk, so 16 resamples
#: a chunk spent most of the product waiting on memory (measured on 2 cores: 15 GFLOP/s, 28 at 62
#: resamples). Narrow tables reach this from the cache rule alone; --max-memory still bounds a chunk.
_MIN_CHUNK_RESAMPLES = 64
_ROW_BY_ROW_UNITS = 4096         # from here a row's counts are built alone, in the processor's cache
_ROWS_PER_BLOCK = 4096           # rows of the product's columns formed at a time

Number = Union[float, np.ndarray]


@dataclass(frozen=True)
class BootstrapResult:
    """A mean with its percentile interval; arrays when several value columns were given."""

    estimate: Number
    low: Number
    high: Number
    n: Union[int, np.ndarray]
    n_resamples: int
    confidence: float
    seed: int
    method: str

    def columns(self, part: slice) -> "BootstrapResult":
        """The result of the value columns ``part`` alone: a joint resampling of several tables'
        columns side by side hands each table its own columns."""
        return BootstrapResult(self.estimate[part], self.low[part], self.high[part], self.n[part],
                               self.n_resamples, self.confidence, self.seed, self.method)


def _columns(values) -> tuple[np.ndarray, bool]:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim not in (1, 2) or array.shape[0] == 0:
        raise ValueError(f"values must be a non-empty 1-D or 2-D array (units × columns), got "
                         f"shape {array.shape}.")
    return array.reshape(array.shape[0], -1), array.ndim == 1


def _check_options(n_resamples: int, confidence: float) -> None:
    if int(n_resamples) < 1 or not 0.0 < confidence < 1.0:
        raise ValueError(f"need n_resamples ≥ 1 and 0 < confidence < 1, got {n_resamples} and "
                         f"{confidence}.")


def draw_type(n_units: int):
    """int32 draws are the same numbers as int64 ones (numpy draws both as bounded 32-bit values
    below 2³², and leaves the generator in the same state), in half the memory and, for short
    rows, in about half the time; tests/core/evaluation/test_city_grouping.py holds that."""
    return np.int32 if n_units < 2 ** 31 else np.int64


def _count_matrix(draws: np.ndarray, n_units: int) -> np.ndarray:
    """Per row of ``draws`` (indices into n_units), how often each unit was drawn.

    Wide rows are counted one at a time: a row's integer counts stay in cache on their way into
    the float matrix, where one count over all rows would send two more matrices through memory.
    """
    rows = draws.shape[0]
    if n_units >= _ROW_BY_ROW_UNITS:
        out = np.empty((rows, n_units))
        for r in range(rows):
            out[r] = np.bincount(draws[r], minlength=n_units)
        return out
    flat = (draws + n_units * np.arange(rows)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_units).reshape(rows, n_units).astype(np.float64)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1),
                        np.nan)


def _finish(stats: np.ndarray, estimate: np.ndarray, n: np.ndarray, one_d: bool,
            n_resamples: int, confidence: float, seed: int, method: str) -> BootstrapResult:
    alpha = (1.0 - confidence) / 2.0
    percents = [100 * alpha, 100 * (1 - alpha)]
    complete = ~np.isnan(stats).any(axis=0)
    low = np.full(stats.shape[1], np.nan)
    high = np.full(stats.shape[1], np.nan)
    if complete.any():
        low[complete], high[complete] = np.percentile(stats[:, complete], percents, axis=0)
    for col in np.flatnonzero(~complete):
        column = stats[~np.isnan(stats[:, col]), col]
        if column.size:
            low[col], high[col] = np.percentile(column, percents)
    if one_d:
        return BootstrapResult(float(estimate[0]), float(low[0]), float(high[0]), int(n[0]),
                               n_resamples, confidence, seed, method)
    return BootstrapResult(estimate, low, high, n, n_resamples, confidence, seed, method)


def _product_columns(parts: list[np.ndarray], present: np.ndarray, gappy: np.ndarray, rows: slice) -> np.ndarray:
    """Rows ``rows`` of the product's columns: the values of ``parts`` side by side (0 where
    missing), then the presence (1 or 0) of the columns that miss a value."""
    values = np.hstack([part[rows] for part in parts])
    return np.hstack([np.where(present[rows], values, 0.0), present[rows][:, gappy]])


def distinct_columns(parts: list[np.ndarray], present: np.ndarray, gappy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct columns of the product, in C order; for each of its columns, its distinct one).

    A joint table repeats columns — a metric no panel has (zeros, and zero presence), the presence
    of a margin whose gaps follow the segment's gallery in every condition — and equal columns
    have equal resampled sums, so the product computes each once (a third fewer at 1×). Columns
    are told apart by a digest of their bytes, block of rows by block, and merged ones checked
    equal, so no copy of the product is made besides its distinct columns.
    """
    n, width = present.shape[0], present.shape[1] + len(gappy)
    blocks = [slice(s, min(s + _ROWS_PER_BLOCK, n)) for s in range(0, n, _ROWS_PER_BLOCK)]
    digests = [hashlib.blake2b(digest_size=16) for _ in range(width)]
    for rows in blocks:
        for digest, column in zip(digests, np.ascontiguousarray(_product_columns(parts, present, gappy, rows).T)):
            digest.update(column)
    first: dict[bytes, int] = {}
    source = np.array([first.setdefault(d.digest(), len(first)) for d in digests], dtype=np.int64)
    _, keep = np.unique(source, return_index=True)  # each distinct column where it first appears
    distinct = np.empty((n, keep.size))
    for rows in blocks:
        block = _product_columns(parts, present, gappy, rows)
        if not np.array_equal(block, block[:, keep[source]]):  # one digest, two columns: keep all
            return _all_columns(parts, present, gappy, blocks), np.arange(width)
        distinct[rows] = block[:, keep]
    return distinct, source


def _all_columns(parts: list[np.ndarray], present: np.ndarray, gappy: np.ndarray, blocks: list) -> np.ndarray:
    """Every column of the product (:func:`distinct_columns` when two digests collide)."""
    out = np.empty((present.shape[0], present.shape[1] + len(gappy)))
    for rows in blocks:
        out[rows] = _product_columns(parts, present, gappy, rows)
    return out


def cells_for(max_memory_bytes: int) -> int:
    """Count-matrix cells per chunk that keep a bootstrap near an eighth of ``max_memory_bytes``
    (a cell costs a draw, its bincount slot and a float64 count)."""
    return max(1 << 16, int(max_memory_bytes) // 8 // 32)


def bootstrap_mean(values, *, n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE,
                   seed: int = BOOTSTRAP_SEED, max_cells: Optional[int] = None) -> BootstrapResult:
    """method §7 seeded percentile bootstrap of a mean over units (rows).

    ``values``: ``(n,)`` or ``(n, k)``; with k columns the same resampled units serve every
    column (one table row: all metrics of one model and condition). ``max_cells`` bounds the
    memory of a chunk of resamples (:func:`cells_for`); the interval does not depend on it.
    """
    data, one_d = _columns(values)
    return _joint_mean([data], one_d, n_resamples, confidence, seed, max_cells)


def joint_bootstrap_mean(parts: Sequence[np.ndarray], *, n_resamples: int = N_RESAMPLES,
                         confidence: float = CONFIDENCE, seed: int = BOOTSTRAP_SEED,
                         max_cells: Optional[int] = None) -> BootstrapResult:
    """:func:`bootstrap_mean` of the columns of ``parts`` (matrices with as many units) side by
    side, without copying them side by side: a seed's draws depend on the number of units only,
    so each column's interval is the one its own call gives, and the draws are made once."""
    return _joint_mean(list(parts), False, n_resamples, confidence, seed, max_cells)


def _joint_mean(parts: list, one_d: bool, n_resamples: int, confidence: float, seed: int,
                max_cells: Optional[int]) -> BootstrapResult:
    _check_options(n_resamples, confidence)
    parts = [_columns(part)[0] for part in parts]
    n_units = parts[0].shape[0]
    if any(part.shape[0] != n_units for part in parts):
        raise ValueError(f"resampled side by side, the tables need as many units, got {[p.shape[0] for p in parts]}.")
    present = np.hstack([~np.isnan(part) for part in parts])
    k = present.shape[1]
    # One product per chunk: the values, then the presence of the columns that miss a value (a
    # column without gaps has every resample's n units, exactly); the counts are read once.
    gappy = np.flatnonzero(~present.all(axis=0))
    distinct, source = distinct_columns(parts, present, gappy)
    denominator = np.full((1, k), float(n_units))
    rng = np.random.default_rng(seed)
    memory_cap = max(1, int(max_cells or _CELLS_PER_CHUNK) // n_units)
    chunk = min(max(_MIN_CHUNK_RESAMPLES, _CACHE_CELLS // n_units), memory_cap)
    stats = np.empty((n_resamples, k))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        draws = rng.integers(0, n_units, size=(size, n_units), dtype=draw_type(n_units))
        sums = (_count_matrix(draws, n_units) @ distinct)[:, source]
        denominators = np.repeat(denominator, size, axis=0)
        denominators[:, gappy] = sums[:, k:]
        stats[start:start + size] = _ratio(sums[:, :k], denominators)
    n = present.sum(axis=0)
    estimate = _ratio(distinct.sum(axis=0)[source[:k]], n)  # each value column summed row after row
    return _finish(stats, estimate, n, one_d, n_resamples, confidence, seed, "percentile")
