"""``models`` — the model manager (list, download, verify, remove), in QGIS ``geofidelity:models``.
The action and the names are positional on the command line (``models download NAME …``); the
token for gated models is a QGIS authentication config that reaches the backend in ``HF_TOKEN``."""
from __future__ import annotations

from geofidelity_plugin.core.models.registry import MODELS as CATALOGUE
from geofidelity_plugin.spec.options import CommandSpec, Option, Result

#: the names the model manager knows (the catalogue: core/models/registry.py)
MODEL_NAMES = tuple(CATALOGUE)

ACTIONS = ("list", "download", "verify", "remove")
#: the actions that need at least one name
NAMED_ACTIONS = ("download", "remove")

MODELS_TABLE = Result("MODELS", "Models (rows of the table)")
MODELS_DIR_RESULT = Result("MODELS_DIR", "Models folder")
TABLE = Result("TABLE", "Models table (CSV)", "file")
PRESENT = Result("PRESENT", "Models present")
SNAPSHOT_PREFIX = "SNAPSHOT_"  # + a model's name: the output of each present snapshot

MODELS = CommandSpec(
    command="models",
    help="the models: list, download (resumable, checked), verify, remove",
    options=(
        Option("MODELS_DIR", "--models-dir", "folder", "Models folder",
               help="the models folder (default: GEOFIDELITY_MODELS_DIR, else the Hugging Face cache)", record=False),
        Option("OUTPUT", "--table", "file_out", "Models table", help="also write the table as CSV to this file",
               file_filter="CSV (*.csv)", record=False),
    ),
    results=(PRESENT,),
)
