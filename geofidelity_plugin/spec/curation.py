"""``curate`` — method §2 filters 1–8 and the cap, in QGIS ``geofidelity:curate_panels``: its
thresholds (:data:`THRESHOLDS`, the ``CurationOptions`` fields they set) and the whole command
(:data:`CURATE`), written once here, read by argparse, the Processing parameters and
``CurationOptions``."""
from __future__ import annotations

from dataclasses import replace

from geofidelity_plugin.core.reference_panels.options import CAP_SPREADS, PRECISIONS, CurationOptions
from geofidelity_plugin.spec.options import CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import DEVICE as SHARED_DEVICE, STORE

_D = CurationOptions()


def _threshold(name, flag, field, rule, label, text, kind="number", at_most=""):
    return Option(name, flag, kind, label, help=text, default=getattr(_D, field), rule=rule, advanced=True,
                  field=field, at_most=at_most)


#: every curation threshold; ``field`` is the ``CurationOptions`` attribute it sets
THRESHOLDS = (
    _threshold("BUFFER", "--buffer", "buffer_m", "positive", "Road buffer (m)", "filter 1: road buffer, m"),
    _threshold("SOLAR_MIN", "--solar-min", "solar_min_deg", None, "Minimum solar elevation (°)",
               "filter 3: minimum solar elevation, degrees"),
    _threshold("SIGLIP_THRESHOLD", "--siglip-threshold", "siglip_threshold", "non-negative",
               "SigLIP street probability ≥", "filter 4: SigLIP street probability at least"),
    _threshold("LAPLACIAN_MIN", "--laplacian-min", "laplacian_var_min", "non-negative", "Variance of Laplacian ≥",
               "filter 6: variance of the Laplacian at least"),
    _threshold("LUMA_MIN", "--luma-min", "luma_min", "non-negative", "Mean luma ≥",
               "filter 6: mean luma at least (0–255)", at_most="LUMA_MAX"),
    _threshold("LUMA_MAX", "--luma-max", "luma_max", "non-negative", "Mean luma ≤",
               "filter 6: mean luma at most (0–255)"),
    _threshold("COLOURFULNESS_MIN", "--colourfulness-min", "colourfulness_min", "non-negative", "Colourfulness ≥",
               "filter 6: colourfulness at least"),
    _threshold("ASPECT_MIN", "--aspect-min", "aspect_min", "positive", "Aspect ratio ≥",
               "filter 6: aspect ratio (width / height) at least", at_most="ASPECT_MAX"),
    _threshold("ASPECT_MAX", "--aspect-max", "aspect_max", "positive", "Aspect ratio ≤",
               "filter 6: aspect ratio (width / height) at most"),
    _threshold("PHASH_RADIUS", "--phash-radius", "phash_radius", "non-negative-count",
               "Perceptual-hash Hamming radius", "filter 7: perceptual-hash Hamming radius", kind="integer"),
    _threshold("THINNING_M", "--thinning", "thinning_m", "non-negative", "Spatial thinning per sequence (m)",
               "filter 7: spatial thinning along each sequence, m"),
)


# -- the whole command -------------------------------------------------------------------------

#: the curated image points layer: a parameter in QGIS, an output event of the backend
OUTPUT = Option("OUTPUT", "--out", "file_out", "Curated image points",
                help="curated image points GeoPackage (its run manifest is written beside it)",
                file_filter="GeoPackage (*.gpkg)", record=False)
#: an empty model id skips its tier, so the algorithm sends it even when empty
SIGLIP_MODEL = Option("SIGLIP_MODEL", "--siglip-model", "text", "SigLIP model (empty: skip tier 4)",
                      help="empty string: skip tier 4", default=_D.siglip_model)
VISTAS_MODEL = Option("VISTAS_MODEL", "--vistas-model", "text", "Mask2Former Vistas model (empty: skip tier 5)",
                      help="empty string: skip tier 5", default=_D.vistas_model)
DEVICE = replace(SHARED_DEVICE, label="Device of the SigLIP and Mask2Former tiers: cpu, cuda, cuda:N or mps (empty: "
                 "the GPU when there is one)", help="device of the SigLIP and Mask2Former tiers: cpu, cuda, cuda:N or "
                 "mps (default: CUDA when present)")

KEPT = Result("KEPT", "Images kept")
NOT_SCORED = Result("NOT_SCORED", "Images not scored by tiers 4–7")
MANIFEST = Result("MANIFEST", "Run manifest", "file")
#: a value event only (a mapping, no QGIS output): the images per status
COUNTS = Result("COUNTS", "Images per status")

CURATE = CommandSpec(
    command="curate",
    help="2b · filter tiers 1–8 and the cap (method §2)",
    options=(
        STORE,
        Option("AUDIT_CSV", "--audit-csv", "file", "Manual audit CSV (image_id,decision[,segment_id])",
               help="manual audit: image_id,decision[,segment_id]", extension="csv", record=False),
        SIGLIP_MODEL,
        VISTAS_MODEL,
        *THRESHOLDS,
        Option("CAP", "--cap", "integer", "Images per segment at most", help="images per segment at most",
               default=_D.cap_per_segment, minimum=1),
        Option("CAP_SPREAD", "--cap-spread", "choice", "Spread of the cap",
               help="how the cap spreads a segment's images: 'along' — bins along the segment first (every "
                    "covered bin keeps an image before any keeps a second), then sequences and dates within a "
                    "bin; 'sequences' — over sequences and dates only (the paper's rule, which can leave "
                    "stretches of the street without an image)", default=_D.cap_spread, choices=CAP_SPREADS),
        Option("CAP_BIN", "--cap-bin", "number", "Cap bin length along the segment (m)",
               help="length of the position bins of the 'along' cap, m", default=_D.cap_bin_m, rule="positive",
               minimum=1, advanced=True),
        Option("SCORE_ALL", "--score-all", "flag", "Score every image (also those the cap cannot keep)",
               help="score tiers 4–7 on every image, also those that cannot change which images the 'along' "
                    "cap keeps (same kept images; every measure, and the exact stretch before the cap)",
               default=False, advanced=True),
        Option("SEED", "--seed", "integer", "Random seed", help="random seed, ≥ 0", default=_D.seed, rule="seed"),
        Option("ALLOW_REMOVAL", "--allow-removal", "flag", "Allow removing most reference images",
               help="let curation remove more than half of the store's reference images, or the whole reference "
                    "panel of a segment (without it such a curation refuses and names the tiers and counts)",
               default=False, advanced=True, field="allow_removal"),
        DEVICE,
        Option("PRECISION", "--precision", "choice", "Precision of the SigLIP and Mask2Former tiers",
               help="compute precision of the SigLIP and Mask2Former tiers; fp32 on every device keeps CPU and "
                    "GPU runs alike, bf16/fp16 are faster on a GPU and are cached apart (and recorded in the run "
                    "manifest)", default=_D.precision, choices=PRECISIONS, advanced=True),
        OUTPUT,
    ),
    results=(KEPT, NOT_SCORED, MANIFEST),
)
