"""What the Processing provider (``processing_algorithms/``) takes from the rest of the plugin,
besides the specification: the resources folder (styles, icons) and the message a user reads for
an exception. The provider imports only this room and :mod:`geofidelity_plugin.spec`
(docs/architecture.md § Rooms); both come from the stdlib-only core.
"""
from __future__ import annotations

from geofidelity_plugin.core.documents import read_json
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.shown import shown_message as user_message
from geofidelity_plugin.core.resources import resources_dir

__all__ = ["context_layers_written", "resources_dir", "user_message"]


def context_layers_written(manifest_path: str | None) -> dict:
    """The context layers a selection run's manifest lists (``outputs.context.layers``), read by
    the one JSON reader (core/documents.py); ``{}`` when the manifest is missing or cannot be read —
    the store and its segments are there all the same, only the context layers are not loaded."""
    if not manifest_path:
        return {}
    try:
        manifest = read_json(manifest_path, "the run manifest", "run the selection again")
        written = manifest["outputs"]["context"]["layers"]
    except (InputError, TypeError, KeyError):
        return {}
    return written if isinstance(written, dict) else {}
