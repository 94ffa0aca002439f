"""method §5 semantic pixel ratios: the shipped mapping file, the counting, the name check
against a model's id2label, and a tiny random Mask2Former loaded through the real code."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from conftest import PHOTOS, external
from geofidelity_plugin.core.errors import Cancelled, InputError
from geofidelity_plugin.core.vision.semantics import (ATTRIBUTES, DEFAULT_MODEL, SemanticRatioModel, check_mapping_against_model, default_mapping_path, load_attribute_mapping, ratios_from_label_map)
from geofidelity_plugin.core.progress import RecordingProgress

# method §5, copied by hand: Mapillary Vistas v1.2 classes by id.
VISTAS = [
    "Bird", "Ground Animal", "Curb", "Fence", "Guard Rail", "Barrier", "Wall", "Bike Lane",
    "Crosswalk - Plain", "Curb Cut", "Parking", "Pedestrian Area", "Rail Track", "Road",
    "Service Lane", "Sidewalk", "Bridge", "Building", "Tunnel", "Person", "Bicyclist",
    "Motorcyclist", "Other Rider", "Lane Marking - Crosswalk", "Lane Marking - General",
    "Mountain", "Sand", "Sky", "Snow", "Terrain", "Vegetation", "Water", "Banner", "Bench",
    "Bike Rack", "Billboard", "Catch Basin", "CCTV Camera", "Fire Hydrant", "Junction Box",
    "Mailbox", "Manhole", "Phone Booth", "Pothole", "Street Light", "Pole", "Traffic Sign Frame",
    "Utility Pole", "Traffic Light", "Traffic Sign (Back)", "Traffic Sign (Front)", "Trash Can",
    "Bicycle", "Boat", "Bus", "Car", "Caravan", "Motorcycle", "On Rails", "Other Vehicle",
    "Trailer", "Truck", "Wheeled Slow", "Car Mount", "Ego Vehicle",
]
# method §5, the published grouping.
GROUPS = {
    "road": {13, 14, 23, 24},
    "sidewalk": {15, 11, 2, 8, 9},
    "building": {17, 6, 16, 18, 3, 5},
    "vehicle": set(range(52, 65)),
    "vegetation": {30, 29, 25},
    "sky": {27},
    "pole": {45, 47, 44},
    "sign": {48, 49, 50, 46, 35, 32},
}
VISTAS_ID2LABEL = {i: n for i, n in enumerate(VISTAS)}


# ---------------------------------------------------------------- the mapping file

def test_mapping_file_lists_the_65_vistas_classes():
    doc = json.loads(default_mapping_path().read_text(encoding="utf-8"))
    assert doc["source"].strip()
    assert {int(k): v for k, v in doc["classes"].items()} == VISTAS_ID2LABEL
    mapping = load_attribute_mapping()
    assert sorted(mapping.class_names) == list(range(65))
    assert [mapping.class_names[i] for i in range(65)] == VISTAS


def test_mapping_file_groups_attributes_as_published():
    mapping = load_attribute_mapping()
    assert tuple(mapping.attributes) == ATTRIBUTES == (
        "road", "sidewalk", "building", "vehicle", "vegetation", "sky", "pole", "sign")
    for attribute, ids in GROUPS.items():
        assert set(mapping.attributes[attribute]) == ids, attribute
        assert len(mapping.attributes[attribute]) == len(ids), f"{attribute} repeats an id"
    assert mapping.attribute_class_names()["sky"] == ["Sky"]
    assert not mapping.exclude_recording_car


def test_exclusion_option_drops_car_mount_and_ego_vehicle_only():
    full = load_attribute_mapping()
    excluded = load_attribute_mapping(exclude_recording_car=True)
    assert set(excluded.attributes["vehicle"]) == set(range(52, 63))
    assert set(full.attributes["vehicle"]) - set(excluded.attributes["vehicle"]) == {63, 64}
    for attribute in ATTRIBUTES:
        if attribute != "vehicle":
            assert excluded.attributes[attribute] == full.attributes[attribute]
    assert excluded.exclude_recording_car
    assert excluded.sha256 == full.sha256  # same file, the option is recorded separately


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["attributes"].pop("sign"), "attributes must be exactly"),
    (lambda d: d["attributes"]["sky"].append(13), "must not overlap"),
    (lambda d: d["attributes"]["pole"].append(99), "absent from 'classes'"),
    (lambda d: d["classes"].update({"5": "Wall"}), "share the name"),
])
def test_invalid_mapping_files_are_refused(tmp_path, edit, message):
    doc = json.loads(default_mapping_path().read_text(encoding="utf-8"))
    edit(doc)
    path = tmp_path / "mapping.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_attribute_mapping(path)


def test_exclusion_needs_the_alternative(tmp_path):
    doc = json.loads(default_mapping_path().read_text(encoding="utf-8"))
    del doc["alternatives"]
    path = tmp_path / "mapping.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    load_attribute_mapping(path)  # fine without the option
    with pytest.raises(InputError, match="vehicle_excluding_recording_car"):
        load_attribute_mapping(path, exclude_recording_car=True)


# ---------------------------------------------------------------- counting

def test_ratios_from_a_hand_built_label_map():
    label_map = np.full((10, 20), 19, dtype=np.int64)  # 200 px of Person: no attribute
    label_map[0:3, :] = 27            # 60 sky
    label_map[3:5, 0:10] = 30         # 20 vegetation
    label_map[3:5, 10:15] = 25        # 10 mountain → vegetation
    label_map[5, :] = 17              # 20 building
    label_map[6, 0:4] = 3             # 4 fence → building
    label_map[7, :] = 13              # 20 road
    label_map[8, 0:6] = 23            # 6 lane marking → road
    label_map[8, 6:9] = 15            # 3 sidewalk
    label_map[9, 0:5] = 55            # 5 car
    label_map[9, 5:8] = 64            # 3 ego vehicle
    label_map[9, 8:10] = 45           # 2 pole
    label_map[9, 10] = 50             # 1 traffic sign (front)
    label_map[9, 11] = 46             # 1 traffic sign frame
    label_map[9, 12] = -1             # 1 unlabelled pixel: denominator only
    expected = {"road": 26, "sidewalk": 3, "building": 24, "vehicle": 8, "vegetation": 30,
                "sky": 60, "pole": 2, "sign": 2}
    got = ratios_from_label_map(label_map, load_attribute_mapping())
    assert got.shape == (8,)
    np.testing.assert_allclose(got, [expected[a] / 200 for a in ATTRIBUTES])
    excluded = ratios_from_label_map(label_map, load_attribute_mapping(exclude_recording_car=True))
    assert excluded[ATTRIBUTES.index("vehicle")] == pytest.approx(5 / 200)
    assert got.sum() < 1  # persons belong to no attribute


def test_ratios_from_label_map_accepts_a_plain_dict_and_rejects_bad_maps():
    label_map = np.array([[1, 1], [2, 7]])
    np.testing.assert_allclose(ratios_from_label_map(label_map, {"a": [1], "b": [2, 7, 99]}),
                               [0.5, 0.5])
    for bad in (np.zeros((0, 3), int), np.zeros((2, 2), float), np.zeros(4, int)):
        with pytest.raises(ValueError):
            ratios_from_label_map(bad, {"a": [0]})


# ---------------------------------------------------------------- name check

def test_name_check_passes_for_vistas_labels_in_any_case_or_spacing():
    labels = {str(i): n.upper().replace(" ", "  ") for i, n in VISTAS_ID2LABEL.items()}
    resolved = check_mapping_against_model(load_attribute_mapping(), labels)
    assert resolved.attributes == load_attribute_mapping().attributes


def test_name_check_resolves_a_different_label_order_by_name():
    order = list(range(65))[::-1]  # model id k holds Vistas class 64 - k
    labels = {k: VISTAS[c] for k, c in enumerate(order)}
    resolved = check_mapping_against_model(load_attribute_mapping(), labels)
    assert set(resolved.attributes["sky"]) == {64 - 27}
    assert set(resolved.attributes["road"]) == {64 - c for c in GROUPS["road"]}
    model_map = np.array([[64 - 27, 64 - 13], [64 - 19, 64 - 19]])  # sky, road, person, person
    np.testing.assert_allclose(ratios_from_label_map(model_map, resolved)[[0, 5]], [0.25, 0.25])


def test_name_check_fails_clearly_on_a_wrong_or_missing_name():
    labels = dict(VISTAS_ID2LABEL)
    labels[13] = "road surface"
    del labels[50]
    with pytest.raises(InputError) as err:
        check_mapping_against_model(load_attribute_mapping(), labels)
    text = str(err.value)
    assert "'Road'" in text and "'road surface'" in text
    assert "'Traffic Sign (Front)'" in text and "absent" in text
    assert "2 of 65" in text and "mapping file" in text


def test_name_check_fails_on_repeated_model_labels():
    labels = dict(VISTAS_ID2LABEL)
    labels[65] = "sky"
    with pytest.raises(InputError, match="repeat a name"):
        check_mapping_against_model(load_attribute_mapping(), labels)


# ---------------------------------------------------------------- a tiny real model

@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory):
    pytest.importorskip("torch")
    from tiny_models import make_tiny_mask2former

    return make_tiny_mask2former(tmp_path_factory.mktemp("tiny_mask2former"), VISTAS_ID2LABEL)


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """Two street photos, a broken file, and a tall crop: its processed size differs from the
    photos', so a batch that padded images together would count the padding."""
    from PIL import Image

    folder = tmp_path_factory.mktemp("photos")
    broken = folder / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0" + b"not really a jpeg" * 10)
    tall = folder / "tall.png"
    with Image.open(external(PHOTOS / "leuvenB.jpg")) as image:
        image.crop((200, 0, 420, image.height)).save(tall)
    return [str(external(PHOTOS / "leuvenA.jpg")), str(broken),
            str(external(PHOTOS / "building.jpg")), str(tall)]


def test_tiny_model_gives_ratios_and_lists_the_broken_file(tiny_model_dir, photos):
    model = SemanticRatioModel(str(tiny_model_dir), device="cpu", batch_size=2)
    first = model.ratios_for_paths(photos)
    assert first.ratios.shape == (4, 8) and first.ratios.dtype == np.float32
    assert first.attributes == list(ATTRIBUTES)
    assert list(first.failed) == [photos[1]] and first.failed[photos[1]]
    assert np.isnan(first.ratios[1]).all()
    good = first.ratios[[0, 2, 3]]
    assert np.isfinite(good).all() and (good >= 0).all() and (good <= 1).all()
    assert (good.sum(axis=1) <= 1 + 1e-6).all() and good.sum() > 0
    again = SemanticRatioModel(str(tiny_model_dir), device="cpu", batch_size=2)
    second = again.ratios_for_paths(photos)
    np.testing.assert_array_equal(second.ratios, first.ratios)  # NaN rows compare equal
    assert second.failed.keys() == first.failed.keys()
    # another batch size sums in another order: a pixel or two may flip (2e-6 each here)
    one_by_one = SemanticRatioModel(str(tiny_model_dir), device="cpu", batch_size=1)
    np.testing.assert_allclose(one_by_one.ratios_for_paths(photos).ratios, first.ratios, atol=1e-5)


def test_tiny_model_ratios_match_its_own_label_maps(tiny_model_dir, photos):
    """The batch path (grouping, post-processing, counting) equals a one-image reference."""
    import torch
    from PIL import Image

    readable = [photos[0], photos[2], photos[3]]
    model = SemanticRatioModel(str(tiny_model_dir), device="cpu", label_map_max_side=None)
    got = model.ratios_for_paths(readable).ratios
    for row, path in zip(got, readable):
        image = Image.open(path).convert("RGB")
        inputs = model.processor(images=[image], return_tensors="pt")
        with torch.no_grad():
            out = model.model(**inputs)
        label_map = model.processor.post_process_semantic_segmentation(
            out, target_sizes=[(image.height, image.width)])[0].numpy()
        expected = [np.isin(label_map, sorted(GROUPS[a])).mean() for a in ATTRIBUTES]
        np.testing.assert_allclose(row, expected, atol=1e-5)  # batched: a pixel or two may flip
    assert ((got > 0) & (got < 1)).any(), "the fixture should give mixed label maps"
    smaller = SemanticRatioModel(str(tiny_model_dir), device="cpu", label_map_max_side=256)
    np.testing.assert_allclose(smaller.ratios_for_paths(readable).ratios, got, atol=0.02)
    assert smaller.model_info()["label_map_max_side"] == 256


def test_model_info_names_model_weights_and_mapping(tiny_model_dir):
    model = SemanticRatioModel(str(tiny_model_dir), device="cpu", exclude_recording_car=True)
    info = model.model_info()
    assert info["model"] == str(tiny_model_dir)
    assert len(info["weights_sha256"]) == 64
    assert info["mapping_sha256"] == load_attribute_mapping().sha256
    assert info["exclude_recording_car"] is True
    assert "Ego Vehicle" not in info["attributes"]["vehicle"]


def test_mapping_that_does_not_match_the_model_is_refused(tiny_model_dir, tmp_path):
    doc = json.loads(default_mapping_path().read_text(encoding="utf-8"))
    doc["classes"]["27"] = "Heaven"
    path = tmp_path / "mapping.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match="'Heaven'"):
        SemanticRatioModel(str(tiny_model_dir), device="cpu", mapping_path=path)


def test_feature_cache_serves_a_rerun_without_the_model(tiny_model_dir, photos, tmp_path):
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache

    cache = FeatureCache(tmp_path / "features.sqlite")
    model = SemanticRatioModel(str(tiny_model_dir), device="cpu", cache=cache)
    first = model.ratios_for_paths(photos)
    assert cache.stats.writes == 3  # the broken image is not cached

    def refuse(*args, **kwargs):
        raise AssertionError("the model ran although every readable image was cached")

    model.model.forward = refuse
    again = model.ratios_for_paths([photos[2], photos[0], photos[1]])
    np.testing.assert_array_equal(again.ratios, first.ratios[[2, 0, 1]])
    assert list(again.failed) == [photos[1]]
    other = SemanticRatioModel(str(tiny_model_dir), device="cpu", cache=cache,
                               exclude_recording_car=True)
    other.model.forward = refuse
    with pytest.raises(AssertionError, match="model ran"):
        other.ratios_for_paths([photos[0]])  # another mapping option is another key
    cache.close()


def test_cancel_stops_between_batches(tiny_model_dir, photos):
    model = SemanticRatioModel(str(tiny_model_dir), device="cpu", batch_size=1)
    progress = RecordingProgress(cancel_after=1)
    with pytest.raises(Cancelled):
        model.ratios_for_paths(photos, progress=progress)
    assert progress.percents and progress.percents[-1] < 100


def test_hub_id_offline_is_an_input_error_naming_it():
    assert os.environ.get("HF_HUB_OFFLINE") == "1"  # set by conftest before huggingface_hub loads
    with pytest.raises(InputError) as err:
        SemanticRatioModel(DEFAULT_MODEL, device="cpu")
    assert DEFAULT_MODEL in str(err.value) and "save_pretrained" in str(err.value)


def test_a_folder_without_a_model_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="preprocessor_config.json"):
        SemanticRatioModel(str(tmp_path), device="cpu")
