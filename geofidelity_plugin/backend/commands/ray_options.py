"""``--ray [ADDRESS]`` and ``--ray-workers`` for the commands that can scale out (generate,
evaluate), and what they print and report after a run on Ray (README "Scale out on Ray").

Ray itself is imported only when a run asks for it: without Ray installed every command works,
and ``--ray`` says how to install it."""
from __future__ import annotations

from geofidelity_plugin.core.option_checks import argparse_number


def add_ray_arguments(parser, work: str) -> None:
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help=f"{work} on Ray: local (start Ray on this machine, one worker per GPU, else per CPU; "
                             "the value when --ray has none), or the address of a running cluster — HOST:6379, "
                             "ray://HOST:10001, or auto inside a Ray Job; absent or off: one process. Needs "
                             "ray[data] 2.60 (README, \"Scale out on Ray\")")
    parser.add_argument("--ray-workers", type=argparse_number("count"), metavar="N",
                        help="Ray workers (default: one per GPU of the cluster, else one per CPU)")


def ray_address(args) -> str | None:
    from geofidelity_plugin.core.scaleout.cluster import parse_ray_option

    return parse_ray_option(getattr(args, "ray", None))


def report_generation(result) -> None:
    """After ``generate --ray``: the units line, the protocol values, and an error (exit 2, the
    other panels written) when panels failed after every retry."""
    from geofidelity_plugin.core import events
    from geofidelity_plugin.core.errors import RemoteServiceError

    if not hasattr(result, "units_total"):
        return
    print(f"Ray: {result.units_total} panels — {result.units_kept} kept from earlier runs, {result.units_made} "
          f"made, {result.retries} retried, {len(result.failed_units)} failed")
    events.value("RAY_UNITS", result.units_total)
    events.value("RAY_UNITS_KEPT", result.units_kept)
    events.value("RAY_UNITS_MADE", result.units_made)
    events.value("RAY_RETRIES", result.retries)
    events.value("RAY_FAILED_UNITS", [u["unit"] for u in result.failed_units])
    if result.failed_units:
        first = result.failed_units[0]
        raise RemoteServiceError(
            f"{len(result.failed_units)} panel(s) failed on Ray after every retry (first: {first['unit']}: "
            f"{first['errors'][-1] if first['errors'] else 'no reason given'}) — the other panels are written and "
            "recorded; run the same command again to retry them (the cluster section of generation_manifest.json "
            "lists each failure)")
