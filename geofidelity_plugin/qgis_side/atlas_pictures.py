"""The pictures of an atlas page, drawn with Qt (QImage and QPainter) inside QGIS: the thumbnail
strips — each image captioned, a reference image the manual audit rejected (method §2) framed in
red and labelled "rejected", a missing or unreadable file a grey tile saying so — the row of the
generated strips, one per model under its title, and the capture-date chart of the coverage audit
(method §2: one bar per bin of the audit, empty bins kept as empty slots so that a gap in time reads
as a gap). One PNG each, written atomically into the atlas's working folder; the layout places them
as pictures.

Qt draws them so that the QGIS side needs nothing QGIS does not ship (no PIL, no numpy:
docs/architecture.md § Rooms). A ``QGuiApplication`` must exist (QGIS's own, or the one the
``atlas`` command starts). What is drawn — the bins, the titles — comes from ``core.atlas``.
"""
from __future__ import annotations

import math
from pathlib import Path

from geofidelity_plugin.core.atlas.dates import (AXIS_RGB, BAR_RGB, BOTTOM, FONT_PX, MAX_BAR, SIDE, SIZE, TEXT_RGB,
                                                 TOP, histogram_of)
from geofidelity_plugin.core.atomic import atomic_path
from geofidelity_plugin.core.errors import OutputError

REJECTED_RGB = (200, 30, 30)
MISSING_RGB = (210, 210, 210)
CAPTION_RGB = (40, 40, 40)
TITLE_RGB = (20, 20, 20)
BORDER = 6
CAPTION = 22
STRIP_GAP = 8
ROW_GAP = 30
ROW_TITLE = 26
#: the font of every atlas picture, as in the layouts
FONT_FAMILY = "DejaVu Sans"


def _font(pixels: int):
    from qgis.PyQt.QtGui import QFont

    font = QFont(FONT_FAMILY)
    font.setPixelSize(pixels)
    return font


def _colour(rgb):
    from qgis.PyQt.QtGui import QColor

    return QColor(*rgb)


def _canvas(width: int, height: int, rgb=(255, 255, 255)):
    from qgis.PyQt.QtGui import QImage

    image = QImage(max(1, width), max(1, height), QImage.Format.Format_RGB32)
    image.fill(_colour(rgb))
    return image


def _painter(image):
    from qgis.PyQt.QtGui import QPainter

    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    return painter


def _text(painter, x: float, top: float, text: str, rgb, pixels: int) -> None:
    """``text`` with its top-left corner at (x, top)."""
    from qgis.PyQt.QtCore import QPointF
    from qgis.PyQt.QtGui import QFontMetricsF

    font = _font(pixels)
    painter.setFont(font)
    painter.setPen(_colour(rgb))
    painter.drawText(QPointF(x, top + QFontMetricsF(font).ascent()), text)


def _save(image, out_path: Path) -> Path:
    with atomic_path(out_path, suffix=".png") as tmp:
        if not image.save(str(tmp), "PNG"):
            raise OutputError(f"could not write the atlas picture {out_path} — check that its folder is writable "
                              "and the disk is not full")
    return out_path


def _tile(thumb, height: int):
    """One captioned thumbnail, 4:3, framed in red when the audit rejected it."""
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtGui import QImage

    width = int(height * 4 / 3)
    photo = QImage(str(thumb.path))
    if photo.isNull():  # missing, unreadable or not an image: a grey tile that says so
        photo = _canvas(width, height, MISSING_RGB)
        p = _painter(photo)
        _text(p, 8, height // 2 - 8, "image missing", (90, 90, 90), 14)
        p.end()
    elif photo.width() > width or photo.height() > height:  # shrink only, keeping the aspect ratio
        photo = photo.scaled(width, height, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    tile = _canvas(width + 2 * BORDER, height + 2 * BORDER + CAPTION)
    p = _painter(tile)
    if thumb.rejected:
        p.fillRect(0, 0, width + 2 * BORDER, height + 2 * BORDER, _colour(REJECTED_RGB))
    p.drawImage(BORDER + (width - photo.width()) // 2, BORDER + (height - photo.height()) // 2, photo)
    caption = f"{thumb.label} rejected" if thumb.rejected else thumb.label
    _text(p, BORDER, height + 2 * BORDER + 2, caption[:28], REJECTED_RGB if thumb.rejected else CAPTION_RGB, 15)
    p.end()
    return tile


def _side_by_side(images: list, gap: int):
    row = _canvas(sum(i.width() for i in images) + gap * (len(images) - 1), max(i.height() for i in images))
    p = _painter(row)
    x = 0
    for image in images:
        p.drawImage(x, 0, image)
        x += image.width() + gap
    p.end()
    return row


def compose_strip(thumbs: list, out_path: str | Path, height: int = 150, max_items: int = 8) -> Path | None:
    """Write ``thumbs`` (at most ``max_items``) side by side as a PNG; ``None`` when there are none."""
    thumbs = list(thumbs)[:max_items]
    if not thumbs:
        return None
    return _save(_side_by_side([_tile(t, height) for t in thumbs], STRIP_GAP), Path(out_path))


def segment_strips(page, folder: str | Path) -> dict[str, Path | None]:
    """The reference strip (``"references"``) and one strip per model of a page, in ``folder``."""
    folder = Path(folder)
    safe = strips_key(page)
    out = {"references": compose_strip(page.references, folder / f"{safe}_references.png")}
    for n, (model, thumbs) in enumerate(page.generated.items()):
        out[model] = compose_strip(thumbs, folder / f"{safe}_generated_{n}.png", max_items=4)
    return out


def compose_row(strips: list[tuple[str, Path]], out_path: str | Path) -> Path | None:
    """Strips side by side, each under its title (one per model); ``None`` when there are none."""
    from qgis.PyQt.QtGui import QImage

    if not strips:
        return None
    images = []
    for title, path in strips:
        strip = QImage(str(path))
        if strip.isNull():
            raise OutputError(f"the atlas strip {path} cannot be read back — check the atlas's working folder")
        tile = _canvas(strip.width(), strip.height() + ROW_TITLE)
        p = _painter(tile)
        p.drawImage(0, ROW_TITLE, strip)
        _text(p, 4, 2, title, TITLE_RGB, 18)
        p.end()
        images.append(tile)
    return _save(_side_by_side(images, ROW_GAP), Path(out_path))


def draw_histogram(counts: dict[str, int], out_path: str | Path, size: tuple[int, int] = SIZE) -> Path | None:
    """Draw ``counts`` (ordered bins → images) as bars, each with its count above it; the bin
    labels under them (every k-th when they would overlap). ``None`` (nothing written) when no bin
    has an image."""
    from qgis.PyQt.QtCore import QPointF
    from qgis.PyQt.QtGui import QFontMetricsF

    if not counts or not any(counts.values()):
        return None
    width, height = size
    font = _font(FONT_PX)
    metrics = QFontMetricsF(font)
    image = _canvas(width, height)
    p = _painter(image)
    p.setFont(font)
    labels, values = list(counts), list(counts.values())
    plot_w, plot_h = width - 2 * SIDE, height - TOP - BOTTOM
    slot, peak = plot_w / len(values), max(values)
    bar = max(2, min(MAX_BAR, round(slot * 0.7)))
    base = TOP + plot_h
    widest = max(metrics.horizontalAdvance(t) for t in labels) + 10
    step = max(1, math.ceil(widest / max(slot, 1.0)))
    p.setPen(_colour(TEXT_RGB))
    for i, (label, n) in enumerate(zip(labels, values)):
        centre = SIDE + slot * (i + 0.5)
        x0 = round(centre - bar / 2)
        h = round(plot_h * n / peak)
        if h:
            p.fillRect(x0, base - h, bar, h, _colour(BAR_RGB))
        if n and slot >= 18:  # the count, centred over its bar, its baseline 3 px above it
            p.drawText(QPointF(centre - metrics.horizontalAdvance(str(n)) / 2, base - h - 3), str(n))
        if i % step == 0:  # the bin, centred under its slot, its top 6 px below the axis
            p.drawText(QPointF(centre - metrics.horizontalAdvance(label) / 2, base + 6 + metrics.ascent()), label)
    p.fillRect(SIDE, base, width - 2 * SIDE, 2, _colour(AXIS_RGB))  # the axis, 2 px, under the bars
    p.end()
    return _save(image, Path(out_path))


def segment_dates_chart(page, folder: str | Path) -> Path | None:
    """The page's chart in ``folder``; ``None`` for a segment without dated images."""
    if not page.coverage:
        return None
    _unit, counts = histogram_of(page.coverage, page.dates)
    return draw_histogram(counts, Path(folder) / f"{strips_key(page)}_dates.png")


def strips_key(page) -> str:
    """The segment id made safe for a file name."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in page.segment_id)
