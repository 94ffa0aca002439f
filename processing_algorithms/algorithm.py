"""The base of every GeoFidelity algorithm: what the toolbox shows of it besides its parameters —
its place in one numbering scheme, its icon, the words a search finds it by, and its Help page
(``resources/help/<name>.html``, written from the algorithms themselves by
``scripts/make_help.py``; the Help button of the dialog opens it)."""
from __future__ import annotations

from qgis.core import QgsProcessingAlgorithm, QgsProcessingModelAlgorithm
from qgis.PyQt.QtCore import QUrl
from qgis.PyQt.QtGui import QIcon

from . import RESOURCES

#: the toolbox groups, numbered as the pipeline runs; an algorithm's own name carries its group's
#: number and a letter for its place in it ("2b · Curate reference panels")
GROUPS = {
    "setup": "0 · Set up",
    "select": "1 · Select",
    "reference_panels": "2 · Reference panels",
    "generate": "3 · Generate",
    "evaluate": "4 · Evaluate",
    "show": "5 · Show",
    "mfp": "6 · Maps (MFP)",
    "pipeline": "7 · Whole pipeline",
}
#: words every algorithm is found by in the toolbox's search
TAGS = ("geofidelity", "street", "road", "street-level", "text-to-image", "benchmark")
#: each algorithm's own search words
OWN_TAGS = {
    "models": ("models", "download", "hugging face", "dinov2"),
    "select_segments": ("osm", "openstreetmap", "overpass", "named roads", "segments"),
    "fetch_mapillary": ("mapillary", "photos", "imagery", "reference panel"),
    "curate_panels": ("mapillary", "curation", "audit", "quality", "reference panel"),
    "coverage_audit": ("mapillary", "coverage", "gaps", "capture dates"),
    "generate_panels": ("diffusers", "stable diffusion", "sdxl", "flux", "generate", "gpu", "ray"),
    "import_generated": ("import", "generated images", "folder"),
    "build_galleries": ("retrieval", "galleries", "hard negatives"),
    "evaluate": ("dinov2", "retrieval", "cossim", "mmd", "dcsf", "gads", "clip", "scores"),
    "import_release": ("release", "leaderboard", "geofidelity-bench"),
    "geodiv": ("diversity", "vqa", "vdi", "sevi", "vendi"),
    "report": ("report", "html", "figures"),
    "atlas": ("atlas", "pdf", "print", "layout"),
    "mfp": ("map", "raster", "mfp", "vit", "cartography"),
    "pipeline": ("model", "modeler", "pipeline", "workflow"),
}
HELP_DIR = RESOURCES / "help"


def help_page(name: str):
    """The Help page of the algorithm called ``name`` in this copy of the plugin."""
    return HELP_DIR / f"{name}.html"


class GeoFidelityAlgorithm(QgsProcessingAlgorithm):
    """Set ``GROUP`` (a key of :data:`GROUPS`) in a subclass."""

    GROUP = ""

    def group(self):
        return GROUPS[self.GROUP]

    def groupId(self):  # noqa: N802
        return self.GROUP

    def icon(self):
        return QIcon(str(RESOURCES / "icons" / "geofidelity.svg"))

    def tags(self):
        return [*TAGS, *OWN_TAGS.get(self.name(), ())]

    def helpUrl(self):  # noqa: N802
        return QUrl.fromLocalFile(str(help_page(self.name()))).toString()

    def checkParameterValues(self, parameters, context):  # noqa: N802
        """QGIS's checks, except for a layer input given as a file that QGIS cannot open as a layer:
        that file goes to the backend, whose message says what is wrong with it (not a GeoPackage,
        not written by Select segments) — QGIS would say only "Incorrect parameter value"."""
        for param in self.parameterDefinitions():
            value = parameters.get(param.name())
            if param.type() in LAYER_TYPES and given_file(value):
                continue
            if not param.checkValueIsAcceptable(value, context):
                return False, f"Incorrect parameter value for {param.name()} ({param.description()})"
        return True, ""


#: the parameter types of layer inputs (a layer of the project, or a file)
LAYER_TYPES = ("vector", "raster")


def given_file(value) -> bool:
    """Whether a parameter value is the path of a file that exists (not a layer id)."""
    import os

    return isinstance(value, str) and bool(value) and os.path.isfile(value.split("|", 1)[0])


#: the graphical model of the whole pipeline, shipped in resources/models
PIPELINE_MODEL = RESOURCES / "models" / "geofidelity_pipeline.model3"


class PipelineModel(QgsProcessingModelAlgorithm):
    """The shipped model (select → fetch → curate → coverage → galleries → evaluate → report) in
    the toolbox, beside the algorithms it chains; the modeler opens the same file."""

    def __init__(self):
        super().__init__()
        if not self.fromFile(str(PIPELINE_MODEL)):
            raise RuntimeError(f"the pipeline model {PIPELINE_MODEL} cannot be read — reinstall the plugin")

    def name(self):
        return "pipeline"

    def displayName(self):  # noqa: N802
        return "7 · Whole pipeline (select → report, a graphical model)"

    def group(self):
        return GROUPS["pipeline"]

    def groupId(self):  # noqa: N802
        return "pipeline"

    def icon(self):
        return QIcon(str(RESOURCES / "icons" / "geofidelity.svg"))

    def tags(self):
        return [*TAGS, *OWN_TAGS["pipeline"]]

    def helpUrl(self):  # noqa: N802
        return QUrl.fromLocalFile(str(help_page(self.name()))).toString()

    def createInstance(self):  # noqa: N802
        return PipelineModel()
