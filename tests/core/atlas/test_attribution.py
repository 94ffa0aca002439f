"""The credit lines of maps, reports and image views (method §1 data sources): the creator's
name from the Mapillary ``creator`` field in each form it reaches us, and the lines a view
carries."""
from __future__ import annotations

from geofidelity_plugin.core.attribution import (MAPILLARY, OSM, STAND_IN, creator_name, credit_lines,
                                                 image_credit)


def test_creator_name_from_a_dict_json_text_and_nothing():
    assert creator_name({"id": "1001", "username": "ana"}) == "ana"
    assert creator_name({"id": 1001}) == "1001"  # no user name: the id still credits someone
    assert creator_name('{"id": "9", "username": "bo"}') == "bo"  # record_json keeps it as text
    assert creator_name("plain name") == "plain name"
    assert creator_name(None) is None and creator_name({}) is None and creator_name("  ") is None
    assert creator_name({"username": ""}) is None and creator_name(42) is None


def test_image_credit_names_the_photographer_when_known():
    assert image_credit({"username": "ana"}) == f"{MAPILLARY} — photo by ana"
    assert image_credit(None) == MAPILLARY == "Images: Mapillary contributors (CC BY-SA 4.0)"


def test_credit_lines_with_creators_and_the_stand_in_note():
    assert credit_lines() == [OSM, MAPILLARY]
    assert OSM == "© OpenStreetMap contributors (ODbL)"
    lines = credit_lines(stand_in=True, creators=[{"username": "bo"}, '{"username": "ana"}', None, {"username": "bo"}])
    assert lines == [OSM, f"{MAPILLARY} — photos by ana, bo", STAND_IN]


def test_the_search_asks_for_the_creator_and_keeps_it_in_the_record():
    """The fetch asks Mapillary for ``creator`` and the record keeps it (the fake API, like the
    real one, sends a field only when it is asked for); an odd creator value costs no image."""
    from dataclasses import asdict

    from geofidelity_plugin.core.reference_panels.mapillary.client import SEARCH_FIELDS, MapillaryClient
    from geofidelity_plugin.core.reference_panels.mapillary.records import ImageRecord
    from mapillary_server import TOKEN, FakeMapillary, fake_images_along

    assert "creator" in SEARCH_FIELDS
    coords = [(2.3400, 48.8600), (2.3460, 48.8615)]
    with FakeMapillary(fake_images_along(coords, 6)) as server:
        client = MapillaryClient(TOKEN, base_url=server.base_url, requests_per_second=None, max_retries=1,
                                 sleep=lambda s: None, max_workers=1)
        records = client.search((2.339, 48.859, 2.347, 48.862))
        by_id = {img.image_id: img for img in server.images.values()}
        assert len(records) == 6
        for record in records:
            assert record.creator == by_id[record.image_id].creator
            assert asdict(record)["creator"]["username"].startswith("mapper_")  # what the store's record_json holds
        item = server.item(next(iter(server.images.values())), {"id", "captured_at"})
        assert "creator" not in item  # not asked: not sent
    base = {"id": "1", "captured_at": 1_560_000_000_000, "geometry": {"type": "Point", "coordinates": [2.3, 48.8]}}
    assert ImageRecord.from_api({**base, "creator": {"id": 5, "username": "ana"}}).creator == {"id": "5",
                                                                                            "username": "ana"}
    odd = ImageRecord.from_api({**base, "creator": "ana"})
    assert odd is not None and odd.creator is None
    assert ImageRecord.from_api(base).creator is None
