"""The figures of the memory plans' time model, from `make gpu-check`'s recorded results.

    python scripts/plan_calibration.py           # write resources/generation/plan_times.json
    python scripts/plan_calibration.py --check   # exit 1 when the file is not what the results give
    python scripts/plan_calibration.py --errors  # predicted vs measured seconds per panel, every run

The H200's probe (a result file's ``probe``, recorded by `make gpu-check`) goes into the data file
as ``probe``: the reference another GPU's probe is compared with (docs/memory-plans.md).

See geofidelity_plugin/core/generation/plan_calibration.py and docs/memory-plans.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from geofidelity_plugin.core.generation.plan_calibration import (derive, errors, measured_runs,  # noqa: E402
                                                                 median_abs_error, recorded_probe)

RESULTS = sorted((REPO / "docs" / "gpu-check").glob("*-h200-run*.json"))
OUT = REPO / "resources" / "generation" / "plan_times.json"
#: the results' dates (their names start with one) and names
MEASURED = (f"NVIDIA H200, {' and '.join(sorted({p.name[:10] for p in RESULTS}))}, "
            + ", ".join(p.name for p in RESULTS))


def text() -> str:
    return json.dumps(derive(measured_runs(RESULTS), MEASURED, probe=recorded_probe(RESULTS)), indent=1,
                      ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args()
    if args.errors:
        runs = measured_runs(RESULTS)
        cal = json.loads(text())
        rows = errors(runs, cal)
        loo = errors(runs, cal, leave_one_out=True, measured=MEASURED)
        for row, other in zip(rows, loo):
            print(f"{row['generator']:<22s} {row['plan']:<14s} budget {str(row['budget_gb']):>4s} batch {row['batch']}"
                  f"  measured {row['measured_s']:7.1f} s  predicted {row['predicted_s']:7.1f} s  "
                  f"error {row['error']:+6.1%}  (leave-one-out {other['error']:+6.1%})")
        print(f"median |error| over {len(rows)} runs: {median_abs_error(rows):.1%} "
              f"(leave one generator out: {median_abs_error(loo):.1%})")
        return 0
    if args.check:
        if not OUT.is_file() or OUT.read_text(encoding="utf-8") != text():
            print(f"{OUT} is not what {', '.join(p.name for p in RESULTS)} give — run python scripts/plan_calibration.py")
            return 1
        return 0
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
