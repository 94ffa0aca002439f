"""The choices of a generation run (method §4) with their defaults — stdlib only, so that the
QGIS side offers the same generators, conditions and defaults as the command line without
importing torch or diffusers."""
from __future__ import annotations

from ..conditions import CONDITIONS
from .generators import CUSTOM_DEFAULTS, DTYPES, GENERATORS

__all__ = ["BATCH_FORWARD_CHOICES", "CONDITIONS", "CPU_PLANS", "CUSTOM_DEFAULTS", "CUSTOM_FOLDER_CHOICE", "DEFAULT_SAMPLES", "DEFAULT_SEED",
           "GENERATORS", "PLAN_CHOICES", "PLAN_PROBE_CHOICES", "PRECISION_CHOICES", "generator_choices"]

#: memory plans (docs/memory-plans.md), in the order the chooser tries them
PLANS = ("gpu", "model-offload", "group-offload", "sequential")
#: plans that run with the device being the CPU (offloading to the CPU from the CPU saves nothing,
#: but runs the same hooks; accelerate's sequential offload needs an accelerator)
CPU_PLANS = ("gpu", "model-offload", "group-offload")
#: how the denoiser sees the images of one call (``--batch-forward``)
BATCH_FORWARD_CHOICES = ("auto", "per-image", "batched")
#: the GPU probe that scales the plan time model (``--plan-probe``, core/generation/plan_probe.py):
#: auto = the cached probe, measured once per device when the H200 reference exists; off; rerun
PLAN_PROBE_CHOICES = ("auto", "off", "rerun")

#: images per generated panel (method §4)
DEFAULT_SAMPLES = 4
DEFAULT_SEED = 0
#: the generator choice of the Processing algorithm that runs a local diffusers folder
CUSTOM_FOLDER_CHOICE = "custom folder"


def generator_choices() -> list[str]:
    """The registered generators, then the custom-folder choice."""
    return list(GENERATORS) + [CUSTOM_FOLDER_CHOICE]

#: memory plans (docs/memory-plans.md): "auto" lets the run choose from the GPU's free memory
PLAN_CHOICES = ["auto", *PLANS]
#: "auto" keeps each generator's own dtype (the protocol's table; a custom folder's --dtype)
PRECISION_CHOICES = ["auto", *DTYPES]
