"""The inspector's "Atlas PDF…" button: the ``geofidelity:atlas`` dialog, filled in for the layer
the dock shows (its store and evaluation folder, the project's segments and coverage layers, the
dock's model and condition); the user checks the parameters and runs it."""
from __future__ import annotations

from pathlib import Path


def atlas_parameters(source: tuple, model: str = "", condition: str = "", project=None) -> dict:
    """``geofidelity:atlas`` parameters for a layer linking to ``source`` = (store, evaluation)."""
    from qgis.core import QgsProject

    store, evaluation = source
    params = {"STORE": store or "", "EVALUATION_FOLDER": evaluation or "", "MODELS": model or "",
              "CONDITION": condition or ""}
    for layer in (project or QgsProject.instance()).mapLayers().values():
        path, _, layer_name = layer.source().partition("|layername=")
        for key, wanted in (("SEGMENTS", "segments"), ("COVERAGE", "coverage")):
            if layer_name.split("|")[0] == wanted and not params.get(key):
                params[key] = path
    if evaluation:
        params["OUTPUT"] = str(Path(evaluation) / "atlas.pdf")
    return params


def open_atlas_dialog(params: dict) -> None:
    import processing

    processing.execAlgorithmDialog("geofidelity:atlas", params)
