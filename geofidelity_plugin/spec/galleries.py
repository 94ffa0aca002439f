"""``build-galleries`` — the hard-negative retrieval galleries (method §3), in QGIS
``geofidelity:build_galleries``."""
from __future__ import annotations

from geofidelity_plugin.spec.options import UNCHECKED_MINIMUM, CommandSpec, Option, Result
from geofidelity_plugin.spec.shared import NEW_STORE

BUILD_GALLERIES = CommandSpec(
    command="build-galleries",
    help="3 · hard-negative retrieval galleries (method §3)",
    options=(
        NEW_STORE,
        Option("SEGMENTS", "--segments", "file", "Segments GeoPackage to load first",
               help="segments GeoPackage to load into the store first", extension="gpkg", record=False),
        Option("SEED", "--seed", "integer", "Random seed", help="random seed, ≥ 0", default=0, rule="seed",
               minimum=UNCHECKED_MINIMUM),
        Option("KEEP_EXISTING", "--rebuild", "flag", "Keep negatives already in the store (e.g. a release's neg_* ids)",
               help="ignore negatives already in the store (default: keep them, e.g. a release's neg_* ids)",
               default=True, inverted=True),
    ),
    results=(Result("GALLERIES", "Galleries built"), Result("STORE_OUT", "Benchmark store", "file")),
)
