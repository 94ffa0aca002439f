"""Segment selection on the Helsinki extract (goal ≤ 5 s on the 2-core machine)."""
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from geofidelity_plugin.core.selection.cities import make_city  # noqa: E402
from geofidelity_plugin.core.selection.osm_file import read_osm_file  # noqa: E402
from geofidelity_plugin.core.selection.workflow import select_segments  # noqa: E402
from geofidelity_plugin.core.selection.segments import SelectionOptions  # noqa: E402

GOAL_S = 5.0


def main() -> int:
    pbf = ROOT / "data" / "external" / "osm" / "Helsinki.osm.pbf"
    city = make_city("Helsinki", "Finland", "FI", 24.9441, 60.1711)
    read_times, total_times = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        read_osm_file(pbf)
        t1 = time.perf_counter()
        result = select_segments([city], pbf, SelectionOptions())
        t2 = time.perf_counter()
        read_times.append(t1 - t0)
        total_times.append(t2 - t1)
    best = min(total_times)
    print(f"Helsinki extract: {len(result.segments)} segments; select_segments (read + select) "
          f"best {best:.3f} s, median {statistics.median(total_times):.3f} s over 5 runs; "
          f"OSM read alone {min(read_times):.3f} s")
    print(f"goal ≤ {GOAL_S:.1f} s: {'MET' if best <= GOAL_S else 'MISSED'}")
    return 0 if best <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
