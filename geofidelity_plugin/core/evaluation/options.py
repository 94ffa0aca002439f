"""The options of an evaluation (method §5–§7) with their defaults — stdlib only, so that the
QGIS side can show the defaults without importing the scientific stack."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..option_checks import check_number
from ..vision.precision import (DEFAULT_BATCH_SIZE, DEFAULT_FEATURE_MODEL, DEFAULT_PRECISION,  # noqa: F401
                                PRECISIONS, check_precision)  # (public here too)

#: images sampled for the median-heuristic kernel bandwidth (method §6)
GAMMA_SAMPLE_SIZE = 1000
#: evaluation protocols (method §6): the paper's formulas, or the published release's own evaluator
PROTOCOLS = ("paper", "release")
#: retrieval similarities (method §6): panel means (the paper) or per image (the release evaluator)
RETRIEVAL_MODES = ("panel", "image")
#: the units a bootstrap resamples (method §7): cities, each with all its segments and every row of
#: a segment (the default), or the paper's matched model–segment rows
BOOTSTRAP_UNITS = ("city", "model-segment")
#: how a paired delta matches its two conditions (method §7): by panel, or by (model, segment, sample)
#: in a shared-noise run (auto, the default); always by panel; or by sample index wherever per-image
#: rows exist, as the paper paired them
PAIRINGS = ("auto", "panel", "sample-index")
#: ``--semantic-model`` / ``--clip-model``: the model manager's model when it is downloaded
AUTO_MODEL = "auto"
#: working memory of the metric pass and of the bootstrap tables (their chunk sizes; results never
#: depend on it, docs/method.md §7): a laptop's share, enough for a 100× benchmark
DEFAULT_MAX_MEMORY = "1GB"
_MIN_MEMORY = 64 << 20

#: option → (how the user knows it, the rule of core/option_checks.py, an example value)
OPTION_RULES = {
    "seed": ("random seed (--seed; in QGIS \"Random seed\")", "seed", "0"),
    "holdout_size": ("held-out anchor size (--holdout-size; in QGIS \"Held-out anchor size\")",
                     "non-negative-count", "4, or 0 to skip the held-out anchor"),
    "n_bootstrap": ("number of bootstrap resamples (--bootstrap; in QGIS \"Bootstrap resamples\")", "count",
                    "5000"),
    "anchor_size": ("random anchor size", "count", "4"),
    "gamma_sample_size": ("sample size of the kernel bandwidth (γ) estimate", "count", str(GAMMA_SAMPLE_SIZE)),
    "min_reference_images": ("minimum number of reference images per panel", "count", "1"),
}


def parse_memory(text, label: str = "maximum working memory (--max-memory; in QGIS \"Maximum working memory\")") -> int:
    """Bytes of a size such as ``1GB``, ``512MB`` or ``2G`` (binary units); at least 64 MB."""
    from ..sizes import parse_size

    value = parse_size(text, label, "1GB or 512MB")
    if value < _MIN_MEMORY:
        raise InputError(f"the {label} {text!r} is below 64MB, too little to score one chunk — give e.g. 1GB")
    return value


@dataclass
class EvaluationOptions:
    """Every *(option)* of method §5–§7 with its default; recorded in the manifest."""

    seed: int = 0
    l2_normalise: bool = False            # §5: normalise each embedding before averaging
    mmd_unbiased: bool = False            # §6: U-statistic instead of the paper's V-statistic
    retrieval_mode: str = "panel"         # §6: "panel" (paper) or "image" (release evaluator)
    gamma_sample_size: int = GAMMA_SAMPLE_SIZE
    holdout_size: int = 4                 # §6 held-out real anchor
    anchor_size: int = 4                  # §6 random anchors
    anchors: bool = True
    anchors_only: bool = False            # score the real anchors only (no generated panels yet)
    n_bootstrap: int = 5000               # §7
    confidence: float = 0.95
    bootstrap_unit: str = "city"          # §7: "city" (cities, with their segments) or "model-segment" (paper)
    pairing: str = "auto"                 # §7: "auto", "panel" or "sample-index" (the paper's)
    min_reference_images: int = 1
    tables: bool = True
    precision: str = DEFAULT_PRECISION    # §5: compute precision of the embedding models
    protocol: str = "paper"               # §6: "paper" or "release" (the release's own evaluator)
    max_memory: str = DEFAULT_MAX_MEMORY  # §6–§7 working memory: chunk sizes only, never the results

    def max_memory_bytes(self) -> int:
        return parse_memory(self.max_memory)

    def validate(self) -> None:
        """Refuse a value no run can use, naming the option as the command line and QGIS call it."""
        if self.retrieval_mode not in RETRIEVAL_MODES:
            raise InputError(f"the retrieval mode (--retrieval-mode; in QGIS \"Retrieval similarity\") must be "
                             f"'panel' or 'image', not {self.retrieval_mode!r}")
        for value, choices, label in ((self.bootstrap_unit, BOOTSTRAP_UNITS, "bootstrap unit (--bootstrap-unit; in QGIS "
                                       "\"Bootstrap unit\")"),
                                      (self.pairing, PAIRINGS, "delta pairing (--pairing; in QGIS \"Delta pairing\")")):
            if value not in choices:
                raise InputError(f"the {label} must be one of {', '.join(choices)}, not {value!r} (docs/method.md §7)")
        for name, (label, rule, example) in OPTION_RULES.items():
            check_number(label, getattr(self, name), rule, example)
        check_precision(self.precision)
        parse_memory(self.max_memory)
        if self.protocol not in PROTOCOLS:
            raise InputError(f"unknown protocol (--protocol; in QGIS \"Protocol\") {self.protocol!r} — use 'paper' "
                             "(the default: the paper's formulas) or 'release' (the published release's evaluator)")
        if self.protocol == "release":
            fixed = [flag for flag, changed in (("--retrieval-mode image", self.retrieval_mode != "panel"),
                                                ("--mmd-unbiased", self.mmd_unbiased),
                                                ("--l2-normalise", self.l2_normalise)) if changed]
            if fixed:
                raise InputError(f"--protocol release fixes the split, the retrieval and the MMD² itself "
                                 f"(docs/method.md §6 Release protocol), so {', '.join(fixed)} has no effect there "
                                 "— leave it out, or use the paper protocol")
        if not (isinstance(self.confidence, (int, float)) and 0 < self.confidence < 1):
            raise InputError(f"the confidence level of the bootstrap intervals must lie between 0 and 1, got "
                             f"{self.confidence} — e.g. 0.95")
        if self.anchors_only and not self.anchors:
            raise InputError("scoring the real anchors only needs the anchors: do not turn them off")
