"""``geofidelity:fetch_mapillary`` — Mapillary images inside each segment's road buffer
(method §2). The token comes from a QGIS authentication config (Basic: the password field;
or a config holding a ``token`` entry), else the ``MAPILLARY_ACCESS_TOKEN`` variable; it is
never a plain parameter and never written to a log, layer, manifest or project."""
from __future__ import annotations

from qgis.core import (QgsProcessingAlgorithm, QgsProcessingException, QgsProcessingOutputNumber,
                       QgsProcessingParameterAuthConfig, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber,
                       QgsProcessingParameterString)

from .common import FeedbackProgress, advanced, load_on_completion, run_core, user_errors


def token_from_authcfg(authcfg: str) -> str | None:
    """The secret of a QGIS authentication config: Basic → password; else a 'token' entry."""
    if not authcfg:
        return None
    from qgis.core import QgsApplication, QgsAuthMethodConfig

    cfg = QgsAuthMethodConfig()
    if not QgsApplication.authManager().loadAuthenticationConfig(authcfg, cfg, True):
        raise QgsProcessingException(f"authentication config {authcfg} could not be loaded — check the "
                                     "QGIS authentication manager (master password?)")
    config = cfg.configMap()
    token = config.get("password") if cfg.method() == "Basic" else None
    token = token or config.get("token") or config.get("Authorization") or config.get("password")
    if token and token.startswith("OAuth "):
        token = token[len("OAuth "):]
    return token or None


class FetchMapillaryAlgorithm(QgsProcessingAlgorithm):
    STORE, SEGMENTS, AUTH, BASE_URL = "STORE", "SEGMENTS", "AUTH", "BASE_URL"
    BUFFER, STEP, WORKERS, RATE, OUTPUT = "BUFFER", "TILE_STEP", "MAX_WORKERS", "REQUESTS_PER_SECOND", "OUTPUT"

    def name(self):
        return "fetch_mapillary"

    def displayName(self):  # noqa: N802
        return "2a · Fetch Mapillary images"

    def group(self):
        return "2 · Reference panels"

    def groupId(self):  # noqa: N802
        return "reference_panels"

    def shortHelpString(self):  # noqa: N802
        return ("Searches Mapillary (Graph API v4) in boxes along each segment of the store (about every "
                "200 m, split when a box comes back full), downloads the 1024 px thumbnails with a bounded "
                "pool into a cache keyed by image id (checksummed, atomic; a re-run downloads nothing again), "
                "and records every image as a candidate for curation. Cancel keeps what finished. The token "
                "comes from the authentication config or MAPILLARY_ACCESS_TOKEN.")

    def createInstance(self):  # noqa: N802
        return FetchMapillaryAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.reference_panels.mapillary import DEFAULT_BASE_URL

        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite; created if missing)",
                                                     fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterFile(self.SEGMENTS, "Segments GeoPackage to load first",
                                                     extension="gpkg", optional=True))
        self.addParameter(QgsProcessingParameterAuthConfig(self.AUTH, "Mapillary token (authentication config)",
                                                           optional=True))
        self.addParameter(advanced(QgsProcessingParameterString(self.BASE_URL, "Graph API base URL",
                                                                defaultValue=DEFAULT_BASE_URL)))
        self.addParameter(QgsProcessingParameterNumber(self.BUFFER, "Road buffer (m)", QgsProcessingParameterNumber.Double,
                                                       defaultValue=30.0, minValue=1))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.STEP, "Box spacing along the segment (m)",
                                                                QgsProcessingParameterNumber.Double, defaultValue=200.0,
                                                                minValue=10)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.WORKERS, "Parallel downloads", defaultValue=16,
                                                                minValue=1, maxValue=32)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.RATE, "API requests per second",
                                                                QgsProcessingParameterNumber.Double, defaultValue=10.0,
                                                                minValue=0.1)))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Image points", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("IMAGES", "Images found"))
        self.addOutput(QgsProcessingOutputNumber("DOWNLOADED", "Images downloaded (not from cache)"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from geofidelity_plugin.core.store.store import BenchmarkStore
        from geofidelity_plugin.core.evaluation.workflow import load_segments_gpkg
        from geofidelity_plugin.core.output_paths import check_output_file
        from geofidelity_plugin.core.reference_panels.inputs import read_segments_checked
        from geofidelity_plugin.core.reference_panels.layers import write_images_gpkg
        from geofidelity_plugin.core.reference_panels.mapillary import MapillaryClient, token_from_env
        from geofidelity_plugin.core.reference_panels.workflow import check_store_has_a_source, fetch_store

        # the output and the segments first: before the store is opened or a request is sent
        store_path = self.parameterAsFile(parameters, self.STORE, context)
        segments_path = self.parameterAsFile(parameters, self.SEGMENTS, context)
        inputs = {"the benchmark store ('Benchmark store')": store_path,
                  "the segments GeoPackage ('Segments GeoPackage to load first')": segments_path}
        output = run_core(check_output_file, self.parameterAsFileOutput(parameters, self.OUTPUT, context),
                          "image points GeoPackage", inputs=inputs)
        run_core(check_store_has_a_source, store_path, segments_path)
        segments = run_core(read_segments_checked, segments_path) if segments_path else None
        token = token_from_authcfg(self.parameterAsString(parameters, self.AUTH, context)) or run_core(token_from_env)
        client = MapillaryClient(token, base_url=self.parameterAsString(parameters, self.BASE_URL, context),
                                 max_workers=self.parameterAsInt(parameters, self.WORKERS, context),
                                 requests_per_second=self.parameterAsDouble(parameters, self.RATE, context))
        with client, BenchmarkStore(store_path) as store:
            if segments:
                run_core(load_segments_gpkg, store, segments)
            client.cache_dir = store.root / "mapillary"
            totals = run_core(fetch_store, store, client, self.parameterAsDouble(parameters, self.BUFFER, context),
                              self.parameterAsDouble(parameters, self.STEP, context), FeedbackProgress(feedback))
            run_core(write_images_gpkg, output, store.candidates())
        output = str(output)
        feedback.pushInfo(", ".join(f"{k}: {v}" for k, v in totals.items()) +
                          f"; API requests {client.api_requests}, image requests {client.image_requests}")
        load_on_completion(context, f"{output}|layername=reference_images", "GeoFidelity Mapillary images",
                           self.OUTPUT, "reference_images_status.qml")
        return {self.OUTPUT: output, "IMAGES": totals["images"], "DOWNLOADED": totals["downloaded"]}
