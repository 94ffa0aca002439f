"""Bad input → a clear error and no half-written output; cancel leaves nothing behind."""
from __future__ import annotations

import pytest

from geofidelity_plugin.core.errors import Cancelled, InputError, RemoteServiceError
from geofidelity_plugin.core.progress import RecordingProgress
from geofidelity_plugin.core.selection.cities import make_city
from geofidelity_plugin.core.selection.overpass import OverpassClient
from geofidelity_plugin.core.selection.workflow import select_segments
from geofidelity_plugin.core.selection.segments import SelectionOptions

HELSINKI = make_city("Helsinki", "Finland", "FI", 24.9441, 60.1711)


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir())


def test_missing_osm_file(tmp_path):
    with pytest.raises(InputError, match="OSM file not found"):
        select_segments([HELSINKI], tmp_path / "missing.osm.pbf", output_gpkg=tmp_path / "out.gpkg")
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("content", [b"this is not osm data at all" * 10, None])
def test_corrupt_or_truncated_osm_file(tmp_path, helsinki_pbf, content):
    bad = tmp_path / "bad.osm.pbf"
    bad.write_bytes(content if content is not None else helsinki_pbf.read_bytes()[:200_000])
    out = tmp_path / "out" / "segments.gpkg"
    with pytest.raises(InputError, match="could not read bad.osm.pbf"):
        select_segments([HELSINKI], bad, output_gpkg=out)
    assert not out.exists()


def test_wrong_extension(tmp_path):
    path = tmp_path / "roads.txt"
    path.write_text("x")
    with pytest.raises(InputError, match="unsupported OSM file type"):
        select_segments([HELSINKI], path)


def test_centre_without_named_roads(tmp_path, helsinki_pbf):
    far = make_city("Nowhere", "Finland", "FI", 26.0, 61.0)
    with pytest.raises(InputError) as err:
        select_segments([far], helsinki_pbf, output_gpkg=tmp_path / "out.gpkg")
    assert "no named roads" in str(err.value) and "Nowhere" in str(err.value)
    assert _leftovers(tmp_path) == []


def test_existing_output_survives_a_failed_run(tmp_path, helsinki_pbf):
    out = tmp_path / "segments.gpkg"
    select_segments([HELSINKI], helsinki_pbf, output_gpkg=out)
    before = out.read_bytes()
    with pytest.raises(InputError):
        select_segments([make_city("Nowhere", "Finland", "FI", 26.0, 61.0)], helsinki_pbf, output_gpkg=out)
    assert out.read_bytes() == before


@pytest.mark.parametrize("after", [0, 1, 3])
def test_cancel_mid_run_writes_nothing(tmp_path, helsinki_pbf, after):
    progress = RecordingProgress(cancel_after=after)
    with pytest.raises(Cancelled):
        select_segments([HELSINKI], helsinki_pbf, SelectionOptions(min_length_m=100),
                        output_gpkg=tmp_path / "out.gpkg", progress=progress)
    assert _leftovers(tmp_path) == []


def test_unreachable_overpass(tmp_path):
    client = OverpassClient("http://127.0.0.1:9/api/interpreter", max_retries=1, backoff_s=0.01,
                            cache_dir=tmp_path / "cache")
    with pytest.raises(RemoteServiceError) as err:
        select_segments([HELSINKI], client, output_gpkg=tmp_path / "out.gpkg")
    assert "127.0.0.1:9" in str(err.value)
    assert not (tmp_path / "out.gpkg").exists()


def test_invalid_options():
    with pytest.raises(InputError, match="clip length"):
        select_segments([HELSINKI], "x.osm.pbf", SelectionOptions(clip_length_m=100, min_length_m=500))
