"""Per-panel and per-image rows as columns of numpy arrays (method §7 tables).

The tables of a 100× benchmark read 400,000 panel rows and 1.6 million image rows: as Python
dicts they would take gigabytes, as columns a few hundred megabytes. :func:`as_columns` turns
rows given as dicts into columns once (a mapping of arrays is taken as it is); the pairing of
two conditions by unit (:func:`pair_rows`) and the per-unit means of a sample pairing
(:func:`group_means`) work on integer codes of the key columns, in linear time, and keep the
order the dict-based pairing had (the base condition's rows in input order), so the resampled
units — and the intervals — are the same.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, Union

import numpy as np

Columns = Mapping[str, np.ndarray]
Rows = Union[Sequence[Mapping[str, Any]], Columns]

#: columns kept as text (object arrays); every other column is a float column, NaN for missing
TEXT_KEYS = ("model", "condition", "segment_id", "city", "country_code", "sample", "seed")


def as_columns(rows: Rows, numeric_keys: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """Columns of ``rows`` (a list of dicts, or already a mapping of equally long arrays).

    Text keys become object arrays, ``is_anchor`` a bool array (False where absent), and every
    key of ``numeric_keys`` a float array with NaN where a row lacks it or holds None.
    """
    if isinstance(rows, Mapping):
        cols = {k: np.asarray(v) for k, v in rows.items()}
        n = len(next(iter(cols.values()))) if cols else 0
        cols.setdefault("is_anchor", np.zeros(n, dtype=bool))
        for key in numeric_keys:
            cols[key] = (np.asarray(cols[key], dtype=np.float64) if key in cols
                         else np.full(n, np.nan))
        return cols
    rows = list(rows)
    present = set().union(*(r.keys() for r in rows)) if rows else set()
    cols = {k: np.array([r.get(k) for r in rows], dtype=object) for k in TEXT_KEYS if k in present}
    cols["is_anchor"] = np.array([bool(r.get("is_anchor")) for r in rows], dtype=bool)
    for key in numeric_keys:
        cols[key] = np.array([np.nan if r.get(key) is None else r[key] for r in rows],
                             dtype=np.float64).reshape(len(rows))
    return cols


def select(cols: Columns, mask: np.ndarray) -> dict[str, np.ndarray]:
    return {k: v[mask] for k, v in cols.items()}


def city_labels(cols: Columns) -> np.ndarray:
    """A city is its name and its country: two Springfields stay two cities (the ``city_label``
    column when :func:`with_keys` added it)."""
    if "city_label" in cols:
        return cols["city_label"]
    country = cols.get("country_code")
    n = len(cols["city"])
    country = np.full(n, None, dtype=object) if country is None else country
    return np.array([f"{c} ({cc or '?'})" for c, cc in zip(cols["city"], country)], dtype=object)


def _factorize(values) -> np.ndarray:
    """Integer codes of the values, numbered in order of first appearance: by hashing (linear)
    for text, by one sort for integers (a 100× run's 1.6 million sample numbers)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "biu":
        _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))
        return rank[inverse.reshape(-1)]
    lookup: dict = {}
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    return np.fromiter((lookup.setdefault(v, len(lookup)) for v in items), dtype=np.int64,
                       count=len(items))


def unit_codes(cols: Columns, keys: Sequence[str], factors: dict | None = None) -> np.ndarray:
    """One int64 code per row for the tuple of its ``keys`` (equal tuples, equal codes); the
    ``code:<keys>`` column when :func:`with_keys` added it. ``factors`` keeps each key column's
    codes for the next key set that reads it."""
    cached = cols.get("code:" + ",".join(keys))
    if cached is not None:
        return cached
    code = np.zeros(len(cols[keys[0]]) if keys[0] in cols else 0, dtype=np.int64)
    factors = {} if factors is None else factors
    for key in keys:
        try:
            values = cols[key]
        except KeyError:
            raise ValueError(f"a row lacks the pairing key '{key}'; every row needs "
                             f"{', '.join(keys)}.") from None
        inverse = factors[key] if key in factors else factors.setdefault(key, _factorize(values))
        code = code * (int(inverse.max(initial=0)) + 1) + inverse
    return code


def with_keys(cols: Columns, *key_sets: Sequence[str], labels: bool = True) -> dict[str, np.ndarray]:
    """``cols`` with the unit codes of ``key_sets`` (each key column coded once) and, with
    ``labels``, the city labels computed once, for the tables that pair and group the same rows
    again and again."""
    out = dict(cols)
    factors: dict = {}
    for keys in key_sets:
        if all(k in out for k in keys):
            out["code:" + ",".join(keys)] = unit_codes(out, keys, factors)
    if labels and "city" in out:
        out["city_label"] = city_labels(out)
    return out


def pair_rows(codes: np.ndarray, base: np.ndarray, treat: np.ndarray,
              describe) -> tuple[np.ndarray, np.ndarray]:
    """Row positions ``(base_rows, treat_rows)`` of the units under both conditions, in the order
    of the base rows. ``base``/``treat``: boolean masks; two rows of one condition with the same
    unit are an error (``describe(row)`` names it), since the pairing would be ambiguous."""
    b, t = np.flatnonzero(base), np.flatnonzero(treat)
    for side in (b, t):
        sorted_codes = np.sort(codes[side])
        twice = np.flatnonzero(sorted_codes[1:] == sorted_codes[:-1])
        if twice.size:
            row = side[np.flatnonzero(codes[side] == sorted_codes[twice[0]])[0]]
            raise ValueError(f"two rows of one condition share the unit {describe(row)}; add a key "
                             "such as 'sample' to unit_keys so that each unit is one row.")
    order = np.argsort(codes[t], kind="stable")
    sorted_t = codes[t][order]
    where = np.minimum(np.searchsorted(sorted_t, codes[b]), max(len(t) - 1, 0))
    hit = (sorted_t[where] == codes[b]) if len(t) else np.zeros(len(b), dtype=bool)
    return b[hit], t[order[where[hit]]]


def first_seen_groups(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(group of each row, first row of each group)``, groups numbered in order of first
    appearance."""
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse], np.sort(first)


def group_means(values: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group and column, the mean of the values that are not NaN (NaN where none is)."""
    present = ~np.isnan(values)
    filled = np.where(present, values, 0.0)
    out = np.full((n_groups, values.shape[1]), np.nan)
    for j in range(values.shape[1]):
        total = np.bincount(group, weights=filled[:, j], minlength=n_groups)
        count = np.bincount(group, weights=present[:, j], minlength=n_groups)
        np.divide(total, count, out=out[:, j], where=count > 0)
    return out


def last_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each distinct code, ascending; the row where it appears last — the row a dict built row
    by row would keep). Codes of a few per row are placed in a table, else sorted."""
    if codes.size and codes.min() >= 0 and codes.max() < 4 * codes.size + 1024:
        last = np.full(int(codes.max()) + 1, -1, dtype=np.int64)
        np.maximum.at(last, codes, np.arange(codes.size))
        known = np.flatnonzero(last >= 0)
        return known, last[known]
    unique, first = np.unique(codes[::-1], return_index=True)
    return unique, len(codes) - 1 - first
