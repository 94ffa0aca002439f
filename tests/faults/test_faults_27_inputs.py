"""Issue 27, inputs: inputs that parse but would give wrong or unbounded results are refused with
the problem and the fix, before any work — two spellings of one city, a country code that is not
ISO (XX, UK), repeated segment ids, NaN or infinite embeddings, memory sizes of ``inf``, prompt
templates that would make a gigabyte prompt, an atlas over segments without ``segment_id``, a
damaged ``model_index.json``, a release evaluation given to the report, download advice that
``models download`` would not accept, and a generated map that lies outside the OSM data it is
scored against. Each is the one check of its class (named in the README, "Nothing lost").

Most cases call the core check the commands call; four run the real command line (``run_cli``:
exit 2, ``error: …`` with the fragments, no traceback) — none needs a model, a GPU or the network.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from faultkit import assert_fails_cleanly, run_cli

from geofidelity_plugin.core.errors import InputError

pytestmark = pytest.mark.fault

HELSINKI = "Helsinki,Finland,FI,24.9441,60.1711"
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def _city_table(tmp_path, *rows, name="cities.csv"):
    path = tmp_path / name
    path.write_text("name,country,country_code,lon,lat\n" + "".join(f"{r}\n" for r in rows), encoding="utf-8")
    return path


def _message(caught) -> str:
    return str(caught.value)


# 1 · one city spelt twice ------------------------------------------------------------------------

@pytest.mark.parametrize("second, clash", [
    ("helsinki,Finland,FI,24.9441,60.1711", "'Helsinki' and 'helsinki' (FI)"),
    ("HELSINKI,Finland,fi,24.95,60.17", "'Helsinki' and 'HELSINKI' (FI)"),
])
def test_select_segments_refuses_one_city_spelt_twice_before_reading_osm(tmp_path, second, clash):
    cities = _city_table(tmp_path, HELSINKI, second)
    osm = tmp_path / "empty.osm.pbf"
    osm.write_bytes(b"")  # not an extract: the refusal must come before the OSM data is read
    out = run_cli("select-segments", "--cities", cities, "--osm", osm, "--out", tmp_path / "s.gpkg", "-q",
                  timeout=120)
    assert_fails_cleanly(out, clash, "more than once", "keep one row per city")
    assert not (tmp_path / "s.gpkg").exists()


def test_accents_clash_too_but_one_name_in_two_countries_does_not(tmp_path):
    from geofidelity_plugin.core.selection.cities import read_city_table

    with pytest.raises(InputError) as caught:
        read_city_table(_city_table(tmp_path, "München,Germany,DE,11.57,48.13", "Munchen,Germany,DE,11.57,48.14"))
    assert "'München' and 'Munchen' (DE)" in _message(caught) and "keep one row per city" in _message(caught)
    both = read_city_table(_city_table(tmp_path, "Paris,France,FR,2.35,48.86", "Paris,United States,US,-95.55,33.66",
                                       name="two.csv"))
    assert [c.country_code for c in both] == ["FR", "US"]  # distinct segment ids: accepted


# 2 · country codes that are not ISO --------------------------------------------------------------

@pytest.mark.parametrize("code, fragments", [
    ("XX", ("'XX' is not an ISO 3166-1 country code", "use the country's two-letter code")),
    ("UK", ("'UK' is not the ISO code of", "write GB")),
    ("F1", ("is not an ISO 3166-1 alpha-2 code", "FI, US, GB")),
])
def test_a_country_code_that_is_not_iso_is_named_with_the_code_to_write(tmp_path, code, fragments):
    from geofidelity_plugin.core.selection.cities import read_city_table

    with pytest.raises(InputError) as caught:
        read_city_table(_city_table(tmp_path, f"London,United Kingdom,{code},-0.1276,51.5072"))
    for fragment in fragments:
        assert fragment in _message(caught), _message(caught)
    good = _city_table(tmp_path, "London,United Kingdom,gb,-0.1276,51.5072", name="good.csv")
    assert read_city_table(good)[0].country_code == "GB"


# 3 · repeated segment ids ------------------------------------------------------------------------

def test_a_segments_layer_with_one_id_twice_is_never_written():
    from geofidelity_plugin.core.selection import segments as seg
    from geofidelity_plugin.core.selection.writers import check_unique_ids

    fields = {f: "" for f in seg.Segment.__dataclass_fields__}
    one = seg.Segment(**{**fields, "segment_id": "fi-helsinki-mannerheimintie", "city": "Helsinki",
                         "length_m": 500.0, "merged_length_m": 500.0, "centroid_lon": 24.94, "centroid_lat": 60.17})
    check_unique_ids([one, replace(one, segment_id="fi-helsinki-aleksanterinkatu")])  # distinct: accepted
    with pytest.raises(InputError) as caught:
        check_unique_ids([one, replace(one, city="helsinki"), replace(one, segment_id="x")])
    message = _message(caught)
    assert "1 segment_id(s) would be written more than once (fi-helsinki-mannerheimintie; cities Helsinki, " \
           "helsinki)" in message, message
    assert "nothing written; keep one row per city" in message, message


# 4 · NaN or infinite vectors ---------------------------------------------------------------------

def test_nan_or_infinite_vectors_are_failed_images_with_their_reason():
    from geofidelity_plugin.core.evaluation.embedding_rows import NON_FINITE, _finite

    failed = {"c.jpg": "unreadable"}
    vectors = [np.ones(4), np.array([1.0, np.nan, 0, 0]), np.ones(4), np.array([np.inf, 0, 0, 0]), None]
    kept = _finite(["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"], vectors, failed, "embedding")
    assert sorted(kept) == ["a.jpg"]
    assert failed["c.jpg"] == "unreadable"  # an earlier reason is kept
    assert failed["b.jpg"] == failed["d.jpg"] == failed["e.jpg"] == NON_FINITE.format(what="embedding")
    assert "NaN or infinite" in failed["b.jpg"]


def test_an_embedder_that_returns_nan_counts_those_images_as_failed_not_averaged():
    """What both evaluations call (``_embed``, ``_ratios``): the vectors kept are the finite ones,
    the failed count and reasons include the NaN/inf images, and nothing non-finite is averaged."""
    from geofidelity_plugin.core.evaluation.embedding_rows import _embed, _ratios

    paths = ["a.jpg", "nan.jpg", "inf.jpg", "gone.jpg"]
    vectors = np.array([[3.0, 4.0], [np.nan, 1.0], [1.0, -np.inf], [1.0, 1.0]], dtype=np.float32)
    embedder = SimpleNamespace(embed_paths=lambda p, progress=None: SimpleNamespace(
        embeddings=vectors, failed={"gone.jpg": "cannot be opened"}, computed=3, cached=1))
    kept, failed, stats = _embed(paths, embedder, SimpleNamespace(l2_normalise=True), None)
    assert sorted(kept) == ["a.jpg"] and np.allclose(kept["a.jpg"], [0.6, 0.8])
    assert sorted(failed) == ["gone.jpg", "inf.jpg", "nan.jpg"] and failed["gone.jpg"] == "cannot be opened"
    assert "NaN or infinite" in failed["nan.jpg"] and "damaged feature cache" in failed["inf.jpg"]
    assert stats == {"images": 4, "computed": 3, "cached": 1, "failed": 3}
    assert all(np.all(np.isfinite(v)) for v in kept.values())

    ratio_model = SimpleNamespace(ratios_for_paths=lambda p, progress=None: SimpleNamespace(
        ratios=[np.array([0.5, 0.5]), np.array([np.nan, 1.0])], failed={}))
    ratios, ratio_failed = _ratios(["a.jpg", "nan.jpg"], ratio_model, None)
    assert list(ratios) == ["a.jpg"] and "semantic ratio vector holds NaN" in ratio_failed["nan.jpg"]


# 5 · memory sizes no machine has -----------------------------------------------------------------

@pytest.mark.parametrize("text", ["infGB", "inf", "nan", "1e3GB", "-1GB", "2000000TB", "12 parsecs"])
def test_memory_sizes_that_no_machine_has_are_refused(text):
    from geofidelity_plugin.core.evaluation.options import parse_memory
    from geofidelity_plugin.core.generation.memory_plan import parse_budget

    for parse, example in ((parse_memory, "1GB or 512MB"), (parse_budget, "12GB, 7.5GB or 8000MB")):
        with pytest.raises(InputError) as caught:
            parse(text)
        assert repr(text) in _message(caught) and f"write it like {example}" in _message(caught), _message(caught)
    assert parse_memory("1GB") == 1 << 30 and parse_budget("12GB") == 12 << 30 and parse_budget("12") == 12 << 30


def test_the_cli_refuses_an_infinite_max_memory_before_opening_the_store(tmp_path):
    out = run_cli("evaluate", "--store", tmp_path / "absent.sqlite", "--max-memory", "infGB",
                  "--out", tmp_path / "eval", "-q", env=OFFLINE, timeout=120)
    assert_fails_cleanly(out, "--max-memory", "'infGB' as a size", "write it like 1GB or 512MB")
    assert not (tmp_path / "eval").exists()


def test_the_cli_refuses_an_infinite_vram_budget_before_generating(tmp_path):
    from geofidelity_plugin.core.store.store import BenchmarkStore

    store = tmp_path / "store.sqlite"
    with BenchmarkStore(store):
        pass
    out = run_cli("generate", "--store", store, "--generator", "flux.1-schnell", "--vram-budget", "infGB", "-q",
                  env=OFFLINE, timeout=120)
    assert_fails_cleanly(out, "VRAM budget (--vram-budget) 'infGB'", "write it like 12GB, 7.5GB or 8000MB")
    assert not (tmp_path / "generations").exists()


# 6 · prompt templates that would make huge prompts -----------------------------------------------

@pytest.mark.parametrize("template, problem, fix", [
    ("A street in {city:>999999999}", "{city:>999999999} asks for a width of 999999999", "keep widths up to 40"),
    ("A street in {city}, {country:.99}", "{country:.99} asks for 99 decimals", "decimals up to 10"),
    ("A street in {city:{country}}", "is not a plain one", "use e.g. {lat:.4f}"),
    ("A street in {city}. " + "Very " * 250, "is 1270 characters long", "keep it under 1000 characters"),
])
def test_prompt_templates_that_would_make_huge_prompts_are_refused(template, problem, fix):
    from geofidelity_plugin.core.generation.prompts import PromptTemplates

    with pytest.raises(InputError) as caught:
        PromptTemplates(l0=template)
    for fragment in ("prompt template L0", problem, fix):
        assert fragment in _message(caught), _message(caught)
    assert PromptTemplates(l0="A street in {city:>12}, {country:.10}").l0.endswith("{country:.10}")


def test_templates_from_json_are_checked_the_same_way():
    from geofidelity_plugin.core.generation.prompts import PromptTemplates

    with pytest.raises(InputError, match=r"asks for a width of 999999999"):
        PromptTemplates.from_json(json.dumps({"l0": "A street in {city:>999999999}"}))


# 7 · an atlas over segments without segment_id ---------------------------------------------------

def test_the_atlas_refuses_a_segments_layer_without_segment_id(tmp_path):
    from geofidelity_plugin.core.atlas.data import check_segments_layer

    gpkg = tmp_path / "roads.gpkg"
    with sqlite3.connect(gpkg) as db:  # the two tables the reader needs of a GeoPackage
        db.execute("CREATE TABLE gpkg_contents (table_name TEXT, data_type TEXT, identifier TEXT)")
        db.execute("INSERT INTO gpkg_contents VALUES ('segments', 'features', 'segments')")
        db.execute("CREATE TABLE segments (fid INTEGER PRIMARY KEY, name TEXT, geom BLOB)")
    db.close()
    with pytest.raises(InputError) as caught:
        check_segments_layer(gpkg)
    message = _message(caught)
    assert "has no segment_id field (it has fid, geom, name)" in message, message
    assert "give the GeoPackage Select segments wrote" in message and "add a segment_id field" in message, message
    with pytest.raises(InputError, match="no `segments` layer"):
        check_segments_layer(tmp_path / "missing.gpkg")
    with sqlite3.connect(gpkg) as db:
        db.execute("ALTER TABLE segments ADD COLUMN segment_id TEXT")
    db.close()
    check_segments_layer(gpkg)  # with the field: accepted


# 8 · a damaged model_index.json ------------------------------------------------------------------

@pytest.mark.parametrize("content, problem", [
    (b"{not json", "is not valid JSON"),
    (b"\xff\xfe{\x00}\x00", "is not UTF-8 text"),
    (b'["a", "list"]', "is not a diffusers pipeline index (no _class_name)"),
    (b'{"_class_name": "FluxPipeline", "transformer": ["diffusers", "FluxTransformer2DModel"]}',
     "lacks the component folder(s) transformer"),
])
def test_a_damaged_model_index_is_named_as_such(tmp_path, content, problem):
    from geofidelity_plugin.core.generation.generators import custom_generator

    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "model_index.json").write_bytes(content)
    with pytest.raises(InputError) as caught:
        custom_generator("my-model", folder, steps=20, guidance=3.5, dtype="bf16")
    for fragment in (problem, "model_index.json", "or give another folder"):
        assert fragment in _message(caught), _message(caught)
    if b"transformer" in content:
        (folder / "transformer").mkdir()
        assert custom_generator("my-model", folder, steps=20, guidance=3.5, dtype="bf16").custom


# 9 · the report on a release evaluation ----------------------------------------------------------

def _release_folder(tmp_path, **options):
    folder = tmp_path / "board"
    folder.mkdir()
    (folder / "raw_results.csv").write_text("model,score\n", encoding="utf-8")
    (folder / "evaluation.manifest.json").write_text(json.dumps({
        "options": {"protocol": "release", **options}, "inputs": {"store": "/data/bench.sqlite"}}), encoding="utf-8")
    return folder


def test_the_report_on_a_release_evaluation_spells_the_paper_evaluation_to_run(tmp_path):
    from geofidelity_plugin.core.report.evaluation_folder import load_evaluation

    folder = _release_folder(tmp_path)
    with pytest.raises(InputError) as caught:
        load_evaluation(folder)
    message = _message(caught)
    assert "finished evaluation under the release protocol" in message, message
    assert f"run `python -m geofidelity_plugin evaluate --store /data/bench.sqlite --out {tmp_path / 'board-paper'}`" \
           " and report that folder" in message, message


def test_the_report_command_on_a_release_folder_gives_the_advice_offline(tmp_path):
    folder = _release_folder(tmp_path, feature_model="facebook/dinov2-base")
    out = run_cli("report", "--evaluation", folder, env=OFFLINE, timeout=120)
    assert_fails_cleanly(out, "under the release protocol",
                         f"evaluate --store /data/bench.sqlite --feature-model facebook/dinov2-base --out "
                         f"{tmp_path / 'board-paper'}")
    assert sorted(p.name for p in folder.iterdir()) == ["evaluation.manifest.json", "raw_results.csv"]


# 10 · download advice that runs as written -------------------------------------------------------

def test_download_advice_for_a_hub_id_is_a_command_that_runs_as_written():
    from geofidelity_plugin.core.models.registry import MODELS, download_command, model_entry, select

    prefix = "python -m geofidelity_plugin models download "
    entry = next(iter(MODELS.values()))
    advice = download_command(entry.repo_id)
    assert advice.startswith(prefix), advice
    assert select(advice[len(prefix):].split()) == [entry]  # what `models download` reads of its arguments
    assert download_command(entry.name, entry.repo_id).split().count(entry.name) == 1

    other = model_entry("someone/street-model")  # a hub model that is not registered
    assert not other.registered and other.name == "street-model"
    for ref in (other, "someone/street-model"):
        advice = download_command(ref)
        assert advice == prefix + "someone/street-model", advice  # the hub id, not its last part
        assert [e.repo_id for e in select(advice[len(prefix):].split())] == ["someone/street-model"]


# 11 · a generated map outside the OSM data -------------------------------------------------------

def test_a_generated_map_outside_the_osm_data_is_refused():
    from geofidelity_plugin.core.map_fidelity.grid import Grid, check_covered

    grid = Grid(256, 256, (385000.0, 1.0, 0.0, 6672000.0, 0.0, -1.0), "")  # 256 m² in UTM 35N, Helsinki
    assert grid.bounds == (385000.0, 6671744.0, 385256.0, 6672000.0)
    check_covered(grid, (384000.0, 6671000.0, 386000.0, 6673000.0), "Helsinki.osm.pbf")  # inside
    check_covered(grid, (385200.0, 6671900.0, 390000.0, 6680000.0), "Helsinki.osm.pbf")  # overlapping a corner
    with pytest.raises(InputError) as caught:
        check_covered(grid, (500000.0, 7000000.0, 501000.0, 7001000.0), "Helsinki.osm.pbf")
    message = _message(caught)
    assert "the generated map lies outside Helsinki.osm.pbf" in message and "its reference would be blank" in message
    assert "check the generated map's georeferencing" in message and "--osm / --layer" in message, message
    with pytest.raises(InputError, match="holds no feature to draw the reference map from"):
        check_covered(grid, None, "an empty extract")
