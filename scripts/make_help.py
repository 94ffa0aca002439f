"""Write the Help pages the algorithms' Help buttons open: ``resources/help/<algorithm>.html`` —
read from the algorithms themselves (their name, group, help text, and every parameter's
description, help and default, and every output) — and ``resources/help/glossary.html`` and
``index.html`` from ``docs/glossary.md``. Pages are plain HTML with no script, in the plugin zip.

Run: ``python3 scripts/make_help.py [FOLDER]`` (QGIS's Python; default ``resources/help``).
``tests/processing/test_help_pages.py`` fails when the committed pages are not what this writes.
"""
from __future__ import annotations

import html
import os
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from geofidelity_plugin.qgis_side.feature_models import SHARED_DEFAULT  # noqa: E402  (machine-dependent defaults)

STYLE = ("body{font-family:sans-serif;max-width:52em;margin:1.5em auto;padding:0 1em;line-height:1.45;color:#222}"
         "table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3em .5em;"
         "text-align:left;vertical-align:top}th{background:#f3f3f3}code{background:#f3f3f3;padding:0 .2em}"
         ".muted{color:#666}")
#: where the method document is from a help page, in a clone and in the plugin zip alike
METHOD = "../../docs/method.md"


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
            f"<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


def _inline(text: str) -> str:
    """Markdown's inline marks this project's glossary uses: **bold**, `code`."""
    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)


def markdown_to_html(text: str) -> str:
    """Headings, paragraphs and bullet lists (a bullet's continuation lines indented)."""
    out, para, item, in_list = [], [], [], False

    def flush():
        nonlocal para, item, in_list
        if item:
            out.append(f"<li>{_inline(' '.join(item))}</li>")
            item = []
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para = []

    for line in text.splitlines():
        stripped = line.strip()
        if line.startswith("#"):
            flush()
            if in_list:
                out.append("</ul>")
                in_list = False
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{_inline(line.lstrip('#').strip())}</h{level}>")
        elif stripped.startswith("- "):
            flush()
            if not in_list:
                out.append("<ul>")
                in_list = True
            item = [stripped[2:]]
        elif not stripped:
            flush()
            if in_list:
                out.append("</ul>")
                in_list = False
        elif item:
            item.append(stripped)
        else:
            para.append(stripped)
    flush()
    if in_list:
        out.append("</ul>")
    return "\n".join(out)


def _default(param) -> str:
    metadata = param.metadata() or {}
    if SHARED_DEFAULT in metadata:  # a default that depends on the machine: the one all share, said so
        shared = metadata[SHARED_DEFAULT]
        return f"{shared} (or the first model present on your machine)" if shared else \
            "the first model present on your machine"
    value = param.defaultValue()
    if value is None or value == "":
        return ""
    options = getattr(param, "options", None)
    if callable(options) and isinstance(value, int) and 0 <= value < len(options()):
        return str(options()[value])
    return str(value)


def algorithm_page(alg) -> str:
    from qgis.core import Qgis

    optional, advanced = Qgis.ProcessingParameterFlag.Optional, Qgis.ProcessingParameterFlag.Advanced
    rows = []
    for param in alg.parameterDefinitions():
        notes = [n for n, flag in (("optional", optional), ("advanced", advanced)) if param.flags() & flag]
        default = _default(param)
        rows.append("<tr><td><strong>{}</strong><br><code>{}</code></td><td>{}{}</td><td>{}</td></tr>".format(
            html.escape(param.description()), html.escape(param.name()), html.escape(param.help() or ""),
            f' <span class="muted">({", ".join(notes)})</span>' if notes else "", html.escape(default)))
    outputs = "".join(f"<tr><td><strong>{html.escape(o.description())}</strong><br><code>{html.escape(o.name())}"
                      "</code></td></tr>" for o in alg.outputDefinitions())
    helptext = "".join(f"<p>{html.escape(p.strip())}</p>" for p in alg.shortHelpString().split("\n\n") if p.strip())
    body = (f"<p class=\"muted\">GeoFidelity › {html.escape(alg.group())} · <code>geofidelity:{alg.name()}</code></p>\n"
            f"<h1>{html.escape(alg.displayName())}</h1>\n{helptext}\n"
            "<h2>Parameters</h2>\n<table><tr><th>Parameter</th><th>What it is</th><th>Default</th></tr>\n"
            + "\n".join(rows) + "</table>\n"
            "<h2>Outputs</h2>\n<table>" + outputs + "</table>\n"
            '<p>The words of the scores: <a href="glossary.html">glossary</a>. The method, section by section '
            f'("method §N" above): <a href="{METHOD}">docs/method.md</a>. All algorithms: '
            '<a href="index.html">index</a>.</p>')
    return _page(f"GeoFidelity — {alg.displayName()}", body)


def index_page(algorithms) -> str:
    items = "\n".join(f'<li><a href="{a.name()}.html">{html.escape(a.displayName())}</a> '
                      f'<span class="muted">({html.escape(a.group())})</span></li>'
                      for a in sorted(algorithms, key=lambda a: a.displayName()))
    return _page("GeoFidelity — algorithms", "<h1>GeoFidelity algorithms</h1>\n<ul>\n" + items + "\n</ul>\n"
                 '<p><a href="glossary.html">Glossary</a> · '
                 f'<a href="{METHOD}">the method (docs/method.md)</a></p>')


def pages() -> dict[str, str]:
    """``{file name: HTML}`` of every page."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from geofidelity_plugin.qgis_side.qgis_env import register_provider, start_qgis

    start_qgis()
    provider = register_provider()
    algorithms = provider.algorithms()
    out = {f"{a.name()}.html": algorithm_page(a) for a in algorithms}
    glossary = (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    out["glossary.html"] = _page("GeoFidelity — glossary", markdown_to_html(glossary)
                                 + f'\n<p><a href="index.html">All algorithms</a> · <a href="{METHOD}">the method</a></p>')
    out["index.html"] = index_page(algorithms)
    return out


def main(folder: str | None = None) -> int:
    target = Path(folder) if folder else REPO / "resources" / "help"
    target.mkdir(parents=True, exist_ok=True)
    written = pages()
    for name, text in sorted(written.items()):
        (target / name).write_text(text, encoding="utf-8")
    for stale in set(p.name for p in target.glob("*.html")) - set(written):
        (target / stale).unlink()
    print(f"{len(written)} help pages in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
