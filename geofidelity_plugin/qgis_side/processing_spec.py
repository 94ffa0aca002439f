"""Processing parameters and outputs built from a command's specification
(:mod:`geofidelity_plugin.spec`), and the backend command line read back from them: the QGIS
half of "each option written once" (docs/architecture.md)."""
from __future__ import annotations

import os

from qgis.core import (Qgis, QgsProcessingOutputFile, QgsProcessingOutputNumber, QgsProcessingParameterBoolean,
                       QgsProcessingParameterEnum, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterFolderDestination,
                       QgsProcessingParameterNumber, QgsProcessingParameterString)

from geofidelity_plugin.spec.options import CommandSpec, Option, argv

#: rules of core/option_checks.py → the lowest value a QGIS spin box offers
_RULE_MINIMUM = {"positive": 0.0, "non-negative": 0.0, "count": 1, "non-negative-count": 0, "seed": 0}


def decimals(opt: Option) -> int:
    """The decimals a number's spin box shows: as many as its default needs (0.05 → 2, 30 → 1),
    at least 1 and at most 4 — not QGIS's six."""
    if opt.default is None:
        return 2
    text = f"{float(opt.default):.4f}".rstrip("0")
    return min(4, max(1, len(text.split(".")[1])))


def parameter(opt: Option):
    """The Processing parameter of one option."""
    optional = not opt.required
    if opt.kind in ("number", "integer"):
        kind = (Qgis.ProcessingNumberParameterType.Double if opt.kind == "number"
                else Qgis.ProcessingNumberParameterType.Integer)
        if opt.is_distance:  # metres, shown with QGIS's distance widget and its unit
            from qgis.core import QgsProcessingParameterDistance

            param = QgsProcessingParameterDistance(opt.name, opt.label,
                                                   defaultValue=opt.default, optional=optional and opt.default is None)
            param.setDefaultUnit(Qgis.DistanceUnit.Meters)
        else:
            param = QgsProcessingParameterNumber(opt.name, opt.label, kind, defaultValue=opt.default,
                                                 optional=optional and opt.default is None)
        low = opt.minimum if opt.minimum is not None else _RULE_MINIMUM.get(opt.rule or "")
        if low is not None:
            param.setMinimum(low)
        if opt.maximum is not None:
            param.setMaximum(opt.maximum)
        if opt.kind == "number":
            param.setMetadata({"widget_wrapper": {"decimals": decimals(opt)}})
    elif opt.kind == "flag":
        param = QgsProcessingParameterBoolean(opt.name, opt.label, defaultValue=bool(opt.default))
    elif opt.kind == "choice":
        choices = list(opt.choices)
        if opt.multiple:
            default = [choices.index(v) for v in (opt.default or ()) if v in choices]
        else:
            default = choices.index(opt.default) if opt.default in choices else 0
        param = QgsProcessingParameterEnum(opt.name, opt.label, options=choices, allowMultiple=opt.multiple,
                                           defaultValue=default, optional=optional)
    elif opt.kind == "segment_ids":
        from qgis.core import QgsProcessingParameterFeatureSource

        param = QgsProcessingParameterFeatureSource(opt.name, opt.label, [Qgis.ProcessingSourceType.Vector],
                                                    optional=True)
    elif opt.kind == "file" and opt.layer:
        from qgis.core import QgsProcessingParameterRasterLayer, QgsProcessingParameterVectorLayer

        if opt.layer == "raster":
            param = QgsProcessingParameterRasterLayer(opt.name, opt.label, optional=optional)
        else:
            param = QgsProcessingParameterVectorLayer(opt.name, opt.label, [Qgis.ProcessingSourceType.Vector],
                                                      optional=optional)
    elif opt.kind in ("file", "folder"):
        behavior = (Qgis.ProcessingFileParameterBehavior.Folder if opt.kind == "folder"
                    else Qgis.ProcessingFileParameterBehavior.File)
        param = QgsProcessingParameterFile(opt.name, opt.label, behavior=behavior, extension=opt.extension,
                                           fileFilter=opt.file_filter, optional=optional)
    elif opt.kind == "file_out":
        param = QgsProcessingParameterFileDestination(opt.name, opt.label, opt.file_filter, optional=optional)
    elif opt.kind == "folder_out":
        # an optional folder left empty is no output (not a temporary folder made by default)
        param = QgsProcessingParameterFolderDestination(opt.name, opt.label, optional=optional,
                                                        createByDefault=not optional)
    else:  # text
        param = QgsProcessingParameterString(opt.name, opt.label, defaultValue=opt.default, optional=optional)
    if opt.help:
        param.setHelp(opt.help)
    if opt.advanced:
        param.setFlags(param.flags() | Qgis.ProcessingParameterFlag.Advanced)
    return param


def add_parameters(algorithm, spec: CommandSpec) -> None:
    """Every option of ``spec`` as a parameter, every result as an output, in the spec's order."""
    for opt in spec.options:
        algorithm.addParameter(parameter(opt))
    for res in spec.results:
        output = (QgsProcessingOutputFile(res.key, res.label) if res.kind == "file"
                  else QgsProcessingOutputNumber(res.key, res.label))
        algorithm.addOutput(output)


def value(algorithm, opt: Option, parameters, context):
    """One parameter's value as a plain Python object."""
    if opt.kind in ("number", "integer"):
        if parameters.get(opt.name) is None and opt.default is None:
            return None  # an optional number left empty
        as_number = algorithm.parameterAsDouble if opt.kind == "number" else algorithm.parameterAsInt
        return as_number(parameters, opt.name, context)
    if opt.kind == "flag":
        return algorithm.parameterAsBool(parameters, opt.name, context)
    if opt.kind == "choice":
        if opt.multiple:
            return [list(opt.choices)[i] for i in algorithm.parameterAsEnums(parameters, opt.name, context)]
        return list(opt.choices)[algorithm.parameterAsEnum(parameters, opt.name, context)]
    if opt.kind == "segment_ids":
        return segment_ids_argument(algorithm, opt, parameters, context)
    if opt.kind == "file" and opt.layer:
        return layer_file(algorithm, opt, parameters, context)
    if opt.kind in ("file", "folder"):
        return algorithm.parameterAsFile(parameters, opt.name, context)
    if opt.kind == "file_out":
        return algorithm.parameterAsFileOutput(parameters, opt.name, context)
    if opt.kind == "folder_out":
        return algorithm.parameterAsString(parameters, opt.name, context)
    return algorithm.parameterAsString(parameters, opt.name, context)


def layer_file(algorithm, opt: Option, parameters, context) -> str | None:
    """The file behind a layer parameter (a layer of the project or a path): what the backend,
    in its own process, opens."""
    from qgis.core import QgsProcessingException, QgsProviderRegistry

    given = parameters.get(opt.name)
    if not given:
        return None
    if isinstance(given, str) and os.path.isfile(given):
        return given  # a file: the backend reads it and says what is wrong with it, if anything
    as_layer = algorithm.parameterAsRasterLayer if opt.layer == "raster" else algorithm.parameterAsVectorLayer
    layer = as_layer(parameters, opt.name, context)
    if layer is None:
        raise QgsProcessingException(f"{opt.label}: cannot open {parameters.get(opt.name)!r} as a layer — pick a "
                                     "layer of the project or a file")
    path = QgsProviderRegistry.instance().decodeUri(layer.providerType(), layer.source()).get("path") or ""
    if not path:
        raise QgsProcessingException(f"{opt.label}: the layer {layer.name()!r} is not a file (a temporary or "
                                     "database layer) — save it as a GeoPackage first (Export › Save Features "
                                     "As…) or pick the file written by the earlier step")
    return path


def segment_ids_argument(algorithm, opt: Option, parameters, context) -> str | None:
    """The ``segment_id`` values of a feature source — the selected features when "Selected
    features only" is ticked — as ``@FILE`` for the backend (a file, however many roads)."""
    from qgis.core import QgsProcessingException, QgsProcessingUtils

    if not parameters.get(opt.name):
        return None
    ids = _segment_ids(algorithm, opt, parameters, context)
    if ids is None:
        raise QgsProcessingException(f"{opt.label}: cannot read {parameters.get(opt.name)!r} as a layer")
    if ids is NO_FIELD:
        raise QgsProcessingException(f"{opt.label}: the layer has no segment_id field — pick the segments layer "
                                     "(1 · Select segments) or a GeoFidelity score layer")
    if not ids:
        raise QgsProcessingException(f"{opt.label}: no road in the layer{' selection' if _selected(parameters, opt) else ''}"
                                     " — select at least one road on the map, or leave the input empty to work "
                                     "on every road")
    path = QgsProcessingUtils.generateTempFilename("only_segments.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(ids) + "\n")
    return "@" + path


#: what :func:`_segment_ids` returns for a layer without a ``segment_id`` field
NO_FIELD = ("no segment_id field",)


def _segment_ids(algorithm, opt: Option, parameters, context):
    """The sorted ``segment_id`` values of the source, ``None`` when it cannot be read, or
    :data:`NO_FIELD`. The feature source lives only in this frame: an error raised by the caller
    must not keep it alive in its traceback (QGIS crashes when it is freed after the layer)."""
    source = algorithm.parameterAsSource(parameters, opt.name, context)
    if source is None:
        return None
    field = source.fields().indexFromName("segment_id")
    if field < 0:
        return NO_FIELD
    return sorted({str(f.attribute(field)) for f in source.getFeatures() if f.attribute(field) not in (None, "")})


def _selected(parameters, opt: Option) -> bool:
    from qgis.core import QgsProcessingFeatureSourceDefinition

    value = parameters.get(opt.name)
    return isinstance(value, QgsProcessingFeatureSourceDefinition) and value.selectedFeaturesOnly


def values(algorithm, spec: CommandSpec, parameters, context) -> dict:
    return {opt.name: value(algorithm, opt, parameters, context) for opt in spec.options}


def command_line(algorithm, spec: CommandSpec, parameters, context) -> tuple[list[str], dict]:
    """The backend's arguments for this run, and the plain values they came from."""
    plain = values(algorithm, spec, parameters, context)
    return argv(spec, plain), plain


def add_outputs(algorithm, spec: CommandSpec) -> None:
    """Every result of ``spec`` as an output (for an algorithm that adds its parameters itself,
    e.g. with a QGIS-only parameter among them)."""
    for res in spec.results:
        algorithm.addOutput(output(res))


def output(res):
    """The Processing output of one result: besides ``number`` and ``file`` (as
    :func:`add_parameters` builds them), ``html`` (a report page), ``layer`` (a vector layer),
    ``folder`` and ``text``."""
    from qgis.core import QgsProcessingOutputFolder, QgsProcessingOutputHtml, QgsProcessingOutputString, \
        QgsProcessingOutputVectorLayer

    kinds = {"file": QgsProcessingOutputFile, "html": QgsProcessingOutputHtml, "folder": QgsProcessingOutputFolder,
             "layer": QgsProcessingOutputVectorLayer, "text": QgsProcessingOutputString}
    return kinds.get(res.kind, QgsProcessingOutputNumber)(res.key, res.label)


def add_specification(algorithm, spec: CommandSpec, *, before=(), after=(), choice_labels=None) -> None:
    """Like :func:`add_parameters`, with every kind of output (:func:`output`): the parameters of
    ``before`` (QGIS-only inputs such as layers the algorithm writes to files), the spec's options,
    the parameters of ``after`` (inputs kept outside the spec, e.g. a shared Ray option), then the
    results as outputs. ``choice_labels``: option name → the labels QGIS
    shows for its choices (the command line keeps the short values; the index is what is read)."""
    for param in before:
        algorithm.addParameter(param)
    for opt in spec.options:
        param = parameter(opt)
        if choice_labels and opt.name in choice_labels:
            param.setOptions(list(choice_labels[opt.name]))
        algorithm.addParameter(param)
    for param in after:
        algorithm.addParameter(param)
    for res in spec.results:
        algorithm.addOutput(output(res))
