#!/usr/bin/env python3
"""A backend that says hello, reports some progress, then exits 0 without a result line."""
import sys

from geofidelity_plugin.core import events

stream = events.use_stream(sys.stdout)
events.hello("evaluate")
events.EventProgress("extracting features", stream).set_progress(40.0)
print("fake backend: leaving early", file=sys.stderr, flush=True)
sys.exit(0)
