#!/usr/bin/env python3
"""A driver as small as ``qgis_process``: runs one backend command through the plugin's real runner
(``qgis_side/backend_runner.py``) with the backend Python given as its first argument. The fault
tests kill it to see that its backend does not outlive it."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from qgis.core import QgsProcessingException  # noqa: E402

from geofidelity_plugin.qgis_side import backend_runner  # noqa: E402

try:
    backend_runner.run_backend("evaluate", [], None, python=sys.argv[1])
except QgsProcessingException as exc:
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(1)
