"""The generated images of each model × condition as one feature set, with the reference images of
its targets (method §6 "Comparability with the field"): what the field's metrics compare and what
``evaluate --export-features`` writes. Built from the panels the evaluation scored, so the features
are the run's own (cached DINOv2 embeddings, float64, as scored)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geofidelity_plugin.core.evaluation.panels import ANCHOR_PREFIX, HELD_OUT

#: the real anchor that enters the comparability table as the real-against-real baseline
HELD_OUT_ANCHOR = ANCHOR_PREFIX + HELD_OUT


@dataclass
class FeatureSet:
    """One model × condition: its generated images and the reference panels of its targets."""

    model: str
    condition: str
    features: np.ndarray          # (n, D) generated images, in panel order
    image_paths: list[str]
    segment_ids: np.ndarray       # (n,) the target segment of each image
    samples: np.ndarray           # (n,) sample index of each image (-1 where none is recorded)
    reference_positions: tuple    # reference-layout positions of the target panels, sorted

    def cities(self, city_of: dict[str, str]) -> np.ndarray:
        return np.array([city_of[s] for s in self.segment_ids], dtype=object)


def feature_sets(rows, include_anchor: bool = True) -> list[FeatureSet]:
    """One :class:`FeatureSet` per model × condition of ``rows`` (:class:`~.panels.PanelRow`),
    sorted; the random anchors are left out (their images are other segments' reference images,
    so they are part of the reference set they would be compared with), the held-out anchor is
    kept when ``include_anchor``."""
    groups: dict[tuple[str, str], list] = {}
    for row in rows:
        anchor = row.model.startswith(ANCHOR_PREFIX)
        if anchor and not (include_anchor and row.model == HELD_OUT_ANCHOR):
            continue
        groups.setdefault((row.model, row.condition), []).append(row)
    out = []
    for (model, condition), members in sorted(groups.items()):
        sizes = [len(r.embeddings) for r in members]
        samples = [(list(r.samples) if len(r.samples) == len(r.embeddings) else [-1] * len(r.embeddings))
                   for r in members]
        out.append(FeatureSet(model, condition, np.concatenate([r.embeddings for r in members]),
                              [p for r in members for p in r.image_paths],
                              np.repeat(np.array([r.segment_id for r in members], dtype=object), sizes),
                              np.array([s for part in samples for s in part], dtype=np.int64),
                              tuple(sorted({int(r.target) for r in members}))))
    return out


def reference_features(layout, positions) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The reference images of the panels at ``positions``: features, segment ids, paths."""
    segment_of = {**{i: sid for i, sid in enumerate(layout.segment_ids)},
                  **{p: sid for sid, p in layout.reduced_index.items()}}
    features = np.concatenate([layout.panels[p] for p in positions])
    segments = np.repeat(np.array([segment_of[p] for p in positions], dtype=object),
                         [len(layout.panels[p]) for p in positions])
    return features, segments, [path for p in positions for path in layout.paths[p]]
