#!/usr/bin/env python3
"""A backend that plays a script given in ``FAKE_BACKEND_PLAN`` (a JSON list of steps), so that one
stand-in covers every hostile order of lines a fault test wants to try. Standard library only: it
never imports GeoFidelity (like a Python that hangs before the backend's code runs).

Steps: ``["hello"]``, ``["event", {...}]`` (a protocol line), ``["out", text]`` (a raw stdout line),
``["err", text, count]`` (stderr lines), ``["flood", count, every, event]`` (``count`` stderr lines
with ``event`` on stdout after each ``every``-th), ``["pid", path]`` (its pid into a file),
``["spawn", path]`` (a child in its group that sleeps; its pid into a file), ``["escape", path]`` (the
same in a session of its own, holding the pipes), ``["ignore-term"]``,
``["long", stream, size]`` (one line of ``size`` bytes on "out" or "err"), ``["sleep", seconds]``,
``["close"]`` (both pipes closed), ``["exit", code]``.
"""
import json
import os
import signal
import subprocess
import sys
import time

HELLO = {"event": "hello", "protocol": "1.0", "command": "evaluate", "backend_version": "test",
         "pid": os.getpid(), "python": sys.version.split()[0], "executable": sys.executable}


def out(record) -> None:
    sys.stdout.write((record if isinstance(record, str) else json.dumps(record)) + "\n")
    sys.stdout.flush()


def main() -> int:
    for step in json.loads(os.environ["FAKE_BACKEND_PLAN"]):
        kind, args = step[0], step[1:]
        if kind == "hello":
            out(HELLO)
        elif kind in ("event", "out"):
            out(args[0])
        elif kind == "err":
            count = args[1] if len(args) > 1 else 1
            sys.stderr.write("".join(f"{args[0]} {i}\n" for i in range(count)))
            sys.stderr.flush()
        elif kind == "flood":
            count, every, event = args
            for i in range(count):
                sys.stderr.write(f"UserWarning: the prompt was truncated to 77 tokens ({i})\n")
                if every and (i + 1) % every == 0:
                    sys.stderr.flush()
                    out(event)
            sys.stderr.flush()
        elif kind == "pid":
            with open(args[0], "w", encoding="utf-8") as handle:
                handle.write(str(os.getpid()))
        elif kind in ("spawn", "escape"):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                     start_new_session=kind == "escape")
            with open(args[0], "w", encoding="utf-8") as handle:
                handle.write(str(child.pid))
        elif kind == "ignore-term":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        elif kind == "long":
            stream = sys.stdout if args[0] == "out" else sys.stderr
            stream.write("x" * args[1] + "\n")
            stream.flush()
        elif kind == "sleep":
            time.sleep(args[0])
        elif kind == "close":
            os.close(1)
            os.close(2)
        elif kind == "exit":
            os._exit(args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
