"""Assemble the panels that the metrics score (method §6): reference panels of the retained
segments, the held-out copies for the real anchor, the three real anchors, and the gallery row
of every panel. Pure numpy; embeddings come in by image path.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from .galleries import MAIN_KINDS, SAME_NEIGHBOURHOOD

HELD_OUT = "held_out_real"
RANDOM_SAME_COUNTRY = "random_same_country"
RANDOM_GLOBAL = "random_global"
ANCHORS = (HELD_OUT, RANDOM_SAME_COUNTRY, RANDOM_GLOBAL)
ANCHOR_PREFIX = "anchor:"
#: names of the anchors in the published release's results (RELEASE_FORMAT.md)
RELEASE_ANCHOR_NAMES = {HELD_OUT: "oracle_nn", RANDOM_SAME_COUNTRY: "random_same_country",
                        RANDOM_GLOBAL: "random_global"}


def seeded_rng(seed: int, *parts: str) -> np.random.Generator:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return np.random.default_rng([int(seed), int.from_bytes(digest[:8], "little")])


@dataclass
class PanelRow:
    """One panel to score: a model's generated panel or a real anchor."""

    model: str
    condition: str
    segment_id: str
    embeddings: np.ndarray         # (m, D)
    target: int                    # reference-set position of the target panel
    gallery: dict[str, int]        # kind → reference-set position
    image_paths: list[str] = field(default_factory=list)
    seeds: list = field(default_factory=list)
    clip_scores: list = field(default_factory=list)
    samples: list = field(default_factory=list)  # sample index of each generated image


@dataclass
class ReferenceLayout:
    """Reference panels by position: first the full panel of every retained segment, then
    the held-out-reduced panel of each segment that has one."""

    segment_ids: list[str]
    panels: list[np.ndarray]
    paths: list[list[str]]
    index: dict[str, int]
    reduced_index: dict[str, int]
    held_out: dict[str, np.ndarray]     # segment_id → held-out embeddings
    held_out_paths: dict[str, list[str]]


def build_reference_layout(panel_paths: dict[str, list[str]], embed: dict[str, np.ndarray],
                           holdout_size: int, seed: int, min_images: int = 1) -> ReferenceLayout:
    """``panel_paths``: segment_id → image paths (already filtered); ``embed``: path → vector."""
    ids, panels, paths = [], [], []
    for sid in sorted(panel_paths):
        good = [p for p in panel_paths[sid] if p in embed]
        if len(good) < min_images:
            continue
        ids.append(sid)
        paths.append(good)
        panels.append(np.stack([embed[p] for p in good]))
    index = {sid: i for i, sid in enumerate(ids)}
    reduced_index, held_out, held_paths = {}, {}, {}
    extra_panels, extra_paths = [], []
    for sid, panel, plist in zip(ids, panels, paths):
        if holdout_size and len(panel) > holdout_size:
            pick = np.sort(seeded_rng(seed, "holdout", sid).choice(len(panel), holdout_size, replace=False))
            keep = np.setdiff1d(np.arange(len(panel)), pick)
            reduced_index[sid] = len(ids) + len(extra_panels)
            extra_panels.append(panel[keep])
            extra_paths.append([plist[i] for i in keep])
            held_out[sid] = panel[pick]
            held_paths[sid] = [plist[i] for i in pick]
    return ReferenceLayout(ids, panels + extra_panels, paths + extra_paths, index, reduced_index,
                           held_out, held_paths)


def gallery_positions(gallery: dict[str, str], layout: ReferenceLayout,
                      kinds=MAIN_KINDS) -> dict[str, int]:
    """Gallery kinds → reference positions; negatives without a retained panel are skipped."""
    out = {}
    for kind in tuple(kinds) + (SAME_NEIGHBOURHOOD,):
        neg = gallery.get(kind)
        if neg is not None and neg in layout.index:
            out[kind] = layout.index[neg]
    return out


def anchor_rows(layout: ReferenceLayout, segments: dict[str, dict], galleries: dict[str, dict],
                anchor_size: int, seed: int) -> list[PanelRow]:
    """The three real anchors of method §6, scored exactly like a model's panel."""
    rows = []
    ids = layout.segment_ids
    for sid in ids:
        gallery = gallery_positions(galleries.get(sid, {}), layout)
        if not any(k in gallery for k in MAIN_KINDS):
            continue
        seg = segments[sid]
        if sid in layout.held_out:
            rows.append(PanelRow(ANCHOR_PREFIX + HELD_OUT, "anchor", sid, layout.held_out[sid],
                                 layout.reduced_index[sid], gallery, layout.held_out_paths[sid]))
        rng = seeded_rng(seed, "anchor", sid)
        for name, pool in (
                (RANDOM_SAME_COUNTRY, [o for o in ids if o != sid and segments[o]["country_code"] == seg["country_code"]]),
                (RANDOM_GLOBAL, [o for o in ids if (segments[o]["city"], segments[o].get("country_code"))
                                 != (seg["city"], seg.get("country_code"))])):
            if not pool:
                continue
            donor = pool[int(rng.integers(len(pool)))]
            donor_panel = layout.panels[layout.index[donor]]
            take = np.sort(rng.choice(len(donor_panel), min(anchor_size, len(donor_panel)), replace=False))
            rows.append(PanelRow(ANCHOR_PREFIX + name, "anchor", sid, donor_panel[take],
                                 layout.index[sid], gallery,
                                 [layout.paths[layout.index[donor]][i] for i in take]))
    return rows
