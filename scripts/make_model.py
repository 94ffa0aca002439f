"""Build resources/models/geofidelity_pipeline.model3 — the graphical-modeler model chaining
select → fetch → curate → coverage → galleries → evaluate → report. Run: `make model`."""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsProcessingModelAlgorithm, QgsProcessingModelChildAlgorithm,
                       QgsProcessingModelChildDependency, QgsProcessingModelChildParameterSource,
                       QgsProcessingModelOutput, QgsProcessingModelParameter, QgsProcessingParameterAuthConfig,
                       QgsProcessingParameterFile, QgsProcessingParameterString)
from qgis.PyQt.QtCore import QPointF

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "resources" / "models" / "geofidelity_pipeline.model3"


def source_param(name):
    return [QgsProcessingModelChildParameterSource.fromModelParameter(name)]


def source_child(child, output):
    return [QgsProcessingModelChildParameterSource.fromChildOutput(child, output)]


def static(value):
    return [QgsProcessingModelChildParameterSource.fromStaticValue(value)]


def build() -> QgsProcessingModelAlgorithm:
    model = QgsProcessingModelAlgorithm("GeoFidelity pipeline", "GeoFidelity")
    model.setHelpContent({"ALG_DESC": "Select named road segments, fetch and curate Mapillary reference panels, "
                                      "audit coverage, build hard-negative galleries, evaluate, and write the report."})
    inputs = [
        QgsProcessingParameterFile("CITIES", "City table (CSV)", extension="csv"),
        QgsProcessingParameterFile("OSM_FILE", "OSM file"),
        QgsProcessingParameterFile("STORE", "Benchmark store (.sqlite; created)", fileFilter="SQLite (*.sqlite)"),
        QgsProcessingParameterAuthConfig("AUTH", "Mapillary token (authentication config)", optional=True),
        QgsProcessingParameterString("BASE_URL", "Mapillary Graph API", defaultValue="https://graph.mapillary.com"),
        QgsProcessingParameterString("FEATURE_MODEL", "DINOv2 model (hub id or folder)",
                                     defaultValue="facebook/dinov2-base"),
        QgsProcessingParameterString("SIGLIP_MODEL", "SigLIP model (empty: skip)", optional=True,
                                     defaultValue="google/siglip-so400m-patch14-384"),
        QgsProcessingParameterString("VISTAS_MODEL", "Mask2Former Vistas model (empty: skip)", optional=True,
                                     defaultValue="facebook/mask2former-swin-large-mapillary-vistas-semantic"),
    ]
    for i, param in enumerate(inputs):
        model.addModelParameter(param, QgsProcessingModelParameter(param.name()))
        model.parameterComponent(param.name()).setPosition(QPointF(120, 60 + 70 * i))
    steps = []

    def child(alg_id, description, sources, after=None, outputs=None):
        c = QgsProcessingModelChildAlgorithm(alg_id)
        c.generateChildId(model)
        c.setDescription(description)
        c.setPosition(QPointF(480, 60 + 110 * len(steps)))
        for name, value in sources.items():
            c.addParameterSources(name, value)
        if after:
            c.setDependencies([QgsProcessingModelChildDependency(after)])
        if outputs:
            model_outputs = {}
            for child_output, label in outputs.items():
                out = QgsProcessingModelOutput(label, label)
                out.setChildOutputName(child_output)
                model_outputs[label] = out
            c.setModelOutputs(model_outputs)
        cid = model.addChildAlgorithm(c)
        steps.append(cid)
        return cid

    select = child("geofidelity:select_segments", "Select named road segments",
                   {"CITIES": source_param("CITIES"), "SOURCE": static(0), "OSM_FILE": source_param("OSM_FILE")},
                   )
    fetch = child("geofidelity:fetch_mapillary", "Fetch Mapillary images",
                  {"STORE": source_param("STORE"), "SEGMENTS": source_child(select, "OUTPUT"),
                   "AUTH": source_param("AUTH"), "BASE_URL": source_param("BASE_URL")})
    curate = child("geofidelity:curate_panels", "Curate reference panels",
                   {"STORE": source_param("STORE"), "SIGLIP_MODEL": source_param("SIGLIP_MODEL"),
                    "VISTAS_MODEL": source_param("VISTAS_MODEL")}, after=fetch)
    coverage = child("geofidelity:coverage_audit", "Coverage audit", {"STORE": source_param("STORE")}, after=curate)
    galleries = child("geofidelity:build_galleries", "Build retrieval galleries", {"STORE": source_param("STORE")},
                      after=coverage)
    evaluate = child("geofidelity:evaluate", "Evaluate", {"STORE": source_param("STORE"),
                                                          "FEATURE_MODEL": source_param("FEATURE_MODEL")},
                     after=galleries, outputs={"OUTPUT_FOLDER": "evaluation"})
    child("geofidelity:report", "Report", {"EVALUATION_FOLDER": source_child(evaluate, "OUTPUT_FOLDER")},
          outputs={"OUTPUT": "report"})
    return model


def main() -> int:
    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False)
    app.initQgis()
    sys.path.insert(0, str(ROOT))
    sys.path.append("/usr/share/qgis/python/plugins")
    from processing.core.Processing import Processing

    Processing.initialize()
    from geofidelity_plugin.qgis_side.qgis_env import register_provider

    register_provider()
    model = build()
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    ok = model.toFile(str(TARGET))
    print(f"model written: {TARGET}" if ok else "could not write the model")
    app.exitQgis()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
