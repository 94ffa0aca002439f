"""The options several commands share, written once: the benchmark store and the device. A
command that words one differently takes it with :func:`dataclasses.replace` (its label, its help),
so the name, the flag, the kind and what the manifest records stay one."""
from __future__ import annotations

from geofidelity_plugin.spec.options import Option

#: the benchmark store a command reads and writes (its path is an input of the run, not an option)
STORE = Option("STORE", "--store", "file", "Benchmark store (.sqlite)", help="benchmark store (.sqlite)",
               required=True, file_filter="SQLite (*.sqlite)", record=False)
#: the store of a command that makes it when it is missing (fetch, galleries)
NEW_STORE = Option("STORE", "--store", "file", "Benchmark store (.sqlite; created if missing)",
                   help="benchmark store (.sqlite), created if missing", required=True,
                   file_filter="SQLite (*.sqlite)", record=False)
#: the device of the models a command runs
DEVICE = Option("DEVICE", "--device", "text", "Device: cpu, cuda, cuda:N or mps (empty: the GPU when there is one)",
                help="cpu, cuda, cuda:N or mps (default: CUDA when present; in QGIS the device of Settings › "
                     "Options › GeoFidelity)", advanced=True)
#: the roads a command works on (:mod:`geofidelity_plugin.core.segment_subset`); in QGIS a layer of
#: roads, "Selected features only" honoured
ONLY_SEGMENTS = Option("ONLY_SEGMENTS", "--only-segments", "segment_ids",
                       "Only these roads (a layer with segment_id; empty: every road of the store)",
                       help="work on these segments only: comma-separated segment ids, or @FILE with one id per "
                            "line (in QGIS: a layer with a segment_id field, e.g. the segments layer, with "
                            "\"Selected features only\" for the roads picked on the map); empty: every segment")
