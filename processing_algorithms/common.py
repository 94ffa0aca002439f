"""Glue shared by the algorithms: progress adapter, error translation, styled loading."""
from __future__ import annotations

import functools
import os
from pathlib import Path

from qgis.core import (Qgis, QgsProcessingContext, QgsProcessingException,
                       QgsProcessingLayerPostProcessorInterface)

from . import RESOURCES


def _as_processing_exception(exc: BaseException) -> QgsProcessingException:
    from geofidelity_plugin.qgis_side.provider_support import user_message

    return QgsProcessingException(user_message(exc)[0])


def _debug() -> bool:
    return os.environ.get("GEOFIDELITY_DEBUG", "") not in ("", "0")


def user_errors(process_algorithm):
    """Decorate ``processAlgorithm``: one error policy for every algorithm (docs/method.md,
    "Errors and exit codes"). Any exception, raised by the core or by the algorithm's own
    glue, reaches the dialog, the modeler and ``qgis_process`` as a ``QgsProcessingException``
    naming the problem and the fix; ``GEOFIDELITY_DEBUG=1`` keeps the traceback."""

    @functools.wraps(process_algorithm)
    def wrapper(self, parameters, context, feedback):
        try:
            return process_algorithm(self, parameters, context, feedback)
        except QgsProcessingException:
            raise
        except Exception as exc:  # noqa: BLE001
            if _debug():
                raise
            raise _as_processing_exception(exc) from None

    return wrapper


class StylePostProcessor(QgsProcessingLayerPostProcessorInterface):
    """Applies a ``.qml`` from ``resources/styles`` to a layer when it is loaded."""

    _keep = []  # QGIS does not own Python post-processors: keep them alive

    def __init__(self, qml: str, properties: dict | None = None):
        super().__init__()
        self.qml = qml
        self.properties = properties or {}

    def postProcessLayer(self, layer, context, feedback):  # noqa: N802
        if layer is not None and layer.isValid():
            from geofidelity_plugin.qgis_side.project_file import SCORE_STYLES, present_scores

            lines = layer.geometryType() == Qgis.GeometryType.Line
            if self.qml == SCORE_STYLES[0][1] and lines:  # a score layer: every variant, as in the demo project
                present_scores(layer)
            elif self.qml:
                layer.loadNamedStyle(str(style_for(layer, self.qml)))
                if self.qml == SCORE_STYLES[0][1]:  # scores on points (a release without lines)
                    present_scores(layer, variants=False)
            from geofidelity_plugin.qgis_side.project_links import set_links

            set_links(layer, self.properties)  # e.g. the store the inspector reads
            layer.triggerRepaint()

    @classmethod
    def create(cls, qml: str, properties: dict | None = None) -> "StylePostProcessor":
        proc = cls(qml, properties)
        cls._keep.append(proc)
        return proc


def load_on_completion(context: QgsProcessingContext, uri: str, name: str, output: str,
                       qml: str, properties: dict | None = None) -> None:
    details = QgsProcessingContext.LayerDetails(name, context.project(), output)
    details.setPostProcessor(StylePostProcessor.create(qml, properties))
    context.addLayerToLoadOnCompletion(uri, details)


def run_backend(command: str, args: list, feedback, env: dict | None = None):
    """Run one backend command (see :mod:`.backend`); its failures are already
    ``QgsProcessingException`` with the backend's message."""
    from geofidelity_plugin.qgis_side.backend_runner import run_backend as _run

    return _run(command, [str(a) for a in args], feedback, env=env)


class FeedbackProgress:
    """The core's progress protocol (core/progress.py) over a Processing feedback, for work done in
    QGIS's own process (the atlas, the MFP reference render)."""

    def __init__(self, feedback):
        self.feedback = feedback

    def set_progress(self, percent: float) -> None:
        self.feedback.setProgress(percent)

    def info(self, message: str) -> None:
        self.feedback.pushInfo(message)

    def warning(self, message: str) -> None:
        self.feedback.reportError(message, False)

    def is_canceled(self) -> bool:
        return self.feedback.isCanceled()


def flag(args: list, option: str, on: bool) -> None:
    """Append a boolean CLI flag when it is set."""
    if on:
        args.append(option)


def option(args: list, name: str, value) -> None:
    """Append ``name value`` unless the value is empty (``None`` or "")."""
    if value is not None and value != "":
        args.extend([name, str(value)])


def load_backend_layers(context: QgsProcessingContext, run) -> None:
    """Load every map layer the backend announced, with its style and custom properties."""
    for record in run.outputs:
        if record.get("layer"):
            load_on_completion(context, record["layer"], record.get("name") or record["key"], record["key"],
                               record.get("style"), record.get("properties") or {})


def device_or_default(value: str) -> str:
    from geofidelity_plugin.qgis_side.backend_settings import default_device

    return (value or "").strip() or default_device()


def advanced(param):
    """Mark a parameter as advanced (rarely changed)."""
    param.setFlags(param.flags() | Qgis.ProcessingParameterFlag.Advanced)
    return param


def style_path(qml: str) -> Path:
    return RESOURCES / "styles" / qml


def style_for(layer, qml: str) -> Path:
    """The line style, or its ``_points`` variant for a point layer (a style only applies to
    layers of its own geometry type)."""
    if layer.geometryType() == Qgis.GeometryType.Point:
        points = style_path(qml.replace(".qml", "_points.qml"))
        if points.exists():
            return points
    return style_path(qml)
