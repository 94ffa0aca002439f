"""The cap per segment along the street (method §2 "Cap") and lazy scoring of tiers 4–7.

- On a dense street fetched from the local Graph API (a few sequences along the whole street, 53
  crowded into 70 m), the ``along`` cap keeps the longest stretch without an image within one
  bin of what the images that passed every tier covered; the paper's ``sequences`` rule leaves
  hundreds of metres empty. Stretches are checked against positions placed with pyproj.
- "after < before + one bin" is checked as a property over random segments, sequences, audit
  flags, duplicates and failing images.
- Lazy scoring never changes which images are kept (against ``score_all``), and scores fewer
  images with the expensive tiers.
"""
from __future__ import annotations

import datetime as dt
import io
import random
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pyproj import Geod
from shapely.geometry import LineString

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.reference_panels.curation.cap import AlongPlan, longest_stretch, spread_ranks
from geofidelity_plugin.core.reference_panels.curation.curate import CurationOptions, curate
from geofidelity_plugin.core.reference_panels.mapillary.client import MapillaryClient
from geofidelity_plugin.core.reference_panels.curation.urban import UrbanScore
from geofidelity_plugin.core.reference_panels.workflow import coverage_store, curate_store, fetch_store
from geofidelity_plugin.core.store.store import BenchmarkStore
from mapillary_server import TOKEN, FakeMapillary, jpeg_bytes
from mapillary_worlds import dense_street

GEOD = Geod(ellps="WGS84")
NO_MODELS = dict(siglip_model=None, vistas_model=None)
BIN = 25.0


def fetched_store(world, root: Path, **fetch) -> Path:
    line = LineString(world.line)
    store_path = root / "store.sqlite"
    with FakeMapillary(world.images) as fake, BenchmarkStore(store_path) as store:
        store.put_segments([{"segment_id": "hel-1", "city": "Helsinki", "centroid_lon": line.centroid.x,
                             "centroid_lat": line.centroid.y, "geometry": line}])
        client = MapillaryClient(TOKEN, base_url=fake.base_url, cache_dir=store.root / "mapillary",
                                 requests_per_second=None)
        fetch_store(store, client, **fetch)
    return store_path


@pytest.fixture(scope="module")
def dense(tmp_path_factory):
    world = dense_street()
    return world, fetched_store(world, tmp_path_factory.mktemp("dense"))


def curated(store_path, tmp_path, name, **options):
    copy = tmp_path / name / "store.sqlite"
    copy.parent.mkdir()
    copy.write_bytes(store_path.read_bytes())
    (copy.parent / "mapillary").symlink_to(store_path.parent / "mapillary")
    with BenchmarkStore(copy, create=False) as store:
        result = curate_store(store, CurationOptions(**NO_MODELS, **options))
        coverage = coverage_store(store)
    return result, coverage[0]


def stretch(alongs, length):  # the fixture's own positions (pyproj), not the plugin's frame
    edges = [0.0, *sorted(alongs), length]
    return max(b - a for a, b in zip(edges, edges[1:]))


def test_along_cap_keeps_the_dense_street_covered_and_the_papers_rule_does_not(dense, tmp_path):
    world, store_path = dense
    along, _ = curated(store_path, tmp_path, "along", score_all=True)
    paper, paper_cov = curated(store_path, tmp_path, "paper", cap_spread="sequences")
    a, p = along.segments["hel-1"], paper.segments["hel-1"]
    assert a["passed"] == p["passed"] > 300 and a["kept"] == p["kept"] == 65
    assert a["first_of_every_bin_kept"] and a["bins"] == 32 and a["covered_bins"] >= 31
    assert a["stretch_after_cap_m"] < a["stretch_before_cap_m"] + BIN  # within one bin
    assert p["stretch_after_cap_m"] > p["stretch_before_cap_m"] + 150  # the cluster took the cap
    passed = {r.image_id for r in along.rows if r.status in ("kept", "capped")}
    for result, s in ((along, a), (paper, p)):  # the numbers, from the fixture's own positions
        kept = result.kept()
        assert s["stretch_before_cap_m"] == pytest.approx(stretch([world.along[i] for i in passed], 779), abs=0.6)
        assert s["stretch_after_cap_m"] == pytest.approx(stretch([world.along[i] for i in kept], 779), abs=0.6)
    # the coverage audit shows the same stretches
    assert paper_cov.stretch_after_cap_m == pytest.approx(p["stretch_after_cap_m"], abs=0.1)
    assert paper_cov.attributes()["stretch_before_cap_m"] == pytest.approx(p["stretch_before_cap_m"], abs=0.1)
    assert along.options["cap_spread"] == "along" and along.options["cap_bin_m"] == BIN


def test_lazy_scoring_keeps_the_same_images_and_scores_fewer(dense, tmp_path):
    _, store_path = dense
    full, _ = curated(store_path, tmp_path, "full", score_all=True)
    lazy, coverage = curated(store_path, tmp_path, "lazy")
    assert sorted(lazy.kept()) == sorted(full.kept())
    rows = {r.image_id: r for r in lazy.rows}
    unscored = [r for r in lazy.rows if not r.scored]
    assert len(unscored) > 100 and lazy.not_scored() == len(unscored) == coverage.images_not_scored
    for r in unscored:
        assert r.status == "capped" and r.reason.startswith("not scored")
        assert all(r.tiers[t] == "not_scored" for t in (4, 5, 6, 7)) and "laplacian_var" not in r.measures
    assert all(rows[i].scored for i in lazy.kept())
    s, f = lazy.segments["hel-1"], full.segments["hel-1"]
    assert s["stretch_after_cap_m"] == f["stretch_after_cap_m"]
    assert s["stretch_before_cap_m"] >= f["stretch_before_cap_m"]  # an upper bound when lazy
    assert coverage.stretch_after_cap_m == pytest.approx(s["stretch_after_cap_m"], abs=0.1)


# --- the property, over random segments ------------------------------------------------------

@pytest.fixture(scope="module")
def image_files(tmp_path_factory):
    """Distinct photos-to-be, near-duplicate re-encodings of two of them, and a flat grey image
    that fails the quality tier."""
    folder = tmp_path_factory.mktemp("images")
    files = []
    for k in range(40):
        path = folder / f"img{k}.jpg"
        path.write_bytes(jpeg_bytes(f"street-{k}", (96, 72)))
        files.append(path)
    for k in range(2):
        copy = folder / f"copy{k}.jpg"
        Image.open(io.BytesIO(files[k].read_bytes())).save(copy, "JPEG", quality=60)
        files.append(copy)
    grey = folder / "grey.png"
    Image.fromarray(np.full((72, 96, 3), 128, np.uint8)).save(grey)
    return files + [grey]


def random_case(seed: int, files):
    rng = random.Random(seed)
    start = (rng.uniform(-120, 120), rng.uniform(10, 60))  # June: a high noon sun
    legs = rng.choice((1, 1, 2))
    points, azimuth = [start], rng.uniform(0, 360)
    for _ in range(legs):
        lon, lat, _ = GEOD.fwd(*points[-1], azimuth, rng.uniform(150, 500))
        points.append((lon, lat))
        azimuth += rng.uniform(-50, 50)
    line = LineString(points)
    noon = dt.datetime(2022, 6, 21, 12, tzinfo=dt.timezone.utc) - dt.timedelta(hours=start[0] / 15)
    records, paths, audit = [], {}, {}
    for n in range(rng.randrange(20, 130)):
        sequence = f"s{rng.randrange(0, rng.choice((3, 8, 20)))}"
        part = rng.randrange(legs)
        (lon0, lat0), (lon1, lat1) = points[part], points[part + 1]
        az, _, length = GEOD.inv(lon0, lat0, lon1, lat1)
        lon, lat, _ = GEOD.fwd(lon0, lat0, az, rng.uniform(0, length) if rng.random() > 0.3
                               else rng.uniform(0.4, 0.5) * length)  # a crowded stretch
        lon, lat, _ = GEOD.fwd(lon, lat, az + 90, rng.uniform(-25, 25))
        image_id = f"i{n:03d}"
        when = noon + dt.timedelta(days=365 * rng.randrange(2), minutes=rng.uniform(-60, 60))
        records.append(dict(image_id=image_id, segment_id="seg", captured_at_ms=int(when.timestamp() * 1000),
                            lon=lon, lat=lat, is_pano=rng.random() < 0.05, camera_type="perspective",
                            sequence=sequence))
        if rng.random() > 0.03:  # a few images were never downloaded
            paths[image_id] = rng.choice(files)
        if rng.random() < 0.04:
            audit[image_id] = rng.choice(("accept", "reject"))
    options = dict(cap_per_segment=rng.choice((3, 8, 15, 30)), cap_bin_m=rng.choice((10.0, 25.0, 60.0, 120.0)),
                   thinning_m=rng.choice((0.0, 5.0, 15.0)), phash_radius=rng.choice((-1, 6, 12)),
                   seed=rng.randrange(100))
    return records, {"seg": line}, paths, audit, options


@pytest.mark.parametrize("seed", range(30))
def test_lazy_equals_full_and_after_is_within_one_bin_of_before(seed, image_files):
    records, lines, paths, audit, options = random_case(seed, image_files)
    full = curate(records, lines, paths, CurationOptions(**NO_MODELS, score_all=True, **options), audit=audit)
    lazy = curate(records, lines, paths, CurationOptions(**NO_MODELS, **options), audit=audit)
    assert sorted(lazy.kept()) == sorted(full.kept()), options
    s = full.segments["seg"]
    if s["first_of_every_bin_kept"]:
        assert s["stretch_after_cap_m"] < s["stretch_before_cap_m"] + options["cap_bin_m"] + 1e-6
    assert lazy.segments["seg"]["stretch_before_cap_m"] >= s["stretch_before_cap_m"] - 1e-6


def test_lazy_scoring_never_calls_the_model_for_images_the_cap_cannot_keep(dense, tmp_path):
    """Tier 4 with a stand-in scorer that rejects about one image in five: the same images are
    kept, and the model sees far fewer."""
    class Scorer:
        threshold = 0.35

        def __init__(self):
            self.seen = 0

        def score_paths(self, paths, progress=None):
            self.seen += len(paths)
            return [self.score(path) for path in paths], {}

        @staticmethod
        def score(path):
            p = 0.1 if zlib.crc32(Path(path).name.encode()) % 5 == 0 else 0.9
            return UrbanScore(p_street=p, top1="street", probabilities=(p, 1 - p))

        def passes(self, score):
            return score.p_street >= self.threshold

        def model_info(self):
            return {"model": "stand-in"}

    _, store_path = dense
    results = {}
    for name, score_all in (("all", True), ("lazy", False)):
        copy = tmp_path / name / "store.sqlite"
        copy.parent.mkdir()
        copy.write_bytes(store_path.read_bytes())
        (copy.parent / "mapillary").symlink_to(store_path.parent / "mapillary")
        scorer = Scorer()
        with BenchmarkStore(copy, create=False) as store:
            result = curate_store(store, CurationOptions(vistas_model=None, score_all=score_all),
                                  urban_scorer=scorer)
        results[name] = (result, scorer.seen)
    (full, seen_all), (lazy, seen_lazy) = results["all"], results["lazy"]
    assert sorted(lazy.kept()) == sorted(full.kept()) and len(full.kept()) == 65
    assert any(r.tier == 4 for r in full.rows)
    assert seen_lazy < 0.75 * seen_all


# --- pieces ----------------------------------------------------------------------------------

def test_a_bins_first_image_is_the_one_nearest_the_start_then_sequences_take_turns():
    rng = np.random.default_rng(0)
    members = [(k, f"id{k}", f"s{k % 3}", 1_600_000_000_000 + k, along)
               for k, along in enumerate([3.0, 1.0, 2.0, 4.0, 30.0, 27.0])]
    plan = AlongPlan(members, 50.0, 25.0, rng)
    assert plan.n_bins == 2 and [plan.bin[k] for k in range(6)] == [0, 0, 0, 0, 1, 1]
    order = plan.order(range(6))
    assert order[:2] == [1, 5] or order[:2] == [5, 1]  # round 1: the first along each bin
    assert set(order[:2]) == {1, 5} and len(order) == 6
    assert plan.order([0, 2, 3, 4])[:2] in ([2, 4], [4, 2])  # 1 and 5 failed: the next ones
    assert spread_ranks(8) == [0, 4, 2, 6, 1, 5, 3, 7]
    assert sorted(spread_ranks(5)) == list(range(5))


def test_longest_stretch_counts_the_ends_and_clips():
    assert longest_stretch([], 100.0) == 100.0
    assert longest_stretch([10.0, 90.0], 100.0) == 80.0
    assert longest_stretch([-5.0, 130.0, 40.0], 100.0) == 60.0


def test_bad_cap_options_are_refused():
    with pytest.raises(InputError, match="cap spread"):
        CurationOptions(cap_spread="random").validate()
    with pytest.raises(InputError, match="cap bin length"):
        CurationOptions(cap_bin_m=0).validate()
