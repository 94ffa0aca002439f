"""Mapillary fetch throughput (PROTOCOL §2) against the local fake Graph API with 50 ms of
latency per request: the concurrent client (tiled search + thumbnail pool) against the same
client run one request at a time (``max_workers=1``), in the same run. Goals: ≥ 8× faster,
and a second run makes no image request (everything comes from the cache).
"""
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from shapely.geometry import LineString  # noqa: E402

from geofidelity_plugin.core.reference_panels.mapillary import MapillaryClient  # noqa: E402
from mapillary_server import TOKEN, FakeMapillary, fake_images_along  # noqa: E402

GOAL_RATIO = 8.0
LATENCY_S = 0.05
IMAGES = 80
WORKERS = 16
COORDS = [(2.3300, 48.8600), (2.3420, 48.8625), (2.3520, 48.8610)]  # ~1.6 km, one bend


def timed_fetch(server: FakeMapillary, cache: Path,
                max_workers: int) -> tuple[float, MapillaryClient, int]:
    client = MapillaryClient(TOKEN, base_url=server.base_url, cache_dir=cache,
                             max_workers=max_workers)
    started = time.perf_counter()
    records = client.images_along(LineString(COORDS))
    result = client.download(records)
    elapsed = time.perf_counter() - started
    if len(result.paths) != IMAGES or result.failed:
        raise SystemExit(f"fetch incomplete: {len(result.paths)} of {IMAGES} images, "
                         f"{len(result.failed)} failed")
    return elapsed, client, len(records)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp, \
            FakeMapillary(fake_images_along(COORDS, IMAGES), latency_s=LATENCY_S,
                          image_size=(320, 240)) as server:
        tmp = Path(tmp)
        sequential, _, found = timed_fetch(server, tmp / "sequential", 1)
        concurrent, client, _ = timed_fetch(server, tmp / "concurrent", WORKERS)
        default, _, _ = timed_fetch(server, tmp / "default", 8)
        ratio = sequential / concurrent
        print(f"{found} images along {len(COORDS) - 1} legs, {LATENCY_S * 1000:.0f} ms per "
              f"request; {client.api_requests} API + {client.image_requests} image requests a run")
        print(f"sequential (max_workers=1): {sequential:.2f} s; concurrent "
              f"(max_workers={WORKERS}): {concurrent:.2f} s; ratio {ratio:.1f}x "
              f"(default max_workers=8: {default:.2f} s, {sequential / default:.1f}x)")
        again, rerun, _ = timed_fetch(server, tmp / "concurrent", WORKERS)
        print(f"second run: {rerun.image_requests} image requests, {rerun.api_requests} API "
              f"requests, {again:.2f} s")
    ratio_ok, cache_ok = ratio >= GOAL_RATIO, rerun.image_requests == 0
    print(f"goal ≥ {GOAL_RATIO:.0f}x: {'MET' if ratio_ok else 'MISSED'}; "
          f"goal 0 image requests on the second run: {'MET' if cache_ok else 'MISSED'}")
    return 0 if ratio_ok and cache_ok else 1


if __name__ == "__main__":
    sys.exit(main())
