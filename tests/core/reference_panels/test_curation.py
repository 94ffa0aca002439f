"""method §2 curation tiers: solar elevation, quality measures, duplicates, tier order,
audit flags, the cap per segment, and the two model tiers with tiny models loaded through the
real loading code."""
from __future__ import annotations

import datetime as dt
import io
import itertools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pyproj import Geod
from shapely.geometry import LineString

from geofidelity_plugin.core.errors import Cancelled
from geofidelity_plugin.core.vision.images import load_rgb
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.reference_panels.curation import dedup, quality
from geofidelity_plugin.core.reference_panels.curation.curate import (CurationOptions, curate, DEFAULT_VISTAS_RATIOS)
from geofidelity_plugin.core.reference_panels.curation.solar import (solar_elevation, sun_declination_and_equation_of_time)
from geofidelity_plugin.core.reference_panels.curation.urban import (DEFAULT_SIGLIP_MODEL, TierUnavailable, UrbanSceneScorer)

from conftest import PHOTOS, external

GEOD = Geod(ellps="WGS84")
OPENCV = Path("/usr/share/doc/opencv-doc/examples/data")
LEUVEN = (4.7000, 50.8790)  # west end of the test segment
SEGMENT = LineString([LEUVEN, (4.7030, 50.8790)])  # ~211 m due east
NOON = int(dt.datetime(2024, 6, 21, 12, 0, tzinfo=dt.timezone.utc).timestamp() * 1000)


def utc_ms(*args) -> int:
    return int(dt.datetime(*args, tzinfo=dt.timezone.utc).timestamp() * 1000)


def offset(lon, lat, azimuth, metres):
    x, y, _ = GEOD.fwd(lon, lat, azimuth, metres)
    return x, y


def record(image_id, east_m=50.0, north_m=10.0, when=NOON, sequence="s1", **extra):
    lon, lat = offset(*offset(*LEUVEN, 90, east_m), 0, north_m)
    base = dict(image_id=image_id, segment_id="seg", captured_at_ms=when, compass_angle=90.0,
                lon=lon, lat=lat, is_pano=False, camera_type="perspective", sequence=sequence,
                width=1024, height=768, thumb_url=None)
    base.update(extra)
    return base


NO_MODELS = dict(siglip_model=None, vistas_model=None)


def run(records, paths, audit=None, **options):
    opts = CurationOptions(**{**NO_MODELS, **options})
    result = curate(records, {"seg": SEGMENT}, paths, opts, audit=audit)
    return result, {r.image_id: r for r in result.rows}


@pytest.fixture(scope="module")
def leuven():
    return external(PHOTOS / "leuvenA.jpg"), external(PHOTOS / "leuvenB.jpg")


@pytest.fixture(scope="module")
def bad_images(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bad")
    rng = np.random.default_rng(1)
    images = {"grey": np.full((300, 400, 3), 128, np.uint8),
              "black": np.zeros((300, 400, 3), np.uint8),
              "wide": rng.integers(0, 256, (200, 1200, 3), dtype=np.uint8)}
    paths = {}
    for name, arr in images.items():
        paths[name] = folder / f"{name}.png"
        Image.fromarray(arr).save(paths[name])
    paths["corrupt"] = folder / "corrupt.jpg"
    paths["corrupt"].write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    return paths


# --- solar elevation (method §2 filter 3) ---------------------------------------------------

def test_solar_elevation_matches_astral_over_a_grid():
    from astral import Observer
    from astral.sun import elevation

    worst = 0.0
    for lat, lon, day, hour in itertools.product(
            [-54.8, -33.87, 0.0, 35.68, 50.88, 60.17, 69.65], [-157.9, -74.0, 4.7, 24.94, 139.69],
            [dt.date(2001, 2, 14), dt.date(2019, 3, 20), dt.date(2024, 6, 21), dt.date(2030, 11, 5)],
            range(0, 24, 2)):
        when = dt.datetime(day.year, day.month, day.day, hour, 23, tzinfo=dt.timezone.utc)
        ours = solar_elevation(lon, lat, when.timestamp() * 1000)
        worst = max(worst, abs(ours - elevation(Observer(lat, lon), when)))
    assert worst <= 0.5
    # astral implements the same NOAA equations, so the two agree far more closely than that
    assert worst <= 0.01


@pytest.mark.parametrize("place, day, declination", [
    ((4.7005, 50.8798), (2024, 3, 20), 0.0),        # March equinox 2024-03-20 03:06 UTC
    ((24.9384, 60.1699), (2024, 6, 20), 23.44),     # June solstice 2024-06-20 20:51 UTC
    ((151.2093, -33.8688), (2024, 6, 20), 23.44),
    ((-58.38, -34.60), (2024, 12, 21), -23.44),     # December solstice 2024-12-21 09:20 UTC
])
def test_solar_noon_elevation_is_90_minus_latitude_minus_declination(place, day, declination):
    lon, lat = place
    start = utc_ms(*day)
    highest = max(solar_elevation(lon, lat, start + minute * 60_000) for minute in range(1440))
    assert highest == pytest.approx(90.0 - abs(lat - declination), abs=0.5)


def test_declination_at_equinox_and_solstice_and_night_is_below_horizon():
    assert sun_declination_and_equation_of_time(utc_ms(2024, 3, 20, 3, 6))[0] == pytest.approx(0, abs=0.05)
    assert sun_declination_and_equation_of_time(utc_ms(2024, 6, 20, 20, 51))[0] == pytest.approx(23.44, abs=0.05)
    assert solar_elevation(4.70, 50.88, utc_ms(2024, 6, 21, 23, 30)) < -10


# --- quality measures (method §2 filter 6) ---------------------------------------------------

def test_laplacian_variance_of_a_checkerboard_by_hand():
    board = (np.indices((8, 8)).sum(axis=0) % 2) * 255.0
    # every pixel's four neighbours have the other value (mirror border keeps the pattern):
    # L = 4(255 − v) − 4v = ±1020, half of each sign, so the variance is 1020²
    assert quality.laplacian_variance(board) == pytest.approx(1020.0 ** 2)
    assert quality.laplacian_variance(np.full((8, 8), 77.0)) == 0.0
    ramp = np.tile(np.arange(8.0) * 10, (8, 1))  # linear in x: zero Laplacian inside
    assert quality.laplacian_variance(ramp) < quality.laplacian_variance(board)


def test_colourfulness_and_luma_by_hand():
    red_blue = np.zeros((4, 4, 3))
    red_blue[:, :2, 0] = 255
    red_blue[:, 2:, 2] = 255
    # rg: 255 | 0 → μ 127.5, σ 127.5 ; yb: 127.5 | −255 → μ −63.75, σ 191.25
    expected = math.sqrt(127.5 ** 2 + 191.25 ** 2) + 0.3 * math.sqrt(127.5 ** 2 + 63.75 ** 2)
    assert quality.colourfulness(red_blue) == pytest.approx(expected)
    assert quality.colourfulness(np.full((4, 4, 3), 90.0)) == 0.0
    assert quality.luma(np.full((2, 2, 3), [100, 150, 200])).mean() == pytest.approx(140.75)


def test_measure_uses_a_1024_working_copy_but_full_aspect():
    image = Image.fromarray(np.full((1000, 3000, 3), 120, np.uint8))
    assert quality.working_copy(image).size == (1024, 341)
    measures = quality.measure(image)
    assert measures.aspect == pytest.approx(3.0)
    assert measures.luma == pytest.approx(120.0)


def test_leuven_street_photos_pass_quality_with_defaults(leuven):
    for path in leuven:
        measures = quality.measure(load_rgb(path))
        assert quality.failures(measures) == [], (path, measures)


# --- duplicates (method §2 filter 7) ---------------------------------------------------------

def test_re_encoded_copy_clusters_and_different_photos_do_not(leuven):
    original = load_rgb(leuven[0])
    buffer = io.BytesIO()
    original.resize((600, 450), Image.BICUBIC).save(buffer, "JPEG", quality=60)
    copy = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    others = [load_rgb(leuven[1])] + [load_rgb(external(OPENCV / n))
                                      for n in ("fruits.jpg", "baboon.jpg", "HappyFish.jpg")]
    hashes = [dedup.phash_hex(im) for im in [original, copy, *others]]
    assert dedup.hamming(hashes[0], hashes[1]) <= 6
    labels = dedup.hash_clusters(hashes, radius=6)
    assert labels[0] == labels[1]
    assert len(set(labels)) == len(hashes) - 1
    decisions = dedup.drop_hash_duplicates(["orig", "copy", "b", "c", "d", "e"], hashes,
                                           rank=lambda i: (-i,))  # prefer the later one
    assert [d.kept for d in decisions] == [False, True, True, True, True, True]
    assert decisions[0].cluster == "copy"


def test_hash_clusters_are_transitive():
    a = "0000000000000000"
    b = format(0b1111, "016x")           # 4 bits from a
    c = format(0b11111111, "016x")       # 4 bits from b, 8 from a
    assert dedup.hash_clusters([a, b, c, "ffffffffffffffff"], radius=4) == [0, 0, 0, 3]


def test_thinning_keeps_images_at_least_5_m_apart_along_each_sequence():
    steps = [0.0, 2.0, 4.0, 6.0, 9.0, 10.5, 16.0]
    items = [(f"s1-{k}", "s1", 1000 + k, *offset(*LEUVEN, 90, m)) for k, m in enumerate(steps)]
    items += [(f"s2-{k}", "s2", 1000 + k, *offset(*LEUVEN, 90, m)) for k, m in enumerate(steps[:3])]
    items += [("loose", None, 5, *LEUVEN)]
    decisions = dedup.thin_sequences(list(reversed(items)), min_spacing_m=5.0)
    kept = sorted(k for k, d in decisions.items() if d.kept)
    assert kept == ["loose", "s1-0", "s1-3", "s1-6", "s2-0"]
    assert decisions["s1-4"].nearest_kept == "s1-3"
    assert decisions["s1-4"].distance_m == pytest.approx(3.0, abs=0.01)


# --- curation tiers in order -------------------------------------------------------------------

def test_tiers_1_to_3_reject_with_reasons_and_measures(leuven):
    far_lon, far_lat = offset(*offset(*LEUVEN, 90, 100), 0, 100.0)
    records = [record("ok"), record("far", lon=far_lon, lat=far_lat),
               record("pano", is_pano=True), record("fish", camera_type="fisheye"),
               record("sphere", camera_type="spherical"), record("equi", camera_type="equirectangular"),
               record("unknown", camera_type=None), record("night", when=utc_ms(2024, 6, 21, 23, 0)),
               record("dawn", when=utc_ms(2024, 6, 21, 4, 30)), record("nowhere", lon=None),
               record("badlat", lat=95.0)]
    result, rows = run(records, {r["image_id"]: leuven[0] for r in records})
    assert rows["ok"].status == "kept" and rows["ok"].tier is None
    assert rows["ok"].measures["buffer_distance_m"] == pytest.approx(10.0, abs=0.1)
    assert rows["far"].tier == 1 and "30 m buffer" in rows["far"].reason
    assert rows["far"].measures["buffer_distance_m"] == pytest.approx(100.0, abs=0.5)
    assert rows["nowhere"].tier == 1 and "no valid position" in rows["nowhere"].reason
    assert rows["badlat"].tier == 1
    for name in ("pano", "fish", "sphere", "equi", "unknown"):
        assert rows[name].tier == 2, name
    assert "panoramic" in rows["pano"].reason and "'fisheye'" in rows["fish"].reason
    assert rows["night"].tier == 3 and rows["night"].measures["solar_elevation_deg"] < 0
    assert rows["dawn"].tier == 3 and 0 < rows["dawn"].measures["solar_elevation_deg"] < 20
    assert "solar elevation" in rows["dawn"].reason
    assert rows["ok"].measures["solar_elevation_deg"] > 55


def test_bad_images_fail_quality_with_the_right_reason(bad_images, leuven):
    names = ["grey", "black", "wide", "corrupt"]
    records = [record(n, east_m=20 + 30 * k, sequence=n) for k, n in enumerate(names)]
    records.append(record("nofile", sequence="x"))
    result, rows = run(records, {n: bad_images[n] for n in names})
    assert all(rows[n].status == "rejected" and rows[n].tier == 6 for n in names)
    assert "Laplacian variance 0.0 < 80" in rows["grey"].reason
    assert "colourfulness 0.0 < 14" in rows["grey"].reason
    assert "too dark: mean luma 0.0 < 55" in rows["black"].reason
    assert rows["wide"].reason == "aspect ratio 6.000 outside 0.5–2.2"
    assert rows["corrupt"].reason.startswith("image unreadable")
    assert rows["nofile"].tier == 6 and "no image file" in rows["nofile"].reason


def test_first_failing_tier_is_reported(bad_images):
    records = [record("pano-grey", is_pano=True), record("grey")]
    _, rows = run(records, {"pano-grey": bad_images["grey"], "grey": bad_images["grey"]})
    assert rows["pano-grey"].tier == 2
    assert "laplacian_var" not in rows["pano-grey"].measures  # tier 6 never reached
    assert rows["grey"].tier == 6


def test_skipped_model_tiers_are_recorded_never_silently_passed(leuven):
    result, rows = run([record("a")], {"a": leuven[0]})
    assert rows["a"].tiers[4] == "skipped" and rows["a"].tiers[5] == "skipped"
    assert result.tier_state[4] == "skipped" and result.tier_state[6] == "ran"
    assert any(n.startswith("tier 4 (siglip_urban) skipped") for n in result.notes)
    assert any(n.startswith("tier 5 (vistas_ratios) skipped") for n in result.notes)
    flat = rows["a"].as_dict()
    assert flat["tier4_siglip_urban"] == "skipped" and flat["tier6_quality"] == "pass"


def test_hub_models_offline_are_skipped_with_a_note_naming_them(leuven, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    options = CurationOptions()
    result = curate([record("a")], {"seg": SEGMENT}, {"a": leuven[0]}, options)
    assert result.rows[0].tiers[4] == "skipped" and result.rows[0].tiers[5] == "skipped"
    assert any(DEFAULT_SIGLIP_MODEL in n and "models download siglip-so400m`" in n for n in result.notes)
    assert any(options.vistas_model in n for n in result.notes)
    assert result.rows[0].status == "kept"  # skipped tiers do not reject


def test_duplicates_in_a_segment_keep_the_sharpest(leuven, tmp_path):
    copy = tmp_path / "copy.jpg"
    load_rgb(leuven[0]).resize((600, 450), Image.BICUBIC).save(copy, "JPEG", quality=60)
    records = [record("orig", east_m=20, sequence="a"), record("copy", east_m=150, sequence="b"),
               record("other", east_m=90, sequence="c")]
    _, rows = run(records, {"orig": leuven[0], "copy": copy, "other": leuven[1]})
    sharper = max(("orig", "copy"), key=lambda k: rows[k].measures["laplacian_var"])
    duller = ({"orig", "copy"} - {sharper}).pop()
    assert rows[sharper].status == "kept" and rows["other"].status == "kept"
    assert rows[duller].tier == 7 and f"near-duplicate of {sharper}" in rows[duller].reason
    assert rows[duller].measures["dup_cluster"] == sharper
    # an audit-accepted image is its cluster's representative, even when it is the duller one
    _, rows = run(records, {"orig": leuven[0], "copy": copy, "other": leuven[1]},
                  audit={duller: "accept"})
    assert rows[duller].status == "kept" and rows[duller].tiers[7] == "pass"
    assert rows[sharper].tier == 7 and f"near-duplicate of {duller}" in rows[sharper].reason


def test_audit_rejected_duplicate_does_not_suppress_its_copy(leuven, tmp_path):
    copy = tmp_path / "copy.jpg"
    load_rgb(leuven[0]).resize((600, 450), Image.BICUBIC).save(copy, "JPEG", quality=60)
    records = [record("orig", east_m=20, sequence="a"), record("copy", east_m=150, sequence="b")]
    paths = {"orig": leuven[0], "copy": copy}
    _, rows = run(records, paths)
    assert {rows["orig"].status, rows["copy"].status} == {"kept", "rejected"}
    for vetoed, other in (("orig", "copy"), ("copy", "orig")):
        _, rows = run(records, paths, audit={vetoed: "reject"})
        assert rows[vetoed].tier == 8 and rows[other].status == "kept"


def test_thinning_inside_curation(leuven):
    files = [leuven[0], leuven[1], external(PHOTOS / "building.jpg")]
    records = [record(f"i{k}", east_m=50 + 2 * k, when=NOON + k * 1000) for k in range(3)]
    _, rows = run(records, {f"i{k}": f for k, f in enumerate(files)})
    assert [rows[f"i{k}"].status for k in range(3)] == ["kept", "rejected", "rejected"]
    assert rows["i2"].tier == 7 and "in sequence s1" in rows["i2"].reason
    assert rows["i2"].measures["sequence_gap_m"] == pytest.approx(4.0, abs=0.05)


def test_audit_flags(leuven, bad_images):
    far_lon, far_lat = offset(*LEUVEN, 180, 80)
    records = [record("good", east_m=20, sequence="a"), record("vetoed", east_m=150, sequence="b"),
               record("grey", sequence="c"), record("far", lon=far_lon, lat=far_lat, sequence="d")]
    paths = {"good": leuven[0], "vetoed": leuven[1], "grey": bad_images["grey"],
             "far": leuven[0]}
    audit = {"vetoed": "reject", "grey": "accept", "far": "accept"}
    _, rows = run(records, paths, audit=audit)
    assert rows["good"].status == "kept"
    assert rows["vetoed"].status == "rejected" and rows["vetoed"].tier == 8
    assert rows["grey"].status == "kept" and rows["grey"].tiers[6] == "overridden"
    assert "kept by manual audit despite tier 6" in rows["grey"].reason
    assert rows["far"].status == "rejected" and rows["far"].tier == 1
    assert "does not override tier 1" in rows["far"].reason
    with pytest.raises(Exception, match="'accept' or 'reject'"):
        run(records, paths, audit={"good": "maybe"})


# --- cap per segment ---------------------------------------------------------------------------

def _cap_records():
    records, day1, day2 = [], utc_ms(2023, 5, 2, 11), utc_ms(2024, 7, 9, 12)
    for sequence, count in (("s1", 40), ("s2", 20), ("s3", 4)):
        for k in range(count):
            records.append(record(f"{sequence}-{k:02d}", east_m=5 + 3 * k, sequence=sequence,
                                  when=(day1 if k % 2 else day2) + k * 1000))
    return records


def test_the_papers_cap_spreads_over_sequences_and_dates(leuven):
    records = _cap_records()
    paths = {r["image_id"]: leuven[0] for r in records}
    paper = dict(cap_spread="sequences")
    result, rows = run(records, paths, cap_per_segment=30, phash_radius=-1, thinning_m=0, **paper)
    kept = [r for r in result.rows if r.status == "kept"]
    per_sequence = Counter(r.sequence for r in kept)
    assert len(kept) == 30 and per_sequence["s3"] == 4
    assert abs(per_sequence["s1"] - per_sequence["s2"]) <= 1
    s1_dates = Counter(r.captured_at_ms < utc_ms(2024, 1, 1) for r in kept if r.sequence == "s1")
    assert abs(s1_dates[True] - s1_dates[False]) <= 1
    assert Counter(r.status for r in result.rows)["capped"] == len(records) - 30
    assert all("over the cap of 30" in r.reason for r in result.rows if r.status == "capped")

    again, _ = run(list(reversed(records)), paths, cap_per_segment=30, phash_radius=-1, thinning_m=0, **paper)
    assert sorted(again.kept()) == sorted(result.kept())
    other, _ = run(records, paths, cap_per_segment=30, phash_radius=-1, thinning_m=0, seed=7, **paper)
    assert sorted(other.kept()) != sorted(result.kept())


def test_audit_accepted_images_are_chosen_first_under_the_cap(leuven):
    records = _cap_records()
    paths = {r["image_id"]: leuven[0] for r in records}
    audit = {"s1-39": "accept", "s1-38": "accept"}
    result, rows = run(records, paths, audit=audit, cap_per_segment=3, phash_radius=-1, thinning_m=0)
    assert rows["s1-39"].status == "kept" and rows["s1-38"].status == "kept"
    assert len(result.kept()) == 3


def test_curation_can_be_cancelled(leuven):
    records = _cap_records()
    with pytest.raises(Cancelled):
        curate(records, {"seg": SEGMENT}, {r["image_id"]: leuven[0] for r in records},
               CurationOptions(**NO_MODELS), progress=RecordingProgress(cancel_after=0))


# --- model tiers with tiny models --------------------------------------------------------------

def make_tiny_siglip(folder: Path, prompts) -> Path:
    """A 2-layer random SiglipModel with a word-level fast tokenizer (no sentencepiece here)."""
    import torch
    import transformers
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import PreTrainedTokenizerFast, SiglipConfig, SiglipModel, SiglipProcessor

    vocab = {"<pad>": 0, "<unk>": 1, "</s>": 2}
    for word in " ".join(prompts).lower().replace("-", " ").replace(",", " ").split():
        vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="<unk>",
                                        pad_token="<pad>", eos_token="</s>", model_max_length=16)
    config = SiglipConfig(
        text_config=dict(vocab_size=len(vocab), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=2, max_position_embeddings=16,
                         pad_token_id=0, bos_token_id=None, eos_token_id=2),
        vision_config=dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                           num_attention_heads=2, image_size=32, patch_size=8))
    torch.manual_seed(0)
    SiglipModel(config).save_pretrained(folder)
    image_processor = getattr(transformers, "SiglipImageProcessorPil", transformers.SiglipImageProcessor)
    SiglipProcessor(image_processor=image_processor(size={"height": 32, "width": 32}),
                    tokenizer=tokenizer).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_siglip(tmp_path_factory):
    from geofidelity_plugin.core.reference_panels.curation.urban import DISTRACTOR_PROMPTS, STREET_PROMPT

    return make_tiny_siglip(tmp_path_factory.mktemp("siglip"), [STREET_PROMPT, *DISTRACTOR_PROMPTS])


def test_tier4_with_a_tiny_siglip_records_probabilities(tiny_siglip, leuven):
    import torch
    from transformers import AutoModel, AutoProcessor

    # with this seed's random weights (p ≈ 1/8 each) the street prompt is top-1 for HappyFish
    # (0.153) and building (0.148) only: at 0.15 one passes, one misses the threshold, and the
    # others miss top-1 — every branch of the rule runs
    photos = [leuven[0], leuven[1], external(OPENCV / "fruits.jpg"),
              external(OPENCV / "HappyFish.jpg"), external(PHOTOS / "building.jpg")]
    records = [record(f"p{k}", east_m=20 + 40 * k, sequence=f"q{k}") for k in range(len(photos))]
    paths = {f"p{k}": p for k, p in enumerate(photos)}
    result, rows = run(records, paths, siglip_model=str(tiny_siglip), siglip_threshold=0.15)
    scorer = UrbanSceneScorer(str(tiny_siglip), threshold=0.15)
    assert result.tier_state[4] == "ran" and result.models["siglip"]["model"] == str(tiny_siglip)

    processor, model = AutoProcessor.from_pretrained(tiny_siglip), AutoModel.from_pretrained(tiny_siglip)
    inputs = processor(text=scorer.prompts, images=[load_rgb(p) for p in photos],
                       padding="max_length", max_length=16, return_tensors="pt")
    with torch.no_grad():
        expected = torch.softmax(model(**inputs).logits_per_image, dim=-1)[:, 0].numpy()
    for k in range(len(photos)):
        row = rows[f"p{k}"]
        p = row.measures["siglip_p_street"]
        assert 0.0 <= p <= 1.0 and row.measures["siglip_top1"] in scorer.prompts
        assert p == pytest.approx(float(expected[k]), abs=1e-5)
        should_pass = row.measures["siglip_top1"] == scorer.prompts[0] and p >= 0.15
        assert row.tiers[4] == ("pass" if should_pass else "fail")
        if not should_pass:
            assert row.tier == 4 and "not a street scene" in row.reason
    assert [rows[f"p{k}"].tiers[4] for k in range(len(photos))] == ["fail"] * 3 + ["pass", "fail"]
    scores, failed = scorer.score_paths(photos)
    assert not failed and all(abs(sum(s.probabilities) - 1) < 1e-5 for s in scores)


def test_audit_accept_overrides_tier4_and_later_tiers_still_measure(tiny_siglip, leuven):
    records = [record("accepted", east_m=20, sequence="a"), record("plain", east_m=150, sequence="b")]
    paths = {"accepted": leuven[0], "plain": leuven[1]}
    _, rows = run(records, paths, audit={"accepted": "accept"}, siglip_model=str(tiny_siglip),
                  siglip_threshold=0.99)  # a random model never reaches 0.99 over 8 prompts
    assert rows["plain"].tier == 4 and "laplacian_var" not in rows["plain"].measures
    accepted = rows["accepted"]
    assert accepted.status == "kept" and accepted.tier is None
    assert accepted.tiers[4] == "overridden" and accepted.tiers[6] == "pass"
    assert accepted.tiers[7] == "pass" and accepted.measures["laplacian_var"] > 80
    assert "despite tier 4" in accepted.reason


def test_tier4_rule_needs_top1_and_threshold(tiny_siglip):
    from geofidelity_plugin.core.reference_panels.curation.urban import UrbanScore

    scorer = UrbanSceneScorer(str(tiny_siglip))  # default threshold 0.35
    street, food = scorer.prompts[0], scorer.prompts[2]
    assert scorer.passes(UrbanScore(0.36, street, ()))
    assert not scorer.passes(UrbanScore(0.34, street, ()))
    assert not scorer.passes(UrbanScore(0.40, food, ()))  # p ≥ 0.35 yet another prompt leads


def test_tier4_unavailable_folder_names_it(tmp_path):
    with pytest.raises(TierUnavailable, match=str(tmp_path).replace("/", ".") + ".*save_pretrained"):
        UrbanSceneScorer(str(tmp_path))


def test_tier5_with_a_tiny_mask2former_records_ratios(tmp_path, leuven):
    from geofidelity_plugin.core.vision.semantics import (ATTRIBUTES, SemanticRatioModel, load_attribute_mapping)

    from tiny_models import make_tiny_mask2former

    folder = make_tiny_mask2former(tmp_path / "m2f", load_attribute_mapping().class_names)
    photos = [leuven[0], leuven[1], external(PHOTOS / "building.jpg")]
    records = [record(f"v{k}", east_m=20 + 40 * k, sequence=f"q{k}") for k in range(3)]
    paths = {f"v{k}": p for k, p in enumerate(photos)}
    # rules under which this seed's random segmenter passes some photos and fails others
    rules = {"building": (0.1, None), "sky+vegetation": (None, 0.5)}
    result, rows = run(records, paths, vistas_model=str(folder), vistas_ratios=rules)
    assert result.tier_state[5] == "ran"
    assert {rows[f"v{k}"].tiers[5] for k in range(3)} == {"pass", "fail"}
    direct = SemanticRatioModel(str(folder)).ratios_for_paths(photos).ratios
    for k in range(3):
        row = rows[f"v{k}"]
        ratios = {a: row.measures[f"ratio_{a}"] for a in ATTRIBUTES}
        assert all(0.0 <= v <= 1.0 for v in ratios.values()) and sum(ratios.values()) <= 1 + 1e-6
        assert np.allclose(list(ratios.values()), direct[k], atol=1e-6)
        violated = [rule for rule, (low, high) in rules.items()
                    if (low is not None and sum(ratios[a] for a in rule.split("+")) < low)
                    or (high is not None and sum(ratios[a] for a in rule.split("+")) > high)]
        assert row.tiers[5] == ("fail" if violated else "pass")
        if violated:
            assert row.tier == 5 and all(rule in row.reason for rule in violated)


def test_default_vistas_rules():
    assert DEFAULT_VISTAS_RATIOS == {"sky": (0.01, 0.55), "road+sidewalk": (0.05, None),
                                     "building": (0.03, None), "vehicle": (None, 0.30)}
    assert CurationOptions().vistas_ratios == DEFAULT_VISTAS_RATIOS


def test_bad_vistas_rule_is_refused():
    with pytest.raises(Exception, match="vistas_ratios rule 'roads'"):
        curate([], {}, {}, CurationOptions(vistas_ratios={"roads": (0.1, None)}))
