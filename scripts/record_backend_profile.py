"""Record the pins an environment was built from as its backend profile, as *Set up backend…*
does, so that the doctor checks the environment against them (not against requirements.lock).

    .venv/bin/python scripts/record_backend_profile.py requirements-py313.txt --name py313

Used by ``make qgis-3.44-check`` for the Python 3.13 environment of its chroot.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from geofidelity_plugin.backend_setup.venv_setup import PROFILE_FILE, parse_requirements  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("requirements", type=Path, help="the pinned requirements file the environment came from")
    parser.add_argument("--name", required=True, help="the profile's name, as the doctor reports it")
    args = parser.parse_args(argv)
    try:
        requirements = parse_requirements(args.requirements.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"cannot read {args.requirements}: {exc.strerror} — give the pinned requirements file", file=sys.stderr)
        return 2
    record = {"profile": args.name, "requirements": [r.line for r in requirements], "top_level": [], "system": {},
              "recorded_from": str(args.requirements)}
    target = Path(sys.prefix) / PROFILE_FILE
    tmp = target.with_name(target.name + ".part")
    tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, target)
    print(f"{len(requirements)} pins of {args.requirements} recorded as profile {args.name} in {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
