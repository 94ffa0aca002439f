#!/usr/bin/env python3
"""A backend that reports its result and then never exits — as a library thread stuck at
interpreter exit does (seen with OpenBLAS under a memory limit: the error line is out, the
process waits forever on its worker thread)."""
import sys
import time

from geofidelity_plugin.core import events

events.use_stream(sys.stdout)
events.hello("evaluate")
events.value("PANELS", 7)
events.result(0)
time.sleep(600)
