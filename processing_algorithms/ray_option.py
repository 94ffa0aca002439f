"""The *Ray cluster* setting (Settings › Options › GeoFidelity) and the per-algorithm
option that overrides it, for the algorithms that can scale out on Ray (generate, evaluate).

Empty everywhere: today's single backend process. ``local``: the backend starts Ray on this
machine (one worker per GPU, else per CPU); an address (``HOST:6379``, ``ray://HOST:10001``):
the backend connects to that cluster; ``off`` in an algorithm: one process whatever the setting
says. The value becomes the backend's ``--ray`` option (README "Scale out on Ray"). Imports only
qgis and the standard library.
"""
from __future__ import annotations

from geofidelity_plugin.qgis_side.backend_settings import DESCRIPTIONS, RAY_KEY

DESCRIPTION = DESCRIPTIONS[RAY_KEY]
PARAMETER = "RAY_CLUSTER"
LABEL = "Ray cluster (empty: the GeoFidelity setting; local; an address such as HOST:6379; off: one process)"
HELP = ("Runs this step's heavy work on Ray: 'local' starts Ray on this computer and puts one worker on each GPU "
        "(or CPU); an address connects to a running cluster, whose nodes must see the store's folder and the "
        "models at the same paths. Needs Ray in the backend (Set up backend… with the full profile). Results "
        "are identical to a single-process run; the manifest records the cluster.")


def ray_parameter():
    """The algorithm's advanced *Ray cluster* option."""
    from qgis.core import Qgis, QgsProcessingParameterString

    param = QgsProcessingParameterString(PARAMETER, LABEL, optional=True)
    param.setHelp(HELP)
    param.setFlags(param.flags() | Qgis.ProcessingParameterFlag.Advanced)
    return param


def setting() -> str:
    from geofidelity_plugin.qgis_side.backend_settings import get

    return get(RAY_KEY)


def add_ray_option(args: list, value: str | None) -> None:
    """``--ray VALUE`` from the algorithm's option, else from the setting; nothing for empty/off."""
    chosen = (value or "").strip() or setting()
    if chosen and chosen.lower() not in ("off", "none", "no"):
        args.extend(["--ray", chosen])

