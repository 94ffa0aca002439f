"""``--lock-timeout``: how long a command waits for a benchmark store (or feature cache) that
another run is using — the one option of every command that may wait for one
(:mod:`geofidelity_plugin.core.store.writer_lock`, :mod:`geofidelity_plugin.core.store.sqlite_locks`)."""
from __future__ import annotations


def add_lock_timeout(parser) -> None:
    from geofidelity_plugin.core.option_checks import argparse_number
    from geofidelity_plugin.core.store.sqlite_locks import DEFAULT_LOCK_TIMEOUT_S

    parser.add_argument("--lock-timeout", type=argparse_number("non-negative"), default=DEFAULT_LOCK_TIMEOUT_S,
                        metavar="SECONDS", help="how long to wait for a store or feature cache that another run "
                                                "is using (default %(default)g)")
