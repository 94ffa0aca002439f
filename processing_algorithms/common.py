"""Glue shared by the algorithms: progress adapter, error translation, styled loading."""
from __future__ import annotations

import functools
import os
from pathlib import Path

from qgis.core import (QgsProcessingContext, QgsProcessingException,
                       QgsProcessingLayerPostProcessorInterface)

from . import RESOURCES


class FeedbackProgress:
    """Adapts ``QgsProcessingFeedback`` to the core's ``Progress`` protocol."""

    def __init__(self, feedback):
        self.feedback = feedback

    def set_progress(self, percent: float) -> None:
        if self.feedback is not None:
            self.feedback.setProgress(percent)

    def info(self, message: str) -> None:
        if self.feedback is not None:
            self.feedback.pushInfo(message)

    def warning(self, message: str) -> None:
        if self.feedback is not None:
            self.feedback.pushWarning(message)

    def is_canceled(self) -> bool:
        return self.feedback is not None and self.feedback.isCanceled()


def _as_processing_exception(exc: BaseException) -> QgsProcessingException:
    from geofidelity_plugin.core.errors import user_message

    return QgsProcessingException(user_message(exc)[0])


def run_core(func, *args, **kwargs):
    """Call the core; every failure becomes a ``QgsProcessingException`` with the CLI's text."""
    try:
        return func(*args, **kwargs)
    except QgsProcessingException:
        raise
    except Exception as exc:  # noqa: BLE001 — translated, never a traceback in the dialog
        if _debug():
            raise
        raise _as_processing_exception(exc) from None


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
            layer.loadNamedStyle(str(style_for(layer, self.qml)))
            for key, value in self.properties.items():  # e.g. the store the inspector reads
                layer.setCustomProperty(key, value)
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


def advanced(param):
    """Mark a parameter as advanced (rarely changed)."""
    param.setFlags(param.flags() | param.FlagAdvanced)
    return param


def style_path(qml: str) -> Path:
    return RESOURCES / "styles" / qml


def style_for(layer, qml: str) -> Path:
    """The line style, or its ``_points`` variant for a point layer (a style only applies to
    layers of its own geometry type)."""
    from qgis.core import QgsWkbTypes

    if layer.geometryType() == QgsWkbTypes.PointGeometry:
        points = style_path(qml.replace(".qml", "_points.qml"))
        if points.exists():
            return points
    return style_path(qml)
