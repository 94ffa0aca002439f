#!/usr/bin/env python3
"""A backend that names two stages (the first one twice), says one thing, warns once and fails
with a message — as the real backend does, nothing of it also on stderr."""
import sys

from geofidelity_plugin.core import events

stream = events.use_stream(sys.stdout)
events.hello("evaluate")
progress = events.EventProgress("loading the feature model", stream)
progress.set_progress(10.0)
progress.set_progress(20.0)
progress.set_stage("extracting features")
progress.info("120 images")
progress.warning("3 images could not be read")
events.error("input", "the store has no generated panels — run generate first", 2)
sys.exit(2)
