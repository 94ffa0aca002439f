"""``python -m geofidelity_plugin`` — the pipeline from a shell, for batch runs and notebooks.

Every sub-command drives the same core functions as the Processing algorithms. Run
``python -m geofidelity_plugin <command> --help`` for the options of one stage.
"""
from __future__ import annotations

import argparse
import logging
import sys

from geofidelity_plugin.core.errors import EXIT_BUG, EXIT_CANCELLED, EXIT_ERROR, Cancelled
from geofidelity_plugin.core.shown import shown_message as user_message

log = logging.getLogger("geofidelity")


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: the run stops like Ctrl-C, with its own message."""


class _Parser(argparse.ArgumentParser):
    """In ``--events jsonl`` mode a usage mistake is an ``error`` event, not argparse's usage text."""

    raise_errors = False

    def error(self, message):
        if _Parser.raise_errors:
            from geofidelity_plugin.core.errors import InputError

            raise InputError(f"{self.prog}: {message} — see `{self.prog} --help`")
        super().error(message)


#: the command's name in usage lines: ``python -m geofidelity_plugin`` or, installed with pip, ``geofidelity``
PROG = "python -m geofidelity_plugin"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="GeoFidelity: does a text-to-image model draw the named street it was asked for? "
                    "Each command is one stage of the method (docs/method.md).")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of a failure (also: GEOFIDELITY_DEBUG=1)")
    parser.add_argument("--events", choices=("human", "jsonl"), default="human",
                        help="jsonl: machine-readable events on stdout, one JSON object per line, for a driver "
                             "such as the QGIS plugin (docs/backend-protocol.md); default: text for people")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    import importlib

    from geofidelity_plugin.backend.commands import STAGES

    for stage in STAGES:
        importlib.import_module(f".commands.{stage}", __package__).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Exit 0 on success, 2 for a failure the message explains (bad input, an
    output that cannot be written, a remote service down, out of memory), 130 when cancelled
    (Ctrl-C or SIGTERM), 1 for a bug. With ``--events jsonl`` the same outcome is also the last
    protocol line (``result`` or ``error``)."""
    import os

    from geofidelity_plugin.core import events

    unusable: dict[str, str] = {}
    if argv is None:  # the process's own entry (not a notebook's api.run): no secret on stdout/stderr
        from geofidelity_plugin.core.secrets import guard_streams

        unusable = events.claim_standard_streams()
        guard_streams()
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("MPLBACKEND", "Agg")  # figures are files: never look for a display
    jsonl = _wants_jsonl(argv)
    if "stdout" in unusable:  # before any work: a run whose ending nobody can read is not started
        _say(f"error: {events.closed_stdout_message(unusable['stdout'], jsonl)}")
        return EXIT_ERROR
    if jsonl:
        events.activate_jsonl()
        _Parser.raise_errors = True
    code = _run(argv, jsonl)
    stream = events.active()
    if jsonl and stream is not None and stream.lost is not None:  # the driver heard nothing of the end
        _say(f"error: {events.lost_message(stream, code)}")
        return code or EXIT_ERROR
    return code


def _say(text: str) -> None:
    """One line on stderr; nothing when stderr is gone too (a quiet exit, never a traceback)."""
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _run(argv: list[str], jsonl: bool) -> int:
    """Parse and run one command; every failure becomes its message and exit code."""
    import os

    from geofidelity_plugin.core import events

    _terminate_as_cancel()
    from geofidelity_plugin.core.parent_watch import watch_from_environment

    watch_from_environment()  # started by a driver: end with it (core/parent_watch.py)
    debug = "--debug" in argv or os.environ.get("GEOFIDELITY_DEBUG", "") not in ("", "0")
    try:
        try:
            args = build_parser().parse_args(argv)
        except BrokenPipeError:  # `… --help | head`: the reader has gone, nothing is lost
            return _quiet_after_broken_pipe()
        except SystemExit as exc:  # --help / --version
            return int(exc.code or 0)
        if jsonl:
            events.hello(args.command)
        logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(message)s")
        from geofidelity_plugin.core.network import prepare_and_report

        prepare_and_report()  # the system's certificates for HTTPS; a proxy it cannot use is said at once
        code = args.func(args)
        events.result(code or 0)
        return code
    except (Cancelled, KeyboardInterrupt) as exc:
        text = f"cancelled: {exc}" if isinstance(exc, (Cancelled, Terminated)) else "interrupted"
        if not jsonl:  # with --events jsonl the error event carries it: a driver shows it once
            _say(text)
        events.error("cancelled", text, EXIT_CANCELLED)
        return EXIT_CANCELLED
    except BrokenPipeError:  # stdout piped into `head`: the outputs were written before the summary
        return _quiet_after_broken_pipe()
    except Exception as exc:  # noqa: BLE001 — the one place every failure becomes a message
        if debug:
            if jsonl:
                import traceback

                traceback.print_exc()
                events.error(events.error_kind(exc), user_message(exc)[0], EXIT_BUG)
                return EXIT_BUG
            raise
        message, foreseen = user_message(exc)
        if not jsonl:
            _say(f"error: {message}")
        code = EXIT_ERROR if foreseen else EXIT_BUG
        events.error(events.error_kind(exc) if foreseen else "bug", message, code)
        return code


def console() -> None:
    """The ``geofidelity`` command of a pip install: the same CLI as ``python -m geofidelity_plugin``."""
    global PROG
    PROG = "geofidelity"
    exit_with(main())


def exit_with(code: int) -> None:
    """End the process with ``code``. After a driver's cancel (SIGTERM in ``--events jsonl`` mode)
    the error line is out and every file is complete: skip the interpreter's slow shutdown (torch,
    OpenBLAS threads) so the process is gone at once."""
    from geofidelity_plugin.core import events

    if code == EXIT_CANCELLED and events.active() is not None:
        import os

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    raise SystemExit(code)


def _wants_jsonl(argv: list[str]) -> bool:
    for i, arg in enumerate(argv):
        if arg == "--events" and i + 1 < len(argv):
            return argv[i + 1] == "jsonl"
        if arg == "--events=jsonl":
            return True
        if not arg.startswith("-"):
            return False  # options after the command belong to it
    return False


def _terminate_as_cancel() -> None:
    """SIGTERM (a driver's cancel, `kill`) ends the run like Ctrl-C: exit 130 with a message.
    Everything the core writes is atomic, so stopping at any point leaves nothing a later run
    trusts half-written."""
    import signal

    def handler(signum, frame):
        # a KeyboardInterrupt kind: no `except Exception` on the way (e.g. a per-image failure
        # record) can swallow it
        raise Terminated("stopped by SIGTERM (cancel from the driver or `kill`); files written so far are "
                         "complete and a re-run resumes from the caches")

    try:
        signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):  # not the main thread (embedded): leave the default
        pass


def _quiet_after_broken_pipe() -> int:
    """Stop writing to a closed pipe without a second error at interpreter exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0
