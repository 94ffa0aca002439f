#!/usr/bin/env python3
"""A backend whose protocol lines are valid JSON of the wrong shapes (an integer stage, a string
fraction, a message that is an object, outputs without keys, values that are a list), then a result."""
import json
import sys

from geofidelity_plugin.core import events

stream = events.use_stream(sys.stdout)
events.hello("evaluate")
for line in ({"event": "progress", "stage": 7, "fraction": "half"},
             {"event": "progress", "stage": "embedding", "fraction": True, "message": {"n": 1}},
             {"event": "progress", "stage": ["a"], "fraction": 0.5},
             {"event": "info", "message": None},
             {"event": "warning", "message": 42},
             {"event": "output", "key": 3, "path": ["x"]},
             {"event": "output", "key": "TABLES", "path": 12},
             {"event": 5},
             {"event": "something-new", "payload": [1, 2]},
             {"event": "result", "code": 0, "values": ["not", "a", "dict"], "outputs": "nope"}):
    print(json.dumps(line), flush=True)
sys.exit(0)
