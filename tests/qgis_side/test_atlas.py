"""The atlas per segment (issue 15 item 4): a real PDF built by QGIS from a small benchmark on the
Helsinki extract (selection with its context layers, the demo's stand-in store, the coverage
audit, an evaluation folder), read back with pypdf (pages, text) and pypdfium2 (pixels)."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
import unicodedata

import numpy as np
import pytest

from conftest import REPO
from geofidelity_plugin.core.attribution import MAPILLARY, OSM, STAND_IN

MM_TO_PT = 72 / 25.4
SCALE = 2.0  # render scale: 2 px per PDF point


def _cli(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "geofidelity_plugin", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def _evaluation_folder(folder, store):
    """A per-panel scores file as Evaluate writes it: two models and two real anchors per segment."""
    import sqlite3

    folder.mkdir()
    ids = [r[0] for r in sqlite3.connect(store).execute("SELECT segment_id FROM segments")]
    columns = ["model", "condition", "segment_id", "is_anchor", "cos_sim", "margin_hard", "top1", "mmd2"]
    with open(folder / "per_panel_scores.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for n, sid in enumerate(ids):
            for model, condition, anchor, cos in (("stand-in:crops", "L1", False, 0.61), ("stand-in:blurred", "L1", False, 0.52),
                                                  ("anchor:held_out_real", "anchor", True, 0.97),
                                                  ("anchor:random_same_country", "anchor", True, 0.83)):
                writer.writerow([model, condition, sid, anchor, cos + n / 1000, 0.1, 1.0, 0.2])
    (folder / "evaluation.manifest.json").write_text(json.dumps({
        "created_utc": "2026-11-30T12:00:00+00:00", "geofidelity_version": "0.1.1", "inputs": {"store": str(store)},
        "models": [{"label": "DINOv2-S/14 test features"}]}))


PHOTOGRAPHERS = [f"photographer{i}" for i in range(8)]


def _photographers_and_an_undated_segment(store):
    """The first segment's kept images get eight photographers (a page names six, then "and 2
    more"); the second segment's images lose their capture dates (its page: "no capture dates")."""
    import sqlite3

    db = sqlite3.connect(store)
    with db:
        first, second = [r[0] for r in db.execute("SELECT segment_id FROM segments ORDER BY segment_id LIMIT 2")]
        kept = [r[0] for r in db.execute("SELECT image_id FROM candidates WHERE segment_id = ? AND status = 'kept' "
                                         "ORDER BY image_id", (first,))]
        assert len(kept) == len(PHOTOGRAPHERS)
        for image_id, name in zip(kept, PHOTOGRAPHERS):
            db.execute("UPDATE candidates SET record_json = ? WHERE segment_id = ? AND image_id = ?",
                       (json.dumps({"stand_in": True, "creator": {"id": name, "username": name}}), first, image_id))
        db.execute("UPDATE candidates SET captured_at_ms = NULL WHERE segment_id = ?", (second,))
        db.execute("UPDATE reference_images SET captured_at_ms = NULL WHERE segment_id = ?", (second,))
    db.close()


@pytest.fixture(scope="module")
def atlas_inputs(tmp_path_factory):
    from geofidelity_plugin.backend.demo_data import build_demo_store

    out = tmp_path_factory.mktemp("atlas")
    run = _cli("select-segments", "--cities", REPO / "resources" / "data" / "demo_cities.csv", "--osm",
               REPO / "data" / "external" / "osm" / "Helsinki.osm.pbf", "--min-length", 300, "--min-spacing", 300,
               "--out", out / "segments.gpkg", "-q")
    assert run.returncode == 0, run.stderr[-2000:]
    build_demo_store(out / "benchmark.sqlite", out / "segments.gpkg")
    _photographers_and_an_undated_segment(out / "benchmark.sqlite")
    run = _cli("coverage", "--store", out / "benchmark.sqlite", "--out", out / "coverage.gpkg", "-q")
    assert run.returncode == 0, run.stderr[-2000:]
    _evaluation_folder(out / "evaluation", out / "benchmark.sqlite")
    return out


@pytest.fixture(scope="module")
def atlas_pdf(atlas_inputs):
    out = atlas_inputs
    run = _cli("atlas", "--evaluation", out / "evaluation", "--segments", out / "segments.gpkg",
               "--coverage", out / "coverage.gpkg", "--out", out / "atlas.pdf", "-q")
    assert run.returncode == 0, run.stderr[-3000:]
    assert f"atlas: {out / 'atlas.pdf'} (11 pages" in run.stdout
    return out / "atlas.pdf"


def _segments(store):
    import sqlite3

    return {sid: (city, street) for sid, city, street in
            sqlite3.connect(store).execute("SELECT segment_id, city, street_name FROM segments")}


def _text(page) -> str:
    """A page's text as one line: pypdf separates words by tabs and keeps the ﬁ ligature."""
    return " ".join(unicodedata.normalize("NFKC", page.extract_text()).split())


def check_pages_and_text(pdf, store) -> list[str]:
    """Cover + one page per segment; each page titled with its street, with both attributions and
    the stand-in note; the pages sorted by city then street name. Returns the pages' texts."""
    from pypdf import PdfReader

    segments = _segments(store)
    reader = PdfReader(pdf)
    assert len(reader.pages) == len(segments) + 1
    cover = _text(reader.pages[0])
    assert "GeoFidelity atlas — Helsinki" in cover and f"Segments: {len(segments)} in Helsinki" in cover
    assert OSM in cover and MAPILLARY in cover and STAND_IN in cover
    total = len(reader.pages)
    assert f"Page 1 of {total}" in cover  # every page says where it is in the atlas
    order, texts = [], []
    for number, page in enumerate(reader.pages[1:], start=2):
        text = _text(page)
        assert f"Page {number} of {total}" in text
        sid = next(s for s in segments if s in text)
        order.append(sid)
        texts.append(text)
        assert text.startswith(segments[sid][1])  # the title is the street name
        assert OSM in text and MAPILLARY in text and STAND_IN in text
        assert "Coverage (audit)" in text and "images kept" in text
    assert sorted(order) == sorted(segments)  # every segment once
    assert order == sorted(segments, key=lambda s: segments[s])  # by city, then street name
    assert reader.metadata.title == "GeoFidelity atlas"
    return texts


def test_one_page_per_segment_plus_the_cover_with_names_and_attributions(atlas_pdf, atlas_inputs):
    from pypdf import PdfReader

    texts = check_pages_and_text(atlas_pdf, atlas_inputs / "benchmark.sqlite")
    assert len(texts) == 10
    cover = _text(PdfReader(atlas_pdf).pages[0])
    assert "DINOv2-S/14 test features" in cover and "held_out_real" in cover
    for text in texts:
        compact = "".join(text.split())  # pypdf splits some words ("Δ hard", "held_ out_ real")
        assert "ScoresCosSimΔhardtop-1MMD2" in compact and "realheld_out_real0.97" in compact


def _classes(rgb: np.ndarray) -> dict[str, np.ndarray]:
    """Masks of the map's colours: each context style colour, the segment colour, white."""
    from geofidelity_plugin.qgis_side.atlas_layout import CONTEXT_STYLE, SEGMENT_COLOUR

    buffer_alpha, buffer_rgb = 50 / 255, np.array([255, 255, 0])  # the image search buffer's fill

    def near(hex_colour, tol=18, under_buffer=True):
        target = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
        mask = np.abs(rgb.astype(int) - target).max(axis=2) <= tol
        if under_buffer:  # the same colour seen through the buffer
            blended = target * (1 - buffer_alpha) + buffer_rgb * buffer_alpha
            mask |= np.abs(rgb.astype(int) - blended).max(axis=2) <= tol
        return mask

    masks = {name: near(colour) for name, (colour, _) in CONTEXT_STYLE.items()}
    masks["segment"] = near(SEGMENT_COLOUR, 30, under_buffer=False)
    masks["white"] = rgb.min(axis=2) >= 250
    return masks


def check_maps(pdf, segments_gpkg) -> None:
    """Every map non-blank, with context around its segment (pixels of the rendered pages)."""
    import pypdfium2 as pdfium

    from geofidelity_plugin.qgis_side.atlas_template import COVER_ITEMS, SEGMENT_ITEMS
    from geofidelity_plugin.core.atlas.data import layer_names

    assert {"context_roads", "context_buildings"} <= layer_names(segments_gpkg)
    doc = pdfium.PdfDocument(str(pdf))
    for index in range(len(doc)):
        items = COVER_ITEMS if index == 0 else SEGMENT_ITEMS
        _, x, y, w, h, *_ = items["map"]
        image = np.asarray(doc[index].render(scale=SCALE).to_pil().convert("RGB"))
        box = [round(v * MM_TO_PT * SCALE) for v in (x, y, x + w, y + h)]
        inner = image[box[1] + 4:box[3] - 4, box[0] + 4:box[2] - 4]  # inside the frame line
        masks = _classes(inner)
        area = inner.shape[0] * inner.shape[1]
        context = masks["context_roads"] | masks["context_buildings"] | masks["context_green"] | masks["context_water"]
        assert masks["white"].mean() < 0.9, f"page {index + 1}: the map is blank"
        assert masks["context_buildings"].sum() > 0.02 * area and masks["context_roads"].sum() > 0.002 * area, index
        if index:  # the segment is drawn, and context surrounds it: in a ring around it, and on both sides
            from scipy.ndimage import binary_dilation

            segment = masks["segment"]
            assert segment.sum() > 200, f"page {index + 1}: the segment is not drawn"
            ring = binary_dilation(segment, iterations=100) & ~binary_dilation(segment, iterations=8)
            assert context[ring].mean() > 0.05, (index, context[ring].mean())  # 0.11–0.63 on the demo extract
            rows, cols = inner.shape[0] // 2, inner.shape[1] // 2
            halves = {"top": context[:rows].mean(), "bottom": context[rows:].mean(),
                      "left": context[:, :cols].mean(), "right": context[:, cols:].mean()}
            assert min(halves["top"], halves["bottom"]) > 0.02 or min(halves["left"], halves["right"]) > 0.02, \
                (index, halves)
            assert context.sum() > 5 * segment.sum(), index


def test_every_map_is_drawn_with_context_around_its_segment(atlas_pdf, atlas_inputs):
    check_maps(atlas_pdf, atlas_inputs / "segments.gpkg")


def test_the_pages_show_rejected_references_and_the_manifest(atlas_pdf, atlas_inputs):
    from pypdf import PdfReader

    texts = [_text(p) for p in PdfReader(atlas_pdf).pages[1:]]
    rejected = [t for t in texts if "5 rejected by the audit" in t]
    assert len(rejected) == 1  # the demo store rejects 5 images of its last segment
    manifest = json.loads((atlas_inputs / "atlas.manifest.json").read_text())
    assert manifest["stage"] == "atlas" and manifest["outputs"]["pages"] == 11
    assert manifest["options"]["condition"] == "L1"


def test_the_cli_refuses_an_unwritable_output_or_a_missing_store_before_any_work(atlas_inputs, tmp_path):
    out = atlas_inputs
    (tmp_path / "a_file").write_text("x")
    run = _cli("atlas", "--store", out / "benchmark.sqlite", "--segments", out / "segments.gpkg",
               "--out", tmp_path / "a_file" / "atlas.pdf")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "cannot write the atlas PDF" in run.stderr and " — " in run.stderr
    run = _cli("atlas", "--store", tmp_path / "missing.sqlite", "--segments", out / "segments.gpkg",
               "--out", tmp_path / "atlas.pdf")
    assert run.returncode == 2 and "benchmark store not found" in run.stderr and " — " in run.stderr
    run = _cli("atlas", "--segments", out / "segments.gpkg", "--out", tmp_path / "atlas.pdf")
    assert run.returncode == 2 and "no benchmark store was given" in run.stderr
    run = _cli("atlas", "--store", out / "benchmark.sqlite", "--segments", out / "coverage.gpkg",
               "--out", tmp_path / "atlas.pdf")
    assert run.returncode == 2 and "not a segments GeoPackage" in run.stderr
    assert not (tmp_path / "atlas.pdf").exists()


def test_the_processing_algorithm_runs_in_qgis_on_the_main_thread(qgis_provider, atlas_inputs, tmp_path):
    """``geofidelity:atlas`` draws in QGIS itself (no backend, no torch): no-threading flag, the
    same PDF as the command, and a clear message for a segments file that is not one."""
    import processing
    from qgis.core import Qgis, QgsApplication, QgsProcessingException
    from pypdf import PdfReader

    alg = QgsApplication.processingRegistry().algorithmById("geofidelity:atlas")
    assert alg is not None and alg.flags() & Qgis.ProcessingAlgorithmFlag.NoThreading
    out = atlas_inputs
    result = processing.run("geofidelity:atlas", {
        "EVALUATION_FOLDER": str(out / "evaluation"), "SEGMENTS": str(out / "segments.gpkg"),
        "COVERAGE": str(out / "coverage.gpkg"), "MODELS": "stand-in:crops", "CONDITION": "L2",
        "OUTPUT": str(tmp_path / "atlas.pdf")})
    assert result["PAGES"] == 11 and result["OUTPUT"] == str(tmp_path / "atlas.pdf")
    text = " ".join(PdfReader(result["OUTPUT"]).pages[1].extract_text().split())
    assert "Generated panels: stand-in:crops" in text and "stand-in:blurred" not in text.split("Scores")[0]
    assert "condition shown: L2" in " ".join(PdfReader(result["OUTPUT"]).pages[0].extract_text().split())
    with pytest.raises(QgsProcessingException, match="not a segments GeoPackage .* — "):
        processing.run("geofidelity:atlas", {"STORE": str(out / "benchmark.sqlite"),
                                             "SEGMENTS": str(out / "coverage.gpkg"),
                                             "OUTPUT": str(tmp_path / "other.pdf")})


def test_the_cover_has_the_city_table_of_the_coverage_audit(atlas_pdf, atlas_inputs):
    """The cover shows the audit's city summary (``coverage_cities``) with its values."""
    import sqlite3

    from pypdf import PdfReader

    db = sqlite3.connect(atlas_inputs / "coverage.gpkg")
    db.row_factory = sqlite3.Row
    (row,) = [dict(r) for r in db.execute("SELECT * FROM coverage_cities")]
    cover = "".join(_text(PdfReader(atlas_pdf).pages[0]).split())
    values = [row["city"], str(row["segments"]), f"{row['km']:.2f}", str(row["images"]),
              f"{row['images_per_km']:.1f}", f"{100 * row['median_share_uncovered_20m']:.0f}%",
              str(row["segments_gap_over_100m"]), f"{row['date_first']}…{row['date_last']}({row['date_span_days']}days)"]
    expected = unicodedata.normalize("NFKC", "".join(values))  # as _text reads it: "…" is "..."
    assert "Citycoverage(audit)" in cover and expected in cover, (expected, cover)
    assert row["segments"] == 10 and row["images"] > 0 and row["date_first"] < row["date_last"]


def test_each_page_charts_its_capture_dates_and_names_six_photographers(atlas_pdf, atlas_inputs):
    """A dated segment's page: the chart (one more picture than the undated page) titled by the
    audit's bin unit; the undated segment: "no capture dates". Six photographers, "and 2 more",
    all eight in the manifest."""
    import sqlite3

    from pypdf import PdfReader

    first, second = sorted(_segments(atlas_inputs / "benchmark.sqlite"))[:2]
    units = dict(sqlite3.connect(atlas_inputs / "coverage.gpkg").execute(
        "SELECT segment_id, date_unit FROM coverage"))
    pages = {}
    for page in PdfReader(atlas_pdf).pages[1:]:
        text = _text(page)
        sid = next(s for s in units if s in text)
        pages[sid] = (text, len(page.images))
    undated_text, undated_images = pages.pop(second)
    assert "Capture dates: no capture dates" in undated_text and "captured " not in undated_text
    for sid, (text, images) in pages.items():
        assert f"Capture dates: images per {units[sid]}" in text and "no capture dates" not in text, sid
        assert images == undated_images + 1, sid  # the chart is a picture
        assert "% of its length > 20 m from an image" in text and "longest gap" in text
    named = f"{MAPILLARY} — photos by {', '.join(PHOTOGRAPHERS[:6])} and 2 more"
    assert named in pages[first][0]
    assert all("photos by" not in text for sid, (text, _) in pages.items() if sid != first)
    manifest = json.loads((atlas_inputs / "atlas.manifest.json").read_text())
    assert manifest["outputs"]["photographers"] == {first: PHOTOGRAPHERS}


def test_the_cover_indexes_the_pages_and_its_map_names_streets_with_their_pages(atlas_pdf, atlas_inputs):
    """The cover lists page · street in the order of the pages, and its map labels each street
    with its page; each page's map labels its own segment with its Δhard (issue 25)."""
    from pypdf import PdfReader

    segments = _segments(atlas_inputs / "benchmark.sqlite")
    reader = PdfReader(atlas_pdf)
    cover = _text(reader.pages[0])
    assert "Index (page · street)" in cover
    for number, page in enumerate(reader.pages[1:], start=2):
        text = _text(page)
        sid = next(s for s in segments if s in text)
        street = segments[sid][1]
        flat = "".join(cover.split())  # pypdf may split a word of the mono index
        assert f"{number}{street}(Helsinki)".replace(" ", "") in flat, (number, street)  # the index entry
        # the segment's own label on its page map (a label along a line: pypdf splits its words)
        import re

        assert re.search(r"Δhard[+−-]\d\.\d{3}\(", "".join(text.split())), number
    assert cover.count("· p.") >= len(segments) // 2  # street labels with their page (some may not fit)


def test_the_page_map_numbers_the_reference_images_as_their_thumbnails(qgis_app):
    """The label expression of the image points, evaluated by QGIS: the page's own images get
    their thumbnail number; another segment's images and the locator map get none."""
    from qgis.core import QgsExpression, QgsExpressionContext, QgsExpressionContextScope, QgsFeature, QgsVectorLayer

    from geofidelity_plugin.qgis_side.atlas_labels import POINT_LABEL, SEGMENT_LABEL

    fields = QgsVectorLayer("None?field=segment_id:string&field=image_id:string&field=street_name:string", "f",
                            "memory").fields()
    atlas_feature = QgsFeature(fields)
    atlas_feature.setAttributes(["seg-a", None, "Aleksanterinkatu"])

    def evaluate(expression, attributes, map_id="map", on_page=True):
        feature = QgsFeature(fields)
        feature.setAttributes(attributes)
        context = QgsExpressionContext()
        scope = QgsExpressionContextScope()
        scope.setVariable("geofidelity_numbers", json.dumps({"111": "1", "222": "2"}))
        scope.setVariable("geofidelity_pages", json.dumps({"seg-a": 2, "seg-b": 3}))
        scope.setVariable("geofidelity_score", "Δhard +0.050 (m1)")
        scope.setVariable("map_id", map_id)
        if on_page:
            scope.setVariable("atlas_feature", atlas_feature)
        context.appendScope(scope)
        context.setFeature(feature)
        exp = QgsExpression(expression)
        assert not exp.hasParserError(), exp.parserErrorString()
        value = exp.evaluate(context)
        assert not exp.hasEvalError(), exp.evalErrorString()
        return value

    assert evaluate(POINT_LABEL, ["seg-a", "222", None]) == "2"
    assert evaluate(POINT_LABEL, ["seg-b", "222", None]) is None or evaluate(POINT_LABEL, ["seg-b", "222", None]) == ""
    assert not evaluate(POINT_LABEL, ["seg-a", "111", None], map_id="locator")
    assert evaluate(SEGMENT_LABEL, ["seg-a", None, "Aleksanterinkatu"]) == \
        "Aleksanterinkatu\nΔhard +0.050 (m1)"
    assert evaluate(SEGMENT_LABEL, ["seg-b", None, "Mikonkatu"]) == "Mikonkatu · p. 3"
    assert evaluate(SEGMENT_LABEL, ["seg-b", None, "Mikonkatu"], on_page=False) == "Mikonkatu · p. 3"  # the cover
    assert not evaluate(SEGMENT_LABEL, ["seg-a", None, "Aleksanterinkatu"], map_id="locator")


def test_the_north_arrow_stands_beside_the_map_and_each_page_has_a_locator():
    from geofidelity_plugin.qgis_side.atlas_template import COVER_ITEMS, SEGMENT_ITEMS

    for items in (COVER_ITEMS, SEGMENT_ITEMS):
        _, mx, my, mw, mh, *_ = items["map"]
        _, nx, ny, nw, nh, *_ = items["north_arrow"]
        overlaps = nx < mx + mw and mx < nx + nw and ny < my + mh and my < ny + nh
        assert not overlaps
    assert SEGMENT_ITEMS["locator"][0] == "locator"
