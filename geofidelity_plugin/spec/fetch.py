"""``fetch-mapillary`` — Mapillary images along each segment (method §2), in QGIS
``geofidelity:fetch_mapillary``. The token is no option: it travels in ``MAPILLARY_ACCESS_TOKEN``
(in QGIS from an authentication config, a parameter of the algorithm alone)."""
from __future__ import annotations

from geofidelity_plugin.core.reference_panels import options as o
from geofidelity_plugin.spec.options import CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import NEW_STORE, ONLY_SEGMENTS

#: the image points layer: a parameter in QGIS, an output event of the backend
OUTPUT = Option("OUTPUT", "--out", "file_out", "Image points", help="image points GeoPackage",
                file_filter="GeoPackage (*.gpkg)", record=False)
SEGMENTS = Option("SEGMENTS", "--segments", "file", "Segments GeoPackage to load first",
                  help="segments GeoPackage to load first", extension="gpkg", record=False, layer="vector")

IMAGES = Result("IMAGES", "Images found")
DOWNLOADED = Result("DOWNLOADED", "Images downloaded (not from cache)")
#: a value event only: in QGIS "SEGMENTS" names the segments GeoPackage parameter
SEGMENTS_FETCHED = Result("SEGMENTS", "Segments searched")
FROM_CACHE = Result("FROM_CACHE", "Images from the cache")
FAILED = Result("FAILED", "Images that failed")
NOT_DOWNLOADED = Result("NOT_DOWNLOADED", "Images ruled out by tiers 1–3 before download")
API_REQUESTS = Result("API_REQUESTS", "Graph API requests")
IMAGE_REQUESTS = Result("IMAGE_REQUESTS", "Image requests")

FETCH = CommandSpec(
    command="fetch-mapillary",
    help="2a · Mapillary images along each segment (token: MAPILLARY_ACCESS_TOKEN)",
    options=(
        NEW_STORE,
        SEGMENTS,
        ONLY_SEGMENTS,
        Option("BASE_URL", "--base-url", "text", "Graph API base URL", help="Graph API base URL",
               default=o.DEFAULT_BASE_URL, advanced=True),
        Option("BUFFER", "--buffer", "number", "Road buffer (m)", help="road buffer, m", default=o.FETCH_BUFFER_M,
               rule="positive", minimum=1),
        Option("TILE_STEP", "--tile-step", "number", "Box spacing along the segment (m)",
               help="box spacing along the segment, m", default=o.FETCH_TILE_STEP_M, minimum=10, advanced=True),
        Option("MAX_WORKERS", "--workers", "integer", "Parallel downloads", help="parallel downloads",
               default=o.FETCH_WORKERS, minimum=1, maximum=64, advanced=True),
        Option("REQUESTS_PER_SECOND", "--requests-per-second", "number", "API requests per second",
               help="Graph API requests per second at most", default=o.FETCH_REQUESTS_PER_SECOND, rule="positive",
               minimum=0.1, advanced=True),
        Option("TIMEOUT", "--timeout", "number", "Seconds to wait for an answer before a request is retried",
               help="seconds to wait for an answer before a request is retried", default=o.FETCH_TIMEOUT_S,
               minimum=1, advanced=True),  # checked by the core, whose message gives an example
        Option("SEARCH_PAD", "--search-pad", "number", "Search padding past the buffer (m)",
               help="the search boxes reach this far past the buffer, m, so that an image whose computed "
                    "position is in the buffer is found even when its GPS position lies that far out",
               default=o.FETCH_SEARCH_PAD_M, rule="non-negative", advanced=True),
        Option("SOLAR_MIN", "--solar-min", "number", "Minimum solar elevation (°): darker images are not downloaded",
               help="curation tier 3 before download: images taken with the sun lower than this (degrees) "
                    "are not downloaded", default=o.CurationOptions.solar_min_deg, minimum=-90, maximum=90,
               advanced=True),
        Option("DOWNLOAD_ALL", "--download-all", "flag",
               "Download every image found (skip curation tiers 1–3 before download)",
               help="download every image found, without running curation tiers 1–3 (buffer, camera, "
                    "daytime) on the search results first", default=False, advanced=True),
        Option("REFRESH_BATCH", "--refresh-batch", "integer", "Image ids per thumbnail-URL renewal request",
               help="image ids per request renewing expired thumbnail URLs; 1: one image at a time",
               default=o.FETCH_REFRESH_BATCH, minimum=1, maximum=100, advanced=True),
        OUTPUT,
    ),
    results=(IMAGES, DOWNLOADED, FROM_CACHE, FAILED, NOT_DOWNLOADED, API_REQUESTS, IMAGE_REQUESTS),
)
