"""What the Processing provider (``processing_algorithms/``) takes from the rest of the plugin,
besides the specification: the resources folder (styles, icons) and the message a user reads for
an exception. The provider imports only this room and :mod:`geofidelity_plugin.spec`
(docs/architecture.md § Rooms); both come from the stdlib-only core.
"""
from __future__ import annotations

from geofidelity_plugin.core.errors import user_message
from geofidelity_plugin.core.resources import resources_dir

__all__ = ["resources_dir", "user_message"]
