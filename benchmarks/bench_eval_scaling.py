"""Issue 16: does evaluation scale linearly? The metric pass and the tables at 1× and N×.

The seeded synthetic benchmark of ``eval_synthetic.py`` (1× = 112 segments × 67 reference
images, 4,032 generated panels of 4 images, 768-d) is written as float32 ``.npy`` files — the
feature cache's dtype — and each scale runs in its own process, so every peak is its own.
Stages: features (open the float32 embeddings), galleries (``build_galleries`` on as many
segment records, then the gallery row of every panel), γ, reference terms, CosSim/MMD²/DCSF+sims
(the one streamed pass over the generated images: the metrics and the gallery similarities of
both retrieval modes, with ``--max-memory`` at its default), retrieval (ranks and margins from
the similarities), per-image retrieval (the sample rows), rows (per-panel and per-image rows as
columns of numpy arrays), bootstrap tables (``build_tables``, 5,000 resamples) and outputs (the
tables as CSV and Markdown). Printed: seconds per stage at 1× and N×, their ratio,
the metric pass (γ → retrieval) in total, and peak memory — the process's peak anonymous
memory (sampled every 5 ms; the memory-mapped embeddings are file pages the OS can drop, so
they are not counted) and its peak RSS.

Goals (issue 16) at 10×: every ratio ≤ 11, metric pass ≤ 2 s, peak memory ≤ 1.5 GB.
Run: ``python benchmarks/bench_eval_scaling.py [--scale 10]``; ``--scale 100`` by hand.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import eval_synthetic  # noqa: E402

PASS_STAGES = ("γ", "reference terms", "CosSim/MMD²/DCSF+sims", "retrieval")
GOAL_RATIO, GOAL_PASS_S, GOAL_PEAK_GB = 11.0, 2.0, 1.5
#: glibc's allocator hands arrays over 128 KiB to fresh mmap pages (a page fault per 4 KiB on first
#: touch) and arrays under it reused heap memory: at 1× a 16,128-row column sits under that line
#: and at 10× above it, which alone made millisecond stages look 13× slower for 10× the rows.
#: Both scales run with one rule (heap up to 32 MiB, freed memory kept), so a ratio measures growth.
ALLOCATOR = {"MALLOC_MMAP_THRESHOLD_": str(32 * 1024 ** 2), "MALLOC_TRIM_THRESHOLD_": str(1024 ** 3)}
#: stages that are this bench's own set-up, not the product's code: shown, not held to the goal.
#: "rows (columns)" assembles the synthetic per-panel and per-image columns (in a real run they come
#: from the metric pass); its object columns touch 1,120 distinct segment names at 10×, which leave
#: the CPU cache (per element 21.6 → 24.3 ns, flat from 10× to 30×).
SCAFFOLDING = ("rows (columns)",)
#: runs of a millisecond stage (retrieval, per-image retrieval, rows): the best one is its time
REPEATS = 5


class PeakMemory:
    """Peak anonymous memory (RssAnon) of this process, sampled in a thread."""

    def __init__(self):
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def now() -> int:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
        return 0

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self.now())
            time.sleep(0.005)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.now())


def child(scale: int, workdir: Path) -> dict:
    """Build the N× store on disk, then time every stage in a fresh process."""
    data = eval_synthetic.build(scale, out_dir=workdir)
    np.save(workdir / "reference.npy", np.concatenate(data["reference"]))
    sizes = np.array([len(r) for r in data["reference"]])
    galleries, meta = data["galleries"], {k: data[k] for k in ("target", "model_of",
                                                               "condition_of", "city", "clip")}
    del data
    code = (f"import sys, json; sys.path[:0] = {[str(HERE.parent), str(HERE)]!r}; "
            f"import bench_eval_scaling as b; print(json.dumps(b.timed_pass({str(workdir)!r})))")
    np.save(workdir / "sizes.npy", sizes)
    np.save(workdir / "galleries.npy", galleries)
    np.savez(workdir / "meta.npz", scale=scale, **meta)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={**os.environ, **ALLOCATOR})
    return json.loads(result.stdout.strip().splitlines()[-1])


def timed_pass(workdir: str) -> dict:
    from geofidelity_plugin.core.evaluation.metrics import panel_metrics as metrics, retrieval
    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.galleries import build_galleries
    from geofidelity_plugin.core.evaluation.metrics.panel_arrays import chunk_images_for
    from geofidelity_plugin.core.evaluation.statistics.tables import (TABLE_NAMES, build_tables, tables_markdown, to_csv)

    work = Path(workdir)
    times: dict[str, float] = {}
    cpu: dict[str, float] = {}
    clock = [time.process_time()]

    peaks: dict[str, int] = {}

    def quick(fn):
        """A stage of a few milliseconds, timed as the best of :data:`REPEATS` runs of the same pure
        call: one run of so short a call measures the machine's hiccups and a cold cache, not its
        growth with the data (the result is the last run's)."""
        best, result = float("inf"), None
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            result = fn()
            best = min(best, time.perf_counter() - t0)
        extra[0] += best
        return result

    extra = [0.0]

    def stage(name, t0):
        times[name] = extra[0] if extra[0] else time.perf_counter() - t0
        extra[0] = 0.0
        cpu[name], clock[0] = time.process_time() - clock[0], time.process_time()
        peaks[name] = max(peak.peak, peak.now())  # the peak so far, as this stage ends
        return time.perf_counter()

    with PeakMemory() as peak:
        t = time.perf_counter()
        generated = np.load(work / "generated.npy", mmap_mode="r")
        flat = np.load(work / "reference.npy", mmap_mode="r")
        offsets = np.r_[0, np.cumsum(np.load(work / "sizes.npy"))]
        reference = [flat[offsets[s]:offsets[s + 1]] for s in range(len(offsets) - 1)]
        meta = dict(np.load(work / "meta.npz"))
        t = stage("features", t)
        segments, keep = eval_synthetic.segment_records(int(meta["scale"]))
        t, clock[0] = time.perf_counter(), time.process_time()
        build_galleries(segments, 0, keep)  # method §3 galleries of a store of this size
        table = np.load(work / "galleries.npy")[meta["target"]]
        t = stage("galleries", t)
        gamma = metrics.median_heuristic_gamma(reference, sample_size=1000, seed=0)
        t = stage("γ", t)
        refs = metrics.ReferenceSet.from_panels(reference, gamma)
        t = stage("reference terms", t)
        options = EvaluationOptions()  # --max-memory at its default
        chunk = chunk_images_for(options.max_memory_bytes(), refs.means.shape[1])
        scores = metrics.score_panels(generated, meta["target"], refs, gallery_rows=table,
                                      image_similarities=True, chunk_images=chunk)
        t = stage("CosSim/MMD²/DCSF+sims", t)
        gallery = scores.pop("gallery_similarities")
        scores.update(quick(lambda: retrieval.retrieval_from_similarities(gallery)))
        t = stage("retrieval", t)
        ((_, images),) = scores.pop("image_similarities")
        per_image = quick(lambda: retrieval.retrieval_from_similarities(images))
        t = stage("per-image retrieval", t)
        rows, samples = quick(lambda: (eval_synthetic.panel_columns(meta, scores),
                                       eval_synthetic.sample_columns(meta, per_image)))
        t = stage("rows (columns)", t)
        tables = build_tables(rows, options, samples, "synthetic")
        t = stage("bootstrap tables", t)
        texts = [to_csv(tables[name]) for name in TABLE_NAMES] + [tables_markdown(tables)]
        stage("outputs", t)
    return {"times": times, "cpu": cpu, "peaks": peaks, "pass": sum(times[s] for s in PASS_STAGES),
            "pass_cpu": sum(cpu[s] for s in PASS_STAGES),
            "peak_anon": peak.peak, "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "panels": int(len(generated)), "segments": int(len(reference)),
            "table_rows": sum(len(v) for v in tables.values()), "chars": sum(map(len, texts))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10, help="N of the N× store (default 10)")
    args = parser.parse_args()
    runs = {}
    for scale in (1, args.scale):
        with tempfile.TemporaryDirectory(prefix=f"bench_eval_{scale}x_") as tmp:
            t = time.perf_counter()
            runs[scale] = child(scale, Path(tmp))
            print(f"{scale:>4}×: {runs[scale]['segments']} segments, {runs[scale]['panels']} panels, "
                  f"{runs[scale]['table_rows']} table rows (built and run in "
                  f"{time.perf_counter() - t:.1f} s)", flush=True)
    one, many = runs[1], runs[args.scale]
    goal_ratio = GOAL_RATIO * args.scale / 10  # linear, with 10 % slack: ≤ 11 at 10×
    print(f"{os.cpu_count()} CPU cores; seconds per stage, ratio {args.scale}×/1× (goal ≤ {goal_ratio:g})")
    print(f"  {'stage':<22s} {'1×':>8s} {f'{args.scale}×':>8s} {'ratio':>7s}   peak GB so far at {args.scale}×"
          f"   CPU s at {args.scale}× (all threads)")
    worst = 0.0
    for name, seconds in one["times"].items():
        big = many["times"][name]
        ratio = big / max(seconds, 1e-4)
        if name not in SCAFFOLDING:
            worst = max(worst, ratio)
        print(f"  {name:<22s} {seconds:8.3f} {big:8.3f} {ratio:7.1f}   {many['peaks'][name] / 1024 ** 3:6.2f}"
              f"   {many['cpu'][name]:8.3f}")
    print(f"  {'metric pass (γ→retrieval)':<22s} {one['pass']:8.3f} {many['pass']:8.3f} "
          f"{many['pass'] / one['pass']:7.1f}          {many['pass_cpu']:8.3f}")
    print(f"  (retrieval, per-image retrieval and rows: best of {REPEATS} runs of the same call; CPU s counts "
          f"all runs; not held to the goal, the bench's own set-up: {', '.join(SCAFFOLDING)})")
    print(f"  load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (timings are wall seconds; "
          "other work on the machine inflates them)")
    gb = 1024 ** 3
    for scale, run in runs.items():
        print(f"  peak memory {scale}×: {run['peak_anon'] / gb:.2f} GB anonymous "
              f"(RSS incl. mapped embeddings {run['peak_rss'] / gb:.2f} GB)")
    ok = worst <= goal_ratio
    if args.scale == 10:
        ok &= many["pass"] <= GOAL_PASS_S and many["peak_anon"] <= GOAL_PEAK_GB * gb
        print(f"goals at 10× (ratios ≤ {goal_ratio:g}, pass ≤ {GOAL_PASS_S:g} s, peak ≤ "
              f"{GOAL_PEAK_GB:g} GB): {'MET' if ok else 'MISSED'} (worst ratio {worst:.1f})")
    else:
        print(f"worst ratio {worst:.1f}: {'linear' if ok else 'NOT linear'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
