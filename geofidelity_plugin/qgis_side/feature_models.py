"""The feature models Evaluate offers: those the backend can load now (the models folder of
Settings › Options › GeoFidelity, the Hugging Face cache, a clone's offline DINOv2-S/14) first —
the first of them the default — then the catalogue's DINOv2 models still to download (GeoFidelity ›
0 · Models). A look at folders only: nothing is loaded or downloaded."""
from __future__ import annotations

from geofidelity_plugin.core.vision.model_ids import DINOV2_BASE, DINOV2_SMALL, OFFLINE_DINOV2_FOLDER

#: the catalogue's feature models, the method's first (method §5)
CATALOGUE = (DINOV2_BASE, DINOV2_SMALL)
#: the parameter metadata key that keeps the specification's default beside this machine's
SHARED_DEFAULT = "geofidelity_shared_default"


def present(model_id: str, models_dir: str | None) -> bool:
    from geofidelity_plugin.core.models.cache import local_state, search_roots
    from geofidelity_plugin.core.models.registry import model_entry

    try:
        return local_state(model_entry(model_id), search_roots(models_dir)).present
    except Exception:  # noqa: BLE001 — an unreadable folder offers the model as one to download
        return False


def feature_model_choices(models_dir: str | None = None) -> tuple[list[str], list[str]]:
    """``(usable now, to download)``: hub ids or folders, in the order Evaluate lists them."""
    from geofidelity_plugin.core.resources import PLUGIN_ROOT

    if models_dir is None:
        from .backend_settings import models_dir as configured

        models_dir = configured()
    usable = [m for m in CATALOGUE if present(m, models_dir)]
    offline = PLUGIN_ROOT / OFFLINE_DINOV2_FOLDER
    if (offline / "config.json").is_file():
        usable.append(str(offline))
    return usable, [m for m in CATALOGUE if m not in usable]


def offer_feature_models(param, models_dir: str | None = None) -> list[str]:
    """Give a feature-model parameter its list (QGIS's ``value_hints``) and, when the backend has
    one, that model as its default; returns the usable ones."""
    usable, missing = feature_model_choices(models_dir)
    metadata = dict(param.metadata() or {})
    metadata["widget_wrapper"] = {**dict(metadata.get("widget_wrapper") or {}), "value_hints": usable + missing}
    # the default every machine shares (the help pages show it; this machine's may differ)
    metadata.setdefault(SHARED_DEFAULT, param.defaultValue())
    param.setMetadata(metadata)
    if usable:
        param.setDefaultValue(usable[0])
    return usable
