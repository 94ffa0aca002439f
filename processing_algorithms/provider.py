"""The ``geofidelity`` provider."""
from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from . import RESOURCES
from .algorithm import PipelineModel
from .atlas import AtlasAlgorithm
from .build_galleries import BuildGalleriesAlgorithm
from .coverage_audit import CoverageAuditAlgorithm
from .curate_panels import CuratePanelsAlgorithm
from .fetch_mapillary import FetchMapillaryAlgorithm
from .generate_panels import GeneratePanelsAlgorithm, ImportGeneratedAlgorithm
from .evaluate import EvaluateAlgorithm
from .import_release import ImportReleaseAlgorithm
from .geodiv import GeoDivAlgorithm
from .map_fidelity import MapFidelityAlgorithm
from .models import ModelsAlgorithm
from .report import ReportAlgorithm
from .select_segments import SelectSegmentsAlgorithm


class GeoFidelityProvider(QgsProcessingProvider):
    """Every algorithm runs the GeoFidelity backend as a child process (see :mod:`geofidelity_plugin.qgis_side.backend_runner`);
    its settings live on *Settings › Options › GeoFidelity* (:mod:`geofidelity_plugin.qgis_side.backend_settings`), not among
    Processing's provider settings."""

    def load(self):
        self.refreshAlgorithms()
        return True

    def loadAlgorithms(self):  # noqa: N802
        for alg in (SelectSegmentsAlgorithm(), FetchMapillaryAlgorithm(), CuratePanelsAlgorithm(),
                    CoverageAuditAlgorithm(), GeneratePanelsAlgorithm(), ImportGeneratedAlgorithm(),
                    BuildGalleriesAlgorithm(), ImportReleaseAlgorithm(),
                    EvaluateAlgorithm(), ReportAlgorithm(), MapFidelityAlgorithm(), ModelsAlgorithm(),
                    GeoDivAlgorithm(), AtlasAlgorithm(), PipelineModel()):
            self.addAlgorithm(alg)

    def id(self):
        return "geofidelity"

    def name(self):
        return "GeoFidelity"

    def longName(self):  # noqa: N802
        return "GeoFidelity — named-street fidelity of text-to-image models"

    def icon(self):
        return QIcon(str(RESOURCES / "icons" / "geofidelity.svg"))
