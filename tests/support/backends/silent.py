#!/usr/bin/env python3
"""A backend that starts and never says hello (a Python that hangs at start-up)."""
import time

time.sleep(600)
