"""Fetch + curate of reference panels (method §2) on a fixed dense street: the way stage 2
worked before issue 17 against the way it works now, in one run, on fresh caches.

Fixture: ``tests/mapillary_worlds.dense_street()`` — a 779 m Helsinki street with 3 sequences
along it and 53 crowded into 70 m, 821 images of which 91 the metadata alone rules out (panoramas,
fisheye, night, a parallel street), served by the local fake Graph API in its own process with
1024 × 768 thumbnails, 20 ms of latency per request, and the first URL of every image refused
by the CDN (an expired signature), so every image needs a renewed URL.

- before: every image found is downloaded, search boxes reach 10 m past the buffer, URLs are
  renewed one image at a time (``GET /{id}``), the cap spreads over sequences and dates (the
  paper's rule) and every image is scored;
- after: the defaults — tiers 1–3 before any download, 50 m padding, URLs renewed 50 ids per
  request, the cap along the street, lazy scoring of tiers 4–7.

Curation runs without its two models (no weights offline), so its seconds are tiers 1–3, 6
and 7; the model tiers' cost grows with the "scored" count printed. Goals: image requests drop
by exactly two per metadata-rejected image that both searches found (each image costs a refused
URL and a download; the wider padding also finds the parallel street), URL
renewal requests drop at least 5×, the same cap keeps every stretch within one bin of what the
passing images covered, and curation scores fewer images and runs faster.
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
from geofidelity_plugin.core.reference_panels.options import CurationOptions  # noqa: E402
from geofidelity_plugin.core.reference_panels.workflow import curate_store, fetch_store  # noqa: E402
from geofidelity_plugin.core.store.store import BenchmarkStore  # noqa: E402
from mapillary_server import TOKEN, FakeMapillary  # noqa: E402
from mapillary_worlds import dense_street  # noqa: E402

LATENCY_S = 0.02
SIZE = (1024, 768)
BIN_M = 25.0
RUNS = {
    "before": (dict(search_pad_m=10.0, prefilter=False), dict(refresh_batch=1),
               dict(cap_spread="sequences", score_all=True)),
    "after": ({}, {}, {}),
}


def serve(conn) -> None:
    """Child process: the fake API; answers "counts" and "reset" until "stop"."""
    world = dense_street()
    with FakeMapillary(world.images, latency_s=LATENCY_S, image_size=SIZE) as server:
        server.expire_first = True
        for image_id in server.images:  # the JPEGs exist before any timing starts
            server.jpegs[image_id]
        conn.send(server.base_url)
        while (command := conn.recv()) != "stop":
            if command == "reset":
                server.reset()
            conn.send(dict(server.counts))


def run(name: str, base_url: str, folder: Path, conn) -> dict:
    fetch_options, client_options, curation = RUNS[name]
    world = dense_street()
    line = LineString(world.line)
    conn.send("reset")
    conn.recv()
    with BenchmarkStore(folder / name / "store.sqlite") as store:
        store.put_segments([{"segment_id": "hel-1", "city": "Helsinki", "centroid_lon": line.centroid.x,
                             "centroid_lat": line.centroid.y, "geometry": line}])
        client = MapillaryClient(TOKEN, base_url=base_url, cache_dir=store.root / "mapillary", **client_options)
        started = time.perf_counter()
        totals = fetch_store(store, client, **fetch_options)
        fetch_s = time.perf_counter() - started
        conn.send("counts")
        counts = conn.recv()
        started = time.perf_counter()
        result = curate_store(store, CurationOptions(siglip_model=None, vistas_model=None, cap_bin_m=BIN_M,
                                                     **curation))
        curate_s = time.perf_counter() - started
    segment = result.segments["hel-1"]
    return {"fetch_s": fetch_s, "curate_s": curate_s, "counts": counts, "totals": totals,
            "scored": sum(1 for r in result.rows if r.scored and r.tiers.get(6) not in (None, "not_scored")),
            "kept": len(result.kept()), "segment": segment, "rejectable": len(world.rejectable)}


def main() -> int:
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.get_context("spawn").Process(target=serve, args=(child,))
    server.start()
    try:
        base_url = parent.recv()
        with tempfile.TemporaryDirectory() as tmp:
            out = {name: run(name, base_url, Path(tmp), parent) for name in RUNS}
    finally:
        parent.send("stop")
        server.join(30)
    print(f"dense street: 821 images ({out['after']['rejectable']} ruled out by tiers 1–3), "
          f"{SIZE[0]}×{SIZE[1]} thumbnails, {LATENCY_S * 1000:.0f} ms per request, every first URL refused")
    print(f"{'':8} {'search':>7} {'renew×n':>8} {'renew×1':>8} {'images':>7} {'fetch s':>8} {'scored':>7} "
          f"{'curate s':>9} {'kept':>5} {'stretch before/after cap':>26}")
    for name, r in out.items():
        c, s = r["counts"], r["segment"]
        print(f"{name:8} {c.get('search', 0):7d} {c.get('batch', 0):8d} {c.get('entity', 0):8d} "
              f"{c.get('image', 0):7d} {r['fetch_s']:8.1f} {r['scored']:7d} {r['curate_s']:9.1f} {r['kept']:5d} "
              f"{s['stretch_before_cap_m']:11.0f} m / {s['stretch_after_cap_m']:4.0f} m")
    before, after = out["before"], out["after"]
    # the padding finds the images on the parallel street too: rejected images both runs found
    found_by_both = after["rejectable"] - (after["totals"]["images"] - before["totals"]["images"])
    images_ok = before["counts"].get("image", 0) - after["counts"].get("image", 0) == 2 * found_by_both
    renewals = lambda c: c.get("batch", 0) + c.get("entity", 0)  # noqa: E731
    renew_ok = renewals(before["counts"]) >= 5 * renewals(after["counts"])
    s = after["segment"]
    cover_ok = s["first_of_every_bin_kept"] and s["stretch_after_cap_m"] < s["stretch_before_cap_m"] + BIN_M
    curate_ok = after["scored"] < before["scored"] and after["curate_s"] < before["curate_s"]
    print(f"image requests −{before['counts'].get('image', 0) - after['counts'].get('image', 0)} "
          f"(goal: 2 × the {found_by_both} ruled-out images both searches found): {'MET' if images_ok else 'MISSED'}; "
          f"URL renewal requests "
          f"{renewals(before['counts'])} → {renewals(after['counts'])} (goal ≥ 5× fewer): "
          f"{'MET' if renew_ok else 'MISSED'}")
    print(f"stretch after the cap within one bin ({BIN_M:g} m) of before: {'MET' if cover_ok else 'MISSED'}; "
          f"curation scores fewer images and is faster ({before['curate_s']:.1f} s → {after['curate_s']:.1f} s): "
          f"{'MET' if curate_ok else 'MISSED'}")
    return 0 if images_ok and renew_ok and cover_ok and curate_ok else 1


if __name__ == "__main__":
    sys.exit(main())
