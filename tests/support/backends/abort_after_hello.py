#!/usr/bin/env python3
"""A backend that crashes natively (SIGABRT, as a failed assertion in a C++ model library does)
in the middle of a write to the store, right after its hello."""
import os
import sqlite3
import sys

from geofidelity_plugin.core import events


def option(name: str):
    args = sys.argv[1:]
    return args[args.index(name) + 1] if name in args[:-1] else None


store = option("--store")
if store:  # an open write transaction, as a crash in the middle of a stage leaves
    db = sqlite3.connect(store, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE segments SET street_name = 'half-written by a crashed backend'")
events.use_stream(sys.stdout)
events.hello("evaluate")
print("fake backend: aborting now", file=sys.stderr, flush=True)
os.abort()
