"""What the toolbox shows of each algorithm besides its parameters: one numbering scheme, search
tags, an icon, and a Help page (resources/help/<name>.html, written by scripts/make_help.py from
the algorithms themselves) that the Help button opens."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def algorithms(qgis_provider):
    return qgis_provider.algorithms()


def _path_of(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(url2pathname(parsed.path))


def test_every_algorithm_has_a_help_page_that_exists(algorithms):
    assert len(algorithms) == 15  # 14 algorithms and the pipeline model
    for alg in algorithms:
        page = _path_of(alg.helpUrl())
        assert page == REPO / "resources" / "help" / f"{alg.name()}.html" and page.is_file(), alg.name()
        text = page.read_text(encoding="utf-8")
        assert alg.displayName() in text and 'href="glossary.html"' in text
        for param in alg.parameterDefinitions():  # every parameter is explained on its page
            assert f"<code>{param.name()}</code>" in text, (alg.name(), param.name())
    method = (REPO / "resources" / "help" / "../../docs/method.md").resolve()
    assert method == REPO / "docs" / "method.md" and method.is_file()


def test_one_numbering_scheme_tags_and_an_icon(algorithms):
    groups = {}
    for alg in algorithms:
        number = re.match(r"^(\d) · ", alg.group()).group(1)
        assert re.match(rf"^{number}[a-z]? · \S", alg.displayName()), (alg.group(), alg.displayName())
        groups.setdefault(alg.groupId(), set()).add(alg.group())
        tags = alg.tags()
        assert "street" in tags and len(tags) > 6, alg.name()
        assert not alg.icon().isNull(), alg.name()
    assert all(len(names) == 1 for names in groups.values())
    numbered = sorted(alg.displayName().split(" · ")[0] for alg in algorithms)
    assert len(numbered) == len(set(numbered)), numbered  # no two entries share a number
    by_name = {alg.name(): alg for alg in algorithms}
    assert {"osm", "openstreetmap"} <= set(by_name["select_segments"].tags())
    assert by_name["build_galleries"].group() == by_name["evaluate"].group()


def test_the_pipeline_model_is_in_the_toolbox_and_validates(algorithms):
    from qgis.core import QgsApplication

    model = QgsApplication.processingRegistry().algorithmById("geofidelity:pipeline")
    assert model is not None and model.id() in {a.id() for a in algorithms}
    ok, issues = model.create().validate()
    assert ok and issues == []
    assert {c.algorithmId() for c in model.childAlgorithms().values()} == {
        f"geofidelity:{name}" for name in ("select_segments", "fetch_mapillary", "curate_panels", "coverage_audit",
                                           "build_galleries", "evaluate", "report")}


def test_the_committed_help_pages_are_what_the_script_writes(tmp_path):
    done = subprocess.run(["/usr/bin/python3", str(REPO / "scripts" / "make_help.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=REPO,
                          env={"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stdout + done.stderr
    written = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.html")}
    committed = {p.name: p.read_text(encoding="utf-8") for p in (REPO / "resources" / "help").glob("*.html")}
    assert sorted(written) == sorted(committed)
    stale = [name for name in written if written[name] != committed[name]]
    assert stale == [], f"run `python3 scripts/make_help.py` and commit resources/help ({stale})"
