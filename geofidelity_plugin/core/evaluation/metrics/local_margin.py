"""method §6 Local Margin (the summary paper's): the target's similarity minus the best of the
same-city negatives — whether a panel beats the streets a local would confuse it with, apart from
the easier other-city negatives that lift Δmean.

The same-city negatives are the gallery's ``nearest_same_city`` and
``same_city_other_neighbourhood`` and the strict ``same_neighbourhood`` negative (*choice*: the
strict one counts, since it is a same-city street too; it still never enters the rank). A gallery
without any of them (a lone segment in its city) has no Local Margin (NaN).
"""
from __future__ import annotations

import numpy as np

from geofidelity_plugin.core.evaluation.metrics.retrieval import GALLERY_COLUMNS

SAME_CITY_KINDS = ("nearest_same_city", "same_city_other_neighbourhood", "same_neighbourhood")
_COLUMNS = [GALLERY_COLUMNS.index(kind) for kind in SAME_CITY_KINDS]


def local_margin(similarities) -> np.ndarray:
    """``s(target) − max s(same-city negatives)`` of each row of ``similarities``
    (``(..., len(GALLERY_COLUMNS))``, NaN where a kind is missing); NaN where none is present."""
    sims = np.asarray(similarities, dtype=np.float64)
    if sims.shape[-1] != len(GALLERY_COLUMNS):
        raise ValueError(f"similarities need {len(GALLERY_COLUMNS)} columns ({', '.join(GALLERY_COLUMNS)}), "
                         f"got {sims.shape[-1]}.")
    same = sims[..., _COLUMNS]
    present = ~np.isnan(same)
    best = np.where(present, same, -np.inf).max(axis=-1)
    return np.where(present.any(axis=-1), sims[..., 0] - best, np.nan)
