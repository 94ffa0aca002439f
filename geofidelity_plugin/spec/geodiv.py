"""``geodiv`` — GeoDiv diversity (VDI, SEVI, Vendi) per model / condition / city (docs/method.md,
GeoDiv), in QGIS ``geofidelity:geodiv``."""
from __future__ import annotations

from geofidelity_plugin.core.geodiv.options import (DEFAULT_BATCH_SIZE, DEFAULT_GROUP_BY, DEFAULT_PER_GROUP,
                                                    DEFAULT_PRECISION, NO_MODEL)
from geofidelity_plugin.spec.options import CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import DEVICE

#: results: the tables (one output each, keyed like the core's paths), the manifest, the layer
GROUPS = Result("GROUPS", "Diversity per group (CSV)", "file")
QUESTIONS = Result("QUESTIONS", "Diversity per question (CSV)", "file")
CITY_LAYER = Result("CITY_LAYER", "Cities: model − real VDI (GeoPackage)", "file")
MANIFEST = Result("MANIFEST", "Run manifest", "file")
GROUP_COUNT = Result("GROUP_COUNT", "Groups scored")
ANSWERS = Result("ANSWERS", "Answers (CSV)", "file")
DIFFERENCES = Result("DIFFERENCES", "Model − real per group (CSV)", "file")
CONVERGENCE = Result("CONVERGENCE", "Ranking convergence (CSV)", "file")
CONVERGENCE_FIGURE = Result("CONVERGENCE_FIGURE", "Ranking convergence (PNG)", "file")

#: the core's output names (core/geodiv/workflow.py) → their results
TABLES = {"answers": ANSWERS, "questions": QUESTIONS, "groups": GROUPS, "differences": DIFFERENCES,
          "convergence": CONVERGENCE, "convergence_figure": CONVERGENCE_FIGURE, "manifest": MANIFEST}

GEODIV = CommandSpec(
    command="geodiv",
    help="GeoDiv: VDI, SEVI and Vendi diversity per model / condition / city, with the real panels as the "
         "baseline (docs/method.md, GeoDiv)",
    options=(
        Option("STORE", "--store", "file", "Benchmark store",
               help="benchmark store: its generated panels and, as the baseline, the reference panels of the same "
                    "segments", extension="sqlite", record=False),
        Option("IMAGES", "--images", "folder", "Or: a folder of images (sub-folder = city)",
               help="instead of a store: a folder of images (sub-folder name = city)", record=False),
        Option("ANSWERS", "--answers", "file", "Or: answers CSV (from a hosted model)",
               help="answers CSV (image_id, question_id, answer + grouping columns), e.g. from a hosted model; "
                    "scored exactly like local answers", extension="csv", record=False),
        Option("VQA_MODEL", "--vqa-model", "text",
               "VQA model (qwen2.5-vl-7b-instruct, a hub id or a folder; none: no questions)",
               help="VQA model for local answers: a registered name (qwen2.5-vl-7b-instruct), hub id or folder; "
                    f"{NO_MODEL} asks no questions", default=NO_MODEL),
        Option("FEATURE_MODEL", "--feature-model", "text",
               "Embedding model for the Vendi score (e.g. facebook/dinov2-base; none: skip)",
               help=f"embedding model for the Vendi score (e.g. facebook/dinov2-base or a folder); {NO_MODEL} "
                    "skips it", default=NO_MODEL),
        Option("GROUP_BY", "--group-by", "text", "Group by (columns, comma-separated)",
               help="grouping columns, comma-separated", default=",".join(DEFAULT_GROUP_BY)),
        Option("PER_GROUP", "--per-group", "integer", "At most this many images per group (0: all)",
               help="at most this many images per group, the same ones every run (0: all)",
               default=DEFAULT_PER_GROUP, rule="non-negative-count"),
        Option("BATCH_SIZE", "--batch-size", "integer", "Option texts per forward pass",
               help="option texts per forward pass", default=DEFAULT_BATCH_SIZE, rule="count", advanced=True),
        Option("QUESTIONS", "--questions", "file", "Question set (JSON)",
               help="question-set JSON (default: the street-scene set)", extension="json", advanced=True,
               record=False),
        DEVICE,
        Option("PRECISION", "--precision", "text", "Precision (fp32, bf16, fp16, tf32)",
               help="fp32, bf16, fp16 or tf32", default=DEFAULT_PRECISION, advanced=True),
        Option("DROP_ZERO_OPTIONS", "--drop-zero-options", "flag",
               "Normalise by the options chosen at least once (not the method's)",
               help="normalise by the options chosen at least once instead of all K (not the method's)",
               default=False, advanced=True),
        Option("CONVERGENCE", "--convergence", "flag", "Check how the ranking settles with the number of images",
               help="also check how the ranking of the groups settles with the number of images (table + figure)",
               default=False),
        Option("OUTPUT_FOLDER", "--out", "folder_out", "Output folder", help="output folder", required=True,
               record=False),
    ),
    results=(GROUPS, QUESTIONS, CITY_LAYER, MANIFEST, GROUP_COUNT),
)

#: on the command line only: the embedding cache (QGIS uses the evaluation's)
CLI_ONLY = (Option("CACHE", "--cache", "file", "Embedding cache",
                   help="embedding cache file (default: the evaluation's cache)", record=False),)
