"""``geofidelity:fetch_mapillary`` — Mapillary images inside each segment's road buffer
(method §2), run by the backend process (``fetch-mapillary``). The token comes from a QGIS
authentication config (Basic: the password field; or a config holding a ``token`` entry), else
the ``MAPILLARY_ACCESS_TOKEN`` variable; it reaches the backend in that environment variable
only — never a plain parameter, never on the command line, never written to a log, layer,
manifest or project."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingAlgorithm, QgsProcessingException, QgsProcessingOutputNumber,
                       QgsProcessingParameterAuthConfig, QgsProcessingParameterBoolean,
                       QgsProcessingParameterFile, QgsProcessingParameterFileDestination,
                       QgsProcessingParameterNumber, QgsProcessingParameterString)

from .common import advanced, flag, load_backend_layers, run_backend, user_errors


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


#: the variable the backend reads the token from (core/reference_panels/mapillary/client.py)
TOKEN_ENV = "MAPILLARY_ACCESS_TOKEN"


class FetchMapillaryAlgorithm(QgsProcessingAlgorithm):
    STORE, SEGMENTS, AUTH, BASE_URL = "STORE", "SEGMENTS", "AUTH", "BASE_URL"
    BUFFER, STEP, WORKERS, RATE, OUTPUT = "BUFFER", "TILE_STEP", "MAX_WORKERS", "REQUESTS_PER_SECOND", "OUTPUT"
    TIMEOUT, SEARCH_PAD, SOLAR_MIN, DOWNLOAD_ALL, REFRESH_BATCH = (
        "TIMEOUT", "SEARCH_PAD", "SOLAR_MIN", "DOWNLOAD_ALL", "REFRESH_BATCH")

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
                "and records every image as a candidate for curation. Curation tiers 1–3 (buffer, camera, "
                "daytime) run on the search results first: the images they rule out are recorded as rejected "
                "and never downloaded. The boxes reach a padding past the buffer, since an image's GPS and "
                "computed positions can lie tens of metres apart. Expired thumbnail URLs are renewed in "
                "batches. Cancel keeps what finished. The token "
                "comes from the authentication config or MAPILLARY_ACCESS_TOKEN.")

    def createInstance(self):  # noqa: N802
        return FetchMapillaryAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.core.reference_panels import options as o

        self.addParameter(QgsProcessingParameterFile(self.STORE, "Benchmark store (.sqlite; created if missing)",
                                                     fileFilter="SQLite (*.sqlite)"))
        self.addParameter(QgsProcessingParameterFile(self.SEGMENTS, "Segments GeoPackage to load first",
                                                     extension="gpkg", optional=True))
        self.addParameter(QgsProcessingParameterAuthConfig(self.AUTH, "Mapillary token (authentication config)",
                                                           optional=True))
        self.addParameter(advanced(QgsProcessingParameterString(self.BASE_URL, "Graph API base URL",
                                                                defaultValue=o.DEFAULT_BASE_URL)))
        self.addParameter(QgsProcessingParameterNumber(self.BUFFER, "Road buffer (m)",
                                                       Qgis.ProcessingNumberParameterType.Double,
                                                       defaultValue=o.FETCH_BUFFER_M, minValue=1))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.STEP, "Box spacing along the segment (m)",
                                                                Qgis.ProcessingNumberParameterType.Double,
                                                                defaultValue=o.FETCH_TILE_STEP_M, minValue=10)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.WORKERS, "Parallel downloads",
                                                                defaultValue=o.FETCH_WORKERS, minValue=1, maxValue=32)))
        self.addParameter(advanced(QgsProcessingParameterNumber(self.RATE, "API requests per second",
                                                                Qgis.ProcessingNumberParameterType.Double,
                                                                defaultValue=o.FETCH_REQUESTS_PER_SECOND,
                                                                minValue=0.1)))
        self.addParameter(advanced(QgsProcessingParameterNumber(
            self.TIMEOUT, "Seconds to wait for an answer before a request is retried",
            Qgis.ProcessingNumberParameterType.Double, defaultValue=o.FETCH_TIMEOUT_S, minValue=1)))
        p = QgsProcessingParameterNumber(self.SEARCH_PAD, "Search padding past the buffer (m)",
                                         Qgis.ProcessingNumberParameterType.Double, defaultValue=o.FETCH_SEARCH_PAD_M,
                                         minValue=0)
        p.setHelp("The search boxes reach this far past the road buffer, so that an image whose computed "
                  "position lies in the buffer is found even when its GPS position lies this far out.")
        self.addParameter(advanced(p))
        self.addParameter(advanced(QgsProcessingParameterNumber(
            self.SOLAR_MIN, "Minimum solar elevation (°): darker images are not downloaded",
            Qgis.ProcessingNumberParameterType.Double, defaultValue=o.CurationOptions.solar_min_deg,
            minValue=-90, maxValue=90)))
        self.addParameter(advanced(QgsProcessingParameterBoolean(
            self.DOWNLOAD_ALL, "Download every image found (skip curation tiers 1–3 before download)",
            defaultValue=False)))
        self.addParameter(advanced(QgsProcessingParameterNumber(
            self.REFRESH_BATCH, "Image ids per thumbnail-URL renewal request", defaultValue=o.FETCH_REFRESH_BATCH,
            minValue=1, maxValue=100)))
        self.addParameter(QgsProcessingParameterFileDestination(self.OUTPUT, "Image points", "GeoPackage (*.gpkg)"))
        self.addOutput(QgsProcessingOutputNumber("IMAGES", "Images found"))
        self.addOutput(QgsProcessingOutputNumber("DOWNLOADED", "Images downloaded (not from cache)"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``fetch-mapillary`` in the backend process (docs/backend-protocol.md); the token
        travels in the child's environment."""
        output = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        args = ["--store", self.parameterAsFile(parameters, self.STORE, context), "--out", output,
                "--buffer", self.parameterAsDouble(parameters, self.BUFFER, context),
                "--tile-step", self.parameterAsDouble(parameters, self.STEP, context),
                "--workers", self.parameterAsInt(parameters, self.WORKERS, context),
                "--requests-per-second", self.parameterAsDouble(parameters, self.RATE, context),
                "--timeout", self.parameterAsDouble(parameters, self.TIMEOUT, context),
                "--search-pad", self.parameterAsDouble(parameters, self.SEARCH_PAD, context),
                "--solar-min", self.parameterAsDouble(parameters, self.SOLAR_MIN, context),
                "--refresh-batch", self.parameterAsInt(parameters, self.REFRESH_BATCH, context)]
        flag(args, "--download-all", self.parameterAsBoolean(parameters, self.DOWNLOAD_ALL, context))
        segments = self.parameterAsFile(parameters, self.SEGMENTS, context)
        if segments:
            args += ["--segments", segments]
        base_url = self.parameterAsString(parameters, self.BASE_URL, context)
        if base_url:
            args += ["--base-url", base_url]
        token = token_from_authcfg(self.parameterAsString(parameters, self.AUTH, context))
        # without a config the backend reads MAPILLARY_ACCESS_TOKEN from the environment it inherits
        run = run_backend("fetch-mapillary", args, feedback, env={TOKEN_ENV: token} if token else None)
        load_backend_layers(context, run)
        values = run.values
        feedback.pushInfo(f"images {values.get('IMAGES')}, not downloaded (tiers 1–3) {values.get('NOT_DOWNLOADED')}, "
                          f"downloaded {values.get('DOWNLOADED')}, from cache "
                          f"{values.get('FROM_CACHE')}, failed {values.get('FAILED')}; API requests "
                          f"{values.get('API_REQUESTS')}, image requests {values.get('IMAGE_REQUESTS')}")
        return {self.OUTPUT: run.path("OUTPUT") or output, "IMAGES": values.get("IMAGES", 0),
                "DOWNLOADED": values.get("DOWNLOADED", 0)}
