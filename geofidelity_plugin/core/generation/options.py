"""The choices of a generation run (method §4) with their defaults — stdlib only, so that the
QGIS side offers the same generators, conditions and defaults as the command line without
importing torch or diffusers."""
from __future__ import annotations

from ..conditions import CONDITIONS
from .generators import CUSTOM_DEFAULTS, GENERATORS

__all__ = ["CONDITIONS", "CUSTOM_DEFAULTS", "CUSTOM_FOLDER_CHOICE", "DEFAULT_SAMPLES", "DEFAULT_SEED", "GENERATORS",
           "generator_choices"]

#: images per generated panel (method §4)
DEFAULT_SAMPLES = 4
DEFAULT_SEED = 0
#: the generator choice of the Processing algorithm that runs a local diffusers folder
CUSTOM_FOLDER_CHOICE = "custom folder"


def generator_choices() -> list[str]:
    """The registered generators, then the custom-folder choice."""
    return list(GENERATORS) + [CUSTOM_FOLDER_CHOICE]
