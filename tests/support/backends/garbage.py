#!/usr/bin/env python3
"""Not a GeoFidelity backend: prints text of its own, never a protocol line."""
import sys

print("Python 3.11.2 (main) interactive helper 0.3")
print("{not json at all")
print("usage: helper [--quiet]")
sys.exit(1)
