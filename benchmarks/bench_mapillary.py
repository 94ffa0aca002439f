"""Mapillary fetch throughput (method §2) against the local fake Graph API with 50 ms of
latency per request: the concurrent client (tiled search + thumbnail pool) against the same
client run one request at a time (``max_workers=1``), in the same run, best of three each on
fresh caches. Goals: ≥ 8× faster, and a second run makes no image request (all from the cache).

The fake server runs in its own process, so that its threads do not share the client's GIL.
"""
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from shapely.geometry import LineString  # noqa: E402

from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient  # noqa: E402
from mapillary_server import TOKEN, FakeMapillary, fake_images_along  # noqa: E402

GOAL_RATIO = 8.0
LATENCY_S = 0.05
IMAGES = 80
WORKERS = 16
REPEATS = 3
COORDS = [(2.3300, 48.8600), (2.3420, 48.8625), (2.3520, 48.8610)]  # ~1.6 km, one bend


def serve(conn) -> None:
    """Child process: run the fake server until the parent says stop."""
    with FakeMapillary(fake_images_along(COORDS, IMAGES), latency_s=LATENCY_S,
                       image_size=(320, 240)) as server:
        conn.send(server.base_url)
        conn.recv()


def timed_fetch(base_url: str, cache: Path, max_workers: int) -> tuple[float, MapillaryClient]:
    client = MapillaryClient(TOKEN, base_url=base_url, cache_dir=cache, max_workers=max_workers)
    started = time.perf_counter()
    result = client.download(client.images_along(LineString(COORDS)))
    elapsed = time.perf_counter() - started
    if len(result.paths) != IMAGES or result.failed:
        raise SystemExit(f"fetch incomplete: {len(result.paths)} of {IMAGES} images, "
                         f"{len(result.failed)} failed")
    return elapsed, client


def main() -> int:
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.get_context("spawn").Process(target=serve, args=(child,))
    server.start()
    try:
        base_url = parent.recv()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            times: dict[int, list[float]] = {1: [], 8: [], WORKERS: []}  # WORKERS = the default
            for run in range(REPEATS):
                for workers in times:
                    elapsed, client = timed_fetch(base_url, tmp / f"w{workers}-{run}", workers)
                    times[workers].append(elapsed)
            sequential, default, concurrent = (min(times[w]) for w in (1, 8, WORKERS))
            ratio = sequential / concurrent
            print(f"{IMAGES} images along {len(COORDS) - 1} legs, {LATENCY_S * 1000:.0f} ms per "
                  f"request; {client.api_requests} API + {client.image_requests} image requests "
                  f"a run; best of {REPEATS}")
            print(f"sequential (max_workers=1): {sequential:.2f} s; concurrent "
                  f"(default max_workers={WORKERS}): {concurrent:.2f} s; ratio {ratio:.1f}x "
                  f"(max_workers=8: {default:.2f} s, {sequential / default:.1f}x)")
            again, rerun = timed_fetch(base_url, tmp / f"w{WORKERS}-0", WORKERS)
            print(f"second run: {rerun.image_requests} image requests, {rerun.api_requests} API "
                  f"requests, {again:.2f} s")
    finally:
        parent.send("stop")
        server.join(10)
    ratio_ok, cache_ok = ratio >= GOAL_RATIO, rerun.image_requests == 0
    print(f"goal ≥ {GOAL_RATIO:.0f}x: {'MET' if ratio_ok else 'MISSED'}; "
          f"goal 0 image requests on the second run: {'MET' if cache_ok else 'MISSED'}")
    return 0 if ratio_ok and cache_ok else 1


if __name__ == "__main__":
    sys.exit(main())
