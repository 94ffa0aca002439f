"""Per-image seeds of generated panels (method §4 Seeds).

The paper drew fresh noise for every condition, so its condition deltas are associations. The
default here is the same — a distinct seed per (model, segment, condition, sample) — and the
*(option)* shared-noise mode gives every condition of a (model, segment, sample) the same
seed, so that a condition delta is a same-noise causal ablation. Seeds are derived from a
sha256 of the key rather than from a random generator, so they are the same on every machine,
in every process and whatever order the images are made in.
"""
from __future__ import annotations

import hashlib
import json

#: recorded with every run so that a later version can tell which derivation made a seed
SEED_SCHEME = "sha256-json-v1"


def seed_for(base_seed: int, model: str, segment_id: str, condition: str, sample: int,
             shared_noise: bool = False) -> int:
    """The seed of one generated image, in ``[0, 2**32)``.

    In shared-noise mode the condition is left out of the key, so all six conditions of one
    (model, segment, sample) start from the same noise.
    """
    key = ["geofidelity-seed", int(base_seed), str(model), str(segment_id),
           None if shared_noise else str(condition), int(sample)]
    digest = hashlib.sha256(json.dumps(key, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    return int.from_bytes(digest.digest()[:4], "big")


def seed_mode(shared_noise: bool) -> str:
    """The name recorded in run metadata for the seed mode."""
    return "shared_noise" if shared_noise else "distinct_per_condition"
