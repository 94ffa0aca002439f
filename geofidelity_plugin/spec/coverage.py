"""``coverage`` — the coverage audit of stage 2 (method §2), in QGIS ``geofidelity:coverage_audit``."""
from __future__ import annotations

from geofidelity_plugin.core.reference_panels.options import COVERAGE_GAP_RADIUS_M, COVERAGE_RADIUS_M
from geofidelity_plugin.spec.options import CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import STORE

GAPS = Result("GAPS", "Uncovered stretches")
SEGMENTS = Result("SEGMENTS", "Segments audited")
CITIES_CSV = Result("CITIES_CSV", "City summary (CSV)", "file")
MANIFEST = Result("MANIFEST", "Run manifest", "file")
#: the layers of the coverage GeoPackage, each an output event (no QGIS output of its own: the
#: algorithm loads them); "OUTPUT" is the GeoPackage parameter
OUTPUT, GAPS_LAYER, IMAGES_LAYER, BUFFERS_LAYER = "OUTPUT", "GAPS_LAYER", "IMAGES_LAYER", "BUFFERS_LAYER"

COVERAGE = CommandSpec(
    command="coverage",
    help="2c · coverage audit and gaps per segment",
    options=(
        STORE,
        Option("OUTPUT", "--out", "file_out", "Coverage",
               help="coverage GeoPackage (layers coverage, coverage_gaps, coverage_images, coverage_buffers, "
                    "coverage_cities, coverage_dates); the city summary CSV and the run manifest go beside it",
               required=True, file_filter="GeoPackage (*.gpkg)", record=False),
        Option("RADIUS", "--radius", "number", "Covered within (m)",
               help="uncovered_fraction and the drawn buffer: an image covers the segment within this "
                    "distance, m", default=COVERAGE_RADIUS_M, minimum=1),
        Option("GAP_RADIUS", "--gap-radius", "number", "Gap: no image within (m)",
               help="gaps, longest_gap_m and share_uncovered_20m: stretches with no image within this "
                    "distance, m", default=COVERAGE_GAP_RADIUS_M, minimum=1),
    ),
    results=(GAPS, SEGMENTS, CITIES_CSV, MANIFEST),
)
