"""``select-segments`` — the named road segments of method §1, in QGIS ``geofidelity:select_segments``.

The city table and the road source (an OSM file, Overpass or a line layer — one of them on the
command line, a layer written to a file first in QGIS) stay with the command and the algorithm;
every other option is written here once."""
from __future__ import annotations

import json

from geofidelity_plugin.core.selection.options import (DEFAULT_OVERPASS_ENDPOINT, DEFAULT_OVERPASS_RETRIES,  # noqa: F401
                                                       DEFAULT_ROAD_CLASSES, SelectionOptions)
from geofidelity_plugin.spec.options import CommandSpec, Option, Result

_D = SelectionOptions()

#: the segments layer, its run manifest and HTML summary, and what was chosen
OUTPUT = Result("OUTPUT", "Segments", "layer")
MANIFEST = Result("MANIFEST", "Run manifest (JSON)", "file")
SUMMARY = Result("SUMMARY", "Summary (HTML)", "file")
SEGMENT_COUNT = Result("SEGMENT_COUNT", "Number of segments")
ADDRESSABLE = Result("ADDRESSABLE", "Addressable segments")

#: the road classes as JSON (class → highway values); the command line reads them with its own
#: parser (``argparse_road_classes``) and leaves them out by default, QGIS shows the default JSON
ROAD_CLASSES = Option("ROAD_CLASSES", "--road-classes", "text", "Road classes (JSON: class → list of highway values)",
                      help='JSON object class → list of highway values, e.g. \'{"primary": ["trunk", "primary"]}\' '
                           "(default: primary, secondary, residential, pedestrian)",
                      default=json.dumps({k: list(v) for k, v in DEFAULT_ROAD_CLASSES.items()}), advanced=True,
                      record=False)

SELECT_SEGMENTS = CommandSpec(
    command="select-segments",
    help="1 · choose named OSM road segments per city (method §1)",
    options=(
        Option("OVERPASS_RETRIES", "--overpass-retries", "integer", "Overpass retries (busy / timeout answers)",
               help="repeats of a busy or timed-out Overpass request", default=DEFAULT_OVERPASS_RETRIES,
               rule="non-negative-count", advanced=True),
        Option("RADIUS", "--radius", "number", "Radius around each centre (m)", help="radius around each centre, m",
               default=_D.radius_m, rule="positive"),
        Option("MIN_LENGTH", "--min-length", "number", "Minimum merged length (m)", help="minimum merged length, m",
               default=_D.min_length_m, rule="non-negative"),
        Option("CLIP_LENGTH", "--clip-length", "number", "Clip length (m)", help="clip length, m",
               default=_D.clip_length_m, rule="positive"),
        Option("MIN_SPACING", "--min-spacing", "number", "Minimum centroid spacing (m)",
               help="minimum centroid spacing, m", default=_D.min_spacing_m, rule="non-negative"),
        Option("MAX_PER_CITY", "--max-per-city", "integer", "Maximum segments per city",
               help="segments per city at most", default=_D.max_per_city, rule="count"),
        Option("SEED", "--seed", "integer", "Random seed", help="random seed, ≥ 0", default=_D.seed, rule="seed"),
        Option("INCLUDE_OTHER", "--no-other", "flag", "Keep other named highways as class 'other'",
               help="drop named highways outside the listed classes (default: keep them as class 'other')",
               default=_D.include_other, inverted=True, advanced=True),
        Option("NEIGHBOURHOOD_MAX_DISTANCE", "--neighbourhood-max-distance", "number",
               "Maximum distance to a neighbourhood node (m; 0: no limit)",
               help="farthest a neighbourhood node may lie from a segment to name it, m; 0: no limit",
               default=_D.neighbourhood_max_distance_m, rule="non-negative", advanced=True),
        Option("WRITE_CONTEXT", "--no-context", "flag", "Write map context layers",
               help="write no map context layers (other roads, water, green, buildings; default: write them "
                    "from the same OSM source); with an Overpass endpoint this saves one request per city",
               default=_D.write_context, inverted=True),
        Option("OUTPUT", "--out", "file_out", "Segments",
               help="output GeoPackage (manifest and HTML summary are written beside it)", required=True,
               file_filter="GeoPackage (*.gpkg)", record=False),
    ),
    results=(MANIFEST, SUMMARY, SEGMENT_COUNT),
)
