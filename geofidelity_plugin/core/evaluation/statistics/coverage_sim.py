"""method §7: the coverage of the tables' intervals, measured by simulation rather than assumed.

Each design generates benchmarks whose paired delta (L1 − L0) is known: Δ plus a city effect
(one per city, shared by its segments), a segment effect (one per segment, shared by every
model), a fixed offset per model (summing to zero) and heavy-tailed panel noise (Student's t, 3
degrees of freedom); the cities hold uneven numbers of segments (one each, the rest shared by
Dirichlet(1) weights, new for every benchmark). Each benchmark's rows go through the product's
own delta table (:func:`..tables.delta_rows`) once per bootstrap unit, and each interval is
scored on whether it holds Δ, and on its width.

    python -m geofidelity_plugin.core.evaluation.statistics.coverage_sim [--benchmarks 1000]

prints the table; ``benchmarks/bench_interval_coverage.py`` (``make bench``) runs it in full.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

#: the intervals each benchmark is scored on: (bootstrap unit, low column, high column, label)
INTERVALS = (("city", "low", "high", "default pooled"),
             ("city", "city_low", "city_high", "default city-balanced"),
             ("model-segment", "low", "high", "paper plain"),
             ("model-segment", "city_low", "city_high", "paper city-balanced"))


@dataclass(frozen=True)
class Design:
    """A benchmark design: its cities and segments, models, and the sizes of the delta's parts."""

    name: str
    cities: int
    segments: int
    models: int
    city_sd: float           # the city effect on the delta
    segment_sd: float        # the segment effect on the delta, shared by every model
    noise_sd: float = 0.03   # panel noise (Student's t, 3 df, scaled to this sd)
    model_spread: float = 0.01  # the models' fixed offsets run evenly over ± this (mean 0)
    delta: float = 0.03


DESIGNS = (
    Design("25 cities, 109 segments, 1 model, city effect", 25, 109, 1, 0.02, 0.0),
    Design("25 cities, 109 segments, 1 model, no city effect", 25, 109, 1, 0.0, 0.0),
    Design("25 cities, 109 segments, 6 models sharing a segment effect", 25, 109, 6, 0.02, 0.02),
    Design("6 cities, 40 segments, 1 model, city effect", 6, 40, 1, 0.02, 0.0),
    Design("6 cities, 40 segments, 6 models sharing a segment effect", 6, 40, 6, 0.02, 0.02),
)


def benchmark_rows(design: Design, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """One simulated benchmark: a panel row per model, segment and condition (L0, L1), as columns.
    A row's L1 − L0 difference is Δ + its city's and its segment's effect + its model's offset +
    noise; a level shared by both conditions (the segment's and the model's) cancels in it."""
    sizes = 1 + rng.multinomial(design.segments - design.cities, rng.dirichlet(np.ones(design.cities)))
    city = np.repeat(np.arange(design.cities), sizes)
    n_seg, n_mod = design.segments, design.models
    offsets = np.linspace(-design.model_spread, design.model_spread, n_mod) if n_mod > 1 else np.zeros(1)
    diff = (design.delta + rng.normal(0, design.city_sd, design.cities)[city][:, None]
            + rng.normal(0, design.segment_sd, n_seg)[:, None] + offsets[None, :]
            + rng.standard_t(3, (n_seg, n_mod)) * design.noise_sd / np.sqrt(3.0))
    level = 0.5 + rng.normal(0, 0.05, n_seg)[:, None] + rng.normal(0, 0.02, (n_seg, n_mod))
    seg_ids = np.array([f"s{s}" for s in range(n_seg)], dtype=object)
    cols = {"model": [], "condition": [], "segment_id": [], "city": [], "cos_sim": []}
    for condition, value in (("L0", level), ("L1", level + diff)):
        for m in range(n_mod):
            cols["model"].append(np.full(n_seg, f"m{m}", dtype=object))
            cols["condition"].append(np.full(n_seg, condition, dtype=object))
            cols["segment_id"].append(seg_ids)
            cols["city"].append(np.array([f"c{c}" for c in city], dtype=object))
            cols["cos_sim"].append(value[:, m])
    out = {k: np.concatenate(v) for k, v in cols.items()}
    out["country_code"] = np.full(len(out["model"]), "XX", dtype=object)
    return out


def score_benchmark(design: Design, seed: int, n_resamples: int) -> np.ndarray:
    """(interval × [covers Δ, width]) for one benchmark of ``design``, through the delta table."""
    from geofidelity_plugin.core.evaluation.options import EvaluationOptions
    from geofidelity_plugin.core.evaluation.statistics.tables import delta_rows

    rows = benchmark_rows(design, np.random.default_rng(seed))
    found = {}
    for unit in ("city", "model-segment"):
        options = EvaluationOptions(n_bootstrap=n_resamples, seed=seed % (2 ** 32), bootstrap_unit=unit)
        found[unit] = next(r for r in delta_rows(rows, None, "L0", "L1", options) if r["metric"] == "cos_sim")
    out = np.full((len(INTERVALS), 2), np.nan)
    for i, (unit, low, high, _) in enumerate(INTERVALS):
        lo, hi = found[unit].get(low), found[unit].get(high)
        if lo is not None and hi is not None:
            out[i] = (lo <= design.delta <= hi, hi - lo)
    return out


def _score_many(args) -> np.ndarray:
    design, seeds, n_resamples = args
    return np.stack([score_benchmark(design, s, n_resamples) for s in seeds])


@dataclass(frozen=True)
class Coverage:
    """A design's result: per interval, the share of benchmarks whose interval holds Δ (the
    intervals that could not be computed left out) and the mean width."""

    design: Design
    benchmarks: int
    coverage: np.ndarray
    width: np.ndarray

    @property
    def monte_carlo_error(self) -> float:
        """Two standard errors of a coverage of 0.95 over this many benchmarks."""
        return 2 * float(np.sqrt(0.95 * 0.05 / self.benchmarks))


def simulate(designs=DESIGNS, benchmarks: int = 1000, n_resamples: int = 1000, seed: int = 41,
             workers: int = 1) -> list[Coverage]:
    """The coverage and width of every interval of :data:`INTERVALS` in every design. Benchmark
    ``b`` of design ``d`` is seeded by ``(seed, d, b)``, so the result does not depend on
    ``workers``."""
    results = []
    for d, design in enumerate(designs):
        seeds = [int(np.random.SeedSequence([seed, d, b]).generate_state(1, np.uint64)[0]) for b in range(benchmarks)]
        parts = [(design, seeds[i::max(1, workers)], n_resamples) for i in range(max(1, workers))]
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                scored = np.concatenate(list(pool.map(_score_many, parts)))
        else:
            scored = _score_many(parts[0])
        with np.errstate(invalid="ignore"):
            results.append(Coverage(design, benchmarks, np.nanmean(scored[:, :, 0], axis=0),
                                    np.nanmean(scored[:, :, 1], axis=0)))
    return results


def coverage_table(results: list[Coverage]) -> str:
    """The results as a Markdown table: coverage (mean width) of each interval per design."""
    head = "| design | benchmarks | " + " | ".join(label for *_, label in INTERVALS) + " |"
    lines = [head, "|" + "---|" * (2 + len(INTERVALS))]
    for r in results:
        cells = [f"{c:.3f} ({w:.4f})" for c, w in zip(r.coverage, r.width)]
        lines.append(f"| {r.design.name} | {r.benchmarks} (±{r.monte_carlo_error:.3f}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Coverage of the tables' 95% intervals by simulation "
                                                 "(docs/method.md §7).")
    parser.add_argument("--benchmarks", type=int, default=1000, help="simulated benchmarks per design")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples per interval")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--band", type=float, nargs=2, default=(0.93, 0.97),
                        help="the default intervals' coverage must lie in this band (exit 1 otherwise)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = simulate(benchmarks=args.benchmarks, n_resamples=args.resamples, seed=args.seed, workers=args.workers)
    print(coverage_table(results))
    low, high = args.band
    inside = all(low <= c <= high for r in results for c in r.coverage[:2])
    print(f"\n{args.benchmarks} benchmarks per design, {args.resamples} resamples, seed {args.seed}: "
          f"{time.perf_counter() - start:.0f} s; the default intervals "
          f"{'lie' if inside else 'do NOT all lie'} within {low:.2f}–{high:.2f} in every design")
    return 0 if inside else 1


if __name__ == "__main__":
    sys.exit(main())
