"""``import-release`` — the published GeoFidelity-Bench release read into a store, in QGIS
``geofidelity:import_release``."""
from __future__ import annotations

from geofidelity_plugin.spec.options import UNCHECKED_MINIMUM, CommandSpec, Option, Result

#: the store written, and what the import counted (``import_release``'s counts, upper-cased)
STORE = Result("STORE", "Benchmark store", "file")
SEGMENTS = Result("SEGMENTS", "Segments")
MISSING_FILES = Result("MISSING_FILES", "Image files missing on disk")
REFERENCE_IMAGES = Result("REFERENCE_IMAGES", "Reference images")
GENERATED_IMAGES = Result("GENERATED_IMAGES", "Generated images")
#: count of ``import_release`` → the result that reports it
COUNTS = {"segments": SEGMENTS, "reference_images": REFERENCE_IMAGES, "generated_images": GENERATED_IMAGES,
          "missing_files": MISSING_FILES}

IMPORT_RELEASE = CommandSpec(
    command="import-release",
    help="load a published GeoFidelity-Bench release into a store",
    options=(
        Option("RELEASE_ROOT", "--release", "folder", "Release root folder",
               help="release root (holds data/processed/v3/benchmark_v3.json)", required=True, record=False),
        Option("SEED", "--seed", "integer", "Random seed (for filled negatives)",
               help="random seed of the filled negatives, ≥ 0", default=0, rule="seed",
               minimum=UNCHECKED_MINIMUM),
        Option("STORE", "--store", "file_out", "Benchmark store", required=True, file_filter="SQLite (*.sqlite)",
               record=False),
    ),
    results=(SEGMENTS, MISSING_FILES),
)
