"""``table_comparability.csv`` (method §6 "Comparability with the field"): FD, KID (polynomial and
RBF), precision/recall/density/coverage and Vendi of each model × condition against the reference
panels of its targets — over all cities, then per city — with the held-out real anchor as the
real-against-real baseline. A metric below its minimum sample is empty, and the row's ``note``
says why (:data:`~.metrics.comparability.MINIMUM_SAMPLES`)."""
from __future__ import annotations

import numpy as np

from geofidelity_plugin.core.evaluation.feature_sets import HELD_OUT_ANCHOR, feature_sets, reference_features
from geofidelity_plugin.core.evaluation.metrics.comparability import FieldReference, comparability_metrics
from geofidelity_plugin.core.progress import check_cancel

#: the ``city`` of the row over every city
ALL_CITIES = "all"
#: the columns of the table, in order (``note`` last, where there is one)
COLUMNS = ("model", "condition", "city", "n_generated", "n_reference", "dim", "fd", "kid", "kid_std", "kid_rbf",
           "kid_rbf_std", "kid_subset_size", "precision", "recall", "density", "coverage", "vendi")


def _city_label(segment: dict) -> str:
    return f"{segment.get('city')} ({segment.get('country_code') or '?'})"


def comparability_table(rows, layout, segments: dict, gamma: float, seed: int = 0,
                        progress=None) -> tuple[list[dict], list[str]]:
    """The table's rows and the notes a reader needs (what is left out and why).

    ``rows``: the scored :class:`~.panels.PanelRow` list; ``layout``: the reference layout;
    ``segments``: segment id → record (its city); ``gamma``: the run's RBF bandwidth (method §6),
    used by the RBF KID."""
    sets = feature_sets(rows)
    city_of = {sid: _city_label(seg) for sid, seg in segments.items()}
    references: dict[tuple, FieldReference] = {}
    out: list[dict] = []
    for fs in sets:
        if progress is not None:
            check_cancel(progress, "comparability metrics")
        ref_all, ref_segments, _ = reference_features(layout, fs.reference_positions)
        gen_cities = fs.cities(city_of)
        ref_cities = np.array([city_of[s] for s in ref_segments], dtype=object)
        scopes = [(ALL_CITIES, np.ones(len(gen_cities), bool), np.ones(len(ref_cities), bool))]
        scopes += [(city, gen_cities == city, ref_cities == city) for city in sorted(set(gen_cities.tolist()))]
        for city, gen_mask, ref_mask in scopes:
            key = (fs.reference_positions, city)
            if key not in references:
                references[key] = FieldReference(ref_all[ref_mask], seed)
            values = comparability_metrics(fs.features[gen_mask], references[key], rbf_gamma=gamma, seed=seed)
            out.append({"model": fs.model, "condition": fs.condition, "city": city, **values})
        if len(references) > 64:  # keep the run-wide sets only (every model shares them)
            references = {k: v for k, v in references.items() if k[1] == ALL_CITIES}
    notes = []
    if out:
        notes.append("comparability table: the random anchors are left out (their images are other segments' "
                     "reference images, so part of the set they would be compared with); "
                     f"{HELD_OUT_ANCHOR} is the real-against-real baseline")
    return [{k: r.get(k) for k in (*COLUMNS, "note") if k != "note" or r.get("note")} for r in out], notes


def manifest_section(result, options) -> dict:
    """What the run manifest records about the comparability table (``comparability``): its
    settings, so that a reader can recompute it from the exported features; empty without it."""
    from geofidelity_plugin.core.evaluation.metrics import comparability as cm

    if "comparability" not in (getattr(result, "tables", None) or {}):
        return {}
    kernel = f"(x.y/d + {cm.KID_COEF0:g})^{cm.KID_DEGREE}"
    return {"comparability": {"fd": "covariances with n - 1", "kid_kernel": kernel, "kid_subsets": cm.KID_SUBSETS,
                              "kid_subset_size_at_most": cm.KID_SUBSET_SIZE, "kid_rbf_gamma": result.gamma, "kid_seed": options.seed, "prdc_k": cm.PRDC_K,
                              "prdc_max_samples": cm.PRDC_MAX_SAMPLES, "vendi_kernel": "cosine",
                              "minimum_samples": dict(cm.MINIMUM_SAMPLES)}}
