"""The HTML report (method §6–§8) of an evaluation folder written by the real engine on a
small store: figures that exist and are PNGs, the stand-in banner, the paper-style tables, a
self-contained page, and a render in headless Chromium with no console error."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from eval_fixtures import TableEmbedder, make_store
from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.evaluation.evaluate import EvaluationOptions, evaluate_store, evaluation_manifest
from geofidelity_plugin.core.evaluation.outputs import write_outputs
from geofidelity_plugin.core.report import figures
from geofidelity_plugin.core.report.html import write_report

STAND_IN = "STAND-IN data: planted test embeddings, not <real> panels & not a result"
CHROMIUM = Path("/usr/bin/chromium")
FIGURES = ("margins", "deltas", "city_maps", "clip", "anchors")
INTERVAL = re.compile(r"^-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]$")
VOID = {"meta", "link", "img", "br", "hr", "input", "source", "col", "area", "base", "wbr"}


class Page(HTMLParser):
    """Tags, attributes, table cells and text of a page; records unbalanced tags."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.tags, self.cells, self.classes = [], [], [], [], {}
        self.doctype = None
        self._cell, self._class_text = None, []
        self.feed(text)
        self.close()

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in ("td", "th"):
            self._cell = []
        for cls in (attrs.get("class") or "").split():
            self._class_text.append((cls, len(self.stack), []))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None
        for cls, depth, parts in [c for c in self._class_text if c[1] == len(self.stack)]:
            self.classes.setdefault(cls, []).append("".join(parts))
            self._class_text.remove((cls, depth, parts))

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        for _, _, parts in self._class_text:
            parts.append(data)


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory):
    """A real evaluation folder: one generated image fails, one segment has no reference panel."""
    root = tmp_path_factory.mktemp("report")
    store, vectors = make_store(root)
    victim = store.segments()[-1]["segment_id"]
    with store.transaction():
        store.db.execute("DELETE FROM reference_images WHERE segment_id = ?", (victim,))
    broken = sorted(p for p in vectors if "/gen/m2/L1/" in p)[0]
    options = EvaluationOptions(n_bootstrap=200)
    result = evaluate_store(store, TableEmbedder(vectors, failed_paths={broken: "planted decode failure"}), options)
    manifest = evaluation_manifest(result, options, store, [{"id": "table-embedder", "label": "Table embedder"}],
                                   ["test"])
    out = root / "evaluation"
    write_outputs(out, result, store.segments(), manifest, "m1", "L1", stand_in_note=STAND_IN)
    store.close()
    return {"dir": out, "result": result, "victim": victim, "broken": broken}


@pytest.fixture(scope="module")
def report(evaluation):
    path = write_report(evaluation["dir"])
    return path, Page(path.read_text(encoding="utf-8"))


def test_every_figure_is_a_png_inside_the_page_and_beside_it(report):
    """The page is one file to hand on (its figures are PNG data in it); the same PNGs are beside it."""
    import base64
    import io

    path, page = report
    sources = [a["src"] for tag, a in page.tags if tag == "img"]
    beside = {p.read_bytes(): p.stem for p in (path.parent / "report_figures").glob("*.png")}
    assert len(sources) == len(FIGURES)
    shown = []
    for src in sources:
        assert src.startswith("data:image/png;base64,"), src[:60]
        data = base64.b64decode(src.split(",", 1)[1])
        assert data in beside, "an inlined figure that is not the one written beside the page"
        shown.append(beside[data])
        png = io.BytesIO(data)
        with Image.open(png) as im:
            assert im.format == "PNG"
            im.verify()
        png.seek(0)
        with Image.open(png) as im:
            assert im.width > 100 and im.height > 100
            pixels = np.asarray(im.convert("L"), dtype=float)
            assert pixels.std() > 5, f"{shown[-1]} looks blank"
    assert sorted(shown) == sorted(FIGURES)


def test_stand_in_banner_quotes_the_note_escaped(report):
    path, page = report
    text = path.read_text(encoding="utf-8")
    assert page.classes.get("banner") and STAND_IN in page.classes["banner"][0]
    assert "<real>" not in text  # the note is escaped, not markup
    assert text.index('class="banner"') < text.index("<h2>Run</h2>")


def test_tables_show_models_anchors_and_intervals(report, evaluation):
    _, page = report
    cells = page.cells
    for name in ("m1", "m2", "mean of models", "anchor:held_out_real", "anchor:random_same_country",
                 "anchor:random_global", "L1 − L0", "L1 − C_WRONG_STREET", "C_WRONG_STREET"):
        assert name in cells, name
    table9 = {r["model"]: r for r in evaluation["result"].tables["by_model_L1"]}
    m1 = table9["m1"]
    expected = f"{m1['cos_sim']:.3f} [{m1['cos_sim_low']:.3f}, {m1['cos_sim_high']:.3f}]"
    row = cells.index("m1")
    assert expected in cells[row:row + 4]
    assert sum(bool(INTERVAL.match(c)) for c in cells) >= 40


def test_header_and_lists(report, evaluation):
    path, _ = report
    text = unescape(path.read_text(encoding="utf-8"))
    result = evaluation["result"]
    assert "Table embedder" in text and f"{result.gamma:.6g}" in text
    assert f"Panels scored</dt><dd>{len(result.rows)} — " in text
    assert f"Skipped</dt><dd>{len(result.skipped)} panels" in text and len(result.skipped) >= 2
    assert "Failed images</dt><dd>1</dd>" in text
    assert evaluation["broken"] in text and "planted decode failure" in text
    assert evaluation["victim"] in text and "empty reference panel" in text


def test_self_contained_valid_page(report, evaluation):
    path, page = report
    assert page.doctype and page.doctype.lower() == "doctype html"
    assert not page.errors and not page.stack, (page.errors, page.stack)
    html_attrs = [a for tag, a in page.tags if tag == "html"]
    assert html_attrs == [{"lang": "en"}]
    assert any(tag == "meta" and a.get("charset") == "utf-8" for tag, a in page.tags)
    assert not any(tag in ("script", "iframe", "object", "embed") for tag, _ in page.tags)
    for tag, attrs in page.tags:
        for key in ("src", "href"):
            value = attrs.get(key)
            if value is not None:
                assert value.startswith("data:") or not re.match(r"^([a-z]+:|//|/)", value), (tag, value)
        assert not (tag == "link" and attrs.get("rel") == "stylesheet")
    text = path.read_text(encoding="utf-8")
    assert "@import" not in text and "url(" not in text
    pre = re.search(r"<details><summary>Full run manifest[^<]*</summary><pre>(.*?)</pre></details>", text, re.S)
    assert pre, "the manifest block is missing"
    shown = json.loads(unescape(pre.group(1)))
    assert shown == json.loads((evaluation["dir"] / "evaluation.manifest.json").read_text())


def test_same_data_same_bytes(evaluation, tmp_path):
    first = write_report(evaluation["dir"], tmp_path / "a" / "report.html")
    second = write_report(evaluation["dir"], tmp_path / "b" / "report.html")
    assert first.read_bytes() == second.read_bytes()
    for name in FIGURES:
        one = (first.parent / "report_figures" / f"{name}.png").read_bytes()
        assert one == (second.parent / "report_figures" / f"{name}.png").read_bytes(), name


def test_no_pyplot_and_no_global_matplotlib_state(evaluation, tmp_path):
    code = ("import sys, matplotlib\n"
            "before = dict(matplotlib.rcParams)\n"
            "from geofidelity_plugin.core.report.html import write_report\n"
            f"write_report({str(evaluation['dir'])!r}, {str(tmp_path / 'r.html')!r})\n"
            "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot was imported'\n"
            "assert dict(matplotlib.rcParams) == before, 'rcParams changed'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[3])
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_report_elsewhere_links_back(evaluation, tmp_path):
    out = write_report(evaluation["dir"], tmp_path / "elsewhere" / "run.html", title="My <run>")
    page = Page(out.read_text(encoding="utf-8"))
    links = [a["href"] for tag, a in page.tags if tag == "a"]
    assert links and all((out.parent / h).is_file() for h in links)
    assert "My &lt;run&gt;" in out.read_text(encoding="utf-8")


def test_report_algorithm_runs_in_the_backend(qgis_provider, evaluation, tmp_path):
    """The report is written by ``report`` in a child process; its path, title and warnings (a
    missing map layer skips only the map) come back to Processing."""
    import os

    import processing
    from qgis.core import QgsProcessingFeedback
    from geofidelity_plugin.qgis_side import backend_runner as backend

    class Warnings(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.warnings = []

        def pushWarning(self, warning):  # noqa: N802
            self.warnings.append(warning)

    folder = tmp_path / "nomap"
    shutil.copytree(evaluation["dir"], folder, ignore=shutil.ignore_patterns("report*", "evaluation.gpkg"))
    feedback = Warnings()
    result = processing.run("geofidelity:report", {"EVALUATION_FOLDER": str(folder), "TITLE": "Run <7>",
                                                   "OUTPUT": str(tmp_path / "out" / "run.html")}, feedback=feedback)
    assert result["OUTPUT"] == result["REPORT_HTML"] == str(tmp_path / "out" / "run.html")
    assert backend.LAST_RUN["command"] == "report" and backend.LAST_RUN["pid"] != os.getpid()
    assert "Run &lt;7&gt;" in (tmp_path / "out" / "run.html").read_text(encoding="utf-8")
    assert (tmp_path / "out" / "report_figures" / "margins.png").is_file()
    assert feedback.warnings == ["evaluation.gpkg is missing, the map figure is skipped — run evaluate again"]


def test_skipped_figure_gets_a_note_and_no_stale_png(evaluation, tmp_path):
    folder = tmp_path / "noclip"
    shutil.copytree(evaluation["dir"], folder, ignore=shutil.ignore_patterns("report*"))
    write_report(folder)
    assert (folder / "report_figures" / "clip.png").is_file()
    lines = (folder / "per_panel_scores.csv").read_text().splitlines()
    col = lines[0].split(",").index("clip_score")
    blank = [",".join("" if i == col else v for i, v in enumerate(line.split(","))) for line in lines[1:]]
    (folder / "per_panel_scores.csv").write_text("\n".join([lines[0], *blank]) + "\n")
    (folder / "table_clip_check.csv").write_text("(no rows)\n")
    text = write_report(folder).read_text()
    assert not (folder / "report_figures" / "clip.png").exists()
    assert "Figure skipped: no CLIP scores" in text and "clip.png" not in text


def test_figures_skip_when_nothing_to_draw(tmp_path):
    for draw in (lambda p: figures.margin_distributions([], p), lambda p: figures.paired_deltas([], p),
                 lambda p: figures.city_maps([], p), lambda p: figures.clip_vs_retrieval([], p),
                 lambda p: figures.anchors_beside_models([], p)):
        with pytest.raises(figures.FigureSkipped):
            draw(tmp_path / "x.png")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("make", [lambda p: p, lambda p: p / "missing"])
def test_empty_or_missing_folder_is_an_input_error(tmp_path, make):
    with pytest.raises(InputError) as err:
        write_report(make(tmp_path))
    message = str(err.value)
    assert "evaluate" in message and str(make(tmp_path)) in message
    if make(tmp_path).exists():
        assert "evaluation.manifest.json" in message and "per_panel_scores.csv" in message


# ------------------------------------------------------------------ headless Chromium
def _chromium(html: Path, work: Path) -> tuple[list[str], Path]:
    """Render ``html`` headless; the page's console lines from stderr and the screenshot."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing — run `make test` (its setup installs Debian's chromium)")
    shot = work / "shot.png"
    cmd = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={work / 'profile'}", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", f"--screenshot={shot}", "--window-size=1280,2000", html.resolve().as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180, cwd=work)
    assert proc.returncode == 0, proc.stderr[-3000:]
    console = [line for line in proc.stderr.splitlines() if re.search(r"console|uncaught", line, re.I)]
    return console, shot


def test_console_check_catches_a_page_error(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>x</title></head>'
                    '<body><p>x</p><script>console.error("planted"); notDefined();</script></body></html>')
    console, _ = _chromium(page, tmp_path)
    assert any("planted" in line for line in console) and any("Uncaught" in line for line in console)


def test_chromium_renders_the_report_without_console_errors(report, tmp_path):
    path, _ = report
    console, shot = _chromium(path, tmp_path)
    assert console == []
    with Image.open(shot) as im:
        pixels = np.asarray(im.convert("RGB"), dtype=int)
    assert pixels.shape[:2] == (2000, 1280) and pixels.var() > 0
    top = pixels[:500]
    banner = (np.abs(top - np.array([0xFF, 0xF1, 0xC2])).sum(axis=2) < 12).sum()
    assert banner > 20_000, "the stand-in banner is not visible at the top of the page"


def test_table_headers_use_the_readable_score_names(report):
    """The headers say Δhard, top-1, CosSim — the legend's and the inspector's words — and keep
    the field name in their tooltip; no header is a raw field name (issue 25)."""
    import re

    path, _ = report
    text = unescape(path.read_text(encoding="utf-8"))
    heads = re.findall(r"<th[^>]*title=\"([^\"]*)\"[^>]*>([^<]*)</th>", text)
    shown = {label for _, label in heads}
    assert {"Δhard", "top-1", "CosSim", "top-1, chance-adjusted", "MMD²"} <= shown
    assert not shown & {"margin_hard", "chance_adjusted_top1", "cos_sim", "top1", "mmd2"}
    assert any("(margin_hard)" in title for title, label in heads if label == "Δhard")
