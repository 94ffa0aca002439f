"""The feature rows of ``make gpu-check`` (method §5 "Decoding"): DINOv2-S/14 and B/14 from JPEG
files on a CUDA GPU, end to end against the bare forward pass, for each decode path and precision.

Per model:
- *bare forward*: the batches' pixels made beforehand (untimed, on the host, as the CPU bench
  does), then only the model's forward pass and the copy of its input to the GPU are timed;
- *end to end*: ``FeatureExtractor.embed_paths`` from the files with a fresh feature cache —
  hashing, the cache lookup, decoding, preprocessing, the forward pass and the cache writes — for
  ``--decode device`` (nvJPEG, overlapped with the forward pass) and ``--decode cpu`` (worker
  processes), in fp32, tf32 and bf16;
- the cosine of every image's embedding between the two decode paths (fp32), and of tf32 and bf16
  against fp32 on the device path;
- a handful of files nvJPEG must not take (PNG, CMYK, progressive, EXIF-rotated, truncated) run
  through the device path: each must come back by the CPU path with its reason, or fail as on
  the CPU.

Run by ``scripts/gpu_check.py`` (``make gpu-check``) or alone: ``python scripts/gpu_features.py``.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks"), str(ROOT / "scripts")]

PRECISION_ROWS = ("fp32", "tf32", "bf16")


def _one_jpeg(job: tuple) -> str:
    from PIL import Image

    index, folder, sources, size = job
    rng = np.random.default_rng(index)
    if sources:
        image = Image.open(sources[index % len(sources)]).convert("RGB")
        w, h = image.size
        left, top = int(rng.integers(0, w // 4 + 1)), int(rng.integers(0, h // 4 + 1))
        image = image.crop((left, top, left + 3 * w // 4, top + 3 * h // 4)).resize(size)
    else:
        coarse = rng.integers(0, 256, (12, 16, 3), dtype=np.uint8)
        image = Image.fromarray(coarse).resize(size, Image.BICUBIC)
    path = Path(folder) / f"img_{index:04d}.jpg"
    image.save(path, quality=90)
    return str(path)


def make_jpegs(folder: Path, count: int, photos: Path | None, size=(1024, 768)) -> list[Path]:
    """``count`` distinct 1024×768 JPEGs cut from real photos (a Mapillary thumbnail's size), made
    on every core."""
    folder.mkdir(parents=True, exist_ok=True)
    dirs = [d for d in (photos, ROOT / "data" / "external" / "photos") if d is not None and Path(d).is_dir()]
    sources = [str(p) for d in dirs for p in sorted(Path(d).glob("*.jpg"))][:12]
    jobs = [(i, str(folder), sources, size) for i in range(count)]
    with ProcessPoolExecutor() as pool:
        return [Path(p) for p in pool.map(_one_jpeg, jobs, chunksize=16)]


def odd_files(folder: Path, photo: Path) -> dict[str, Path]:
    """Files the device path must hand to the CPU path (or fail as the CPU path does)."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    base = Image.open(photo).convert("RGB").resize((640, 480))
    out = {}
    out["png"] = folder / "odd.png"
    base.save(out["png"])
    out["cmyk"] = folder / "cmyk.jpg"
    base.convert("CMYK").save(out["cmyk"], quality=90)
    out["progressive"] = folder / "progressive.jpg"
    base.save(out["progressive"], quality=90, progressive=True)
    out["exif_rotated"] = folder / "rotated.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6
    base.save(out["exif_rotated"], quality=90, exif=exif)
    out["grey"] = folder / "grey.jpg"
    base.convert("L").save(out["grey"], quality=90)
    out["truncated"] = folder / "truncated.jpg"
    whole = folder / "whole.jpg"
    base.save(whole, quality=90)
    out["truncated"].write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    return out


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def _sync(device: str) -> None:
    import torch

    if str(device).startswith("cuda"):
        torch.cuda.synchronize()


def bare_forward_ips(ext, paths: list[Path], batch: int, device: str) -> float:
    from geofidelity_plugin.core.vision.images import load_rgb

    draft = ext.draft_shortest_edge
    batches = [ext._pixels([load_rgb(p, draft_shortest_edge=draft) for p in paths[i:i + batch]])
               for i in range(0, len(paths), batch)]
    ext._forward(batches[0])  # warm-up
    _sync(device)
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        for pixels in batches:
            ext._forward(pixels)
        _sync(device)
        best = min(best, time.perf_counter() - start)
    return len(paths) / best


def end_to_end(folder: Path, paths: list[Path], tmp: Path, tag: str, device: str, batch: int,
               decode_threads: int | None = None, **options) -> dict:
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache
    from geofidelity_plugin.core.vision.features import FeatureExtractor

    ext = FeatureExtractor(folder, device=device, batch_size=batch, **options)
    if decode_threads:
        ext.decode_threads = decode_threads
    ext.cache = FeatureCache(tmp / f"{tag}-warm.sqlite")
    ext.embed_paths(paths[: 2 * batch])  # warm-up: kernels, decode workers or thread
    ext.cache = FeatureCache(tmp / f"{tag}.sqlite")
    _sync(device)
    start = time.perf_counter()
    result = ext.embed_paths(paths)
    _sync(device)
    seconds = time.perf_counter() - start
    row = {"ips": len(paths) / seconds, "seconds": seconds, "computed": result.computed,
           "failed": len(result.failed), "decode": ext.model_info()["decode"], "precision": ext.precision,
           "embeddings": result.embeddings, "extractor": ext}
    return row


def check_model(model: str, folder: Path, weights: str, paths: list[Path], odd: dict[str, Path], tmp: Path,
                device: str, batch: int, precisions: tuple = PRECISION_ROWS) -> list[dict]:
    """Every row of one feature model (fp32 first: the others' cosines are to it)."""
    from gpu_check import parameter_count

    rows, fp32 = [], {}
    for precision in ("fp32",) + tuple(p for p in precisions if p != "fp32"):
        for decode in (("device", "cpu") if precision == "fp32" else ("device",)):
            got = end_to_end(folder, paths, tmp, f"{model}-{precision}-{decode}", device, batch,
                             precision=precision, decode=decode)
            ext = got.pop("extractor")
            bare = bare_forward_ips(ext, paths, batch, device)
            row = {"model": model, "weights": weights, "parameters": parameter_count(ext.model),
                   "precision": precision, "decode": decode, "batch_size": batch, "images": len(paths),
                   "end_to_end_ips": got["ips"], "forward_ips": bare, "ratio": got["ips"] / bare,
                   "computed": got["computed"], "failed": got["failed"], "decode_run": got["decode"]}
            embeddings = got.pop("embeddings")
            if precision == "fp32":
                fp32[decode] = embeddings
                if decode == "cpu":
                    c = cosines(fp32["device"], embeddings)
                    rows[-1].update(cosine_to_cpu_min=float(c.min()), cosine_to_cpu_mean=float(c.mean()))
            else:
                c = cosines(embeddings, fp32["device"])
                row.update(cosine_to_fp32_min=float(c.min()), cosine_to_fp32_mean=float(c.mean()))
            rows.append(row)
            ext.close()
            del ext
    rows.append(odd_row(model, folder, odd, tmp, device))
    return rows


def odd_row(model: str, folder: Path, odd: dict[str, Path], tmp: Path, device: str) -> dict:
    """The fallbacks: the device path against the CPU path on files nvJPEG must not take."""
    from geofidelity_plugin.core.vision.features import FeatureExtractor

    files = list(odd.values())
    dev = FeatureExtractor(folder, device=device, batch_size=8, decode="device", prefetch=False)
    cpu = FeatureExtractor(folder, device=device, batch_size=8, decode="cpu", prefetch=False)
    a, b = dev.embed_paths(files), cpu.embed_paths(files)
    ok = a.ok & b.ok
    c = cosines(a.embeddings[ok], b.embeddings[ok]) if ok.any() else np.array([np.nan])
    return {"model": model, "kind": "fallbacks", "files": {k: str(v.name) for k, v in odd.items()},
            "decode_run": dev.model_info()["decode"]["last_run"],
            "failed_device": {Path(k).name: v for k, v in a.failed.items()}, "failed_cpu": {Path(k).name: v for k, v in b.failed.items()},
            "cosine_min": float(np.nanmin(c)), "same_failures": sorted(map(str, a.failed)) == sorted(map(str, b.failed))}


def decode_only_ips(paths: list[Path], device: str, batch: int) -> float:
    """nvJPEG alone: the files' bytes (read beforehand) decoded in batches, nothing else."""
    import torch

    from geofidelity_plugin.core.vision.decode_device import nvjpeg_decode

    datas = [torch.frombuffer(bytearray(p.read_bytes()), dtype=torch.uint8) for p in paths]
    nvjpeg_decode(datas[:batch], device)
    _sync(device)
    start = time.perf_counter()
    for i in range(0, len(datas), batch):
        nvjpeg_decode(datas[i:i + batch], device)
    _sync(device)
    return len(datas) / (time.perf_counter() - start)


def decoder_rows(folder: Path, paths: list[Path], tmp: Path, device: str, batch: int) -> list[dict]:
    """Where the GPU path's time goes: nvJPEG alone at several batch sizes, and the end-to-end
    rate with one to three producer threads (their time split is in ``decode_run``)."""
    rows = [{"kind": "decode_only", "batch": b, "ips": decode_only_ips(paths, device, b)} for b in (64, 128, 256)]
    for threads in (1, 2, 3):
        got = end_to_end(folder, paths, tmp, f"threads{threads}", device, batch, decode_threads=threads,
                         decode="device")
        got.pop("extractor").close()
        got.pop("embeddings")
        rows.append({"kind": "producer_threads", "threads": threads, "ips": got["ips"],
                     "decode_run": got["decode"]["last_run"]})
    return rows


def check_features(args, tmp: Path, device: str = "cuda") -> list[dict]:
    """All feature rows; a model that fails gives an error row and the others still run."""
    from gpu_check import FEATURE_MODELS, OFFLINE_S14, _error, _feature_folder, _free

    paths = make_jpegs(tmp / "jpeg", args.images, getattr(args, "photos", None))
    photo = next(iter(sorted((Path(getattr(args, "photos", None) or ROOT / "data" / "external" / "photos")).glob("*.jpg"))),
                 None) or paths[0]
    odd = odd_files(tmp / "odd", photo)
    rows = []
    for model in getattr(args, "models", None) or FEATURE_MODELS:
        try:
            folder, weights = _feature_folder(model, tmp, getattr(args, "dinov2_s", OFFLINE_S14))
            if getattr(args, "decoder_only", False):
                rows.extend(dict(r, model=model) for r in decoder_rows(folder, paths, tmp, device, args.feature_batch))
                continue
            rows.extend(check_model(model, folder, weights, paths, odd, tmp, device, args.feature_batch,
                                    tuple(getattr(args, "precisions", None) or PRECISION_ROWS)))
        except Exception as exc:  # one failed model must not hide the other
            rows.append({"model": model, "status": "error", "error": _error(exc)})
        finally:
            _free()
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| model | weights | precision | decode | batch | images | end-to-end img/s | forward img/s | ratio | "
             "cosine (min / mean) | fallbacks |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.get("kind") in ("decode_only", "producer_threads"):
            continue  # in the JSON
        if r.get("status") == "error":
            lines.append(f"| {r['model']} | error: {r['error']} |||||||||")
            continue
        if r.get("kind") == "fallbacks":
            run = r.get("decode_run") or {}
            lines.append(f"| {r['model']} | — | fp32 | device (odd files) | 8 | {len(r['files'])} | — | — | — | "
                         f"{r['cosine_min']:.5f} to the CPU path | {run.get('cpu_fallback_reasons')}; failed: "
                         f"{r['failed_device']}; same failures as CPU: {r['same_failures']} |")
            continue
        if "cosine_to_fp32_min" in r:
            cos = f"{r['cosine_to_fp32_min']:.5f} / {r['cosine_to_fp32_mean']:.6f} to fp32"
        elif "cosine_to_cpu_min" in r:
            cos = f"{r['cosine_to_cpu_min']:.5f} / {r['cosine_to_cpu_mean']:.6f} to the CPU path"
        else:
            cos = "—"
        run = (r.get("decode_run") or {}).get("last_run") or {}
        fallbacks = run.get("cpu_fallback", "—") if r["decode"] == "device" else f"{run.get('workers')} workers"
        lines.append(f"| {r['model']} | {r['weights']} | {r['precision']} | {r['decode']} | {r['batch_size']} | "
                     f"{r['images']} | {r['end_to_end_ips']:.0f} | {r['forward_ips']:.0f} | {r['ratio']:.2f} | {cos} | "
                     f"{fallbacks} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=1536)
    parser.add_argument("--feature-batch", type=int, default=64)
    parser.add_argument("--dinov2-s", type=Path, default=None)
    parser.add_argument("--photos", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "bench_output")
    parser.add_argument("--models", nargs="+", default=None, help="feature models (default: S/14 and B/14)")
    parser.add_argument("--decoder-only", action="store_true",
                        help="only where the GPU path's time goes: nvJPEG alone, and 1-3 producer threads")
    parser.add_argument("--precisions", nargs="+", choices=PRECISION_ROWS, default=list(PRECISION_ROWS),
                        help="precision rows besides fp32 (always measured)")
    args = parser.parse_args(argv)
    import torch

    if not torch.cuda.is_available():
        print("gpu-features: no CUDA device here; nothing measured")
        return 0
    if args.dinov2_s is None:
        from gpu_check import OFFLINE_S14

        args.dinov2_s = OFFLINE_S14
    with tempfile.TemporaryDirectory() as tmp:
        rows = check_features(args, Path(tmp))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gpu_features.json").write_text(json.dumps(rows, indent=1, default=str))
    (args.out / "gpu_features.md").write_text(markdown(rows) + "\n")
    print(markdown(rows))
    for r in rows:
        if r.get("kind") in ("decode_only", "producer_threads"):
            print(json.dumps(r, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
