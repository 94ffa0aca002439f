"""``geofidelity:fetch_mapillary`` — Mapillary images inside each segment's road buffer
(method §2), run by the backend process (``fetch-mapillary``). The token comes from a QGIS
authentication config (Basic: the password field; or a config holding a ``token`` entry), else
the ``MAPILLARY_ACCESS_TOKEN`` variable; it reaches the backend in that environment variable
only — never a plain parameter, never on the command line, never written to a log, layer,
manifest or project."""
from __future__ import annotations

from dataclasses import replace

from qgis.core import QgsProcessingException, QgsProcessingParameterAuthConfig

from geofidelity_plugin.qgis_side.processing_spec import add_outputs, command_line, parameter
from geofidelity_plugin.spec import fetch as spec

from .algorithm import GeoFidelityAlgorithm
from .common import load_backend_layers, run_backend, user_errors


#: where the token goes in a QGIS authentication config (what token_from_authcfg reads)
TOKEN_HELP = ("Your Mapillary client token (MLY|…, from mapillary.com › Developers), kept in QGIS's authentication "
              "manager: add a config of the method Basic, any user name, the token as its password (an API-header "
              "config with a 'token' entry works too). Empty: the MAPILLARY_ACCESS_TOKEN environment variable. "
              "The token reaches the backend in its environment only and is never logged or written to a layer, "
              "manifest or project.")


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


class FetchMapillaryAlgorithm(GeoFidelityAlgorithm):
    GROUP = "reference_panels"
    #: QGIS only: the token's authentication config (the token never becomes an option)
    AUTH = "AUTH"

    def name(self):
        return "fetch_mapillary"

    def displayName(self):  # noqa: N802
        return "2a · Fetch Mapillary images"

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
        for opt in spec.FETCH.options:
            # the image points: optional on the command line, always written from QGIS
            self.addParameter(parameter(replace(opt, required=True) if opt is spec.OUTPUT else opt))
            if opt is spec.SEGMENTS:
                auth = QgsProcessingParameterAuthConfig(
                    self.AUTH, "Mapillary token (authentication config: Basic, the token as its password)",
                    optional=True)
                auth.setHelp(TOKEN_HELP)
                self.addParameter(auth)
        add_outputs(self, spec.FETCH)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``fetch-mapillary`` in the backend process (docs/backend-protocol.md); the token
        travels in the child's environment."""
        args, plain = command_line(self, spec.FETCH, parameters, context)
        token = token_from_authcfg(self.parameterAsString(parameters, self.AUTH, context))
        # without a config the backend reads MAPILLARY_ACCESS_TOKEN from the environment it inherits
        run = run_backend(spec.FETCH.command, args, feedback, env={TOKEN_ENV: token} if token else None)
        load_backend_layers(context, run)
        v = {res.key: run.values.get(res.key, 0) for res in spec.FETCH.results}
        feedback.pushInfo(f"images {v[spec.IMAGES.key]}, not downloaded (tiers 1–3) {v[spec.NOT_DOWNLOADED.key]}, "
                          f"downloaded {v[spec.DOWNLOADED.key]}, from cache {v[spec.FROM_CACHE.key]}, failed "
                          f"{v[spec.FAILED.key]}; API requests {v[spec.API_REQUESTS.key]}, image requests "
                          f"{v[spec.IMAGE_REQUESTS.key]}")
        return {spec.OUTPUT.name: run.path(spec.OUTPUT.name) or plain[spec.OUTPUT.name], **v}
