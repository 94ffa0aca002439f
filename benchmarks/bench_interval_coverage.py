"""The coverage of the tables' 95 % intervals, measured by simulation (docs/method.md §7): 1,000
simulated benchmarks per design, 1,000 resamples per interval, through the product's own delta
table; the default intervals must lie within 0.93–0.97 in every design, the paper's printed beside
them. A few minutes on 2 cores. The same as
``python -m geofidelity_plugin.core.evaluation.statistics.coverage_sim``."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofidelity_plugin.core.evaluation.statistics.coverage_sim import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
