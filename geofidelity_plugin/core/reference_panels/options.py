"""The options of stage 2 — fetch, curation (method §2 filters 1–8 and the cap) and the
coverage audit — with their defaults. Stdlib only, so that the QGIS side shows the same
defaults as the command line without importing numpy, shapely or the models."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from ..errors import InputError
# PRECISIONS: the choices the CLI and QGIS show for curation
from ..vision.model_ids import MASK2FORMER_VISTAS, SIGLIP_SO400M
from ..vision.precision import DEFAULT_PRECISION, PRECISIONS, check_precision  # noqa: F401

# -- fetch (method §2 "Mapillary images inside the road buffer") -----------------------------
DEFAULT_BASE_URL = "https://graph.mapillary.com"
FETCH_BUFFER_M = 30.0          # road buffer, m
FETCH_TILE_STEP_M = 200.0      # box spacing along the segment, m
FETCH_WORKERS = 16             # parallel downloads
FETCH_REQUESTS_PER_SECOND = 10.0
FETCH_TIMEOUT_S = 30.0         # seconds to wait for an answer before a request is retried
#: search boxes reach this far past the road buffer: Mapillary does not say whether a bbox search
#: matches the computed (SfM) or the GPS position, and the two can lie tens of metres apart, so
#: an image whose computed position is in the buffer is found even when its GPS is this far out
FETCH_SEARCH_PAD_M = 50.0
FETCH_REFRESH_BATCH = 50       # image ids per thumbnail-URL renewal request (/images?image_ids=…)

# -- cap per segment (method §2 "Cap") --------------------------------------------------------
#: "along": position bins along the segment first, then sequences and dates within a bin (the
#: decided default); "sequences": round robin over sequences and dates (the paper's rule)
CAP_SPREADS = ("along", "sequences")
CAP_BIN_M = 25.0               # length of a position bin of the "along" cap, m

# -- coverage audit ---------------------------------------------------------------------------
COVERAGE_RADIUS_M = 30.0
#: gaps, longest gap and share_uncovered_20m: no image within this distance of the line, m
COVERAGE_GAP_RADIUS_M = 20.0

# -- curation: filter 4 (SigLIP urban scene) --------------------------------------------------
DEFAULT_SIGLIP_MODEL = SIGLIP_SO400M
STREET_PROMPT = "a street-level photo of a city street"
DISTRACTOR_PROMPTS = (
    "a photo of an indoor room",
    "a photo of food on a plate",
    "a close-up photo of an animal",
    "a photo of a document with text",
    "a photo of a natural landscape without buildings",
    "a selfie or portrait photo of a person",
    "a photo taken inside a vehicle, showing its interior",
)

# -- curation: filter 5 (Mapillary-Vistas ratios) ---------------------------------------------
#: the Mask2Former model the method names (GADS uses the same)
DEFAULT_VISTAS_MODEL = MASK2FORMER_VISTAS
#: Default method §2 filter 5 rules: "a+b" sums attributes; (min, max), None = open.
DEFAULT_VISTAS_RATIOS = {"sky": (0.01, 0.55), "road+sidewalk": (0.05, None),
                         "building": (0.03, None), "vehicle": (None, 0.30)}


@dataclass(frozen=True)
class QualityThresholds:
    """method §2 filter 6 thresholds (each an option; defaults as in the protocol)."""

    laplacian_var_min: float = 80.0
    luma_min: float = 55.0
    luma_max: float = 215.0
    colourfulness_min: float = 14.0
    aspect_min: float = 0.5
    aspect_max: float = 2.2


@dataclass
class CurationOptions:
    """Every method §2 curation threshold (each an option; defaults per the protocol)."""

    buffer_m: float = 30.0
    perspective_camera_types: tuple = ("perspective",)
    solar_min_deg: float = 20.0
    siglip_model: Optional[str] = DEFAULT_SIGLIP_MODEL  # empty/None: tier 4 skipped
    siglip_threshold: float = 0.35
    siglip_street_prompt: str = STREET_PROMPT
    siglip_distractor_prompts: tuple = DISTRACTOR_PROMPTS
    vistas_model: Optional[str] = DEFAULT_VISTAS_MODEL  # empty/None: tier 5 skipped
    vistas_ratios: dict = field(default_factory=lambda: dict(DEFAULT_VISTAS_RATIOS))
    vistas_exclude_recording_car: bool = False
    # filter 6 defaults come from QualityThresholds (one source for the numbers)
    laplacian_var_min: float = QualityThresholds.laplacian_var_min
    luma_min: float = QualityThresholds.luma_min
    luma_max: float = QualityThresholds.luma_max
    colourfulness_min: float = QualityThresholds.colourfulness_min
    aspect_min: float = QualityThresholds.aspect_min
    aspect_max: float = QualityThresholds.aspect_max
    phash_radius: int = 6
    thinning_m: float = 5.0
    cap_per_segment: Optional[int] = 65
    cap_spread: str = "along"      # CAP_SPREADS
    cap_bin_m: float = CAP_BIN_M
    score_all: bool = False        # False: tiers 4–7 skip images that cannot change the kept set
    seed: int = 0
    batch_size: int = 8
    device: Optional[str] = None
    precision: str = DEFAULT_PRECISION  # of the SigLIP and Mask2Former tiers: fp32 on every device
    use_cache: bool = True  # share the evaluation engine's feature cache for tiers 4 and 5
    #: let a curation remove more than half of the store's reference images, or a segment's whole
    #: panel (refused without it: :mod:`..store.destructive`)
    allow_removal: bool = False

    def quality_thresholds(self) -> QualityThresholds:
        return QualityThresholds(self.laplacian_var_min, self.luma_min, self.luma_max,
                                 self.colourfulness_min, self.aspect_min, self.aspect_max)

    def as_dict(self) -> dict:  # for the run manifest
        return asdict(self)

    def validate(self) -> None:
        from geofidelity_plugin.core.vision.attributes import ATTRIBUTES
        from ..option_checks import check_number

        for low, high, flags in (("luma_min", "luma_max", "--luma-min/--luma-max"),
                                 ("aspect_min", "aspect_max", "--aspect-min/--aspect-max")):
            a, b = getattr(self, low), getattr(self, high)  # the command line checks this pair as it parses
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > b:
                raise InputError(f"{low} {a:g} is above {high} {b:g} ({flags}), so no image passes filter 6 "
                                 f"— give the minimum at most the maximum, e.g. the defaults "
                                 f"{getattr(CurationOptions, low):g} and {getattr(CurationOptions, high):g}")
        check_number("minimum solar elevation (--solar-min; 'Minimum solar elevation (°)' in QGIS)",
                     self.solar_min_deg, example="--solar-min 20", minimum=-90, maximum=90)
        for rule, bounds in self.vistas_ratios.items():
            unknown = [a for a in str(rule).split("+") if a not in ATTRIBUTES]
            if unknown:
                raise InputError(f"vistas_ratios rule {rule!r} names {unknown}; use attributes "
                                 f"of {list(ATTRIBUTES)} joined by '+'")
            low, high = tuple(bounds) if isinstance(bounds, (list, tuple)) and len(bounds) == 2 else (None, None)
            if low is not None and high is not None and low > high:
                raise InputError(f"vistas_ratios rule {rule!r}: its minimum {low} is above its maximum {high}, so "
                                 "no image passes — give (min, max) with min ≤ max (None for an open end)")
        if self.cap_per_segment is not None:  # None: no cap
            check_number("images per segment at most (--cap; 'Images per segment at most' in QGIS)",
                         self.cap_per_segment, minimum=1, integer=True, example="--cap 65")
        if self.cap_spread not in CAP_SPREADS:
            raise InputError(f"cap spread {self.cap_spread!r} is not one of {', '.join(CAP_SPREADS)} — use "
                             "'along' (bins along the segment, the default) or 'sequences' (the paper's rule)")
        check_number("cap bin length (--cap-bin; 'Cap bin length (m)' in QGIS)", self.cap_bin_m, "positive",
                     "--cap-bin 25")
        check_number("random seed (--seed; 'Random seed' in QGIS)", self.seed, "seed", "--seed 0")
        check_precision(self.precision, "precision (--precision; 'Precision' in QGIS)")
