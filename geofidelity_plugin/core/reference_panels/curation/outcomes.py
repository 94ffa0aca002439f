"""What curation reports per image and per run (method §2: every tier's pass/fail and the
measured value, the first failing tier and its reason)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from geofidelity_plugin.core.vision.attributes import ATTRIBUTES

TIER_NAMES = {1: "buffer", 2: "not_panoramic", 3: "daytime", 4: "siglip_urban",
              5: "vistas_ratios", 6: "quality", 7: "duplicates", 8: "manual_audit"}
MEASURES = ("buffer_distance_m", "is_pano", "camera_type", "solar_elevation_deg",
            "siglip_p_street", "siglip_top1", *[f"ratio_{a}" for a in ATTRIBUTES],
            "laplacian_var", "luma", "colourfulness", "aspect", "phash", "dup_cluster",
            "dup_hamming", "sequence_gap_m", "along_m", "cap_bin")


@dataclass
class CurationRow:
    """One image × segment: its outcome, the status of every tier reached, and measures."""

    image_id: str
    segment_id: Any
    sequence: Optional[str]
    captured_at_ms: Optional[int]
    lon: Optional[float]
    lat: Optional[float]
    audit: Optional[str] = None
    status: str = "kept"
    tier: Optional[int] = None
    reason: str = ""
    tiers: dict = field(default_factory=dict)
    measures: dict = field(default_factory=dict)
    scored: bool = True  # False: tiers 4–7 not scored, as they could not change the kept images

    def as_dict(self) -> dict:
        """Flat record with a fixed set of columns (for a CSV or a layer)."""
        out = {k: getattr(self, k) for k in ("image_id", "segment_id", "sequence",
                                             "captured_at_ms", "lon", "lat", "status", "tier")}
        out["tier_name"] = TIER_NAMES.get(self.tier) if self.tier else None
        out.update(reason=self.reason, audit=self.audit, scored=self.scored)
        out.update({f"tier{k}_{n}": self.tiers.get(k) for k, n in TIER_NAMES.items()})
        out.update({m: self.measures.get(m) for m in MEASURES})
        return out


@dataclass
class CurationResult:
    """Every row, the notes (skipped tiers), the options used, the models' descriptions and,
    per segment, the longest stretches without an image before and after the cap."""

    rows: list
    notes: list
    options: dict
    tier_state: dict  # tier number -> 'ran' | 'skipped'
    models: dict = field(default_factory=dict)
    segments: dict = field(default_factory=dict)  # segment id -> stretches and counts

    def kept(self, segment_id=None) -> list:
        return [r.image_id for r in self.rows if r.status == "kept"
                and (segment_id is None or r.segment_id == segment_id)]

    def counts(self) -> dict:
        """Number of rows per outcome: 'kept', 'capped', 'tier1' … 'tier8'."""
        return dict(Counter(f"tier{r.tier}" if r.status == "rejected" else r.status
                            for r in self.rows))

    def not_scored(self) -> int:
        """Images whose tiers 4–7 were not scored (lazy curation, :mod:`.lazy`)."""
        return sum(1 for r in self.rows if not r.scored)
