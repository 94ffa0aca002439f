"""`make bench`: speed goals live here, never in timed tests. Ratios are measured in one run."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTRA = ()  # benchmarks not named bench_*


def main() -> int:
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")) + [HERE / name for name in EXTRA]:
        print(f"\n=== {script.name} ===", flush=True)
        failed |= subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
