from .backend.cli import main
from .core import events
from .core.errors import EXIT_CANCELLED

code = main()
if code == EXIT_CANCELLED and events.active() is not None:
    # a driver cancelled (SIGTERM): the error line is out and every file is complete; skip the
    # interpreter's slow shutdown (torch, OpenBLAS threads) so the process is gone at once
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
raise SystemExit(code)
