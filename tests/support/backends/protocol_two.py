#!/usr/bin/env python3
"""A backend of a future major protocol version: says hello with protocol "2.0", then works on
(it sleeps) until the driver stops it."""
import json
import os
import sys
import time

print(json.dumps({"event": "hello", "protocol": "2.0", "command": "evaluate", "backend_version": "9.0.0",
                  "pid": os.getpid(), "python": sys.version.split()[0], "executable": sys.executable}), flush=True)
time.sleep(120)
print(json.dumps({"event": "result", "exit_code": 0, "values": {}, "outputs": []}), flush=True)
