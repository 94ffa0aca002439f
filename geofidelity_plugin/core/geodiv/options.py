"""The options of GeoDiv (docs/method.md, GeoDiv) with their defaults. Stdlib only, so that the
QGIS side and the command line show the same defaults without importing numpy or torch."""
from __future__ import annotations

#: grouping columns of the tables (``--group-by``)
DEFAULT_GROUP_BY = ("model", "condition", "city")
#: a model value that means "no model" (``--vqa-model none``, ``--feature-model none``)
NO_MODEL = "none"
#: the VQA model a registered name stands for (``core/models/registry.py`` lists it)
DEFAULT_VQA_MODEL = "Qwen/Qwen2.5-VL-7B-Instruct"
DEFAULT_PRECISION = "fp32"
DEFAULT_BATCH_SIZE = 8      # option texts per forward pass
DEFAULT_PER_GROUP = 0       # images per group (0: all)
MANIFEST_NAME = "geodiv_manifest.json"
CITY_LAYER_NAME = "geodiv_cities.gpkg"
